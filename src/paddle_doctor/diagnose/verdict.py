"""Build the root-cause Finding from the events a rule chose, and what the reasoning rules share.

Every reasoning rule (:mod:`.rules`, the refiners of :mod:`.refine`, and the error records) ends
here, so the record looks the same whatever decided: ``code`` names the rule or signature, ``cause`` the catalog id, ``message`` the
title, ``evidence`` the quoted lines (redacted), ``ranks`` the culprit, ``fix`` the catalog's fix;
``facts`` carries the catalog's confirm text, where the failure time came from, the notes for the
reader, and what else could explain the facts (``alternatives``).

The helpers below the builder (the title of a signature, the launcher's lines for a rank, how
confident an error line makes a verdict, ...) serve both :mod:`.rules` and :mod:`.refine`; they live
here, one floor below both, so that neither imports the other. :class:`VerdictRule` is the
declaration every reasoning rule makes (the protocol of :mod:`paddle_doctor.rules`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..catalog import get_cause, is_symptom
from ..catalog.codes import NumberedCode, exit_status_of
from ..findings import Alternative, Confidence, EvidenceLine, Finding, Location
from ..rules import Docs
from .differential import alternatives_for
from .anatomy.blocks import refine
from .ranks import LauncherFacts, RankState, aborted_after_wait, interrupted, most_specific_first
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
    own = _own_row(code, cause, events)
    facts = {**(extra_facts or {}), "confirm": (own.confirm or entry.confirm).strip(),
             "time_source": _time_source(events), "notes": list(notes)}
    return Finding(
        code=code, cause=cause, message=title or _title(cause, events, entry.title),
        locations=tuple(Location(path=e.path, line=e.line, rank=rank) for e in evidence[:1]),
        evidence=evidence, ranks=(rank,) if rank is not None else (), fix=(own.fix or entry.fix).strip(),
        confidence=Confidence(confidence), why=why,
        # a row with its own fix speaks for its near causes too (see _own_row)
        alternatives=alternatives if own.fix else alternatives_for(cause, Confidence(confidence), first=alternatives),
        facts=facts)


@dataclass(frozen=True)
class _Advice:
    """What to check and do for a verdict, where its row has its own (else the catalog's): see
    :class:`.signatures.model.Signature`."""

    confirm: str = ""
    fix: str = ""


def _own_row(code: str, cause: str, events: list[Event]) -> _Advice:
    """The advice of the row that decided: the quoted line whose row the verdict's code names, else the first quoted
    line whose row points at the verdict's cause (a warning before the error it led to). A row with its own fix
    speaks for its near causes too: the catalog's table of alternatives (a path from a config value, for a missing
    file) is not added for it (a missing library is no such path)."""
    row = next((e.sig for e in events if e.sig is not None and e.sig.name == code), None) or next(
        (e.sig for e in events if e.sig is not None and e.sig.cause == cause), None)
    return _Advice(row.confirm, row.fix) if row is not None else _Advice()


def _evidence(events: list[Event]) -> Iterable[EvidenceLine]:
    """Quoted lines, redacted; a traceback frame brings its source line along."""
    for e in events:
        yield EvidenceLine(e.file, e.line, redact(e.text.strip()))
        if e.role == "frame" and e.next_text.strip():  # one line further after a double-spaced paste's blank line
            yield EvidenceLine(e.file, e.line + 1 + e.next_text.startswith("\n"), redact(e.next_text.strip()))


def _title(cause: str, events: list[Event], default: str) -> str:
    main = events[-1] if events else None
    text = default
    if main is not None and main.sig.cause == cause and main.sig.title:
        text = _EMPTY_ASIDE.sub("", main.sig.title.format_map(_Groups(main.groups))).replace(_ABSENT, "").rstrip(": ")
        if cause == CauseId.python_exception and main.groups.get("msg") and main.groups.get("exc"):
            text = f"{main.groups['exc']}: {_clip(main.groups['msg'].strip(), TITLE_MSG_CHARS)}"
    return redact(text)[:TITLE_CHARS]


# A title's "({group})" aside whose group took no part in the match would print as "()": it is dropped.
# (Only a group's own aside: a quoted "f()" in a message stays.)
_ABSENT = "\x00"
_EMPTY_ASIDE = re.compile(r" ?\(\s*\x00\s*\)")


class _Groups(dict):
    """A named group that did not take part in the match reads as empty."""

    def __missing__(self, key: str) -> str:
        return _ABSENT


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _time_source(events: list[Event]) -> str:
    for e in events:
        if e.time is not None:
            kind = "unix time of the fatal signal" if e.sig.role == "signal_time" else "log timestamp"
            return f"{e.file}:{e.line} ({kind})"
    return ""


# -- the declaration of a reasoning rule -------------------------------------------------------


@dataclass(frozen=True)
class VerdictRule:
    """One reasoning rule of diagnose (the protocol of :mod:`paddle_doctor.rules`).

    ``code`` is what the root Finding's ``code`` says when the rule decided; ``cause`` the cause it
    names, or None when it names the cause of what it matched (``defers_to`` says what: the log
    signatures, the signal table, the error tables); ``also`` further causes it may name; ``check``
    the function of the chain (or the refiner) that decides; ``docs.source`` where that function is
    and ``docs.example`` a log of the repository it decides (``tests/fixtures/...``, or a shared
    corpus log ``corpus:SET/ID``), or the situation it is for when no log shows it yet.
    """

    code: str
    cause: CauseId | None
    message: str
    docs: Docs
    check: Callable[..., Any]
    also: tuple[CauseId, ...] = ()
    defers_to: str = ""

    @property
    def causes(self) -> tuple[CauseId, ...]:
        return ((self.cause,) if self.cause is not None else ()) + self.also


def declare(code: str, cause: CauseId | None, message: str, check: Callable[..., Any], example: str, *,
            also: tuple[CauseId, ...] = (), defers_to: str = "") -> VerdictRule:
    """A reasoning rule, its source read from the check itself (so it cannot drift from the code)."""
    source = f"{check.__module__}:{check.__qualname__}"
    return VerdictRule(code, cause, message, Docs(source=source, example=example), check, also, defers_to)


# -- what the rules and refiners share -----------------------------------------------------------


def format_title(event: Event) -> str:
    groups = {k: v for k, v in event.groups.items() if v is not None}
    try:
        return event.sig.title.format(**groups)
    except (KeyError, IndexError):
        return event.sig.title


def fatal_signal(exit_code: int | None) -> NumberedCode | None:
    """A launcher exit code -N means the rank died of signal N, a Windows crash status (0xC0000005) that
    a native fault ended it. With no text in its log, that is the clue: the catalog's signal and ntstatus
    tables (codes.toml) say which cause it points to, if any."""
    if not exit_code:
        return None
    signal = exit_status_of(exit_code)
    return signal if signal is not None and signal.cause is not None else None


def own_cause(state: RankState) -> Event | None:
    """The rank's most specific cause, leaving out an abort that a wait before it explains, and an interrupt."""
    return most_specific_first([e for e in state.causes() if not aborted_after_wait(state, e) and not interrupted(e)])



def pick(candidates: list[tuple[int, Event]]) -> tuple[int, Event]:
    if len(candidates) > 1 and all(e.time is not None for _, e in candidates):
        return min(candidates, key=lambda c: (c[1].time, c[0]))
    return min(candidates, key=lambda c: (-c[1].sig.specificity, c[0]))


def confidence_of(event: Event, candidates) -> str:
    """Specific signatures are high; a generic error is high only when it stands alone, and never
    when its cause is one the catalog marks ``symptom``: such a line says the real error is elsewhere
    (the DataLoader's "reader raised", "Blocking queue is killed"), so it is at most medium."""
    alone = len(candidates) == 1 and not is_symptom(event.sig.cause)
    if event.sig.specificity >= 80 or (event.sig.specificity >= 50 and alone):
        return event.sig.most  # "high", unless the line is one message for several failed checks
    return "medium" if event.sig.specificity >= 50 else "low"


def why_of(event: Event, candidates) -> str:
    if event.sig.specificity >= 80:
        kind = "a specific error signature"
    elif event.sig.specificity >= 50:
        kind = "an uncaught error"
    else:
        kind = "a warning that means the results are wrong"
    if len(candidates) == 1 and candidates[0][0] is None:
        # A pasted snippet or a single-process log: there are no other ranks to speak of.
        return f"{kind} in the given text, which names no rank"
    if len({e.sig.cause for _, e in candidates}) == 1 and len(candidates) > 1:
        return f"{kind}, shown by every failing rank alike; the lowest rank is named"
    if len(candidates) == 1:
        return f"{kind} on one rank only; the other ranks show only the symptoms of a dead peer"
    if all(e.time is not None for _, e in candidates):
        return f"{kind}; several ranks failed and this one has the earliest timestamp"
    return f"{kind}; several ranks show errors and this one is the most specific"


def peer_of(closed: Event | None, state: RankState, ranks: dict[int, RankState],
            facts: LauncherFacts) -> int | None:
    """The rank that closed the connection: named by gloo's pair.cc TIMEOUT line; for a bare
    "Connection reset by peer", the only other rank that shows no error (or, with no other log at
    hand, the only other rank of the job)."""
    if closed is None:
        return None
    if "peer" in closed.groups and int(closed.groups["peer"]) != state.rank:
        return int(closed.groups["peer"])
    # gloo sometimes names the rank itself as its peer ("self_rank = 0 pair_rank = 0"): not usable.
    quiet = [r for r, s in ranks.items()
             if r != state.rank and not s.causes() and not s.has("terminated") and not s.has("peer_closed")]
    if not quiet and facts.world:
        quiet = [r for r in range(facts.world) if r != state.rank and r not in ranks]
    return quiet[0] if len(quiet) == 1 else None


def launcher_lines(facts: LauncherFacts, rank: int) -> list[Event]:
    return [e for e in facts.events if e.sig.name in ("launch_container_failed", "elastic_rank_failed")
            and e.groups.get("rank") == str(rank) or e.sig.name == "fleet_abort"][:1]


def evidence_for(state: RankState, event: Event) -> list[Event]:
    """The cause line, preceded by the innermost user frame of its traceback when there is one."""
    frames = [e for e in state.events if e.role == "frame" and e.line < event.line and event.line - e.line < 60]
    user = [f for f in frames if "site-packages" not in f.groups.get("path", "") and "/paddle/" not in f.groups.get("path", "")]
    lines = ([user[-1]] if user else []) + [event]
    return lines


def by_structure(events: list[Event], event: Event, rank: int | None, evidence: list[Event],
                 candidates) -> Finding | None:
    """A generic error line read again by its parts (errors/): its code, operator, C++ file, module."""
    verdict = refine(events, event)
    if verdict is None:
        return None
    if verdict.cause == event.sig.cause:  # same cause: only the why says more (where it was raised)
        confidence = confidence_of(event, candidates)
        if confidence == "high" and not verdict.sure:
            # The line's code is a library status that names no cause (read as the generic id): the
            # wording that matched cannot make the verdict surer than the code it carries.
            confidence = "medium"
        return make_verdict(event.sig.name, event.sig.cause, rank, evidence, confidence,
                            f"{why_of(event, candidates)}; {verdict.why}")
    confidence = "high" if verdict.specificity >= 90 else "medium"
    return make_verdict(f"structure_{verdict.part}", verdict.cause, rank, evidence, confidence,
                        f"the error's structure names it: {verdict.why}",
                        alternatives=(Alternative(event.sig.cause, "low", f"the line read alone: {event.sig.name}",
                                                  "the parts above do not apply"),))
