"""The rank that left the common collectives first (facts/divergence.py), on case 22's real logs
(rank 1 breaks out of its eval loop and waits in all_gather; rank 0 waits in the loop's all_reduce;
both time out) and on rearrangements of them: the rank named follows the logs' content."""

import shutil
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

REPO = Path(__file__).resolve().parents[2]
CASE = REPO / "tests" / "fixtures" / "cases" / "22_rank_breaks_early" / "log"
LEFT, STAYED = CASE / "workerlog.1", CASE / "workerlog.0"


def _dir(tmp_path: Path, logs: list[Path]) -> Path:
    out = tmp_path / "log"
    out.mkdir()
    for rank, log in enumerate(logs):
        shutil.copy(log, out / f"workerlog.{rank}")
    return out


def _verdict(path: Path):
    rc = diagnose_paths([str(path)]).root_cause
    return rc.cause, rc.ranks[0] if rc.ranks else None, rc.confidence.value, rc


def test_case_22_names_the_rank_that_broke_out():
    cause, rank, confidence, rc = _verdict(CASE.parent)
    assert (cause, rank, confidence) == ("rank_divergent_collective", 1, "high")
    texts = [e.text for e in rc.evidence]
    assert any("stopping the evaluation early" in t for t in texts), "its last progress line is quoted"
    assert any("all_gather" in t for t in texts) and any("all_reduce" in t for t in texts)


def test_the_other_outcome_of_the_race_names_the_same_rank():
    """A third run of case 22 (tests/fixtures/divergence/22_rank1_timeout_first, from the live test):
    rank 1's all_gather timed out first and it exited, so rank 0 saw pair.cc:584 (peer closed) in
    its all_reduce instead of its own timeout. Not a silent death: rank 1 printed its timeout."""
    d = diagnose_paths([str(REPO / "tests" / "fixtures" / "divergence" / "22_rank1_timeout_first")])
    assert (d.root_cause.cause, d.root_cause.ranks) == ("rank_divergent_collective", (1,))


def test_only_closed_connections_prove_no_divergence(tmp_path):
    """Without any real timeout, two different call sites are a peer that ended (case 04's shape)."""
    race = REPO / "tests" / "fixtures" / "divergence" / "22_rank1_timeout_first" / "log"
    closed = tmp_path / "w1"
    closed.write_text((race / "workerlog.1").read_text().replace(
        "unbound_buffer.cc:133] TIMEOUT self_rank = -1 pair_rank = none peer_str = none",
        "pair.cc:584] TIMEOUT self_rank = 1 pair_rank = 0 peer_str = [127.0.0.1]:47504"))
    rc = diagnose_paths([str(_dir(tmp_path, [race / "workerlog.0", closed]))]).root_cause
    assert rc.code != "rank_left_first"


def test_the_rank_follows_the_content_not_the_number(tmp_path):
    assert _verdict(_dir(tmp_path, [LEFT, STAYED]))[:2] == ("rank_divergent_collective", 0)


@pytest.mark.parametrize("order, leaver", [([STAYED, STAYED, LEFT], 2), ([LEFT, STAYED, STAYED, STAYED], 0)])
def test_more_ranks_that_stayed(tmp_path, order, leaver):
    assert _verdict(_dir(tmp_path, order))[:2] == ("rank_divergent_collective", leaver)


def test_collectives_of_one_function_body_are_only_medium(tmp_path):
    """Both wait in collectives called from the same function: a `continue` in a loop and a `break`
    look alike from here, so the verdict is not sure which rank left."""
    text = STAYED.read_text().replace("line 60, in main", "line 58, in main", 1)
    text = text.replace('  File "/tmp/run/case/eval.py", line 45, in evaluate\n', "", 1)
    assert "in evaluate" not in text and "line 58, in main" in text
    one_function = tmp_path / "w0"
    one_function.write_text(text)
    cause, rank, confidence, _ = _verdict(_dir(tmp_path, [one_function, LEFT]))
    assert (cause, rank, confidence) == ("rank_divergent_collective", 1, "medium")


def test_one_rank_waiting_alone_is_not_this_rule():
    """Case 05: only rank 0 times out (rank 1 is elsewhere, alive): rank 0 is still the one named."""
    d = diagnose_paths([str(REPO / "tests" / "fixtures" / "cases" / "05_collective_only_on_rank0")])
    assert (d.root_cause.cause, d.root_cause.ranks, d.root_cause.code) == ("rank_divergent_collective", (0,),
                                                                           "real_timeout")
