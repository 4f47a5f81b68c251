"""The cause catalog: one entry per root cause, as data (``causes.toml``).

Every lens points at these ids; ``paddle-doctor explain`` and ``docs/causes.md`` are rendered from them
(``paddle_doctor.render.causes``), with the back-links read from the rules each lens declares
(``paddle_doctor.links``; every rule has the shape of ``paddle_doctor.rules``).

Beside it, the rest of what belongs to a cause, each file read and checked the first time a path
needs it (``explain`` and ``--help`` read none of them): ``alternatives.toml``, the causes mistaken
for it (:func:`.alternatives.alternatives_of`); ``triage.toml``, triage's families
(:func:`.triage.triage_family`); ``codes.toml``, error codes, errno values and signals to causes
(:mod:`.codes`). A file that breaks its schema raises :class:`CatalogError`, one line naming the place.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .ids import CATALOG_FILE, CauseId
from .load import CatalogError, cause_id, fields, read_toml, string_list


@dataclass(frozen=True)
class Cause:
    id: str
    title: str
    kind: str  # "crash" (takes the job down) or "corruption" (wrong results, no crash)
    why: str  # why it takes every process down (or why the result is wrong)
    confirm: str  # how to confirm it
    fix: str  # the fix, with concrete commands or code
    seed: str = ""  # the troubleshooting-guide section it comes from, if any
    generic: bool = False  # its errors say "something failed" without why: a more specific cause explains them
    explains: tuple[str, ...] = ()  # causes whose errors this one also produces
    symptom: bool = False  # its error says only that something else failed: the rank's own log says what

    def __post_init__(self) -> None:
        object.__setattr__(self, "explains", tuple(self.explains))  # a list when read from TOML


class UnknownCauseError(KeyError):
    """Raised for a cause id that is not in the catalog."""


@functools.lru_cache(maxsize=1)
def all_causes() -> tuple[Cause, ...]:
    return load_causes(CATALOG_FILE)


_FIELDS = {"title": str, "kind": str, "why": str, "confirm": str, "fix": str}
_KINDS = ("crash", "corruption")


def load_causes(path: Path) -> tuple[Cause, ...]:
    """Every entry of ``path``, checked: a cause id, the fields of :class:`Cause` with their types."""
    return tuple(_cause_from_table(key, entry, f"{path.name}: [{key}]") for key, entry in read_toml(path).items())


def _cause_from_table(key: str, entry: object, where: str) -> Cause:
    row = fields(entry, where, _FIELDS, {"seed": str, "generic": bool, "explains": list,
                                                                "symptom": bool})
    row["explains"] = tuple(cause_id(c, f"{where} explains") for c in string_list(row.get("explains", []),
                                                                                 f"{where} explains"))
    if row["kind"] not in _KINDS:
        raise CatalogError(f"{where}: kind must be one of {', '.join(_KINDS)}, not {row['kind']!r}")
    cause_id(key, where)  # an id of CauseId (ids.py checks the list itself at import)
    return Cause(id=key, **row)


@functools.lru_cache(maxsize=1)
def _by_id() -> dict[str, Cause]:
    return {cause.id: cause for cause in all_causes()}


def get_cause(cause_id: str) -> Cause:
    cause = _one_cause(cause_id)
    if cause is not None:
        return cause
    try:
        return _by_id()[cause_id]
    except KeyError:
        raise UnknownCauseError(cause_id) from None


def cause_ids() -> tuple[str, ...]:
    return tuple(_by_id())


@functools.lru_cache(maxsize=1)
def generic_causes() -> frozenset[CauseId]:
    """The causes marked ``generic = true``: what diagnose lets a more specific cause explain."""
    return frozenset(CauseId(c.id) for c in all_causes() if c.generic)


def explains_also(cause: str | None) -> tuple[CauseId, ...]:
    """The causes whose errors ``cause`` also produces (its ``explains`` list)."""
    entry = _entry(cause)
    return tuple(CauseId(c) for c in entry.explains) if entry is not None else ()


def is_generic(cause: str | None) -> bool:
    """``cause`` is marked ``generic = true`` (one table read, not the file: diagnose asks per line)."""
    entry = _entry(cause)
    return entry is not None and entry.generic


def is_symptom(cause: str | None) -> bool:
    """``cause`` is marked ``symptom = true``."""
    entry = _entry(cause)
    return entry is not None and entry.symptom


def _entry(cause: str | None) -> Cause | None:
    """The entry of ``cause``, or None for an id causes.toml has no table for (an error record from
    another writer may carry "" or an id this version does not know): such a cause has no relations."""
    return get_cause(cause) if isinstance(cause, str) and cause in _table_spans() else None


@functools.lru_cache(maxsize=None)
def _one_cause(cause_id: str) -> Cause | None:
    """The table ``[cause_id]`` of causes.toml parsed alone: ``explain`` and diagnose's verdict need
    one entry, and tomllib takes ~8 ms for the whole file at start-up, ~0.2 ms for one table. The
    table headers are the ones ids.py checks against ``CauseId`` at import (``_HEADER``), so a table
    runs from its header to the next one. None when the id has no header, or the slice is not that
    one well-formed table: the caller then reads the whole file (and reports what is wrong there)."""
    from .load import tomllib as toml

    span = _table_spans().get(cause_id)
    if span is None:
        return None
    try:
        table = toml.loads(_catalog_text()[span[0]:span[1]])
        (table_id, entry), = table.items()
        return Cause(id=table_id, **entry) if table_id == cause_id and isinstance(entry, dict) else None
    except (toml.TOMLDecodeError, TypeError, ValueError):
        return None


@functools.lru_cache(maxsize=1)
def _catalog_text() -> str:
    return CATALOG_FILE.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _table_spans() -> dict[str, tuple[int, int]]:
    from .ids import _HEADER

    text = _catalog_text()
    starts = [(m.start(), m[1]) for m in _HEADER.finditer(text)]
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return {cid: (start, end) for (start, cid), end in zip(starts, ends)}
