"""The HTML page: self-contained, the root cause marked, readable at 1024 ranks; the timeline
read from real recorded logs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.rankset import rank_ranges
from paddle_doctor.render.html import ROOT_FILL, render_page, write_report
from paddle_doctor.render.lanes import timeline_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "cases"
GLOG_START = "I1201 10:00:{s:02d}.{us:06d}  1234 tcp_utils.cc:107] Retry to connect to 127.0.0.1:6170 while the server is not yet listening.\n"
PEER_CLOSED = ("Traceback (most recent call last):\n  File \"eval.py\", line 68, in evaluate\n    dist.all_reduce(hits)\n"
               "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = {r} "
               "pair_rank = {culprit} peer_str = [10.0.{a}.{b}]:60807\n")
SIGTERM_DUMP = ("\n----------------------\nError Message Summary:\n----------------------\n"
                "FatalError: `Termination signal` is detected by the operating system.\n"
                "  [TimeInfo: *** Aborted at 1796119241 (unix time) try \"date -d @1796119241\" if you are using GNU date ***]\n"
                "  [SignalInfo: *** SIGTERM (@0x4d2) received by PID 1234 (TID 0x7f3) from PID 1234 ***]\n")
CULPRIT = ("Traceback (most recent call last):\n  File \"eval.py\", line 49, in hits_at_1\n"
           "    scores = paddle.reshape(scores, [-1, 4])\nValueError: (InvalidArgument) The 'shape' attribute in "
           "ReshapeOp is invalid.\n")


def _page(paths):
    d = diagnose_paths([str(p) for p in paths])
    return d, timeline_of(d), render_page(d, timeline_of(d))


def test_real_case_page_marks_the_root_cause_lane():
    d, tl, page = _page([FIXTURES / "01_exception_rank1"])
    assert d.root_cause.cause == "python_exception" and d.root_cause.ranks == (1,)
    assert [(lane.ranks, lane.status) for lane in tl.lanes] == [((0,), "victim"), ((1,), "root_cause")]
    root = tl.lanes[1]
    assert root.start is not None and root.mark is not None and root.start <= root.mark
    assert root.last_progress == "rank 1: evaluating 18 candidates"  # the rank's own last output line
    lane = re.search(r'<g class="lane root_cause"[^>]*id="root-cause-lane"', page)
    assert lane and f'fill="{ROOT_FILL}"' in page[lane.end():lane.end() + 400]
    assert page.count('id="root-cause-lane"') == 1
    assert "ReshapeOp is invalid" in page and "<h2>Fix</h2>" in page


def test_page_is_self_contained_and_escaped(tmp_path):
    _, _, page = _page([FIXTURES / "01_exception_rank1"])
    assert not re.search(r"""(src|href)\s*=|@import|url\(|<script|<link""", page, re.I)
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page
    assert "<X" not in page  # text from the logs is escaped (X's shape ... never opens a tag)


def _thousand_rank_logs(root: Path, world=1024, culprit=517) -> Path:
    log = root / "log"
    log.mkdir(parents=True)
    for r in range(world):
        body = GLOG_START.format(s=r % 10, us=r) + f"rank {r}: evaluating 18 candidates\n"
        if r == culprit:
            body += CULPRIT
        elif r % 100 == 7:
            body += SIGTERM_DUMP
        else:
            body += f"I1201 10:00:40.{r:06d}  1234 x.cc:1] poll\n" + PEER_CLOSED.format(r=r, culprit=culprit, a=r // 256, b=r % 256)
        (log / f"workerlog.{r}").write_text(body)
    return log


def test_1024_ranks_give_a_small_readable_page(tmp_path):
    log = _thousand_rank_logs(tmp_path)
    d, tl, page = _page([log])
    assert d.root_cause.ranks == (517,) and len(d.ranks) == 1024
    assert len(tl.lanes) <= 6, [(lane.status, len(lane.ranks)) for lane in tl.lanes]
    assert tl.lanes[0].ranks == (517,) and tl.lanes[0].status == "root_cause"
    covered = sorted(r for lane in tl.lanes for r in lane.ranks)
    assert covered == list(range(1024))  # every rank is in exactly one lane
    assert len(page.encode()) < 2 * 1024 * 1024
    assert page.count('id="root-cause-lane"') == 1
    victims = max(tl.lanes[1:], key=lambda lane: len(lane.ranks))
    assert victims.status == "victim" and len(victims.ranks) >= 900  # one lane per kind of victim
    path = write_report(diagnose_paths([str(log)]), [str(log)], tmp_path / "big.html")
    assert path.stat().st_size < 2 * 1024 * 1024


def test_rank_ranges():
    assert rank_ranges([5, 0, 1, 2, 7, 8, 9, 3]) == "0-3, 5, 7-9"
    assert rank_ranges([]) == ""


def test_no_failure_page():
    from paddle_doctor.findings import Diagnosis, Finding

    d = Diagnosis("no_failure_found", None, (Finding("diagnose.rank", "unknown", "ok", ranks=(0,), status="ok"),), 1)
    page = render_page(d, timeline_of(d))
    assert "no failure found" in page and "root-cause-lane" not in page



LANE_END = re.compile(r'<g class="lane \w+" data-status="(\w+)" data-ranks="([^"]*)" data-end="([-\d.]+)" '
                      r'data-end-inferred="(yes|no)"')


def _drawn_ends(page: str) -> dict[str, tuple[str, float, bool]]:
    return {ranks: (status, float(end), inferred == "yes") for status, ranks, end, inferred in LANE_END.findall(page)}


def _assert_root_not_after_victims(d, tl, page):
    drawn = _drawn_ends(page)
    root = next(lane for lane in tl.lanes if lane.status == "root_cause")
    if rank_ranges(root.ranks) not in drawn:
        assert root.mark is None  # no time at all for it: no failure is drawn
        return
    r_status, r_end, r_inferred = drawn[rank_ranges(root.ranks)]
    assert r_status == "root_cause" and r_inferred == root.inferred
    for lane in tl.lanes:
        if lane.status != "victim" or rank_ranges(lane.ranks) not in drawn:
            continue
        _, v_end, v_inferred = drawn[rank_ranges(lane.ranks)]
        if r_end <= v_end + 1e-3:
            continue
        # drawn after a victim's end: only where a time in the logs says so
        said_by_logs = not r_inferred or (root.last_seen is not None and root.last_seen - tl.t0 >= r_end - 1e-3
                                          and not v_inferred)
        assert said_by_logs, (root, lane)


@pytest.mark.parametrize("case", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_the_root_cause_never_fails_after_a_victim_ended_unless_the_logs_say_so(case):
    d, tl, page = _page([FIXTURES / case])
    if d.root_cause is None or not d.root_cause.ranks:
        pytest.skip("no culprit rank")
    _assert_root_not_after_victims(d, tl, page)


def test_case_01_draws_rank_1_failing_before_rank_0_ended():
    """The README's example: rank 0's log stops at +0.01 s (it then waits in all_reduce), rank 1's
    at +3.0 s; rank 1's failure time is in no source, rank 0's end is the launcher's line."""
    d, tl, page = _page([FIXTURES / "01_exception_rank1"])
    drawn = _drawn_ends(page)
    assert drawn["1"][0] == "root_cause" and drawn["1"][2] is True  # inferred: no source gives it
    assert drawn["0"][0] == "victim" and drawn["0"][2] is False  # from the launcher's line
    assert drawn["1"][1] <= drawn["0"][1]
    row0 = next(r for r in d.rows if r.rank == 0)
    assert row0.end_source == "launcher" and row0.last_seen < row0.end
    assert "time not in the logs; 1st to fail, inferred" in page


def test_without_a_source_a_victims_end_is_inferred_and_never_before_the_root_cause(tmp_path):
    log = tmp_path / "log"
    shutil.copytree(FIXTURES / "01_exception_rank1" / "log", log)  # the worker logs alone, no launcher lines
    d, tl, page = _page([log])
    drawn = _drawn_ends(page)
    assert drawn["0"][2] is True and drawn["1"][2] is True
    assert drawn["1"][1] <= drawn["0"][1]
    _assert_root_not_after_victims(d, tl, page)


def _corpus_inputs() -> list[Path]:
    from conftest import CORPORA

    return sorted(p for c in CORPORA if c.is_dir() for p in c.iterdir() if p.suffix == ".log")


@pytest.mark.parametrize("log", _corpus_inputs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_logs_never_draw_the_root_cause_after_a_victims_end_unless_they_say_so(log):
    d, tl, page = _page([log])
    if d.root_cause is None or not d.root_cause.ranks:
        pytest.skip("no culprit rank")
    _assert_root_not_after_victims(d, tl, page)


def test_a_lanes_last_progress_line_is_redacted_before_it_is_cut():
    from paddle_doctor.diagnose.timeline import log_span

    secret = "hunter2-very-secret-pw"
    line = "step 3 pushing to https://bob:" + secret + "@example.com/repo " + "x" * 300
    span = log_span(b"", (line + "\n").encode(), lambda _line: None)
    assert span.last_progress is not None and secret not in span.last_progress


def test_a_logging_line_is_the_last_progress_with_its_own_time_and_glog_is_not():
    from paddle_doctor.diagnose.read.parse import _timestamp
    from paddle_doctor.diagnose.timeline import log_span

    tail = ("[2025-11-29 10:09:56,053] [    INFO] - loss: 1.69, global_step: 1449\n"
            "[2025-11-29 10:09:57,300] [    INFO] - loss: 2.45, global_step: 1452\n"
            "I1129 10:09:58.000000  1234 tcp_store.cc:300] connected\n"
            "Traceback (most recent call last):\n"
            "  File \"train.py\", line 3, in <module>\n"
            "RuntimeError: boom\n").encode()
    span = log_span(b"", tail, lambda line: _timestamp(line, 2025))
    assert span.last_progress == "[2025-11-29 10:09:57,300] [    INFO] - loss: 2.45, global_step: 1452"
    assert span.last_progress_time == _timestamp("[2025-11-29 10:09:57,300]", 2025)
    assert span.last_time == _timestamp("I1129 10:09:58.000000", 2025)
