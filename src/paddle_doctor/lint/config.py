"""Which rules run: ``[tool.paddle-doctor.lint]`` in pyproject.toml, then the command line.

Selection follows ruff: codes or prefixes (``PDL1``, ``PDL40``, ``ALL``); for each code the most
specific matching prefix wins, and ``ignore`` wins a tie. ``--select`` on the command line replaces
the configured ``select``; ``--ignore`` adds to the configured ``ignore``.

    [tool.paddle-doctor.lint]
    select = ["ALL"]          # default
    ignore = ["PDL404"]
    exclude = ["build/*", "*/third_party/*"]   # fnmatch patterns on the path
    max-file-size-mb = 10     # larger files are skipped with a message
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from .codes import RULES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 only
    import tomli as tomllib

DEFAULT_EXCLUDE = (".git", ".venv", "venv", "__pycache__", ".tox", ".eggs", "node_modules", "build", "dist")
KEYS = frozenset({"select", "ignore", "exclude", "max-file-size-mb"})


class ConfigError(ValueError):
    """A bad selection or configuration (the CLI exits 2 with this one-line message)."""


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = 10 * 1024 * 1024
    source: str | None = None  # the pyproject.toml it came from
    _enabled: frozenset[str] = field(default=frozenset(), compare=False)

    def enabled(self) -> frozenset[str]:
        return self._enabled or resolve(self.select, self.ignore)

    def with_cli(self, select: tuple[str, ...] | None, ignore: tuple[str, ...]) -> LintConfig:
        merged = replace(self, select=tuple(select) if select else self.select, ignore=(*self.ignore, *ignore))
        return replace(merged, _enabled=resolve(merged.select, merged.ignore))


def resolve(select: tuple[str, ...], ignore: tuple[str, ...]) -> frozenset[str]:
    for prefix in (*select, *ignore):
        if prefix.upper() != "ALL" and not any(r.code.startswith(prefix.upper()) for r in RULES):
            raise ConfigError(f"unknown rule code or prefix '{prefix}' (codes: PDL1xx-PDL5xx, see docs/lint.md)")
    enabled = set()
    for rule in RULES:
        chosen = _longest(rule.code, select)
        dropped = _longest(rule.code, ignore)
        if chosen >= 0 and chosen > dropped:
            enabled.add(rule.code)
    return frozenset(enabled)


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
            select=tuple(section.get("select", ("ALL",))), ignore=tuple(section.get("ignore", ())),
            exclude=tuple(section.get("exclude", ())),
            max_file_size=int(float(section.get("max-file-size-mb", 10)) * 1024 * 1024), source=str(path))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{path}: [tool.paddle-doctor.lint]: {exc}") from None
    resolve(config.select, config.ignore)
    return config
