"""diagnose on real users' logs (pasted text from public GitHub issues, Paddle 0.x-3.x): every shared
set (real-dev, real-dev2, real-dev3) and every batch gathered for issue 29 (tests/fixtures/gathered/).
Prints top-1, top-3, failing rank and calibration (right/total per confidence diagnose claims) per
set, and top-1/top-3 per label confidence; the goal is >= 90 % top-1 on each.
No log is special-cased: signatures come from the emitting code (see signatures.SOURCES)."""

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import CORPORA, CORPUS
from paddle_doctor.diagnose import diagnose_paths

GATHERED = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "gathered").glob("batch*"))
SETS = [c for c in dict.fromkeys([*CORPORA, CORPUS.parent / "real-dev3", *GATHERED]) if (c / "labels.jsonl").exists()]
pytestmark = pytest.mark.skipif(not SETS, reason="shared corpus not present")
GOAL = 0.90


def _labels(corpus):
    return [json.loads(line) for line in (corpus / "labels.jsonl").read_text().splitlines() if line.strip()]


def _score(corpus):
    rows, by_conf, by_ours = [], defaultdict(lambda: [0, 0, 0]), defaultdict(lambda: [0, 0])
    for label in _labels(corpus):
        rc = diagnose_paths([str(corpus / f"{label['id']}.log")]).root_cause
        got = rc.cause if rc else None
        top3 = [got] + [a.cause for a in rc.alternatives] if rc else []
        hit1, hit3 = got == label["root_cause"], label["root_cause"] in top3
        stat = by_conf[label.get("confidence", "?")]
        stat[0], stat[1], stat[2] = stat[0] + 1, stat[1] + hit1, stat[2] + hit3
        if rc is not None:
            ours = by_ours[rc.confidence.value]
            ours[0], ours[1] = ours[0] + 1, ours[1] + hit1
        rank = rc.ranks[0] if rc is not None and rc.ranks else None
        rows.append((label["id"], label["root_cause"], got, hit1, hit3, rc.confidence.value if rc else None,
                     label.get("failing_rank"), rank))
    return rows, by_conf, by_ours


@pytest.mark.parametrize("corpus", SETS, ids=lambda c: c.name)
def test_corpus_top1_at_least_90_percent(corpus):
    rows, by_conf, by_ours = _score(corpus)
    n = len(rows)
    top1, top3 = sum(r[3] for r in rows), sum(r[4] for r in rows)
    for id_, want, got, hit1, hit3, conf, *_ in rows:
        if not hit1:
            print(f"MISS {corpus.name}/{id_}: want {want}, got {got} ({conf}){' (in top 3)' if hit3 else ''}")
    print(f"{corpus.name}: top-1 {top1}/{n} ({top1 / n:.0%}), top-3 {top3}/{n} ({top3 / n:.0%})")
    for conf, (k, h1, h3) in sorted(by_conf.items()):
        print(f"  label confidence {conf:<13} top-1 {h1}/{k}, top-3 {h3}/{k}")
    named = [(want, got) for *_, want, got in rows if want is not None]
    print(f"  failing rank {sum(w == g for w, g in named)}/{len(named)} (of the labels that name one)")
    print("  calibration: " + ", ".join(f"{conf} right {h1}/{k}" for conf, (k, h1) in sorted(by_ours.items())))
    assert n == len(list(corpus.glob("*.log")))
    assert top1 / n >= GOAL, f"{corpus.name}: top-1 {top1}/{n}"


# What "carries an error" means (issue 9): a traceback, an Error / EnforceNotMet / FatalError /
# ABORT!!! line, an NCCL WARN line, or (issue 29) a shell's report of a segmentation fault.
# Independent of diagnose's own signatures.
CARRIES_ERROR = re.compile(r"Traceback \(most recent call last\)|[Ee]rror|ERROR|EnforceNotMet|ABORT!!!|"
                           r"\bWARN\b|Segmentation fault|exit code -\d+|\(0x[Cc]0000\w+\)|"  # a crash's exit status
                           r"[Ii]llegal (?:hardware )?instruction|\bSIG(?:ILL|SEGV|ABRT|BUS)\b")  # a signal's report


def carries_error(path) -> bool:
    return bool(CARRIES_ERROR.search(path.read_text(encoding="utf-8", errors="replace")))


@pytest.mark.parametrize("corpus", SETS, ids=lambda c: c.name)
def test_never_silent_on_a_log_with_an_error(corpus):
    """Each shared log that carries an error gets a verdict (at worst unknown), never null."""
    logs = [corpus / f"{label['id']}.log" for label in _labels(corpus)]
    with_error = [p for p in logs if carries_error(p)]
    assert len(with_error) >= 0.75 * len(logs)  # the test must not go vacuous
    silent = [p.name for p in with_error if diagnose_paths([str(p)]).root_cause is None]
    assert silent == []


def test_high_confidence_is_mostly_right():
    """Confidence means something: over the shared sets, a high verdict is right at least 95 % of the time."""
    total = right = 0
    for corpus in SETS:
        _, _, by_ours = _score(corpus)
        k, h = by_ours.get("high", [0, 0])
        total, right = total + k, right + h
    print(f"high-confidence verdicts right: {right}/{total}")
    assert total and right / total >= 0.95


@pytest.mark.parametrize("label", _labels(SETS[0]) if SETS else [], ids=lambda lab: lab["id"])
def test_corpus_json_contract(label, run_cli):
    proc = run_cli("diagnose", "--format", "json", SETS[0] / f"{label['id']}.log")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["verdict"] in ("failure", "no_failure_found")
    assert data["files_read"] == 1
    rc = data["root_cause"]
    assert rc is not None
    assert set(rc) >= {"category", "rank", "title", "evidence", "fix", "confidence", "alternatives"}
    assert rc["confidence"] in ("high", "medium", "low")
    for ev in rc["evidence"]:
        assert set(ev) >= {"file", "line", "text"} and ev["line"] >= 1
    assert b"\x1b[" not in proc.stdout


FIXTURE_LOGS = sorted(p for p in (Path(__file__).resolve().parents[1] / "fixtures").rglob("*")
                      if p.is_file() and (p.name.startswith("workerlog.") or p.suffix in (".out", ".log")))


@pytest.mark.parametrize("path", FIXTURE_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_never_silent_on_a_fixture_log_with_an_error(path):
    """Each recorded log (a worker log, a terminal, read alone) that carries an error gets a verdict."""
    if not carries_error(path):
        pytest.skip("no error in this log")
    assert diagnose_paths([str(path)]).root_cause is not None
