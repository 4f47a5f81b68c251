"""The HTML page: self-contained, the root cause marked, readable at 1024 ranks; the timeline
read from real recorded logs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.timeline import build_timeline
from paddle_doctor.rankset import rank_ranges
from paddle_doctor.render.html import ROOT_FILL, render_page, write_report

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
    return d, build_timeline(d), render_page(d, build_timeline(d))


def test_real_case_page_marks_the_root_cause_lane():
    d, tl, page = _page([FIXTURES / "01_exception_rank1"])
    assert d.root_cause.cause == "python_exception" and d.root_cause.ranks == (1,)
    assert [(lane.ranks, lane.status) for lane in tl.lanes] == [((0,), "victim"), ((1,), "root_cause")]
    root = tl.lanes[1]
    assert root.start is not None and root.end is not None and root.start <= root.end
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
    page = render_page(d, build_timeline(d))
    assert "no failure found" in page and "root-cause-lane" not in page

