"""The cause catalog: one entry per root cause, as data (``causes.toml``).

Every lens points at these ids; ``paddle-doctor explain`` and ``docs/causes.md`` are rendered from them
(``paddle_doctor.render.causes``), with the back-links each lens declares (``paddle_doctor.links``).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

from .ids import CATALOG_FILE

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class Cause:
    id: str
    title: str
    kind: str  # "crash" (takes the job down) or "corruption" (wrong results, no crash)
    why: str  # why it takes every process down (or why the result is wrong)
    confirm: str  # how to confirm it
    fix: str  # the fix, with concrete commands or code
    seed: str = ""  # the troubleshooting-guide section it comes from, if any


class UnknownCauseError(KeyError):
    """Raised for a cause id that is not in the catalog."""


@functools.lru_cache(maxsize=1)
def all_causes() -> tuple[Cause, ...]:
    text = CATALOG_FILE.read_text(encoding="utf-8")
    table = tomllib.loads(text)
    return tuple(_cause_from_table(cid, entry) for cid, entry in table.items())


def _cause_from_table(cause_id: str, entry: dict) -> Cause:
    return Cause(id=cause_id, **entry)


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


@functools.lru_cache(maxsize=None)
def _one_cause(cause_id: str) -> Cause | None:
    """The table ``[cause_id]`` of causes.toml parsed alone: ``explain`` and diagnose's verdict need
    one entry, and tomllib takes ~8 ms for the whole file at start-up, ~0.2 ms for one table. The
    table headers are the ones ids.py checks against ``CauseId`` at import (``_HEADER``), so a table
    runs from its header to the next one. None when the id has no header, or the slice is not that
    one well-formed table: the caller then reads the whole file (and reports what is wrong there)."""
    try:
        import tomllib as toml
    except ImportError:  # pragma: no cover - Python 3.10
        import tomli as toml
    span = _table_spans().get(cause_id)
    if span is None:
        return None
    try:
        table = toml.loads(CATALOG_FILE.read_text(encoding="utf-8")[span[0]:span[1]])
        (table_id, entry), = table.items()
        return Cause(id=table_id, **entry) if table_id == cause_id and isinstance(entry, dict) else None
    except (toml.TOMLDecodeError, TypeError, ValueError):
        return None


@functools.lru_cache(maxsize=1)
def _table_spans() -> dict[str, tuple[int, int]]:
    from .ids import _HEADER

    text = CATALOG_FILE.read_text(encoding="utf-8")
    starts = [(m.start(), m[1]) for m in _HEADER.finditer(text)]
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return {cid: (start, end) for (start, cid), end in zip(starts, ends)}
