"""``diagnose --format markdown``: the diagnosis as GitHub-flavoured Markdown, for
``$GITHUB_STEP_SUMMARY`` or an issue. Log text is quoted inertly: in a fenced block longer than any
run of backticks it holds, and in table cells with ``|``, ``<`` and line breaks neutralised."""

from __future__ import annotations

import re

from ...findings import Diagnosis, RankRow


def cell(text: object) -> str:
    """A table cell that cannot break out of its cell, start HTML, or end the table."""
    flat = " ".join(str(text).split())
    return flat.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def fenced(lines: list[str]) -> list[str]:
    body = "\n".join(lines)
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + "text", *lines, fence]


def summary(d: Diagnosis, verdict: str) -> str:
    rc = d.root_cause
    icon = ":x:" if d.verdict == "failure" else ":white_check_mark:"
    out = [f"## {icon} paddle-doctor diagnosis", "", f"**{cell(verdict)}**", ""]
    if rc is not None:
        out += ["| | |", "|---|---|", f"| cause | `{cell(rc.cause)}` |",
                f"| rank | {cell(rc.ranks[0]) if rc.ranks else 'unknown'} |",
                f"| confidence | {cell(rc.confidence.value)}: {cell(rc.why)} |", ""]
        if rc.evidence:
            out += ["### Evidence", ""]
            out += fenced([line for e in rc.evidence for line in (f"{e.path}:{e.line}", "    " + e.text.strip())])
            out.append("")
    out += _ranks(d.rows, rc.ranks[0] if rc is not None and rc.ranks else None)
    if rc is not None and rc.fix:
        out += ["### Fix", "", *fenced(rc.fix.strip().splitlines()), "",
                f"More: `paddle-doctor explain {cell(rc.cause)}`", ""]
    out += [f"> {cell(note)}" for note in d.notes] + ([""] if d.notes else [])
    out.append(f"<sub>read {d.files_read} file(s), {len(d.ranks)} rank(s)</sub>")
    return "\n".join(out) + "\n"


def _ranks(rows: tuple[RankRow, ...], root_rank: int | None) -> list[str]:
    others = [r for r in rows if r.rank != root_rank]
    if not others:
        return []
    out = ["### Other ranks", "", "| rank | status | exit | why |", "|---|---|---|---|"]
    for r in others[:64]:
        code = "?" if r.exit_code is None else r.exit_code
        out.append(f"| {r.rank} | {cell(r.status.value)} | {cell(code)} | {cell(r.why or r.first_error or '')} |")
    if len(others) > 64:
        out.append(f"| … | {len(others) - 64} more | | |")
    return out + [""]
