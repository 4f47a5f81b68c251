"""Which files a lint run reads: the paths given, and the ``*.py`` files under given folders."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

from .config import DEFAULT_EXCLUDE


class LintInputError(ValueError):
    """A path that does not exist (the CLI exits 2 with this message)."""


def discover(paths: list[str], exclude: tuple[str, ...] = ()) -> list[str]:
    found: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            found.append(raw)  # named explicitly: linted whatever its suffix
        elif path.is_dir():
            found.extend(_walk(raw, exclude))
        else:
            raise LintInputError(f"{raw}: no such file or directory")
    return list(dict.fromkeys(found))


def _walk(root: str, exclude: tuple[str, ...]):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in DEFAULT_EXCLUDE and not d.startswith(".")
                         and not _excluded(os.path.join(folder, d), exclude))
        for name in sorted(files):
            full = os.path.join(folder, name)
            if name.endswith(".py") and not _excluded(full, exclude):
                yield full


def _excluded(path: str, patterns: tuple[str, ...]) -> bool:
    normal = path.replace(os.sep, "/")
    return any(fnmatch.fnmatch(normal, p) or fnmatch.fnmatch(os.path.basename(normal), p) for p in patterns)
