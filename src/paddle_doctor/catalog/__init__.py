"""The cause catalog: one entry per root cause, as data (``causes.toml``).

Every lens points at these ids; ``paddle-doctor explain`` and ``docs/causes.md`` are rendered from them
(``paddle_doctor.render.causes``), with the back-links read from the rules each lens declares
(``paddle_doctor.links``; every rule has the shape of ``paddle_doctor.rules``).
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
    try:
        return _by_id()[cause_id]
    except KeyError:
        raise UnknownCauseError(cause_id) from None


def cause_ids() -> tuple[str, ...]:
    return tuple(_by_id())
