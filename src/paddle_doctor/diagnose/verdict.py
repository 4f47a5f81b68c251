"""Build the root-cause Finding from the events a rule chose.

Every rule of :mod:`rootcause` (and the error records) ends here, so the record looks the same
whatever decided: ``code`` names the rule or signature, ``cause`` the catalog id, ``message`` the
title, ``evidence`` the quoted lines (redacted), ``ranks`` the culprit, ``fix`` the catalog's fix;
``facts`` carries the catalog's confirm text, where the failure time came from, the notes for the
reader, and what else could explain the facts (``alternatives``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..catalog import get_cause
from ..findings import Alternative, Confidence, EvidenceLine, Finding, Location
from .differential import alternatives_for
from .read.parse import Event
from ..redact import redact
from ..catalog.ids import CauseId

TITLE_MSG_CHARS = 120
TITLE_CHARS = 300


def make_verdict(code: str, cause: str, rank: int | None, events: Iterable[Event | None], confidence: str,
                 why: str, *, title: str = "", notes: tuple[str, ...] = (),
                 last_line: tuple[str, int, str] | None = None,
                 alternatives: tuple[Alternative, ...] = (), extra_facts: dict | None = None) -> Finding:
    """The root cause: ``events`` are the quoted lines in order (None entries are dropped);
    ``last_line`` is (file, line, text) where a silent rank's log stops; ``extra_facts`` are what
    the rule established (versions, device lists), kept in the Finding's ``facts``."""
    events = [e for e in events if e is not None]
    entry = get_cause(cause)
    evidence = tuple(_evidence(events))
    if last_line is not None:
        file, line, text = last_line
        evidence += (EvidenceLine(file, line, redact(f"(the log ends here) {text.strip()}")),)
    facts = {**(extra_facts or {}), "confirm": entry.confirm.strip(), "time_source": _time_source(events),
             "notes": list(notes)}
    return Finding(
        code=code, cause=cause, message=title or _title(cause, events, entry.title),
        locations=tuple(Location(path=e.path, line=e.line, rank=rank) for e in evidence[:1]),
        evidence=evidence, ranks=(rank,) if rank is not None else (), fix=entry.fix.strip(),
        confidence=Confidence(confidence), why=why,
        alternatives=alternatives_for(cause, Confidence(confidence), first=alternatives), facts=facts)


def _evidence(events: list[Event]) -> Iterable[EvidenceLine]:
    """Quoted lines, redacted; a traceback frame brings its source line along."""
    for e in events:
        yield EvidenceLine(e.file, e.line, redact(e.text.strip()))
        if e.role == "frame" and e.next_text.strip():
            yield EvidenceLine(e.file, e.line + 1, redact(e.next_text.strip()))


def _title(cause: str, events: list[Event], default: str) -> str:
    main = events[-1] if events else None
    text = default
    if main is not None and main.sig.cause == cause and main.sig.title:
        text = main.sig.title.format_map(_Groups(main.groups)).rstrip(": ")
        if cause == CauseId.python_exception and main.groups.get("msg"):
            text = f"{main.groups['exc']}: {_clip(main.groups['msg'].strip(), TITLE_MSG_CHARS)}"
    return redact(text)[:TITLE_CHARS]


class _Groups(dict):
    """A named group that did not take part in the match reads as empty."""

    def __missing__(self, key: str) -> str:
        return ""


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _time_source(events: list[Event]) -> str:
    for e in events:
        if e.time is not None:
            kind = "unix time of the fatal signal" if e.sig.role == "signal_time" else "log timestamp"
            return f"{e.file}:{e.line} ({kind})"
    return ""
