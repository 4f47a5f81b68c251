"""The liveness channel's seal: a per-job secret key, an HMAC over every datagram, and a count of
every datagram dropped.

Why: the heartbeats decide whether to end a job, so a datagram that anyone could write (the old
"job token" was a CRC32 of public values, and it was in the sidecars' argv) could end a healthy
job or blind its watchdog. Now every datagram is ``MAGIC | HMAC-SHA256(key, MAGIC | body) | body``
where ``body`` is ``{"rid": run id, "sid": sender, "q": sequence, "m": message}`` in JSON, and the
receiver, in this order and before any parsing of the body: drops a datagram over
``MAX_DATAGRAM`` bytes, one without the magic, one whose MAC is wrong (``hmac.compare_digest``);
then parses, and drops a body of the wrong shape, of another run, or whose sequence is not above
the last one it accepted from that sender (a replay), or more than an hour from the receiver's
clock (a stale datagram, even as the first one heard from its sender). A sender's sequence is
``time.time_ns()`` or one more than its last, so a restarted sender (same id, same host) goes on
above its predecessor. Every drop is counted by reason (``Stats``), never raised.

The key (32 random bytes) reaches the processes that need it without argv, without the
environment (Paddle's launcher copies every rank's whole environment into ``envlog.N`` and
``backup_env.N.json``) and without a log:

- ``paddle-doctor run`` writes it to a 0600 file in a 0700 folder of its own and puts only the
  file's PATH in the environment (``PADDLE_DOCTOR_KEY_FILE``); it removes both at the end;
- without ``run``, the first rank of a host to need it creates ``.paddle_doctor_key.<job>`` (0600,
  created exclusively, so every rank of the host reads the same one) in this user's private
  folder (``keys.py``);
- across nodes, rank 0 publishes its key on the job's TCP store and the others read it there
  (``watchdog.ensure_started``);
- a rank hands it to its sidecar and its node's watcher on their stdin (a pipe).

Standard library only: the sidecar and the watcher import this file beside them (``python -I -S``).
Nothing here imports paddle.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time

MAGIC = b"PDL1"
MAC_BYTES = 32
MAX_DATAGRAM = 32 * 1024  # an "end" message with its finding and history is under 8 KiB
KEY_BYTES = 32
MAX_SENDERS = 4096  # sequences kept (a job has one per rank, sidecar and watcher)
WINDOW_NS = 3600 * 10**9  # a sequence (a time_ns) further than this from this host's clock, either way, is refused
KEY_FILE_PREFIX = ".paddle_doctor_key."
DROP_REASONS = ("oversized", "unauthenticated", "bad_mac", "malformed", "foreign_run", "replayed", "invalid")


def new_key() -> bytes:
    return os.urandom(KEY_BYTES)


def write_key_file(path: str, key: bytes) -> None:
    """``key`` (hex) to a new file readable by its owner only; fails if ``path`` exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex())


def read_key_file(path: str) -> bytes | None:
    """The key in ``path``, or None when it is missing, unreadable, or not a key."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, encoding="ascii", errors="replace") as f:
            text = f.read(4 * KEY_BYTES).strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError):
        return None
    return key if len(key) == KEY_BYTES else None


def shared_key_file(path: str, wait: float = 2.0) -> bytes | None:
    """The key in ``path``, made there by whichever caller comes first (the others read it)."""
    key = read_key_file(path)
    if key is not None:
        return key
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        write_key_file(tmp, new_key())
        os.link(tmp, path)  # atomic and exclusive: the first one wins, complete
    except FileExistsError:
        pass
    except OSError:
        return None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    deadline = time.monotonic() + wait
    while (key := read_key_file(path)) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return key


class Stats:
    """What the channel dropped, by reason, and what it accepted; written where a test (or an
    operator on the host) can read it."""

    def __init__(self, who: str, path: str | None = None):
        self.who, self.path = who, path
        self.drops = dict.fromkeys(DROP_REASONS, 0)
        self.accepted = 0
        self.loop_errors = 0
        self.first: dict | None = None  # the first drop: reason and source, said once
        self._dirty, self._written = False, 0.0
        self._said: set[str] = set()

    def drop(self, reason: str, src) -> None:
        self.drops[reason] = self.drops.get(reason, 0) + 1
        self._dirty = True
        if self.first is None:
            self.first = {"reason": reason, "from": f"{src[0]}:{src[1]}" if src else "?"}

    def loop_error(self, where: str, exc: BaseException) -> None:
        """An exception in a loop that must go on: counted, and said once."""
        self.loop_errors += 1
        self._dirty = True
        self.say_once("loop", f"an error in {where} ({type(exc).__name__}: {exc}); it goes on (errors are "
                              f"counted in {self.where()})")

    def note_drops(self) -> None:
        """Say the first drop once; write the counters when they changed (every turn of a loop)."""
        if self.first is not None:
            self.say_once("drop", f"ignored a datagram it could not accept ({self.first['reason']}, from "
                                  f"{self.first['from']}); such datagrams are dropped and counted in "
                                  f"{self.where()}, never believed")
        self.flush()

    def say_once(self, what: str, text: str) -> None:
        """One line on stderr (the rank's log) per kind of trouble with this channel, never more."""
        if what in self._said:
            return
        self._said.add(what)
        self.flush(force=True)
        try:
            os.write(2, f"[paddle-doctor] liveness channel of {self.who}: {text}\n".encode("ascii", "backslashreplace"))
        except OSError:
            pass

    def where(self) -> str:
        return self.path or "the error record"

    def total_dropped(self) -> int:
        return sum(self.drops.values())

    def to_dict(self) -> dict:
        return {"who": self.who, "accepted": self.accepted, "dropped": dict(self.drops),
                "dropped_total": self.total_dropped(), "loop_errors": self.loop_errors, "first_drop": self.first}

    def flush(self, force: bool = False, every: float = 1.0) -> None:
        """Write the counters (atomically) when they changed, at most once per ``every`` s; only
        once something was dropped or went wrong (a healthy run leaves no file)."""
        now = time.monotonic()
        if self.path is None or not (self.total_dropped() or self.loop_errors):
            return
        if not (force or (self._dirty and now - self._written >= every)):
            return
        self._dirty, self._written = False, now
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(self.to_dict(), f)
            os.replace(tmp, self.path)
        except OSError:
            pass


class Sealer:
    """Seals this sender's messages: its id (``r3`` a rank, ``s3`` its sidecar, ``w1`` a node's
    watcher) and a sequence that only grows."""

    def __init__(self, key: bytes, run_id: str, sid: str):
        self.key, self.run_id, self.sid, self.seq = key, run_id, sid, 0

    def seal(self, msg: dict) -> bytes:
        self.seq = max(self.seq + 1, time.time_ns())
        body = json.dumps({"rid": self.run_id, "sid": self.sid, "q": self.seq, "m": msg},
                          separators=(",", ":"), default=str).encode()
        return MAGIC + hmac.new(self.key, MAGIC + body, hashlib.sha256).digest() + body


class Opener:
    """Opens sealed datagrams: authenticates, then parses, then checks run and sequence."""

    def __init__(self, key: bytes, run_id: str, stats: Stats):
        self.key, self.run_id, self.stats = key, run_id, stats
        self._last: dict[str, int] = {}

    def open(self, data: bytes, src=None, check=None) -> tuple[str, dict] | None:
        """(sender id, message), or None (dropped and counted). ``check(sid, msg)``: the message's
        own shape (``schema.valid``); a message that fails it moves no sequence on."""
        reason = self._authentic(data)
        if reason:
            return self._drop(reason, src)
        try:
            body = json.loads(data[len(MAGIC) + MAC_BYTES:])
        except (ValueError, RecursionError):
            return self._drop("malformed", src)
        if not (isinstance(body, dict) and isinstance(body.get("sid"), str) and len(body["sid"]) <= 16
                and _is_int(body.get("q")) and isinstance(body.get("m"), dict)):
            return self._drop("malformed", src)
        if body.get("rid") != self.run_id:
            return self._drop("foreign_run", src)
        sid, seq = body["sid"], body["q"]
        now = time.time_ns()
        if seq <= self._last.get(sid, -1) or seq < now - WINDOW_NS:  # sent before, or long ago (first contact too)
            return self._drop("replayed", src)
        if seq > now + WINDOW_NS or sid not in self._last and len(self._last) >= MAX_SENDERS:
            return self._drop("invalid", src)
        if check is not None and not check(sid, body["m"]):
            return self._drop("invalid", src)
        self._last[sid] = seq
        self.stats.accepted += 1
        return sid, body["m"]

    def _authentic(self, data: bytes) -> str:
        if len(data) > MAX_DATAGRAM:
            return "oversized"
        if len(data) < len(MAGIC) + MAC_BYTES or not data.startswith(MAGIC):
            return "unauthenticated"
        mac = data[len(MAGIC):len(MAGIC) + MAC_BYTES]
        good = hmac.new(self.key, MAGIC + data[len(MAGIC) + MAC_BYTES:], hashlib.sha256).digest()
        return "" if hmac.compare_digest(mac, good) else "bad_mac"

    def _drop(self, reason: str, src) -> None:
        self.stats.drop(reason, src)
        return None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
