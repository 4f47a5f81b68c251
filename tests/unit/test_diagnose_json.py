"""``diagnose --format json`` keeps the contract of DESIGN section 3: its keys, and for every recorded
case (log dir and terminal output) the values recorded in ``tests/fixtures/diagnose/contract.json``.
Extra keys are allowed. Regenerate the values (after a deliberate change, reviewed in the diff) with
``python tests/unit/test_diagnose_json.py``."""

import json
import os
import sys
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.json_out import diagnosis_dict

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "cases"
GOLDEN = REPO / "tests" / "fixtures" / "diagnose" / "contract.json"

TOP_KEYS = {"verdict", "root_cause", "ranks", "files_read"}
ROOT_KEYS = {"category", "rank", "title", "evidence", "fix", "confidence", "alternatives"}
EVIDENCE_KEYS = {"file", "line", "text"}
ALT_KEYS = {"category", "confidence", "why", "confirm"}
RANK_KEYS = {"rank", "status", "exit_code", "first_error", "log"}


def _inputs() -> dict[str, str]:
    out = {}
    for case in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        out[f"{case.name}/"] = f"tests/fixtures/cases/{case.name}"
        if (case / "terminal.out").is_file():
            out[f"{case.name}/terminal.out"] = f"tests/fixtures/cases/{case.name}/terminal.out"
    return out


def _contract(data: dict) -> dict:
    """Only the contract's keys (the values that must not change)."""
    rc = data["root_cause"]
    return {
        "verdict": data["verdict"], "files_read": data["files_read"],
        "root_cause": None if rc is None else {
            **{k: rc[k] for k in ("category", "rank", "title", "fix", "confidence")},
            "evidence": [{k: e[k] for k in EVIDENCE_KEYS} for e in rc["evidence"]]},
        "ranks": [{k: r[k] for k in RANK_KEYS} for r in data["ranks"]],
    }


def _diagnose(rel: str) -> dict:
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return diagnosis_dict(diagnose_paths([rel]))
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("key", sorted(_inputs()))
def test_keys_and_values_of_the_contract(key):
    data = _diagnose(_inputs()[key])
    assert set(data) >= TOP_KEYS
    assert data["verdict"] in ("failure", "no_failure_found")
    rc = data["root_cause"]
    assert rc is not None and set(rc) >= ROOT_KEYS
    assert rc["confidence"] in ("high", "medium", "low")
    assert all(set(e) >= EVIDENCE_KEYS for e in rc["evidence"])
    assert all(set(a) >= ALT_KEYS for a in rc["alternatives"]) and len(rc["alternatives"]) <= 2
    assert all(set(r) >= RANK_KEYS and r["status"] in ("root_cause", "victim", "ok", "unknown")
               for r in data["ranks"])
    assert _contract(data) == json.loads(GOLDEN.read_text())[key]


def test_cli_json_has_no_ansi_and_parses(run_cli):
    proc = run_cli("diagnose", "--format", "json", FIXTURES / "01_exception_rank1")
    assert proc.returncode == 0 and b"\x1b[" not in proc.stdout
    assert json.loads(proc.stdout)["root_cause"]["category"] == "python_exception"


if __name__ == "__main__":
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps({k: _contract(_diagnose(v)) for k, v in _inputs().items()}, indent=1,
                                 ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN}", file=sys.stderr)
