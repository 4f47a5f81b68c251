"""The differential diagnosis, read from ``alternatives.toml``: for each cause, the causes most often
mistaken for it, why they fit the same text, and the check that tells them apart.

Parsed and checked the first time a verdict needs it (``diagnose``), not at import (``explain`` and
``--help`` never pay for it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .ids import CauseId
from .load import DATA_DIR, CatalogError, cause_id, fields, read_toml

ALTERNATIVES_FILE = DATA_DIR / "alternatives.toml"
_ROW = {"cause": str, "why": str, "check": str}


@dataclass(frozen=True)
class TellApart:
    """A cause that fits the same text as another, why, and the check that tells the two apart."""

    cause: CauseId
    why: str
    check: str


def load_alternatives(path: Path = ALTERNATIVES_FILE) -> dict[CauseId, tuple[TellApart, ...]]:
    """``{cause: (alternative, ...)}`` from ``path``, in the file's order; a bad file raises CatalogError."""
    out = {}
    for key, rows in read_toml(path).items():
        cause = cause_id(key, f"{path.name}: {key}")
        if not isinstance(rows, list):
            raise CatalogError(f"{path.name}: {key} must be a list of {{ cause, why, check }} tables, not {rows!r}")
        out[cause] = tuple(_row(row, f"{path.name}: {key}[{n}]", cause) for n, row in enumerate(rows))
        others = [alt.cause for alt in out[cause]]
        if len(set(others)) != len(others):
            raise CatalogError(f"{path.name}: {key} lists an alternative twice")
    return out


def _row(row: object, where: str, of: CauseId) -> TellApart:
    entry = fields(row, where, _ROW)
    other = cause_id(entry["cause"], f"{where} cause")
    if other == of:
        raise CatalogError(f"{where}: a cause cannot be its own alternative ({other})")
    return TellApart(other, entry["why"], entry["check"])


@functools.lru_cache(maxsize=1)
def _alternatives() -> dict[CauseId, tuple[TellApart, ...]]:
    return load_alternatives()


def alternatives_of(cause: str) -> tuple[TellApart, ...]:
    """The causes most often mistaken for ``cause``, most likely first (none for an unknown id)."""
    return _alternatives().get(cause, ())
