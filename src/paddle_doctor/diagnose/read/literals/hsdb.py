"""Hyperscan's database of trigger literals, kept compiled in the user's cache between runs.

Compiling Hyperscan's database of the ~400 trigger literals costs ~45 ms, on the critical path of every big
diagnosis (the 1024-rank bench's whole run is ~0.6 s); loading it serialized costs ~0.1 ms. So it is kept in
the user's cache: the file's name carries a digest of the literals and of the Hyperscan and Python builds, so
a new trigger or another library never loads an old database; its content starts with a digest of the rest,
so a truncated or damaged file is compiled again, not loaded. The cache is only a shortcut: a file that
cannot be read or written (read-only home, full disk, another user's file) means compiling as before, never
an error. ``PADDLE_DOCTOR_NO_CACHE=1`` turns it off. Imported only once Hyperscan is needed.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
import tempfile
from pathlib import Path

from ....contract import NO_CACHE_ENV

SCHEMA = b"paddle-doctor hyperscan db 1"
_DIGEST = 32


def compiled_database(hyperscan, patterns: list[bytes]):
    """A block-mode Hyperscan database matching ``patterns`` literally (ids are their indexes)."""
    path = _cache_path(hyperscan, patterns)
    database = _load(hyperscan, path) if path is not None else None
    if database is not None:
        return database
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    expressions = [re.escape(p.decode()).encode() for p in patterns]
    database.compile(expressions=expressions, ids=list(range(len(expressions))), elements=len(expressions))
    if path is not None:
        _store(hyperscan, database, path)
    return database


def cache_dir() -> Path | None:
    """Where paddle-doctor keeps what it can compute again: ``$XDG_CACHE_HOME/paddle-doctor`` or
    ``~/.cache/paddle-doctor``; None when turned off or no home is known."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if home == "~" or not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "paddle-doctor"


def _cache_path(hyperscan, patterns: list[bytes]) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    key = hashlib.sha256(SCHEMA)
    for part in (getattr(hyperscan, "__version__", "?"), os.uname().machine, sys.version):
        key.update(part.encode() + b"\0")
    for pattern in patterns:
        key.update(pattern + b"\0")
    return folder / f"triggers-{key.hexdigest()[:24]}.hsdb"


def _load(hyperscan, path: Path):
    try:
        with open(path, "rb") as handle:
            if not _owned_by_me(os.fstat(handle.fileno())):
                return None
            content = handle.read()
        digest, payload = content[:_DIGEST], content[_DIGEST:]
        if not payload or hashlib.sha256(payload).digest() != digest:
            return None
        database = hyperscan.loadb(payload, hyperscan.HS_MODE_BLOCK)
        database.scratch = hyperscan.Scratch(database)  # a loaded database has none
        return database
    except (OSError, hyperscan.HyperscanError):
        return None


def _owned_by_me(info: os.stat_result) -> bool:
    """A database another user could have written is not loaded: Hyperscan trusts its bytes."""
    return (stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _remove_others(path: Path) -> None:
    """Databases of other trigger sets (an older paddle-doctor) are half a MiB each: keep one.
    Two installations used in turn then compile in turn, as without a cache."""
    for other in path.parent.glob("triggers-*.hsdb"):
        if other != path:
            try:
                other.unlink()
            except OSError:
                pass


def _store(hyperscan, database, path: Path) -> None:
    """Write the file whole or not at all (a temporary file renamed over it), so a run beside this
    one reads either nothing or a complete database."""
    try:
        payload = hyperscan.dumpb(database)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".triggers-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(payload).digest() + payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        _remove_others(path)
    except (OSError, hyperscan.HyperscanError):
        pass
