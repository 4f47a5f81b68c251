"""How a lint run reads its files (which ones: :func:`.config.discover`), runs over them
(:class:`Runner`), decodes them and caches their results.

Special files (a FIFO or a socket named ``*.py``) are kept by discovery: :func:`read_regular`
refuses them without blocking, and the run reports them as not checked.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import hmac
import io
import json
import os
import stat
import time
import tokenize
from pathlib import Path

from ..process import forked

PARALLEL_MIN_FILES = 48  # below this, starting worker processes costs more than it saves


class NotChecked(Exception):
    """A file that cannot be read as a regular file within the size limit (the message says why)."""


_SPECIAL = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"))


def read_regular(path: str, max_size: int) -> bytes:
    """The bytes of a regular file; :class:`NotChecked` for a special file, an oversize or unreadable one
    (opened without blocking and checked with fstat before reading: a FIFO named ``*.py`` would wait forever)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise NotChecked(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((word for test, word in _SPECIAL if test(info.st_mode)), "special")
            raise NotChecked(f"not a regular file ({kind}): not read")
        if info.st_size > max_size:
            raise NotChecked(f"{info.st_size / 1e6:.1f} MB is over the {max_size / 1e6:.0f} MB limit "
                             "(max-file-size-mb)")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            return handle.read(max_size + 1)
    except OSError as exc:
        raise NotChecked(f"cannot read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)


# Results cache, as ruff's: a file whose bytes, path, selection and linter code are unchanged is
# not parsed again. One small file per key under CACHE_DIR, written atomically (0600, in folders
# 0700). The cache must not be able to change a result (issue 28 §7): the key is computable from
# readable data, so each record carries an HMAC-SHA256, under a per-user secret (KEY_FILE, 0600,
# made on first use), over the cache key and the record bytes, checked before anything is parsed.
# A record that fails anything (MAC, size, JSON, shape), a key file or a folder that another user
# could have written (not ours, group/world-writable, a symlink): the file is checked afresh.
CACHE_DIR = ".paddle_doctor_cache"
KEY_FILE = "hmac.key"
_KEY_BYTES = 32
_MAX_RECORD = 4 * 1024 * 1024  # a record of one file's findings is a few KB
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_key(path: str, data: bytes, enabled: frozenset[str], variant: str = "") -> str:
    """``variant``: another record of the same file (its result with the whole-program summary)."""
    digest = hashlib.sha256(_code_stamp().encode())
    digest.update(f"\0{os.path.abspath(path)}\0{','.join(sorted(enabled))}\0{variant}\0".encode())
    digest.update(data)
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """The linter's own code (every module of lint/, by size and mtime): a new rule invalidates the cache."""
    here = Path(__file__).resolve().parent
    parts = [f"{p.relative_to(here)}:{p.stat().st_size}:{p.stat().st_mtime_ns}" for p in sorted(here.rglob("*.py"))]
    return "\n".join(parts)


def _private(info: os.stat_result) -> bool:
    """Owned by this user and writable by no one else."""
    return info.st_uid == os.getuid() and not info.st_mode & 0o022 if hasattr(os, "getuid") else True


def cache_secret(cache_dir: str) -> tuple[bytes | None, str | None]:
    """(the per-user HMAC key, None), made on first use; or (None, why the cache is not used)."""
    try:
        if not os.path.lexists(cache_dir):
            os.makedirs(cache_dir, mode=0o700, exist_ok=True)
            with open(os.path.join(cache_dir, ".gitignore"), "w", encoding="utf-8") as handle:
                handle.write("# written by paddle-doctor lint\n*\n")  # as ruff's cache: never committed
        info = os.lstat(cache_dir)
        if not stat.S_ISDIR(info.st_mode) or not _private(info):
            return None, f"{cache_dir} is not a folder of this user's that only it can write: results cache not used"
        return _read_or_make_key(os.path.join(cache_dir, KEY_FILE)), None
    except (OSError, ValueError) as exc:
        return None, f"results cache not used: {exc}"


def _read_or_make_key(path: str) -> bytes:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    except FileExistsError:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not _private(info) or info.st_mode & 0o077:
                raise ValueError(f"{path} is readable or writable by another user")
            key = os.read(fd, _KEY_BYTES + 1)
        finally:
            os.close(fd)
        if len(key) != _KEY_BYTES:
            raise ValueError(f"{path} is not a key of ours")
        return key
    key = os.urandom(_KEY_BYTES)
    try:
        os.write(fd, key)
    finally:
        os.close(fd)
    return key


def _mac(secret: bytes, key: str, payload: bytes) -> str:
    return hmac.new(secret, key.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def cache_load(cache_dir: str, key: str, secret: bytes):
    """The record stored under ``key``, or None: missing, unauthenticated or malformed."""
    return _load_authenticated(os.path.join(cache_dir, key[:2], key + ".rec"), key, secret, _MAX_RECORD)


def _load_authenticated(path: str, key: str, secret: bytes, max_size: int):
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_size:
            return None
        blob = os.read(fd, max_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    mac, _, payload = blob.partition(b"\n")
    if not hmac.compare_digest(mac, _mac(secret, key, payload).encode()):
        return None  # planted, truncated or written under another key: check the file afresh
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


# A run's pack: the first-pass records of all its files in one file (one open, one HMAC, one JSON
# parse instead of one each per file: a warm run of 811 files spent ~25 ms on them), named after the
# run's files and selection. It only gathers records stored under their usual keys (which hash each
# file's bytes), so a hit in it is exactly a hit in the per-file records; the per-file records stay
# (another run's selection of files finds them). It also keeps each file's stat (size, mtime and
# ctime in ns, inode) with its key: a file whose stat is the same is not read again (as git's index
# and ruff do). Only a file last changed STAT_SETTLED_NS before the pack is written gets a stat entry:
# an edit within the filesystem clock's granularity of the stat could otherwise keep all four equal.
_MAX_PACK = 64 * 1024 * 1024
STAT_SETTLED_NS = 2_000_000_000


def pack_name(files: list[str], enabled: frozenset[str]) -> str:
    """The pack of this file list, selection and linter code: the pack hands out the keys it stored, so a pack
    of older linter code would give back that code's results for unchanged files."""
    digest = hashlib.sha256(_code_stamp().encode() + b"\0" + ",".join(sorted(enabled)).encode())
    for path in files:
        digest.update(b"\0" + os.path.abspath(path).encode())
    return "pack-" + digest.hexdigest()


def pack_load(cache_dir: str, name: str, secret: bytes) -> dict:
    """{"records": {cache key: record}, "stats": {path: [*stat, key]}} of the pack ``name``; empty
    if missing, unauthenticated or malformed."""
    pack = _load_authenticated(os.path.join(cache_dir, name), name, secret, _MAX_PACK)
    ok = isinstance(pack, dict) and isinstance(pack.get("records"), dict) and isinstance(pack.get("stats"), dict)
    return pack if ok else {"records": {}, "stats": {}}


def _stat_of(info: os.stat_result) -> list[int]:
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino]


class KnownMentions:
    """What the pack knows of an unchanged file's bytes: which of the names it was checked for (the
    pending names of the run that wrote it) they hold. ``name in it``: KeyError for a name not checked."""

    def __init__(self, checked: list[str], found: list[str]) -> None:
        self.checked, self.found = {n.encode() for n in checked}, {n.encode() for n in found}

    def __contains__(self, name: bytes) -> bool:
        if name in self.checked:
            return name in self.found
        raise KeyError(name)

    def __len__(self) -> int:
        return 0  # holds no bytes


def unchanged_key(pack: dict, path: str, max_size: int) -> tuple[str | None, KnownMentions | None]:
    """(the cache key the pack gave ``path``, what it knows of its bytes) if its stat is the one
    recorded with it, else (None, None): read it."""
    entry = pack["stats"].get(path)
    try:
        info = os.stat(path)
    except OSError:
        return None, None
    if not isinstance(entry, list) or len(entry) != 6 or not stat.S_ISREG(info.st_mode) or info.st_size > max_size \
            or entry[:4] != _stat_of(info):
        return None, None
    return entry[4], KnownMentions(pack.get("names", []), entry[5])


def pack_store(cache_dir: str, files: list[str], enabled: frozenset[str], max_size: int, secret: bytes,
               names: set[str]) -> None:
    """The run's pack, from the per-file records as they are now: a file's record is stored under
    the key of the bytes that were linted, so a file edited during the run is left out of it. With
    each stat, which of the run's pending ``names`` the file's bytes hold (its second pass)."""
    records, stats, settled = {}, {}, time.time_ns() - STAT_SETTLED_NS
    for path in files:
        try:
            before = os.stat(path)
            data = read_regular(path, max_size)
            key = cache_key(path, data, enabled)
            after = os.stat(path)
        except (NotChecked, OSError):
            continue
        record = cache_load(cache_dir, key, secret)
        if record is not None:
            records[key] = record
            if _stat_of(before) == _stat_of(after) and max(after.st_mtime_ns, after.st_ctime_ns) < settled:
                stats[path] = [*_stat_of(after), key, [n for n in names if n.encode() in data]]
    name = pack_name(files, enabled)
    pack = {"records": records, "stats": stats, "names": sorted(names)}
    _store_authenticated(cache_dir, name, name, pack, secret, _MAX_PACK)


def cache_store(cache_dir: str, key: str, record, secret: bytes) -> None:
    _store_authenticated(os.path.join(cache_dir, key[:2]), key + ".rec", key, record, secret)


def _store_authenticated(folder: str, filename: str, key: str, record, secret: bytes, max_size: int = _MAX_RECORD) -> None:
    tmp = os.path.join(folder, f".{filename}.{os.getpid()}.tmp")
    try:
        payload = json.dumps(record, separators=(",", ":")).encode()
        if len(payload) + 65 > max_size:
            raise ValueError("over the size a load accepts: not written")  # it would never be read back
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(_mac(secret, key, payload).encode() + b"\n" + payload)
        os.replace(tmp, os.path.join(folder, filename))
    except (OSError, TypeError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)  # a record that could not be written leaves no half file behind


class Kept(dict):
    """Files' bytes kept in the main process for the second pass, up to ``limit`` bytes in all (then read again)."""

    def __init__(self, limit: int = 64 * 1024 * 1024) -> None:
        super().__init__()
        self.limit, self.total = limit, 0

    def keep(self, path: str, data) -> None:
        if self.total + len(data) <= self.limit:
            self[path], self.total = data, self.total + len(data)


def decode(data: bytes) -> tuple[str | None, str]:
    """The source text (PEP 263 coding cookie and BOM honoured), or None and why."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), ""
    except (SyntaxError, LookupError) as exc:
        return None, f"cannot decode: {exc}"
    except UnicodeDecodeError as exc:  # NUL bytes decode; ast.parse refuses them below
        return None, f"not valid {exc.encoding} at byte {exc.start} (declare the encoding or convert the file)"


class Runner:
    """Runs a function over many argument tuples: in forked workers for PARALLEL_MIN_FILES files or more, else
    here. Each call forks its workers, which inherit the arguments, take chunk numbers as tokens and send each
    chunk's results back as a frame (:mod:`paddle_doctor.process.forked`; concurrent.futures' pool cost a cold
    run ~0.05 s more). The collector is paused meanwhile: each file's trees are freed after it."""

    def __init__(self, workers: int, files: int) -> None:
        # fork copies only the calling thread: a process with other threads (lint called from an embedding
        # program) runs the files itself
        self.workers = workers if workers > 1 and files >= PARALLEL_MIN_FILES and forked.can_fork() else 1

    def __enter__(self):
        self.collecting = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc) -> None:
        if self.collecting:
            gc.enable()

    def __call__(self, function, todo: list, each=lambda result: result) -> list:
        """``each`` sees (and returns) each result here as its chunk comes in, while the workers go on."""
        if self.workers == 1 or len(todo) <= 1:  # else even a few files go to workers (the second pass)
            return [each(function(a)) for a in todo]
        size = max(1, min(16, len(todo) // 8), -(-len(todo) // forked.MAX_TOKENS))
        chunks = len(range(0, len(todo), size))
        try:
            tasks = forked.token_pipe(chunks)
        except OSError:  # a pipe too small for the tokens (the kernel's pipe budget spent): here
            return [each(function(a)) for a in todo]
        pids, outs, failed = [], [], True
        try:
            for _ in range(min(self.workers, chunks)):
                out, into = os.pipe()
                outs.append(out)
                try:
                    pids.append(forked.fork_child(functools.partial(_work, function, todo, size, tasks, into), close=outs))
                finally:
                    os.close(into)
            results, failed = _gather(outs, chunks, each), False
        finally:
            for fd in (tasks, *outs):
                os.close(fd)  # a worker still writing meets EPIPE
            for pid in pids:
                forked.reap(pid, kill=failed)
        return [result for chunk in results for result in chunk]


def _gather(outs: list[int], count: int, each) -> list:
    """Each worker's results until all are in (poll, not select: no limit on the descriptors' numbers)."""
    import pickle
    import select

    results, frames, done, poller = [None] * count, {fd: forked.Frames() for fd in outs}, 0, select.poll()
    for fd in outs:
        poller.register(fd, select.POLLIN)
    while done < count:
        for fd, _ in poller.poll():
            data = os.read(fd, 1 << 20)
            if not data:  # that worker ended
                poller.unregister(fd)
                del frames[fd]
                if not frames:
                    raise RuntimeError("the lint worker processes ended before all files were linted")
                continue
            for frame in frames[fd].feed(data):
                number, ok, payload = pickle.loads(frame)
                if not ok:
                    raise payload  # the function's own exception, re-raised here as the pool did
                results[number], done = [each(result) for result in payload], done + 1
    return results


def _work(function, todo: list, size: int, tasks: int, into: int) -> None:
    import pickle

    while (number := forked.take_token(tasks)) is not None:
        start = number * size
        try:
            reply = (number, True, [function(a) for a in todo[start:start + size]])
        except Exception as exc:  # noqa: BLE001 - sent to the main process, which raises it
            reply = (number, False, exc)
        forked.send_frame(into, pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
