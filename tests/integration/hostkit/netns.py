"""Real hosts on one machine: network namespaces joined by a bridge, each with its own address,
hostname and (optionally) /dev/shm and tmp.

Layout (``Hosts(n)``; every name carries a random 5-hex tag, ``pdh<tag>``, so that two harnesses
never meet): one "switch" namespace ``pdh<tag>sw`` holding a bridge ``br0``, and per host a
namespace ``pdh<tag>h<i>`` whose ``eth0`` is one end of a veth pair, the other end ``p<i>`` a port
of that bridge. Nothing is created in the machine's own namespace (the veth pairs are made inside
the switch namespace with their peer end put straight into the host's), so the private addresses
(``10.213.0.<i+1>/24``) exist only inside namespaces this harness made, and no datagram can reach
any other address. Each host's ``/etc/hosts`` is ``/etc/netns/<ns>/hosts`` (``ip netns exec``
bind-mounts it): its hostname resolves to its own address, as on a configured cluster, unless the
scenario says otherwise.

A command runs on host i as ``ip netns exec NS unshare --uts --mount sh -c 'hostname H; [mount
tmpfs /dev/shm]; exec CMD'``: the launcher sees its own hostname, address and /dev/shm. ``ip netns
exec`` remounts /sys for the namespace, so a cgroup limit would have to be set from outside (not
used here).

Teardown (``close``, also from ``__exit__``, from an ``atexit`` hook, and from the tests'
fixture finalizers): SIGKILL every process inside each namespace (``ip netns pids``: only
processes we started can be there) and every process carrying our tag, then delete the
namespaces (which deletes their links and the bridge) and their /etc/netns folders.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from paddle_doctor.process import tree

PREFIX = "pdh"
SUBNET = "10.213.0"  # private, and only ever inside the namespaces below
ETC_NETNS = Path("/etc/netns")
_LIVE: dict[str, Hosts] = {}  # tag -> harness not yet closed (for the atexit hook)
MADE_TAGS: list[str] = []  # every namespace tag this process made (the leak check reads them)
MADE_PROC_TAGS: list[str] = []  # and every process tag


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20, check=check)


def unavailable() -> str | None:
    """Why real hosts cannot be made here (one line), or None."""
    if os.geteuid() != 0:
        return "host tests need CAP_NET_ADMIN (root) to create network namespaces; running as a user"
    if shutil.which("ip") is None or shutil.which("unshare") is None:
        return "host tests need `ip` (iproute2) and `unshare` (util-linux)"
    probe = f"{PREFIX}{secrets.token_hex(3)}probe"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` was refused here: {made.stderr.strip()[:160]}"
    _ip("netns", "del", probe, check=False)
    return None


def namespaces() -> list[str]:
    out = _ip("netns", "list", check=False).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def leftovers(tags: Sequence[str]) -> list[str]:
    """Namespaces and /etc/netns folders of these tags that still exist."""
    names = [n for n in namespaces() if any(n.startswith(PREFIX + t) for t in tags)]
    folders = [str(p) for p in ETC_NETNS.glob(f"{PREFIX}*") if any(p.name.startswith(PREFIX + t) for t in tags)]
    return names + folders


class Hosts:
    """``n`` hosts; ``hostnames[i]`` its name; ``addr(i)`` its address."""

    def __init__(self, n: int, *, hostnames: Sequence[str] | None = None):
        self.tag = secrets.token_hex(3)[:5]
        self.n = n
        self.hostnames = list(hostnames or [f"host-{chr(ord('a') + i)}" for i in range(n)])
        self.proc_tag = tree.new_tag()  # every process started here carries it
        MADE_PROC_TAGS.append(self.proc_tag)
        self.procs: list[subprocess.Popen] = []
        self._made: list[str] = []

    # -- names ---------------------------------------------------------------------------------

    @property
    def switch(self) -> str:
        return f"{PREFIX}{self.tag}sw"

    def ns(self, i: int) -> str:
        return f"{PREFIX}{self.tag}h{i}"

    def addr(self, i: int) -> str:
        return f"{SUBNET}.{i + 1}"

    # -- making and unmaking -------------------------------------------------------------------

    def __enter__(self) -> Hosts:
        _LIVE[self.tag] = self
        MADE_TAGS.append(self.tag)
        try:
            self._make()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _add_ns(self, name: str) -> None:
        _ip("netns", "add", name)
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def _make(self) -> None:
        self._add_ns(self.switch)
        _ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", self.switch, "link", "set", "br0", "up")
        for i in range(self.n):
            self._add_ns(self.ns(i))
            _ip("-n", self.switch, "link", "add", f"p{i}", "type", "veth", "peer", "name", "eth0", "netns", self.ns(i))
            _ip("-n", self.switch, "link", "set", f"p{i}", "master", "br0", "up")
            _ip("-n", self.ns(i), "addr", "add", f"{self.addr(i)}/24", "dev", "eth0")
            _ip("-n", self.ns(i), "link", "set", "eth0", "up")
            self.set_hosts_file(i, {self.hostnames[i]: self.addr(i)})

    def set_hosts_file(self, i: int, names: Mapping[str, str]) -> None:
        """Host i's /etc/hosts: localhost plus ``names`` (name -> address)."""
        folder = ETC_NETNS / self.ns(i)
        folder.mkdir(parents=True, exist_ok=True)
        lines = ["127.0.0.1 localhost"] + [f"{addr} {name}" for name, addr in names.items()]
        (folder / "hosts").write_text("\n".join(lines) + "\n")

    def pids_in(self, i: int) -> list[int]:
        out = _ip("netns", "pids", self.ns(i), check=False).stdout
        return [int(p) for p in out.split() if p.isdigit()]

    def kill_host(self, i: int) -> int:
        """SIGKILL every process of host i at once (a host that loses power); how many."""
        pids = self.pids_in(i)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return len(pids)

    def close(self) -> None:
        """Everything this harness made is gone afterwards, whatever state it was left in."""
        try:
            for _ in range(3):
                pids = [p for name in self._made for p in _netns_pids(name)] + tree.tagged_pids(self.proc_tag)
                if not pids:
                    break
                for pid in set(pids):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                time.sleep(0.1)
            tree.end_all(self.procs, self.proc_tag, grace=0)
        finally:
            for name in reversed(self._made):
                _ip("netns", "del", name, check=False)
                shutil.rmtree(ETC_NETNS / name, ignore_errors=True)
            self._made.clear()
            _LIVE.pop(self.tag, None)

    # -- running -------------------------------------------------------------------------------

    def command(self, i: int, argv: Sequence[str], *, shm_size: str | None = None) -> list[str]:
        """``argv`` as run on host i: its network, its hostname, its own /dev/shm if sized."""
        script = 'hostname "$1"; shift; '
        if shm_size:
            script += f"mount -t tmpfs -o size={shm_size} tmpfs /dev/shm || exit 97; "
        script += 'exec "$@"'
        return ["ip", "netns", "exec", self.ns(i), "unshare", "--uts", "--mount", "--propagation", "private",
                "sh", "-c", script, "sh", self.hostnames[i], *argv]

    def start(self, i: int, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], out: Path,
              shm_size: str | None = None) -> subprocess.Popen:
        proc = tree.start(self.command(i, argv, shm_size=shm_size), cwd, tree.tagged_env(env, self.proc_tag), out)
        self.procs.append(proc)
        return proc

    def run(self, i: int, argv: Sequence[str], *, timeout: float = 30) -> subprocess.CompletedProcess:
        """A short command on host i (its network only), bounded."""
        return subprocess.run(["ip", "netns", "exec", self.ns(i), *argv], capture_output=True, text=True,
                              timeout=timeout)

    # -- faults and counters -------------------------------------------------------------------

    def link(self, i: int, up: bool) -> None:
        """Host i's cable: its port on the bridge set down (a partition) or up again."""
        _ip("-n", self.switch, "link", "set", f"p{i}", "up" if up else "down")

    def counters(self, i: int) -> dict[str, int]:
        """Host i's own counters: eth0's packets and bytes, and UDP datagrams (its /proc/net/snmp)."""
        out = self.run(i, ["sh", "-c", "cd /sys/class/net/eth0/statistics && cat tx_packets rx_packets tx_bytes "
                                       "rx_bytes; cat /proc/net/snmp"]).stdout.splitlines()
        tx_p, rx_p, tx_b, rx_b = (int(x) for x in out[:4])
        udp, tcp = _snmp(out[4:], "Udp:"), _snmp(out[4:], "Tcp:")
        return {"tx_packets": tx_p, "rx_packets": rx_p, "tx_bytes": tx_b, "rx_bytes": rx_b,
                "udp_out": udp.get("OutDatagrams", 0), "udp_in": udp.get("InDatagrams", 0),
                "udp_noports": udp.get("NoPorts", 0), "udp_in_errors": udp.get("InErrors", 0),
                "tcp_out_segs": tcp.get("OutSegs", 0)}

    def udp_ports(self, i: int) -> list[int]:
        """The UDP ports bound on host i (what a scan of it would find)."""
        ports = set()
        for pid in self.pids_in(i)[:1]:
            try:
                table = Path(f"/proc/{pid}/net/udp").read_text()
            except OSError:
                return []
            ports = {int(row.split()[1].rsplit(":", 1)[1], 16) for row in table.splitlines()[1:] if row.split()}
        return sorted(ports)

    def listening(self, i: int, port: int) -> bool:
        """Something on host i listens on TCP ``port`` (read from a process inside it)."""
        pids = self.pids_in(i)
        for pid in pids[:1]:
            try:
                table = Path(f"/proc/{pid}/net/tcp").read_text()
            except OSError:
                return False
            rows = [line.split() for line in table.splitlines()[1:]]
            return any(r[1].endswith(f":{port:04X}") and r[3] == "0A" for r in rows if len(r) > 3)
        return False


def _snmp(lines: list[str], table: str) -> dict[str, int]:
    """One table of /proc/net/snmp: a header line of names, then a line of numbers."""
    rows = [line.split() for line in lines if line.startswith(table)]
    return dict(zip(rows[0][1:], (int(x) for x in rows[1][1:]))) if len(rows) >= 2 else {}


def _netns_pids(name: str) -> list[int]:
    out = _ip("netns", "pids", name, check=False).stdout
    return [int(p) for p in out.split() if p.isdigit()]


@atexit.register
def _close_all() -> None:
    for hosts in list(_LIVE.values()):
        hosts.close()
