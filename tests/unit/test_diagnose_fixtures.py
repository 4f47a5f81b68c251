"""diagnose on recorded outputs of the real failure lab (cases/; regenerate with `python cases/record.py`).

The integration tests run the same cases live; these keep the reasoning fast to iterate on.
"""

import json
import re
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "cases"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir()) if FIXTURES.is_dir() else []
# Real runs of a case whose messages differed from its usual recording (tests/fixtures/variants/README.md)
VARIANTS = sorted(p for p in (REPO / "tests" / "fixtures" / "variants").iterdir() if p.is_dir())


def _expected(case_dir: Path) -> dict:
    """The case's expectation; a variant may override it (``expected.json`` beside its logs, with
    ``why``: what its text does not show that the case's usual run does)."""
    case = case_dir.name.split("@", 1)[0]
    want = json.loads((REPO / "cases" / case / "expected.json").read_text())
    override = case_dir / "expected.json"
    if override.is_file():
        changes = json.loads(override.read_text())
        assert changes.pop("why", ""), f"{override}: an override says why the variant's answer differs"
        want.update(changes)
    return want


@pytest.mark.parametrize("case_dir", CASES + VARIANTS, ids=lambda p: p.name)
def test_recorded_case_names_cause_and_rank(case_dir):
    want = _expected(case_dir)
    d = diagnose_paths([str(case_dir)])
    assert d.verdict == "failure"
    assert d.root_cause is not None
    assert (d.root_cause.cause, _rank(d.root_cause)) == (want["cause"], want["rank"])
    assert d.root_cause.evidence, "a verdict always quotes its evidence"
    if want["rank"] is not None:
        statuses = {_rank(r): r.status for r in d.ranks}
        assert statuses[want["rank"]] == "root_cause"
        assert all(s != "root_cause" for r, s in statuses.items() if r != want["rank"])


@pytest.mark.parametrize("case_dir", [c for c in CASES if (c / "log").is_dir() and (c / "terminal.out").is_file()],
                         ids=lambda p: p.name)
def test_terminal_alone_names_cause_or_the_file_that_holds_it(case_dir):
    """With only what the launcher printed, diagnose either finds the cause there (it was shown:
    right cause and rank), or says ``unknown`` and names the workerlog that settles it. A wrong
    cause fails, whatever its confidence."""
    want = _expected(case_dir)
    d = diagnose_paths([str(case_dir / "terminal.out")])
    rc = d.root_cause
    assert rc is not None and d.verdict == "failure"
    if rc.cause == "unknown":
        named = {int(n) for note in d.notes for n in re.findall(r"workerlog\.(\d+)", note)}
        assert named and all((case_dir / "log" / f"workerlog.{n}").is_file() for n in named), d.notes
        # The launcher streams rank 0's log to the terminal: for any other culprit, its own log is the one.
        assert want["rank"] in named or (want["rank"] == 0 and named), (named, d.notes)
    else:
        assert (rc.cause, _rank(rc)) == (want["cause"], want["rank"]), (rc.cause, rc.ranks, rc.confidence)


def test_two_nodes_map_local_logs_to_global_ranks():
    case = FIXTURES / "18_two_nodes_exception_rank1"
    d = diagnose_paths([str(case / "node0" / "log"), str(case / "node1" / "log")])
    assert _rank(d.root_cause) == 1
    assert {_rank(r) for r in d.ranks} == {0, 1}
    assert next(r for r in d.ranks if _rank(r) == 1).fact("log").endswith("node1/log/workerlog.0")


def test_silent_death_quotes_where_the_log_stops():
    d = diagnose_paths([str(FIXTURES / "08_rank1_sigkill_oom")])
    last = d.root_cause.evidence[-1]
    assert last.path.endswith("workerlog.1") and "(the log ends here)" in last.text
    assert "dmesg" in d.root_cause.fact("confirm")


def _rank(finding):
    return finding.ranks[0] if finding.ranks else None


# -- the survivor ended before its own symptom reached its log --------------------------------

# Cases whose culprit leaves its own evidence (an error, a crash dump, the launcher's exit code).
# Not 09: fleetrun's ABORT names both ranks and neither keeps a line of its own once the survivor's
# is gone, so no fact says which died first and `unknown` is the honest answer there.
_CULPRIT_SPEAKS = ["01_exception_rank1", "02_exception_rank1_fleet", "06_dataloader_worker_exception",
                   "08_rank1_sigkill_oom", "10_segfault_rank1", "11_host_out_of_memory",
                   "16_checkpoint_missing_rank1", "18_two_nodes_exception_rank1"]


def _without_gloo_tracebacks(text: str) -> str:
    """The text less each Python traceback that ends in gloo's pair.cc error."""
    kept, block = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("Traceback (most recent call last):") or block:
            block.append(line)
            if re.match(r"\S", line) and not line.startswith("Traceback"):
                kept.extend([] if "pair.cc" in line else block)
                block = []
            continue
        kept.append(line)
    return "".join(kept + block)


@pytest.mark.parametrize("case", _CULPRIT_SPEAKS)
def test_the_culprit_is_named_when_the_survivor_shows_no_gloo_error(case, tmp_path):
    """Under load the launcher can end the surviving rank before gloo's error reaches its log (CI saw
    it once on 10_segfault_rank1): the recording less the survivor's gloo tracebacks must still name
    the culprit, from its own lines alone."""
    import shutil

    work = tmp_path / case
    shutil.copytree(FIXTURES / case, work)
    for path in (p for p in work.rglob("*") if p.is_file() and not p.name.endswith(".json")):
        path.write_text(_without_gloo_tracebacks(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert not any("pair.cc" in p.read_text(encoding="utf-8") for p in work.rglob("*") if p.is_file())
    want = _expected(FIXTURES / case)
    rc = diagnose_paths([str(work)]).root_cause
    assert rc is not None and (rc.cause, _rank(rc)) == (want["cause"], want["rank"])
