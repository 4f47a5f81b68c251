"""diagnose on 20 real users' logs (pasted text, Paddle 1.x-3.x): the labelled root cause for >= 18."""

import json

import pytest

from conftest import CORPUS
from paddle_doctor.diagnose import diagnose_paths

pytestmark = pytest.mark.skipif(not (CORPUS / "labels.jsonl").exists(), reason="shared corpus not present")


def _labels():
    return [json.loads(line) for line in (CORPUS / "labels.jsonl").read_text().splitlines() if line.strip()]


def test_corpus_score_at_least_18_of_20():
    rows, hits = [], 0
    for label in _labels():
        d = diagnose_paths([str(CORPUS / f"{label['id']}.log")])
        got = d.root_cause.cause if d.root_cause else None
        hits += got == label["root_cause"]
        rows.append(f"{'ok ' if got == label['root_cause'] else 'MISS'} {label['id']}: "
                    f"want {label['root_cause']}, got {got}")
    print("\n".join(rows))
    print(f"corpus score: {hits}/{len(rows)}")
    assert len(rows) == 20
    assert hits >= 18, "\n".join(rows)


@pytest.mark.parametrize("label", _labels() if (CORPUS / "labels.jsonl").exists() else [],
                         ids=lambda lab: lab["id"])
def test_corpus_json_contract(label, run_cli):
    proc = run_cli("diagnose", "--format", "json", CORPUS / f"{label['id']}.log")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["verdict"] in ("failure", "no_failure_found")
    assert data["files_read"] == 1
    rc = data["root_cause"]
    assert rc is not None
    assert set(rc) >= {"category", "rank", "title", "evidence", "fix", "confidence"}
    assert rc["confidence"] in ("high", "medium", "low")
    for ev in rc["evidence"]:
        assert set(ev) >= {"file", "line", "text"} and ev["line"] >= 1
    assert b"\x1b[" not in proc.stdout
