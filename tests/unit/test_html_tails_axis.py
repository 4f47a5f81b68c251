"""The HTML page as complete as the text (issue 30): each rank's log tail in a collapsible block,
escaped, redacted and bounded; an axis broken at long idle spans, so that a 30 s gloo wait does not
hide that rank 1 left at +0.05 s (case 22)."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.html import WIDTH, render_page
from paddle_doctor.render.json_out import diagnosis_dict, dumps
from paddle_doctor.render.lanes import timeline_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "cases"
CASE_01, CASE_22 = FIXTURES / "01_exception_rank1", FIXTURES / "22_rank_breaks_early"
TAIL_BLOCK = re.compile(r'<details class=tail id="tail-rank-(\d+)"( open)?><summary>(.*?)</summary><pre>(.*?)</pre>'
                        r"</details>", re.S)


def _page(paths):
    d = diagnose_paths([str(p) for p in paths])
    return d, render_page(d, timeline_of(d))


def _tails(page: str) -> dict[int, tuple[bool, str, list[str]]]:
    return {int(rank): (bool(is_open), summary, body.split("\n")) for rank, is_open, summary, body
            in TAIL_BLOCK.findall(page)}


def test_each_rank_has_a_collapsible_tail_the_root_cause_open():
    d, page = _page([CASE_01])
    tails = _tails(page)
    assert sorted(tails) == [0, 1] and tails[1][0] and not tails[0][0]  # rank 1 is the root cause
    assert page.index('id="tail-rank-1"') < page.index('id="tail-rank-0"')
    for rank in (0, 1):
        log = (CASE_01 / "log" / f"workerlog.{rank}").read_text().rstrip("\n").split("\n")
        _, summary, body = tails[rank]
        assert f"workerlog.{rank}" in summary
        assert [html.unescape(line) for line in body] == [line.rstrip()[:200] for line in log[-len(body):]]
        assert body[-1] and len(body) == min(40, len(log))
    assert "ReshapeOp is invalid" in html.unescape("".join(tails[1][2]))


def test_a_tail_is_escaped_redacted_and_bounded(tmp_path):
    log = tmp_path / "log"
    shutil.copytree(CASE_01 / "log", log)
    secret = "hunter2-very-secret-pw"
    extra = [f"rank 1: filler line {i}" for i in range(60)]
    extra += ["<script>alert('x')</script> & <b>bold</b>", f"push to https://bob:{secret}@example.com/r",
              "y" * 500]
    with (log / "workerlog.1").open("a") as f:
        f.write("\n".join(extra) + "\n")
    d, page = _page([log])
    _, _, body = _tails(page)[1]
    assert len(body) == 40 and body[0] == "rank 1: filler line 23"
    assert "<script>" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &lt;b&gt;" in page
    assert secret not in page
    assert all(len(html.unescape(line)) <= 200 for line in body) and body[-1] == "y" * 200


def test_the_tails_stay_out_of_the_json():
    d = diagnose_paths([str(CASE_01)])
    assert all(row.tail for row in d.rows)
    ranks = json.loads(dumps(diagnosis_dict(d)))["ranks"]
    assert ranks and all("tail" not in row for row in ranks)


def _progress_x(page: str) -> dict[str, float]:
    """The x of each lane's last-progress mark, by its lane's ranks."""
    found = re.findall(r'data-ranks="([^"]*)".*?<rect x="([\d.]+)"[^>]*fill="#1565c0"><title>last progress', page)
    return {ranks: float(x) + 1.5 for ranks, x in found}


def test_case_22_a_30s_wait_does_not_hide_that_rank_1_left_at_005s():
    d, page = _page([CASE_22 / "log", CASE_22 / "terminal.out"])
    tl = timeline_of(d)
    row0, row1 = (next(r for r in d.rows if r.rank == k) for k in (0, 1))
    assert 0.03 < row1.last_progress_time - row0.last_progress_time < 0.1  # rank 1 left 50 ms in
    assert tl.t1 - tl.t0 > 30  # ... and rank 0 waited 30 s in gloo
    xs = _progress_x(page)
    assert xs["1"] - xs["0"] >= 40, xs  # drawn visibly apart (a linear axis put them 1 px apart)
    (start, end), = [(float(a), float(b)) for a, b in re.findall(r'class="axis-break" data-from="([\d.]+)" '
                                                                r'data-to="([\d.]+)"', page)]
    assert end - start > 30 and start < 0.1  # the wait is the break, drawn compressed
    assert "The axis is broken" in page and "≈31.5 s idle" in page
    labels = re.findall(r'<text x="([\d.]+)" y="14" text-anchor="(\w+)" fill="#555">\+([\d.]+) s</text>', page)
    assert "0.05" in [t for _, _, t in labels]  # read at the stretch's own scale
    x, anchor, last = labels[-1]
    assert float(last) == round(tl.t1 - tl.t0, 2) and anchor == "end" and float(x) <= WIDTH  # not clipped


def test_axis_breaks_only_where_idle_time_dwarfs_the_rest():
    from paddle_doctor.render.lanes import axis_breaks

    assert axis_breaks([0, 10, 20, 30]) == ()  # evenly spread: linear
    assert axis_breaks([0, 30]) == ()  # nothing else to show
    assert axis_breaks([0, 0.4, 0.5]) == ()  # under a second: linear
    assert axis_breaks([0, 0.1, 15, 15.1, 30.1, 30.2]) == ((0.1, 15), (15.1, 30.1))  # two waits


def test_the_broken_axis_keeps_the_order_and_its_ends():
    from paddle_doctor.render.lanes import Timeline, axis_breaks

    tl = Timeline((), 0.0, 32.2, 2, axis_breaks([0.0, 0.001, 0.048, 31.6, 32.2]))
    places = [tl.at(t) for t in (0.0, 0.001, 0.048, 10.0, 31.6, 32.0, 32.2)]
    assert places == sorted(places) and places[0] == 0 and abs(places[-1] - 1) < 1e-9
    assert places[2] - places[1] > 0.04  # 47 ms is at least 4 % of the axis, not 0.15 %
    assert places[4] - places[2] < 0.1  # the 31.5 s wait takes less than a tenth


def test_of_two_breaks_side_by_side_only_the_longer_is_labelled_on_the_axis():
    from paddle_doctor.render.html import _timeline_svg
    from paddle_doctor.render.lanes import Timeline, axis_breaks

    times = [0.0, 7.0, 7.0005, 40.0, 40.5, 41.0]  # like the 1024-rank case's event times
    svg = _timeline_svg(Timeline((), 0.0, 41.0, 0, axis_breaks(times)))
    assert svg.count('class="axis-break"') == 2
    assert re.findall(r"≈[\d.]+ s idle</text>", svg) == ["≈33.0 s idle</text>"]
    assert "<title>7.0 s with no event" in svg  # the other says it in its tooltip
