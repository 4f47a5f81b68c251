"""What a rank knows of one peer: its address, its last beat, its end, and what /proc, its sidecar or
its node's watcher say of its process. Filled by ``heartbeat.Mesh`` (and ``link.from_watcher``),
read by the verdict (``verdict.judge``). Nothing here imports paddle.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

from paddle_doctor.runtime.guards import procinfo


@dataclass
class Peer:
    rank: int
    addr: tuple[str, int]
    sock: socket.socket | None = None
    first_seen: float | None = None  # monotonic
    last_seen: float | None = None
    info: dict = field(default_factory=dict)  # the last beat
    end: dict | None = None  # what it said when ending
    end_seen: float = 0.0  # monotonic time its end message arrived
    refused: int = 0  # "port unreachable" answers in a row (before its first beat too)
    gone: bool = False  # its process no longer exists
    proc_state: str | None = None  # /proc state letter, same-host peers only
    fps: dict = field(default_factory=dict)  # (group, seq) -> fingerprint
    side: dict = field(default_factory=dict)  # the last beat of its sidecar (its process as the kernel sees it)
    side_seen: float | None = None  # monotonic
    stopped_since: float | None = None  # first seen in state T (its /proc or its sidecar), None once it runs
    node: int = 0
    remote: bool = False  # on another node: known only through the node watchers' verdicts
    same_host: bool = False  # its endpoint's host is this rank's: its process can be looked for in /proc
    scanned: tuple[float, bool] | None = None  # (monotonic, found): the last /proc search for its process
    node_down: dict | None = None  # its node was declared dead, with the evidence
    remote_how: str | None = None  # a remote verdict's evidence
    direct_until: float = 0.0  # monotonic: beat to it directly until then (it hears no relay)

    def silence(self, now: float) -> float | None:
        return None if self.last_seen is None else now - self.last_seen

    @property
    def pid(self) -> int | None:
        return self.info.get("pid") or self.side.get("pid")

    @property
    def local(self) -> bool:
        hk = self.info.get("hk") or self.side.get("hk")
        return bool(hk) and hk == procinfo.host_key()

    def runs(self, now: float, within: float) -> bool:
        """Its process is seen running (busy or waiting, not stopped) by /proc or, within
        ``within`` seconds, by its sidecar: alive whatever its own beat thread does."""
        if self.gone:
            return False
        if self.local and self.proc_state is not None:
            return self.proc_state not in ("T", "t")
        fresh = self.side_seen is not None and now - self.side_seen < within
        return fresh and self.side.get("ps") not in (None, "T", "t", "gone")

    def note_state(self, state: str | None, now: float) -> None:
        if state in ("T", "t"):
            self.stopped_since = self.stopped_since or now
        elif state is not None:
            self.stopped_since = None
