"""Write a report file (``--html FILE``, ``--junit FILE``) the way a user means it.

- A regular file (or a new one) is written atomically: a temp file beside it, then a rename, so a
  reader never sees half a page and a failed write leaves the old file as it was.
- Anything else at that path is written through, in place, never renamed over: a device node
  (``/dev/stdout``, ``/dev/full``), a FIFO, or a symlink (its target is written; the link stays).
  An atomic rename there would replace the node or the link with a regular file.
- Errors are the system's own, accurate ones: a parent that is a file is "Not a directory".
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path


def write_text(dest: str | os.PathLike, text: str) -> Path:
    path = Path(dest)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError as exc:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(_file_in_the_way(path))) from exc
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "w", encoding="utf-8") as out:  # through the link, into the device or the FIFO
            out.write(text)
        return path
    _make_parent(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def _make_parent(path: Path) -> None:
    blocker = _file_in_the_way(path)
    if blocker is not None:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker))
    path.parent.mkdir(parents=True, exist_ok=True)


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest existing ancestor of ``path`` when it is not a directory."""
    for parent in path.absolute().parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
