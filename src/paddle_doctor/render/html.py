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
from .lanes import Lane, Timeline, timeline_of

REPORT_NAME = "paddle_doctor_report.html"  # what `run` writes beside the logs of a failed launch
ROOT_FILL = "#ffd6d0"  # the root-cause lane's background; tests look for exactly this colour
WIDTH, LABEL_W, LANE_H, AXIS_H = 1100, 230, 34, 26
STATUS_COLOUR = {"root_cause": "#c62828", "victim": "#8d6e63", "ok": "#2e7d32", "unknown": "#9e9e9e"}
CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#212121;max-width:1180px}
h1{font-size:20px;margin:0 0 6px} h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #ddd}
.verdict{background:#fbe9e7;border-left:6px solid #c62828;padding:10px 14px;font-weight:600}
.verdict.ok{background:#e8f5e9;border-color:#2e7d32}
.kv{display:grid;grid-template-columns:130px 1fr;gap:2px 12px} .kv b{color:#555;font-weight:600}
pre{background:#f6f8fa;padding:10px;overflow-x:auto;white-space:pre-wrap;font:12.5px/1.4 ui-monospace,Menlo,Consolas,monospace}
table{border-collapse:collapse;width:100%;font-size:13px} td,th{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}
tr.root td{background:#ffd6d0} .dim{color:#777} .legend span{margin-right:16px}
svg text{font:12px system-ui,sans-serif}
"""


def render_page(d: Diagnosis, timeline: Timeline | None = None, title: str = "paddle-doctor diagnosis") -> str:
    timeline = timeline if timeline is not None else timeline_of(d)
    parts = [f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
             f"<style>{CSS}</style></head><body>", f"<h1>{escape(title)}</h1>", _verdict(d)]
    parts += [_root(d), _timeline_svg(timeline), _lane_table(timeline), _evidence(d), _fix(d), _footer(d)]
    return "".join(parts) + "</body></html>\n"


def write_report(d: Diagnosis, paths: list[str], dest: Path) -> Path:
    """Write the page for the diagnosis ``d`` to ``dest``."""
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_text(render_page(d, timeline_of(d), f"paddle-doctor: {', '.join(paths)}"), encoding="utf-8")
    tmp.replace(dest)
    return dest


def verdict_text(d: Diagnosis) -> str:
    rc = d.root_cause
    if rc is None:
        return ("the run failed, but no root cause was found in the given logs" if d.verdict == "failure"
                else "no failure found in the given logs")
    where = f"rank {rc.ranks[0]}" if rc.ranks else "the job"
    lead = rc.message if rc.message.startswith(("rank ", "ranks ")) else f"{where} failed first: {rc.message}"
    return f"{lead} [{rc.cause}, {rc.confidence.value} confidence]"


def _verdict(d: Diagnosis) -> str:
    ok = "" if d.verdict == "failure" else " ok"
    return f'<div class="verdict{ok}" id=verdict>VERDICT&nbsp; {escape(verdict_text(d))}</div>'


def _root(d: Diagnosis) -> str:
    rc = d.root_cause
    if rc is None:
        return ""
    rows = [("cause", f"<code>{escape(rc.cause)}</code> {escape(_cause_title(rc.cause))}"),
            ("rank", escape(", ".join(map(str, rc.ranks)) or "unknown")),
            ("message", escape(rc.message)),
            ("confidence", f"{escape(rc.confidence.value)}: {escape(rc.why)}")]
    if rc.fact("time_source"):
        rows.append(("time from", escape(str(rc.fact("time_source")))))
    body = "".join(f"<b>{k}</b><div>{v}</div>" for k, v in rows)
    return f"<h2>Root cause</h2><div class=kv id=root-cause>{body}</div>"


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
    span = max((tl.t1 or tl.t0) - tl.t0, 1e-3)
    return LABEL_W + 10 + (t - tl.t0) / span * (WIDTH - LABEL_W - 30)


def _timeline_svg(tl: Timeline) -> str:
    height = AXIS_H + LANE_H * len(tl.lanes) + 8
    out = [f"<h2>Timeline</h2><p class=dim>{tl.total_ranks} rank(s) in {len(tl.lanes)} lane(s); "
           "time from the logs' timestamps, paddle-doctor's error records and the launcher's lines; "
           "a hollow end mark: no source gives that end, its place is the order diagnose inferred.</p>",
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" role=img '
           f'aria-label="timeline per rank" id=timeline>', _axis(tl)]
    for i, lane in enumerate(tl.lanes):
        out.append(_lane_svg(lane, tl, AXIS_H + i * LANE_H))
    out.append("</svg>")
    out.append('<p class="legend dim"><span>● start</span><span style="color:#1565c0">▮ last progress</span>'
               '<span style="color:#6a1b9a">◆ last collective</span><span style="color:#c62828">✖ failure</span>'
               '<span style="color:#8d6e63">■ ended (victim)</span>'
               '<span>□ hollow, dashed: no source gives the time (the order is inferred)</span></p>')
    return "".join(out)


def _axis(tl: Timeline) -> str:
    if tl.t0 is None:
        return f'<text x="{LABEL_W + 10}" y="16" fill="#777">no timestamps in these logs</text>'
    span = (tl.t1 or tl.t0) - tl.t0
    ticks = []
    for k in range(6):
        t = tl.t0 + span * k / 5
        x = _x(t, tl)
        ticks.append(f'<line x1="{x:.1f}" y1="18" x2="{x:.1f}" y2="22" stroke="#999"/>'
                     f'<text x="{x:.1f}" y="14" text-anchor="middle" fill="#555">+{t - tl.t0:.1f} s</text>')
    start = dt.datetime.fromtimestamp(tl.t0).strftime("%H:%M:%S")
    return f'<text x="4" y="14" fill="#555">start {start}</text>' + "".join(ticks)


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
                    f"<td>{_end_cell(lane, tl)}</td><td>{escape(_clip(lane.label, 300))}</td></tr>")
    head = "<tr><th>lane</th><th>start</th><th>last progress</th><th>last collective</th><th>end</th><th>error</th></tr>"
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
