"""``smoke --hosts A[:PORT],B,...``: the job's nodes as one list, the same command on every node.

The list says what ``--nnodes`` and ``--master`` would (its length; its first host, the master, at
PORT), and it lets each node check, before it launches anything, that it is one of the listed hosts
and that it will advertise the listed address: Paddle's launcher advertises what the host name
resolves to (``gethostbyname(getfqdn())``) unless ``POD_IP``/``--host`` says otherwise, and a name
that resolves to 127.0.1.1 is the classic node nobody can reach (``wrong_host_ip``).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from paddle_doctor.process.bounded_run import call_within

DEFAULT_PORT = 6170  # the port of docs/smoke.md's examples; any free port agreed by every node works
RESOLVE_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class HostList:
    hosts: tuple[str, ...]
    port: int

    @property
    def master(self) -> str:
        return f"{self.hosts[0]}:{self.port}"

    @property
    def nnodes(self) -> int:
        return len(self.hosts)


def parse_hosts(value: str) -> HostList:
    """``A[:PORT],B,C``: the master first; only it may carry the port."""
    items = [item.strip() for item in value.split(",")]
    if not items or any(not item for item in items):
        raise ValueError(f"--hosts must be HOST[:PORT],HOST[,...] with no empty entry, not {value!r}")
    first, sep, port = items[0].rpartition(":") if items[0].count(":") == 1 else ("", "", "")
    if sep and not port.isdigit():
        raise ValueError(f"--hosts: the master's port must be a number, not {port!r}")
    hosts = ([first] if sep else [items[0]]) + items[1:]
    if any(":" in h and not _is_ipv6(h) for h in hosts[1:]):
        raise ValueError("--hosts: only the first host (the master) may carry a port")
    if len(set(hosts)) != len(hosts):
        raise ValueError(f"--hosts lists a host twice: {value!r} (one entry per node)")
    return HostList(tuple(hosts), int(port) if sep else DEFAULT_PORT)


@dataclass(frozen=True)
class NodeCheck:
    index: int | None  # which listed host this machine is; None when it is none of them
    errors: tuple[str, ...]  # the launch would fail or hang: say so and do not launch
    warnings: tuple[str, ...] = ()


def check_this_node(hosts: HostList, local: Iterable[str], advertised: str | None,
                    resolve: Callable[[str], set[str]] | None = None) -> NodeCheck:
    """Which listed host this machine is, and what to say before launching.

    ``local``: this machine's interface addresses; ``advertised``: what its host name resolves to
    (the address Paddle's launcher gives the other nodes)."""
    resolve = resolve or resolve_host
    local = set(local)
    addresses = {h: resolve(h) for h in hosts.hosts}
    errors = [f"--hosts lists {h}, which resolves to a loopback address ({', '.join(sorted(a))}): the other "
              "nodes cannot reach it; list each node's own address"
              for h, a in addresses.items() if hosts.nnodes > 1 and a and all(_is_loopback(x) for x in a)]
    unresolved = [h for h, a in addresses.items() if not a]
    if unresolved:
        errors.append(f"--hosts: cannot resolve {', '.join(unresolved)} from this machine")
    mine = [i for i, h in enumerate(hosts.hosts) if addresses[h] & local]
    if not mine:
        errors.append(f"this machine (addresses {', '.join(sorted(local)) or 'none found'}) is none of "
                      f"--hosts {','.join(hosts.hosts)}: run the command on each listed host")
        return NodeCheck(None, tuple(errors))
    index = mine[0]
    listed = addresses[hosts.hosts[index]]
    if hosts.nnodes < 2 or not advertised or advertised in listed:
        return NodeCheck(index, tuple(errors))
    advert = (f"this node is {hosts.hosts[index]} in --hosts, but its host name resolves to {advertised}, the "
              "address Paddle's launcher advertises to the other nodes")
    if _is_loopback(advertised):
        errors.append(f"{advert}, which they cannot reach (wrong_host_ip): fix /etc/hosts, or export "
                      "POD_IP=<the listed address> before the command")
        return NodeCheck(index, tuple(errors))
    return NodeCheck(index, tuple(errors), (f"{advert}: the other nodes must reach it too",))


def resolve_host(host: str) -> set[str]:
    """The host's addresses, or an empty set when it does not resolve within RESOLVE_TIMEOUT_S
    (a lookup that waits for DNS must not hold the node before its launch)."""
    return call_within(lambda: {info[4][0] for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)},
                       RESOLVE_TIMEOUT_S, set())


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _is_ipv6(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 6
    except ValueError:
        return False
