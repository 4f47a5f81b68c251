"""Triage's families, read from ``triage.toml``: for each variation of the command, the causes that
a run passing under it points to; the first is the family's usual cause.

The catalog knows the variations only by name; ``paddle_doctor.triage.plan`` checks that the
names are its own. Parsed and checked the first time triage asks.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from .ids import CauseId
from .load import DATA_DIR, CatalogError, cause_id, read_toml

TRIAGE_FILE = DATA_DIR / "triage.toml"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def load_families(path: Path = TRIAGE_FILE) -> dict[str, tuple[CauseId, ...]]:
    """``{variation: (cause, ...)}`` from ``path``; a bad file raises CatalogError."""
    out = {}
    for variation, causes in read_toml(path).items():
        where = f"{path.name}: {variation}"
        if not _NAME.match(variation):
            raise CatalogError(f"{where}: a variation name is lower case letters, digits and _")
        if not isinstance(causes, list) or not causes:
            raise CatalogError(f"{where}: expected a non-empty list of cause ids, not {causes!r}")
        family = tuple(cause_id(cause, f"{where}[{n}]") for n, cause in enumerate(causes))
        if len(set(family)) != len(family):
            raise CatalogError(f"{where}: lists a cause twice")
        out[variation] = family
    return out


@functools.lru_cache(maxsize=1)
def triage_families() -> dict[str, tuple[CauseId, ...]]:
    return load_families()


def triage_family(variation: str) -> tuple[CauseId, ...]:
    """The causes a pass under ``variation`` points to, the usual one first (none for a variation
    that points to no family, such as the baseline)."""
    return triage_families().get(variation, ())


def variations_for(cause: str) -> tuple[str, ...]:
    """The variations whose pass points to ``cause``, in the file's order."""
    return tuple(name for name, family in triage_families().items() if cause in family)
