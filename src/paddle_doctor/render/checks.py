"""Plain-text tables of check Findings (``smoke``'s checks, ``triage``'s variations).

Each row is one Finding: its ``outcome`` (PASS/FAIL, SKIP for a variation that need not run), its
name, its one-line message. Styles as in ``render.text`` (coloured only on a terminal, by ``text.echo``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..findings import Finding, Outcome
from .text import Line

NAME_WIDTH = 20


def check_table(findings: Iterable[Finding], name_of=lambda f: f.code.split(".", 1)[-1]) -> list[Line]:
    lines = []
    for f in findings:
        outcome = f.outcome or outcome_of_facts(f)
        ok, skipped = outcome is Outcome.PASS, outcome is Outcome.SKIP
        name = name_of(f)
        text = f.message.split(": ", 1)[-1] if f.message.startswith(name + ":") else f.message
        cause = "" if ok or skipped else f"  [{f.cause}]"
        word = "SKIP" if skipped else "PASS" if ok else "FAIL"
        lines.append(Line(f"  {word}  {name:<{NAME_WIDTH}} {_clip(text)}{cause}",
                          "dim" if skipped else "ok" if ok else "verdict"))
    return lines


def outcome_of_facts(f: Finding) -> Outcome:
    """A check Finding written before ``outcome`` existed: its ``passed`` / ``skipped`` facts."""
    return Outcome.SKIP if f.fact("skipped") else Outcome.PASS if f.fact("passed") else Outcome.FAIL


def _clip(text: str, width: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"
