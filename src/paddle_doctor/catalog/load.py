"""Reading the catalog's data files, and refusing a bad one with a one-line error.

Each file beside ``causes.toml`` (``alternatives.toml``, ``triage.toml``, ``codes.toml``) is parsed
the first time a path needs it, and checked then: every cause it names is a ``CauseId`` member,
every field has its type, an unknown key is refused. A :class:`CatalogError` names the file, the
place in it and what is wrong, so that a typo in the data fails at once and says where.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from .ids import CauseId

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DATA_DIR = Path(__file__).parent


class CatalogError(ValueError):
    """A catalog data file that does not parse or does not follow its schema (one line)."""


def read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise CatalogError(f"{path.name}: not valid TOML: {err}") from None


def cause_id(value: object, where: str) -> CauseId:
    """The member for a cause id written in a data file."""
    if not isinstance(value, str):
        raise CatalogError(f"{where}: a cause id must be a string, not {type(value).__name__} {value!r}")
    try:
        return CauseId(value)
    except ValueError:
        raise CatalogError(f"{where}: {value!r} is not a cause id of causes.toml") from None


def table(value: object, where: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise CatalogError(f"{where}: expected a table, not {type(value).__name__} {value!r}")
    return value


def string_list(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise CatalogError(f"{where}: expected a list of strings, not {value!r}")
    return tuple(value)


def fields(entry: object, where: str, required: dict[str, type], optional: dict[str, type] | None = None) -> dict:
    """``entry`` as a dict after checking its keys and their types (unknown keys are refused)."""
    entry = table(entry, where)
    optional = optional or {}
    unknown = sorted(set(entry) - set(required) - set(optional))
    if unknown:
        allowed = ", ".join([*required, *optional])
        raise CatalogError(f"{where}: unknown key {unknown[0]!r} (allowed: {allowed})")
    missing = [key for key in required if key not in entry]
    if missing:
        raise CatalogError(f"{where}: missing key {missing[0]!r}")
    for key, kind in {**required, **optional}.items():
        if key in entry and not isinstance(entry[key], kind):
            raise CatalogError(f"{where}: {key!r} must be a {kind.__name__}, not {type(entry[key]).__name__} "
                               f"{entry[key]!r}")
    return dict(entry)


def number_key(key: str, where: str) -> int:
    """A table key that stands for a number (errno, signal): TOML keys are strings."""
    if not key.isdigit():
        raise CatalogError(f"{where}: key {key!r} must be a number")
    return int(key)
