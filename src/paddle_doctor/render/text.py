"""Plain-text rendering of a diagnosis: the verdict first, and again as the last line (people tail
logs). Each line carries a style name; ``echo`` colours it only when stdout is a terminal."""

from __future__ import annotations

import sys
import textwrap
from typing import NamedTuple

from ..findings import Diagnosis, Finding, RankRow
from ..rankset import rank_ranges
from ..term import quoted_width

WIDTH = 100


class Line(NamedTuple):
    text: str
    style: str = ""


# -- untrusted text made inert: the one place every text renderer passes it through ---------------
# Log lines, file names, error-record fields, tensor names and cached findings come from files that
# anyone may have written. Raw, an ESC starts a control sequence (colours, a cursor move that
# overwrites the verdict, an OSC that sets the window title or writes the clipboard), a CR returns
# to the start of the line, and a newline in a file name forges a line of the report (a second
# ``VERDICT``). Each such character is shown escaped instead (``\x1b``, ``\r``, ``\n``, ``\u202e``):
# C0 controls but the tab, DEL, C1 controls (``\x9b`` is a CSI on some terminals), the Unicode line
# and paragraph separators, and the bidirectional overrides that reorder what is shown.

_NAMED = {"\n": "\\n", "\r": "\\r"}
_CODES = [*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0)]
_UNICODE = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE = {c: _NAMED.get(chr(c), f"\\x{c:02x}") for c in _CODES} | {c: f"\\u{c:04x}" for c in _UNICODE}


def inert(text: object) -> str:
    """``text`` as one line with every control character shown escaped."""
    return str(text).translate(_TABLE)


def inert_lines(text: str) -> str:
    """Each line of ``text`` made inert, its own line breaks kept (for a renderer's whole output
    whose fields were made inert already, or that holds no untrusted line breaks)."""
    return "\n".join(inert(line) for line in text.split("\n"))


STYLES = {"verdict": "bold red", "ok": "bold green", "head": "bold", "dim": "dim", "warn": "yellow"}


def render_diagnosis(d: Diagnosis) -> list[Line]:
    verdict = _verdict_line(d)
    lines = [verdict]
    rc = d.root_cause
    if rc is not None:
        lines += _root_cause_block(d)
    lines += _ranks_block(d.rows, _rank_of(rc))
    if rc is not None and rc.fact("confirm"):
        lines.append(Line("CONFIRM", "head"))
        lines += [Line("  " + part) for part in _wrap(rc.fact("confirm"))]
    if rc is not None:
        lines.append(Line("FIX", "head"))
        lines += [Line("  " + part) for part in _wrap(rc.fix)]
        lines.append(Line(f"  more: paddle-doctor explain {rc.cause}", "dim"))
    for note in d.notes:
        lines += [Line(part, "warn") for part in _wrap("NOTE  " + note, indent="      ")]
    lines.append(Line(_read_summary(d), "dim"))
    lines += [Line(f"  skipped {s}", "warn") for s in d.skipped]
    lines.append(verdict)
    return lines


def verdict_line(d: Diagnosis) -> str:
    """The verdict as the text report's first and last line say it (the HTML page uses it too)."""
    return _verdict_line(d).text


def _verdict_line(d: Diagnosis) -> Line:
    rc = d.root_cause
    if rc is None:
        if d.verdict == "failure":
            return Line("VERDICT  the run failed, but no root cause was found in the given logs", "verdict")
        return Line("VERDICT  no failure found in the given logs", "ok")
    rank = _rank_of(rc)
    where = f"rank {rank}" if rank is not None else "the process"
    confidence = rc.confidence.value
    if rc.cause == "unknown":
        return Line(f"VERDICT  failure; {rc.message} ({confidence} confidence)", "verdict")
    lead = rc.message if rc.message.startswith(("rank ", "ranks ")) else f"{where} failed first: {rc.message}"
    if rc.code == "warning_names_cause" and confidence == "low":
        # only a warning, no error after it: the text does not say anything failed (a healthy run prints such warnings)
        lead = f"no error in the text; a warning names a cause: {rc.message}"
    return Line(f"VERDICT  {lead} [{rc.cause}, {confidence} confidence]", "verdict")


def _root_cause_block(d: Diagnosis) -> list[Line]:
    rc = d.root_cause
    lines = [Line("ROOT CAUSE", "head"), Line(f"  cause      {rc.cause}: {rc.message}")]
    if rc.fact("culprit"):
        from ..diagnose.culprit import culprit_line

        lines.append(Line(f"  culprit    {culprit_line(rc.fact('culprit'))}"))
    for i, ev in enumerate(rc.evidence):
        label = "evidence" if i == 0 else ""
        lines.append(Line(f"  {label:<10} {ev.path}:{ev.line}"))
        lines.append(Line(f"  {'':<10}   {_clip(ev.text, quoted_width())}", "dim"))
    lines.append(Line(f"  confidence {rc.confidence.value}: {rc.why}"))
    if rc.fact("time_source"):
        lines.append(Line(f"  time from  {rc.fact('time_source')}", "dim"))
    if rc.alternatives:
        lines.append(Line("ALSO POSSIBLE", "head"))
        for alt in rc.alternatives:
            lines.append(Line(f"  {alt.cause} ({alt.confidence.value}): {_clip(alt.why, 120)}"))
            if alt.confirm:
                lines.append(Line(f"      tell apart: {_clip(alt.confirm, 110)}", "dim"))
    return lines


def _rank_of(f: Finding | None) -> int | None:
    return f.ranks[0] if f is not None and f.ranks else None


def _ranks_block(rows: tuple[RankRow, ...], root_rank: int | None) -> list[Line]:
    """The other ranks, grouped: ranks with the same status, exit code and reason share one line
    ("ranks 0-776, 778-1023"), so a job of 1024 ranks still gives a short report."""
    groups: dict[tuple, list[int]] = {}
    for r in rows:
        if r.rank == root_rank:
            continue
        why = r.why or (r.first_error or "")
        key = (r.status.value, r.exit_code, _clip(why, 70))
        groups.setdefault(key, []).append(r.rank)
    if not groups:
        return []
    lines = [Line("OTHER RANKS", "head")]
    for (status, exit_code, why), members in groups.items():
        code = f"exit {exit_code}" if exit_code is not None else "exit ?"
        label = f"rank {members[0]:<3}" if len(members) == 1 else f"ranks {rank_ranges(members)}"
        if len(members) == 1:
            lines.append(Line(f"  {label} {status:<8} {code:<8} {why}"))
        else:
            lines.append(Line(f"  {_clip(label, 90)} ({len(members)}): {status}, {code}, {why}"))
    return lines


def _read_summary(d: Diagnosis) -> str:
    launcher = f", launcher: {d.launcher}" if d.launcher else ""
    return f"read {d.files_read} file(s), {len(d.ranks)} rank(s){launcher}"


def _wrap(text: str, indent: str = "  ") -> list[str]:
    out: list[str] = []
    for para in text.splitlines() or [""]:
        out += textwrap.wrap(para, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return out


def _clip(text: str, width: int | None = 160) -> str:
    text = " ".join(text.split())
    return text if width is None or len(text) <= width else text[: width - 1] + "…"


VERDICT_PREFIXES = ("VERDICT", "SMOKE PASSED", "SMOKE FAILED")


def echo(lines: list[Line], stream=None) -> None:
    """Write ``lines``, each one line whatever it holds: a Line's text carries log lines, file
    names and record fields that anyone may have written, made inert here (render/inert.py) for
    every renderer that returns Lines (diagnose, ckpt, smoke, triage). Coloured where
    ``term.use_color`` says so (--color, NO_COLOR, FORCE_COLOR, a terminal); with --quiet, only the
    verdict line, once."""
    from .. import term

    stream = stream or sys.stdout
    if term.quiet():
        lines = [line for line in lines if line.text.startswith(VERDICT_PREFIXES) and _first_time(line.text)]
    if not term.use_color(stream):
        stream.write("".join(inert(line.text) + "\n" for line in lines))
        return
    from rich.console import Console  # only when colouring: keeps plain runs fast
    from rich.text import Text

    console = Console(file=stream, highlight=False, soft_wrap=True, force_terminal=True, no_color=False)
    for line in lines:
        console.print(Text(inert(line.text), style=STYLES.get(line.style, "")))


_SAID: set[str] = set()


def _first_time(text: str) -> bool:
    """A verdict is printed first and last; quiet says it once."""
    if text in _SAID:
        return False
    _SAID.add(text)
    return True
