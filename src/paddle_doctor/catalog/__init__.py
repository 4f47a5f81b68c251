"""The cause catalog: one entry per root cause, as data (``causes.toml``).

Every lens points at these ids; ``paddle-doctor explain`` and ``docs/causes.md`` are rendered from them
(``paddle_doctor.render.causes``), with the back-links each lens declares (``paddle_doctor.links``).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass

from .ids import _HEADER, CATALOG_FILE

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
    table = tomllib.loads(_catalog_text())
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


@functools.lru_cache(maxsize=None)
def _one_cause(cause_id: str) -> Cause | None:
    """The table ``[cause_id]`` parsed alone: ``explain`` and diagnose's verdict need one entry, and
    tomllib takes ~8 ms for the whole file at start-up, ~0.2 ms for one table. The table headers are
    the ones ids.py checks against ``CauseId`` at import (``_HEADER``), so a table runs from its
    header to the next one. None when the id has no header (or the slice is not that one table):
    the caller then parses the whole file."""
    span = _table_spans().get(cause_id)
    if span is None:
        return None
    try:
        table = tomllib.loads(_catalog_text()[span[0]:span[1]])
    except tomllib.TOMLDecodeError:
        return None
    if len(table) != 1 or cause_id not in table:
        return None
    (table_id, entry), = table.items()
    return _cause_from_table(table_id, entry)


@functools.lru_cache(maxsize=1)
def _catalog_text() -> str:
    return CATALOG_FILE.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _table_spans() -> dict[str, tuple[int, int]]:
    starts = [(m.start(), m[1]) for m in _HEADER.finditer(_catalog_text())]
    ends = [start for start, _ in starts[1:]] + [len(_catalog_text())]
    return {cid: (start, end) for (start, cid), end in zip(starts, ends)}


def cause_ids() -> tuple[str, ...]:
    return tuple(_by_id())
