"""Writes that never leave half a checkpoint behind: a temp file in the same directory, fsync,
rename over the target (atomic on POSIX and Windows), then fsync of the directory.

Never through a symlink: the temp file is created with O_EXCL (``mkstemp``) and the rename replaces
a link at the target rather than the file it points to. A temp file carries its writer's PID
(``.NAME.PID.XXXX.tmp``): one left by a writer that was killed is removed by the next write of
the same target, one of a writer still alive is left alone."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import BinaryIO


@contextlib.contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """Yield a temp path beside ``path`` for a writer that wants a name (``paddle.save``); on success
    the file is synced and renamed over ``path`` in one step, on error it vanishes."""
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale_temps(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.{os.getpid()}.", suffix=".tmp", dir=folder)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as written:
            os.fsync(written.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a checkpoint is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(folder)


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[BinaryIO]:
    """Yield a file to write; on success it replaces ``path`` in one step, on error it vanishes."""
    with atomic_path(path) as tmp, open(tmp, "wb") as out:
        yield out


def remove_stale_temps(path: str) -> list[str]:
    """Remove the temp files of earlier writes of ``path`` whose writer no longer runs; returns them."""
    folder, base = os.path.split(os.path.abspath(path))
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        pid = _writer_pid(name, f".{base}.")
        if pid is not None and not _alive(pid):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))
                removed.append(name)
    return removed


def _writer_pid(name: str, prefix: str) -> int | None:
    if not (name.startswith(prefix) and name.endswith(".tmp")):
        return None
    pid, _, rest = name[len(prefix):].partition(".")
    return int(pid) if pid.isdigit() and rest else None


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


def backup_path(path: str) -> str:
    """``path.bak``, or ``path.bak.N`` with the first N not taken: a backup never overwrites another."""
    candidate, n = f"{path}.bak", 1
    while os.path.lexists(candidate):
        candidate, n = f"{path}.bak.{n}", n + 1
    return candidate


def keep_backup(path: str) -> str:
    """Copy ``path`` to a fresh backup name (atomically too) and return that name."""
    target = backup_path(path)
    with atomic_output(target) as out, open(path, "rb") as src:
        shutil.copyfileobj(src, out, 1 << 20)
    shutil.copystat(path, target)
    return target


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _fsync_dir(folder: str) -> None:
    with contextlib.suppress(OSError):  # not every platform/filesystem allows opening a directory
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
