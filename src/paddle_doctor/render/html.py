"""One self-contained HTML page of a diagnosis: verdict, root cause, a timeline lane per rank,
the evidence and the fix.

Everything is inline (CSS, SVG; no script, font or image from anywhere), so the page opens from
a CI artifact or a mail attachment with no network. A pure function of a ``findings.Diagnosis``
(its rows carry the times diagnose read; :mod:`.lanes` lays them out); :func:`write_report` is
the one that touches the disk, and only to write the page.

A lane's end is drawn where a source gave it; an end no source gave is drawn hollow, at the
earliest place the inferred order allows (never before the rank was last seen, never before the
end of a rank that failed earlier), and the page says so.
"""

from __future__ import annotations

import datetime as dt
from html import escape
from pathlib import Path

from ..rankset import rank_ranges
from ..findings import Diagnosis
from .lanes import GROUP_ORDER, Lane, Timeline, timeline_of

REPORT_NAME = "paddle_doctor_report.html"  # what `run` writes beside the logs of a failed launch
ROOT_FILL = "#ffd6d0"  # the root-cause lane's background; tests look for exactly this colour
WIDTH, LABEL_W, LANE_H, AXIS_H = 1100, 230, 34, 40
TICK_GAP_PX = 58  # the least room between two axis labels
BREAK_LABEL_PX = 90  # closer to a longer break's label: its tooltip and the note above say it
TAIL_RANKS = 16  # the log tails shown: the root cause's first, then the victims' (a page, not a dump)
STATUS_COLOUR = {"root_cause": "#c62828", "victim": "#8d6e63", "ok": "#2e7d32", "unknown": "#9e9e9e"}
CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#212121;max-width:1180px}
h1{font-size:20px;margin:0 0 6px} h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #ddd}
.verdict{background:#fbe9e7;border-left:6px solid #c62828;padding:10px 14px;font-weight:600}
.verdict.ok{background:#e8f5e9;border-color:#2e7d32}
.kv{display:grid;grid-template-columns:130px 1fr;gap:2px 12px} .kv b{color:#555;font-weight:600}
pre{background:#f6f8fa;padding:10px;overflow-x:auto;white-space:pre-wrap;font:12.5px/1.4 ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;width:100%;font-size:13px} td,th{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}
tr.root td{background:#ffd6d0} .dim{color:#777} .legend span{margin-right:16px} #ranks td:nth-child(2){white-space:nowrap}
svg text{font:12px system-ui,sans-serif}
details.tail{margin:4px 0} details.tail summary{cursor:pointer} details.tail pre{max-height:420px;overflow:auto}
"""


def render_page(d: Diagnosis, timeline: Timeline | None = None, title: str = "paddle-doctor diagnosis") -> str:
    timeline = timeline if timeline is not None else timeline_of(d)
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
             f"<style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>", _verdict(d)]
    parts += [_root(d), _differential(d), _timeline_svg(timeline), _lane_table(timeline), _evidence(d), _fix(d),
              _tails(d), _footer(d)]
    return "".join(parts) + "</body></html>\n"


def write_report(d: Diagnosis, paths: list[str], dest: Path) -> Path:
    """Write the page for the diagnosis ``d`` to ``dest``."""
    from ..outfile import write_text  # atomic for a file; in place for a device, a FIFO, a symlink

    return write_text(dest, render_page(d, timeline_of(d), f"paddle-doctor: {', '.join(paths)}"))


def verdict_text(d: Diagnosis) -> str:
    """The text report's verdict line, word for word (one wording for both: a message that starts
    with the rank is not prefixed with "rank N failed first" again)."""
    from .text import verdict_line

    return verdict_line(d).removeprefix("VERDICT").strip()


def _verdict(d: Diagnosis) -> str:
    ok = "" if d.verdict == "failure" else " ok"
    return f'<div class="verdict{ok}" id=verdict>VERDICT&nbsp; {escape(verdict_text(d))}</div>'


def _root(d: Diagnosis) -> str:
    rc = d.root_cause
    if rc is None:
        return ""
    rows = [("cause", f"<code>{escape(rc.cause)}</code> {escape(_cause_title(rc.cause))}"),
            ("rank", escape(", ".join(map(str, rc.ranks)) or "unknown")),
            *([("culprit", escape(_culprit(rc.fact("culprit"))))] if rc.fact("culprit") else []),
            ("message", escape(rc.message)),
            ("confidence", f"{escape(rc.confidence.value)}: {escape(rc.why)}")]
    if rc.fact("time_source"):
        rows.append(("time from", escape(str(rc.fact("time_source")))))
    body = "".join(f"<b>{k}</b><div>{v}</div>" for k, v in rows)
    return f"<h2>Root cause</h2><div class=kv id=root-cause>{body}</div>"


def _differential(d: Diagnosis) -> str:
    """ALSO POSSIBLE (each alternative with the check that tells it apart) and CONFIRM, as the text
    report has them."""
    rc = d.root_cause
    if rc is None:
        return ""
    out = ""
    if rc.alternatives:
        items = "".join(f"<li><code>{escape(a.cause)}</code> ({escape(a.confidence.value)}): {escape(a.why)}"
                        + (f"<br><span class=dim>tell apart: {escape(a.confirm)}</span>" if a.confirm else "")
                        + "</li>" for a in rc.alternatives)
        out += f"<h2>Also possible</h2><ul id=also-possible>{items}</ul>"
    if rc.fact("confirm"):
        out += f"<h2>Confirm</h2><pre id=confirm>{escape(str(rc.fact('confirm')))}</pre>"
    return out


def _culprit(facts) -> str:
    from ..diagnose.culprit import culprit_line

    return culprit_line(facts)


def _cause_title(cause: str) -> str:
    from ..catalog import UnknownCauseError, get_cause

    try:
        return get_cause(cause).title
    except UnknownCauseError:
        return ""


# -- the timeline ---------------------------------------------------------------------------------


def _x(t: float | None, tl: Timeline) -> float | None:
    if t is None or tl.t0 is None:
        return None
    return LABEL_W + 10 + tl.at(t) * (WIDTH - LABEL_W - 30)


def _timeline_svg(tl: Timeline) -> str:
    height = AXIS_H + LANE_H * len(tl.lanes) + 8
    out = [f"<h2>Timeline</h2><p class=dim>{tl.total_ranks} rank(s) in {len(tl.lanes)} lane(s); "
           "time from the logs' timestamps, paddle-doctor's error records and the launcher's lines; "
           "a hollow end mark: no source gives that end, its place is the order diagnose inferred."
           f"{_breaks_note(tl)}</p>",
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" role=img '
           f'aria-label="timeline per rank" id=timeline>', _axis(tl)]
    for i, lane in enumerate(tl.lanes):
        out.append(_lane_svg(lane, tl, AXIS_H + i * LANE_H))
    out += _breaks_svg(tl, height)
    out.append("</svg>")
    out.append('<p class="legend dim"><span>● start</span><span style="color:#1565c0">▮ last progress</span>'
               '<span style="color:#6a1b9a">◆ last collective</span><span style="color:#c62828">✖ failure</span>'
               '<span style="color:#8d6e63">■ ended (victim)</span>'
               '<span>□ hollow, dashed: no source gives the time (the order is inferred)</span></p>')
    return "".join(out)


def _axis(tl: Timeline) -> str:
    """Ticks at each kept stretch's ends and inside it, labelled with their offset from the start at
    the stretch's own scale (a 50 ms stretch reads in hundredths); none closer than TICK_GAP_PX."""
    if tl.t0 is None:
        return f'<text x="{LABEL_W + 10}" y="16" fill="#777">no timestamps in these logs</text>'
    edges = [tl.t0, *[t for gap in tl.breaks for t in gap], tl.t1 or tl.t0]
    ends, inner = [], []
    for a, b in zip(edges[::2], edges[1::2]):
        n = max(1, int((_x(b, tl) - _x(a, tl)) // 140))
        places = _places((b - a) / n) if b > a else 2
        ends += [(a, places), (b, places)]
        inner += [(a + (b - a) * k / n, places) for k in range(1, n)]
    kept: list[tuple[float, int]] = []
    for t, places in [ends[-1], *ends[:-1], *inner]:  # the last end first: it is always labelled
        if all(abs(_x(t, tl) - _x(u, tl)) >= TICK_GAP_PX for u, _ in kept):
            kept.append((t, places))
    ticks = []
    for t, places in sorted(kept):
        x = _x(t, tl)
        anchor = "end" if x > WIDTH - 40 else "middle"  # the last label inside the picture
        ticks.append(f'<line x1="{x:.1f}" y1="18" x2="{x:.1f}" y2="22" stroke="#999"/>'
                     f'<text x="{x:.1f}" y="14" text-anchor="{anchor}" fill="#555">+{t - tl.t0:.{places}f} s</text>')
    start = dt.datetime.fromtimestamp(tl.t0).strftime("%H:%M:%S")
    return f'<text x="4" y="14" fill="#555">start {start}</text>' + "".join(ticks)


def _places(step: float) -> int:
    """Decimals enough to tell ticks ``step`` seconds apart."""
    return 0 if step >= 10 else 1 if step >= 1 else 2 if step >= 0.01 else 3


def _breaks_svg(tl: Timeline, height: int) -> list[str]:
    """Each break; the longest labelled first, a label left out where it would run into one drawn."""
    centres: list[float] = []
    for a, b in sorted(tl.breaks, key=lambda gap: gap[0] - gap[1]):
        centre = (_x(a, tl) + _x(b, tl)) / 2
        if all(abs(centre - c) >= BREAK_LABEL_PX for c in centres):
            centres.append(centre)
    return [_break_svg(a, b, tl, height, (_x(a, tl) + _x(b, tl)) / 2 in centres) for a, b in tl.breaks]


def _break_svg(a: float, b: float, tl: Timeline, height: int, labelled: bool) -> str:
    """An idle span drawn compressed: a grey band between dashed lines, its length on the axis."""
    xa, xb = _x(a, tl), _x(b, tl)
    return (f'<g class="axis-break" data-from="{a - tl.t0:.3f}" data-to="{b - tl.t0:.3f}">'
            f'<rect x="{xa:.1f}" y="{AXIS_H - 4}" width="{xb - xa:.1f}" height="{height - AXIS_H}" fill="#9e9e9e" '
            f'fill-opacity="0.15"/><line x1="{xa:.1f}" y1="{AXIS_H - 4}" x2="{xa:.1f}" y2="{height}" stroke="#757575" '
            f'stroke-dasharray="3 3"/><line x1="{xb:.1f}" y1="{AXIS_H - 4}" x2="{xb:.1f}" y2="{height}" '
            f'stroke="#757575" stroke-dasharray="3 3"/>'
            + (f'<text x="{(xa + xb) / 2:.1f}" y="{AXIS_H - 7}" text-anchor="middle" fill="#6d4c41">'
               f"≈{b - a:.1f} s idle</text>" if labelled else "")  # else its title says it
            + f"<title>{b - a:.1f} s with no event (+{a - tl.t0:.2f} s to +{b - tl.t0:.2f} s), drawn compressed"
            "</title></g>")


def _breaks_note(tl: Timeline) -> str:
    if not tl.breaks:
        return ""
    spans = ", ".join(f"{b - a:.1f} s" for a, b in tl.breaks)
    return (f" <b>The axis is broken</b>: {len(tl.breaks)} idle span(s) with no event ({escape(spans)}) are drawn "
            "compressed, between dashed lines, so that events a few milliseconds apart near the failure stay "
            "visibly apart; the axis is linear elsewhere.")


def _lane_name(lane: Lane) -> str:
    who = f"rank {lane.ranks[0]}" if not lane.is_group else f"{len(lane.ranks)} ranks {rank_ranges(lane.ranks)}"
    return f"{who}: {lane.status.replace('_', ' ')}"


def _lane_svg(lane: Lane, tl: Timeline, y: int) -> str:
    root = lane.status == "root_cause"
    colour = STATUS_COLOUR.get(lane.status, "#9e9e9e")
    attrs = (f'class="lane {escape(lane.status)}" data-status="{escape(lane.status)}" '
             f'data-ranks="{escape(rank_ranges(lane.ranks))}"' + _end_attrs(lane, tl)
             + (' id="root-cause-lane"' if root else ""))
    bg = ROOT_FILL if root else ("#fafafa" if (y // LANE_H) % 2 else "#ffffff")
    name = _lane_name(lane)
    parts = [f"<g {attrs}><title>{escape(name)}: {escape(lane.label[:300])}</title>",
             f'<rect x="0" y="{y}" width="{WIDTH}" height="{LANE_H - 2}" fill="{bg}"/>',
             f'<text x="6" y="{y + 20}" fill="{colour}" font-weight="{700 if root else 400}">'
             f'{escape(_clip(name, 34))}</text>']
    x0, x1 = _x(lane.start, tl), _x(lane.mark, tl)
    mid = y + LANE_H / 2 - 1
    if x0 is not None and x1 is not None:
        dash = ' stroke-dasharray="4 3" fill-opacity="0.12"' if lane.inferred else ' fill-opacity="0.35"'
        parts.append(f'<rect x="{x0:.1f}" y="{mid - 4:.1f}" width="{max(x1 - x0, 2):.1f}" height="8" rx="3" '
                     f'fill="{colour}" stroke="{colour}"{dash}/>')
    if x0 is not None:
        parts.append(f'<circle cx="{x0:.1f}" cy="{mid:.1f}" r="4" fill="#424242"><title>start</title></circle>')
    xp = _x(lane.last_progress_time, tl)
    if xp is not None and lane.last_progress:
        parts.append(f'<rect x="{xp - 1.5:.1f}" y="{mid - 8:.1f}" width="3" height="16" fill="#1565c0">'
                     f"<title>last progress: {escape(lane.last_progress)}</title></rect>")
    if lane.last_collective and x1 is not None:
        parts.append(f'<path d="M{x1 - 14:.1f} {mid:.1f} l5 -6 l5 6 l-5 6z" fill="#6a1b9a">'
                     f"<title>last collective: {escape(lane.last_collective)}</title></path>")
    if x1 is not None:
        parts.append(_end_mark(lane, x1, mid))
    label_x = (x1 + 10) if x1 is not None and x1 < WIDTH - 260 else LABEL_W + 10
    text = f"{lane.end_kind}: {lane.label}" if lane.end_kind and lane.label and lane.end_kind != lane.label \
        else (lane.label or lane.end_kind)
    parts.append(f'<text x="{label_x:.1f}" y="{y + 13}" fill="#424242">{escape(_clip(text, 90))}</text>')
    return "".join(parts) + "</g>"


def _end_mark(lane: Lane, x: float, mid: float) -> str:
    tip = f"<title>{escape(_end_words(lane))}</title>"
    if lane.status == "root_cause":
        stroke = 'stroke-width="2" stroke-dasharray="3 2"' if lane.inferred else 'stroke-width="3"'
        return (f'<path d="M{x - 6:.1f} {mid - 6:.1f} l12 12 m0 -12 l-12 12" stroke="#c62828" {stroke}>'
                f"{tip}</path>")
    colour = STATUS_COLOUR.get(lane.status, "#9e9e9e")
    fill = f'fill="#ffffff" stroke="{colour}" stroke-width="2"' if lane.inferred else f'fill="{colour}"'
    return f'<rect x="{x - 4:.1f}" y="{mid - 4:.1f}" width="8" height="8" {fill}>{tip}</rect>'


def _end_words(lane: Lane) -> str:
    """How the lane ended and where that time comes from (or that it is inferred)."""
    how = lane.end_kind or lane.status.replace("_", " ")
    if not lane.inferred:
        return f"ended: {how} (time from {lane.end_source})"
    order = "failed first" if lane.failure_order == 1 else "failed after the root cause"
    return f"ended: {how}; {order} (inferred: no source gives the time)"


def _end_attrs(lane: Lane, tl: Timeline) -> str:
    """The drawn end, in seconds from the start, and whether it is inferred (for tests and tools)."""
    if lane.mark is None or tl.t0 is None:
        return ""
    return f' data-end="{lane.mark - tl.t0:.3f}" data-end-inferred="{"yes" if lane.inferred else "no"}"'


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _rel(t: float | None, tl: Timeline) -> str:
    return "" if t is None or tl.t0 is None else f"+{t - tl.t0:.2f} s"


def _lane_table(tl: Timeline) -> str:
    rows = []
    for lane in tl.lanes:
        cls = ' class="root"' if lane.status == "root_cause" else ""
        log = f"<br><span class=dim>{escape(lane.log)}</span>" if lane.log else ""
        rows.append(f"<tr{cls}><td>{escape(_lane_name(lane))}{log}</td><td>{_rel(lane.start, tl)}</td>"
                    f"<td>{escape(lane.last_progress or '')}</td><td>{escape(lane.last_collective or '')}</td>"
                    f"<td>{_end_cell(lane, tl)}</td><td>{escape(_clip(lane.label, 300))}</td>"
                    f"<td>{escape(lane.why)}</td></tr>")
    head = ("<tr><th>lane</th><th>start</th><th>last progress</th><th>last collective</th><th>end</th><th>error</th>"
            "<th>why</th></tr>")
    return f"<h2>Ranks</h2><table id=ranks>{head}{''.join(rows)}</table>"


def _end_cell(lane: Lane, tl: Timeline) -> str:
    if lane.mark is None:
        return escape(lane.end_kind)
    if not lane.inferred:
        return f"{_rel(lane.mark, tl)} {escape(lane.end_kind)} <span class=dim>({escape(lane.end_source)})</span>"
    order = "1st to fail" if lane.failure_order == 1 else "after the root cause"
    return f"{escape(lane.end_kind)} <span class=dim>(time not in the logs; {order}, inferred)</span>"


def _evidence(d: Diagnosis) -> str:
    rc = d.root_cause
    if rc is None or not rc.evidence:
        return ""
    lines = "\n".join(f"{e.path}:{e.line}\n    {e.text}" for e in rc.evidence)
    return f"<h2>Evidence</h2><pre id=evidence>{escape(lines)}</pre>"


def _tails(d: Diagnosis) -> str:
    """The last lines diagnose read of each rank's log, one collapsible block per rank (no script):
    the root cause's first and open, then the victims', at most TAIL_RANKS, a log shared by several
    ranks (a runner's prefixed output) once."""
    root = set(d.root_cause.ranks) if d.root_cause else set()
    rows = sorted((r for r in d.rows if r.tail), key=lambda r: (r.rank not in root, GROUP_ORDER.get(
        r.status.value, 9), r.rank if r.rank is not None else -1))
    blocks, logs = [], set()
    for row in rows:
        if row.log in logs:
            continue
        logs.add(row.log)
        is_root = row.rank in root
        status = "root cause" if is_root else row.status.value.replace("_", " ")
        where = f" of {row.log}" if row.log else ""
        blocks.append(f'<details class=tail id="tail-rank-{row.rank}"{" open" if is_root else ""}><summary>'
                      f"rank {row.rank} ({escape(status)}): last {len(row.tail)} line(s){escape(where)}</summary>"
                      f"<pre>{escape(chr(10).join(row.tail))}</pre></details>")
        if len(blocks) == TAIL_RANKS:
            break
    if not blocks:
        return ""
    from ..diagnose.timeline import TAIL_CHARS  # the one bound, said as diagnose applies it

    more = len({r.log for r in rows}) - len(blocks)
    extra = f"<p class=dim>{more} more log(s) not shown.</p>" if more > 0 else ""
    return ("<h2>Log tails</h2><p class=dim>each rank's last lines as diagnose read them (secrets redacted, "
            f"lines cut at {TAIL_CHARS} characters)</p>{''.join(blocks)}{extra}")


def _fix(d: Diagnosis) -> str:
    rc = d.root_cause
    if rc is None or not rc.fix:
        return ""
    return (f"<h2>Fix</h2><pre id=fix>{escape(rc.fix)}</pre>"
            f"<p class=dim>more: <code>paddle-doctor explain {escape(rc.cause)}</code></p>")


def _footer(d: Diagnosis) -> str:
    notes = "".join(f"<p>NOTE {escape(n)}</p>" for n in d.notes)
    skipped = "".join(f"<li>{escape(s)}</li>" for s in d.skipped)
    launcher = f", launcher: {escape(d.launcher)}" if d.launcher else ""
    return (f"{notes}<p class=dim>read {d.files_read} file(s), {len(d.ranks)} rank(s){launcher}</p>"
            + (f"<ul class=dim>{skipped}</ul>" if skipped else "")
            + f'<div class="verdict" style="margin-top:14px">VERDICT&nbsp; {escape(verdict_text(d))}</div>')
