"""Which rules run: ``[tool.paddle-doctor.lint]`` in pyproject.toml, then the command line.

Selection follows ruff: codes or prefixes (``PDL1``, ``PDL40``, ``ALL``); for each code the most
specific matching prefix wins, and ``ignore`` wins a tie. ``--select`` on the command line replaces
the configured ``select``; ``--ignore`` adds to the configured ``ignore``.

    [tool.paddle-doctor.lint]
    select = ["ALL"]          # default
    ignore = ["PDL404"]
    exclude = ["build/*", "third_party/*"]   # fnmatch patterns on the path relative to the project root
    max-file-size-mb = 2      # larger files are not parsed (a PDL900 finding)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from .codes import UNCHECKED
from .rules import ALL_RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

DEFAULT_EXCLUDE = (".git", ".venv", "venv", "__pycache__", ".tox", ".eggs", "node_modules", "build", "dist")
# ast.parse keeps ~140 bytes per source byte (a 5 MB file: 710 MB, most of its time): 2 MB bounds a
# file at ~300 MB and a few seconds. Larger sources are generated code; they are reported (PDL900).
DEFAULT_MAX_MB = 2
KEYS = frozenset({"select", "ignore", "exclude", "max-file-size-mb"})


class ConfigError(ValueError):
    """A bad selection or configuration (the CLI exits 2 with this one-line message)."""


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_MB * 1024 * 1024
    source: str | None = None  # the pyproject.toml it came from
    root: str | None = None  # the folder holding it: ``exclude`` patterns are relative to it
    _enabled: frozenset[str] = field(default=frozenset(), compare=False)

    def enabled(self) -> frozenset[str]:
        return self._enabled or resolve(self.select, self.ignore)

    def with_cli(self, select: tuple[str, ...] | None, ignore: tuple[str, ...]) -> LintConfig:
        merged = replace(self, select=tuple(select) if select else self.select, ignore=(*self.ignore, *ignore))
        return replace(merged, _enabled=resolve(merged.select, merged.ignore))


def resolve(select: tuple[str, ...], ignore: tuple[str, ...]) -> frozenset[str]:
    """The codes that run. An opt-in rule (``Rule.default`` False) runs only when its code or a
    prefix more specific than ``PDL`` selects it, never through ``ALL``; PDL900 (a file that could
    not be checked) always runs unless ignored by name or prefix."""
    for prefix in (*select, *ignore):
        if prefix.upper() != "ALL" and not any(r.code.startswith(prefix.upper()) for r in ALL_RULES):
            raise ConfigError(f"unknown rule code or prefix '{prefix}' (codes: PDL1xx-PDL5xx, PDL900, see docs/lint.md)")
    enabled = set()
    for rule in ALL_RULES:
        chosen = _longest(rule.code, select)
        dropped = _longest(rule.code, ignore)
        if rule.code == UNCHECKED:
            chosen = max(chosen, 0)
        elif not rule.default and chosen <= len("PDL"):
            continue
        if chosen >= 0 and chosen > dropped:
            enabled.add(rule.code)
    return frozenset(enabled)


def as_codes(value, key: str) -> tuple[str, ...]:
    """A list of codes or patterns from pyproject.toml; one string is one item (``select = "ALL"``)."""
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"[tool.paddle-doctor.lint] {key}: expected a string or a list of strings, got {value!r}")
    return tuple(value)


def _longest(code: str, prefixes: tuple[str, ...]) -> int:
    best = -1
    for prefix in prefixes:
        p = prefix.upper()
        if p == "ALL":
            best = max(best, 0)
        elif code.startswith(p):
            best = max(best, len(p))
    return best


def find_pyproject(start: Path) -> Path | None:
    start = start.resolve()
    for folder in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path) -> LintConfig:
    """The configuration of the nearest pyproject.toml above ``start`` (defaults if none has one)."""
    path = find_pyproject(start)
    if path is None:
        return LintConfig()
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    section = table.get("tool", {}).get("paddle-doctor", {}).get("lint", {})
    unknown = set(section) - KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.paddle-doctor.lint]: {', '.join(sorted(unknown))}")
    try:
        config = LintConfig(
            select=as_codes(section.get("select", ("ALL",)), "select"),
            ignore=as_codes(section.get("ignore", ()), "ignore"),
            exclude=as_codes(section.get("exclude", ()), "exclude"),
            max_file_size=int(float(section.get("max-file-size-mb", DEFAULT_MAX_MB)) * 1024 * 1024),
            source=str(path), root=str(path.parent))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: [tool.paddle-doctor.lint]: {exc}") from None
    resolve(config.select, config.ignore)
    return config
