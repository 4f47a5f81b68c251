"""Read every source into events, in input order; unreadable ones are reported, not fatal.

Many big logs are read in two processes (issue 29's bench, 1024 logs of 512 KiB on 2 cores: the
read is ~80 % of diagnose's time). A forked child and this process take the files one by one from a
shared pipe of tokens (the faster takes more); the child sends each file's events back pickled as
soon as it has them (the protocol of :mod:`paddle_doctor.process.forked`). The answer is the same as one process's: each file is read alone, the outcomes
are put back in input order, and the objects both processes share (signatures, sources) come back
as the parent's own. Whatever the child did not send (it died, a message does not load) this
process reads itself. Small inputs, no core idle (a busy machine), not Linux, or a process with
threads (fork copies only the calling thread) are read in one process. An earlier fork *pool* of 2
workers (one task per file, through multiprocessing) was slower (1.33 s) than one process (0.95 s).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import os
import sys
from collections.abc import Callable

from ...process import forked
from ..signatures import Signature
from .launches import LAST, LaunchChoice
from .parse import BinaryFileError, FileEvents, NoSuchLaunch, read_events
from .literals.finders import SMALL_SCAN_BYTES
from .sources import SourceFile

SKIP_ROLES = ("env", "aux", "record")
# Below these, one process: a fork, a pickle and its load cost ~10-30 ms, more than the read saves.
FORK_MIN_FILES = 16
FORK_MIN_BYTES = 64 << 20
FORK_MAX_FILES = forked.MAX_TOKENS  # one token a file (more files: one process)


def read_all(sources: list[SourceFile], skipped: list[str], choice: LaunchChoice = LAST,
             meanwhile: Callable[[], object] | None = None) -> tuple[list[FileEvents], list[str]]:
    """Events of every readable source (of the launch ``choice`` names, when several appended to
    one file), and ``skipped`` extended with "path: skipped, reason". ``meanwhile``: work of the
    caller's that this process does while a forked child reads (only then is it called)."""
    year = dt.date.today().year
    todo = [s for s in sources if s.role not in SKIP_ROLES]
    sizes = _sizes(todo)
    if sizes is not None:
        outcomes = _read_forked(todo, sizes, year, choice, meanwhile)
    else:
        outcomes = [_outcome(source, year, choice) for source in todo]
    files = []
    for source, outcome in zip(todo, outcomes):
        if isinstance(outcome, FileEvents):
            files.append(outcome)
            skipped += [f"{source.path}: {note}" for note in outcome.notes]
        else:
            skipped.append(f"{source.path}: skipped, {outcome}")
    return files, skipped


def _outcome(source: SourceFile, year: int, choice: LaunchChoice) -> FileEvents | str:
    """The file's events, or why it was skipped."""
    try:
        return read_events(source, year, choice)
    except (BinaryFileError, NoSuchLaunch) as exc:
        return str(exc)
    except OSError as exc:
        return str(exc.strerror or exc)


def _sizes(todo: list[SourceFile]) -> list[int] | None:
    """The sizes of the files, when they are worth two processes; else None."""
    # Linux only: macOS forbids fork without exec once its system frameworks are loaded (and where
    # it was measured is Linux); Windows has no fork.
    if not FORK_MIN_FILES <= len(todo) <= FORK_MAX_FILES or not sys.platform.startswith("linux"):
        return None
    if forked.usable_cores() < 2 or not forked.can_fork() or not forked.idle_core():
        return None
    sizes = [_size(source) for source in todo]
    return sizes if sum(sizes) >= FORK_MIN_BYTES else None


def _size(source: SourceFile) -> int:
    if source.data is not None:
        return len(source.data)
    try:
        return os.stat(source.path).st_size
    except OSError:
        return 0


def _read_forked(todo: list[SourceFile], sizes: list[int], year: int, choice: LaunchChoice,
                 meanwhile: Callable[[], object] | None) -> list[FileEvents | str]:
    """The outcomes of ``todo``. Its first files, up to the bytes after which the scanner uses
    Hyperscan, are read here before the fork: Hyperscan's database, the signatures' compiled regexes
    and the matcher's cache of line shapes are then made once (the child inherits them), not once
    in each process (~50 ms of CPU on the 1024-rank bench)."""
    first, warm_bytes = 0, 0
    while first < len(todo) and warm_bytes < SMALL_SCAN_BYTES and sizes[first] <= SMALL_SCAN_BYTES:
        warm_bytes += sizes[first]
        first += 1
    warm = [_outcome(source, year, choice) for source in todo[:first]]
    rest = _read_in_two(todo[first:], year, choice, meanwhile) if first < len(todo) else []
    return warm + (rest if rest is not None else [_outcome(source, year, choice) for source in todo[first:]])


def _read_in_two(todo: list[SourceFile], year: int, choice: LaunchChoice,
                 meanwhile: Callable[[], object] | None = None) -> list[FileEvents | str] | None:
    """The outcomes of ``todo``, read by this process and a forked child; None when no child could
    be made. Both take the next file's index from one pipe of tokens (each ``os.read`` of 4 bytes
    takes one whole token), so the faster one reads more, whatever else runs on the machine; the
    child sends each outcome as soon as it has it, and this process takes them in between its own."""
    started = _start_child(todo, year, choice)
    if started is None:
        return None
    pid, tokens, receive = started
    inbox = _Inbox(receive, todo)
    outcomes: dict[int, FileEvents | str] = {}
    try:
        if meanwhile is not None:
            meanwhile()
        while (i := forked.take_token(tokens)) is not None:
            outcomes[i] = _outcome(todo[i], year, choice)
            inbox.take(outcomes, wait=False)
        inbox.take(outcomes, wait=True)
    finally:
        os.close(tokens)
        inbox.close(pid, done=len(outcomes) == len(todo))
    # What a child that failed did not send is read here (an error it met is met again, and raised).
    return [outcomes[i] if i in outcomes else _outcome(todo[i], year, choice) for i in range(len(todo))]


def _start_child(todo: list[SourceFile], year: int, choice: LaunchChoice) -> tuple[int, int, int] | None:
    """The child's pid, the tokens' pipe, and the pipe its outcomes come on; None when the pipes or
    the fork cannot be made."""
    opened: list[int] = []
    try:
        opened.append(forked.token_pipe(len(todo)))
        opened += os.pipe()
        tokens, receive, send = opened
        pid = forked.fork_child(lambda: _child(todo, year, choice, tokens, send), close=(receive,))
    except OSError:
        for fd in opened:
            os.close(fd)
        return None
    os.close(send)
    return pid, tokens, receive


def _child(todo: list[SourceFile], year: int, choice: LaunchChoice, tokens: int, send: int) -> None:
    """Read the files whose tokens this process takes, sending each outcome as a frame."""
    pickled = _pickler(todo)
    while (i := forked.take_token(tokens)) is not None:
        forked.send_frame(send, pickled((i, _outcome(todo[i], year, choice))))


class _Inbox:
    """The child's outcomes, read off its pipe as they come (without waiting, between this process's
    own files: the child never waits long on a full pipe) or to its end."""

    def __init__(self, fd: int, todo: list[SourceFile]) -> None:
        self.fd, self.load, self.frames = fd, _unpickler(todo), forked.Frames()
        os.set_blocking(fd, False)

    def take(self, outcomes: dict, wait: bool) -> None:
        if wait:
            os.set_blocking(self.fd, True)
        while True:
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._unpack(self.frames.feed(chunk), outcomes)

    def _unpack(self, frames: list[bytes], outcomes: dict) -> None:
        for frame in frames:
            with contextlib.suppress(Exception):  # not one of the child's messages: that file is read again
                i, outcome = self.load(frame)
                outcomes[i] = outcome

    def close(self, pid: int, done: bool) -> None:
        """Close the pipe and reap the child (ended first if this process stops early)."""
        os.close(self.fd)
        forked.reap(pid, kill=not done)


def _shared_signatures() -> dict[str, Signature]:
    from ..signatures import SIGNATURES
    from .runners import RUNNER_SIGNATURES

    return {sig.name: sig for sig in (*SIGNATURES, *RUNNER_SIGNATURES)}


# Sources and signatures travel as references to the parent's own objects (the same ones, not
# copies: later steps may compare them by identity): the child pickles them as a call of _shared,
# which the parent's unpickler resolves. A reducer_override, not a persistent_id: that one is
# called for every object pickled (every string, every dict), this one only for objects of a class
# (half the pickling time). pickle is imported only here, when a child is made.
def _pickler(todo: list[SourceFile]) -> Callable[[object], bytes]:
    """A function: an object -> its pickle, made alone (its own memo)."""
    import pickle

    sources, signatures = {id(source): i for i, source in enumerate(todo)}, _shared_signatures()

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj):
            if isinstance(obj, SourceFile):
                return _shared, ("source", sources[id(obj)])
            if isinstance(obj, Signature):
                if signatures.get(obj.name) is not obj:
                    raise pickle.PicklingError(f"signature {obj.name!r} is not in the shared tables")
                return _shared, ("signature", obj.name)
            return NotImplemented

    file = io.BytesIO()
    pickler = Pickler(file, protocol=pickle.HIGHEST_PROTOCOL)

    def message(obj) -> bytes:
        file.seek(0)
        file.truncate()
        pickler.clear_memo()
        pickler.dump(obj)
        return file.getvalue()

    return message


def _unpickler(todo: list[SourceFile]) -> Callable[[bytes | bytearray], object]:
    """A function: a message of :func:`_pickler`'s -> its object."""
    import pickle

    signatures = _shared_signatures()

    def shared(kind: str, key):
        return todo[key] if kind == "source" else signatures[key]

    class Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            if module == __name__ and name == "_shared":
                return shared
            return super().find_class(module, name)

    return lambda data: Unpickler(io.BytesIO(data)).load()


def _shared(kind: str, key):
    """What the child pickles for an object both processes hold; never called: :func:`_unpickler`
    puts its own lookup in its place."""
    raise RuntimeError(f"a shared {kind} ({key!r}) read outside diagnose's forked reader")
