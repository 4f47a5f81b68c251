"""Which ranks share a node, and where each node's watcher listens.

The launcher groups ranks by node: ``PADDLE_TRAINER_ENDPOINTS`` lists ``host:port`` per rank, and
ranks with the same host are on one node. ``PADDLE_DOCTOR_RANKS_PER_NODE=n`` overrides that with
``node = rank // n`` (tests fake two nodes on loopback; a host with several NICs is still one node).

Each node of a multi-node job has one watcher process (``watcher.py``) that listens on the UDP port
numbered like the TCP endpoint of the node's lowest rank (the launcher picked that port free; UDP
ports are a separate space); that rank binds its own beat socket elsewhere and says where in its
beats. So every watcher knows every other one's address without any exchange. A one-node job has
no watcher: every peer is local, and /proc says all there is to know.

Nothing here imports paddle.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from paddle_doctor.contract import RANKS_PER_NODE_ENV


@dataclass(frozen=True)
class Layout:
    node_of: tuple[int, ...]  # rank -> node id (0, 1, ... in order of first rank)
    watcher_addrs: tuple[tuple[str, int], ...]  # node -> its watcher's UDP address

    @property
    def nodes(self) -> int:
        return len(self.watcher_addrs)

    def ranks_on(self, node: int) -> list[int]:
        return [r for r, n in enumerate(self.node_of) if n == node]

    def leader(self, node: int) -> int:
        """The rank that starts the node's watcher: its lowest."""
        return min(self.ranks_on(node))


def layout(endpoints: list[tuple[str, int]], env=None) -> Layout:
    env = os.environ if env is None else env
    per_node = _int(env.get(RANKS_PER_NODE_ENV))
    ids: dict = {}
    node_of = []
    for rank, (host, _port) in enumerate(endpoints):
        key = rank // per_node if per_node else host
        node_of.append(ids.setdefault(key, len(ids)))
    addrs = []
    for node in range(len(ids)):
        first = node_of.index(node)
        addrs.append(endpoints[first])
    return Layout(tuple(node_of), tuple(addrs))


def _int(value) -> int:
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return 0
