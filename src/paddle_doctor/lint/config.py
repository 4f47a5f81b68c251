"""Which rules run: ``[tool.paddle-doctor.lint]`` in pyproject.toml, then the command line.

Selection follows ruff: codes or prefixes (``PDL1``, ``PDL40``, ``ALL``); for each code the most
specific matching prefix wins, and ``ignore`` wins a tie. ``--select`` on the command line replaces
the configured ``select``; ``--ignore`` adds to the configured ``ignore``.

    [tool.paddle-doctor.lint]
    select = ["ALL"]          # default
    extend-select = ["PDL405"]  # added to select (an opt-in rule, say)
    ignore = ["PDL404"]
    exclude = ["build/*", "third_party/*"]   # fnmatch patterns on the path relative to the project root
    max-file-size-mb = 2      # larger files are not parsed (a PDL900 finding)

    [tool.paddle-doctor.lint.per-file-ignores]
    "tests/*" = ["PDL303"]    # codes or prefixes ignored in the files a pattern matches

A value of the wrong type, a size that is not a finite positive number, an unknown key, or a file
TOML cannot read (too deep, not UTF-8) is a :class:`ConfigError`: one line, exit 2.
"""

from __future__ import annotations

import fnmatch
import os
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
KEYS = frozenset({"select", "extend-select", "ignore", "exclude", "max-file-size-mb", "per-file-ignores"})
MAX_MB = 1024  # a larger limit is a typo (ast needs ~140 bytes of memory per source byte)


class ConfigError(ValueError):
    """A bad selection or configuration (the CLI exits 2 with this one-line message)."""


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()  # added to select, the configured one or the command line's
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (fnmatch pattern, codes or prefixes)
    max_file_size: int = DEFAULT_MAX_MB * 1024 * 1024
    source: str | None = None  # the pyproject.toml it came from
    root: str | None = None  # the folder holding it: ``exclude`` patterns are relative to it
    _enabled: frozenset[str] = field(default=frozenset(), compare=False)

    def enabled(self) -> frozenset[str]:
        return self._enabled or resolve((*self.select, *self.extend_select), self.ignore)

    def with_cli(self, select: tuple[str, ...] | None, ignore: tuple[str, ...],
                 extend_select: tuple[str, ...] = ()) -> LintConfig:
        merged = replace(self, select=tuple(select) if select else self.select, ignore=(*self.ignore, *ignore),
                         extend_select=(*self.extend_select, *extend_select))
        return replace(merged, _enabled=resolve((*merged.select, *merged.extend_select), merged.ignore))

    def without_ignored(self, findings: list) -> list:
        """The findings less those ``per-file-ignores`` drops (patterns on the path relative to the root)."""
        if not self.per_file_ignores:
            return findings
        root = os.path.abspath(self.root or ".")
        kept = []
        for f in findings:
            relative = os.path.relpath(os.path.abspath(f.location.path or ""), root).replace(os.sep, "/")
            if not any(f.code.startswith(code.upper()) for code in self.ignored_in(relative)):
                kept.append(f)
        return kept

    def ignored_in(self, relative: str) -> tuple[str, ...]:
        """The codes or prefixes ``per-file-ignores`` drops in the file at ``relative`` (to the root)."""
        name = relative.rsplit("/", 1)[-1]
        return tuple(code for pattern, codes in self.per_file_ignores
                     if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(name, pattern) for code in codes)


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
        raise ConfigError(f"[tool.paddle-doctor.lint] {key}: expected a string or a list of strings, got {_short(value)}")
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
    except RecursionError:
        raise ConfigError(f"{path}: cannot read: nested too deeply") from None
    section = _table(_table(_table(table, "tool", path), "paddle-doctor", path), "lint", path)
    unknown = set(section) - KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.paddle-doctor.lint]: {', '.join(sorted(unknown))}")
    config = LintConfig(
        select=as_codes(section.get("select", ("ALL",)), "select"),
        extend_select=as_codes(section.get("extend-select", ()), "extend-select"),
        ignore=as_codes(section.get("ignore", ()), "ignore"),
        exclude=as_codes(section.get("exclude", ()), "exclude"),
        per_file_ignores=_per_file_ignores(section.get("per-file-ignores", {}), path),
        max_file_size=_size(section.get("max-file-size-mb", DEFAULT_MAX_MB), path),
        source=str(path), root=str(path.parent))
    resolve((*config.select, *config.extend_select), config.ignore)
    for _, codes in config.per_file_ignores:
        resolve(("ALL",), codes)  # unknown codes are refused here too
    return config


def _table(table: dict, key: str, path: Path) -> dict:
    """``table[key]`` when it is a table (missing: empty); anything else is a one-line error."""
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: `{key}` must be a table ([{key}]), got {type(value).__name__}")
    return value


def _size(value, path: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_MB:
        raise ConfigError(f"{path}: [tool.paddle-doctor.lint] max-file-size-mb: expected a number of MB above 0 "
                          f"and at most {MAX_MB}, got {_short(value)}")
    return int(value * 1024 * 1024)


def _per_file_ignores(value, path: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [tool.paddle-doctor.lint] per-file-ignores: expected a table of "
                          f"pattern = [codes], got {_short(value)}")
    return tuple((pattern, as_codes(codes, f"per-file-ignores.{pattern}")) for pattern, codes in value.items())


def _short(value) -> str:
    """A value for a one-line message (a 50 000-deep array is not printed whole)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"a deeply nested {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


class LintInputError(ValueError):
    """A path that does not exist (the CLI exits 2 with this message)."""


def discover(paths: list[str], exclude: tuple[str, ...] = (), root: str | None = None) -> list[str]:
    """The files a run reads: the paths given, and the ``*.py`` files under given folders. ``exclude``
    patterns (fnmatch) are matched against the path relative to the project root (the folder of the
    pyproject.toml that configures the run), against the path as typed, and against the file or
    folder name, so ``["third_party/*"]`` works with ``lint .`` and with ``lint /abs/project``."""
    found: list[str] = []
    match = _Matcher(exclude, root)
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(_walk(raw, match))
        elif path.exists() or path.is_symlink():
            found.append(raw)  # named explicitly: linted whatever its suffix (or reported as not a file)
        else:
            raise LintInputError(f"{raw}: no such file or directory")
    return list(dict.fromkeys(found))


def _walk(root: str, match: _Matcher):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in DEFAULT_EXCLUDE and not d.startswith(".")
                         and not match(os.path.join(folder, d)))
        for name in sorted(files):
            full = os.path.join(folder, name)
            if name.endswith(".py") and not match(full):
                yield full


class _Matcher:
    def __init__(self, patterns: tuple[str, ...], root: str | None) -> None:
        self.patterns = tuple(p.rstrip("/") for p in patterns)
        self.root = os.path.abspath(root) if root else None

    def __call__(self, path: str) -> bool:
        if not self.patterns:
            return False
        forms = {os.path.normpath(path).replace(os.sep, "/"), os.path.basename(path)}
        if self.root:
            absolute = os.path.abspath(path)
            if absolute == self.root or absolute.startswith(self.root + os.sep):
                forms.add(os.path.relpath(absolute, self.root).replace(os.sep, "/"))
        return any(fnmatch.fnmatch(form, p) for form in forms for p in self.patterns)
