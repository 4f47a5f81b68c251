#!/usr/bin/env python3
"""Benchmark (issue 31): the guards' messages per rank on the wire, on real hosts (network
namespaces on this machine, the harness of tests/integration/hostkit), for a healthy guarded
``paddle_doctor.evaluate`` (its own watchdog and node watchers).

For each layout (hosts x ranks per host) one job runs under the real launcher, one launcher per
host; once every rank is inside its evaluation, each host's own counters are read at the start
and at the end of a window of ``--window`` s (no collective runs then: evaluate's only
collective is its last one):
- ``udp/rank/s``: UDP datagrams sent by every process of every host (each namespace's
  /proc/net/snmp ``Udp: OutDatagrams``: beats, sidecars, node watchers), per rank per second;
- ``cross pkts/rank/s``, ``cross B/rank/s``: packets and bytes sent on the hosts' ``eth0`` (what
  crosses between hosts: the node watchers' SWIM traffic, and TCP: evaluate reads the store after
  each batch; ``tcp segs/s`` is the namespaces' ``Tcp: OutSegs`` in the same window);
- ``cross udp/rank/s``: the UDP share of that, from the hosts other than host 0 (they hold no TCP
  server, so all their TCP leaves on eth0: eth0 packets minus TCP segments), scaled to all hosts.
Within a host, ranks beat to their node's watcher, which relays one digest per rank per tick (a
one-host job has a watcher too, since issue 31; before, every rank beat to every other).

``--freeze HxK:R`` instead: the same healthy job on H hosts of K ranks, then rank R's worker
SIGSTOPped (``--signal KILL``: SIGKILLed) once every rank is evaluating (+1 s); seconds until rank
0's log names rank R (its watchdog line), ``--reps`` times.

    .venv/bin/python bench/bench_hosts.py [--layouts 2x1,2x2,3x1,3x2,1x2,1x8] [--window 5] [--json OUT]
    .venv/bin/python bench/bench_hosts.py --freeze 1x8:5 [--signal STOP|KILL] [--reps 3]

Needs root (CAP_NET_ADMIN); everything it makes is removed at the end (processes by id, the
namespaces by name), even on Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "integration"), str(REPO / "src")]

from hostkit import netns  # noqa: E402
from hostkit.jobs import start_job, wait_job, workers  # noqa: E402

STEP_S = 0.3  # host_eval.py's forward pass


class Window:
    """An ``until`` for wait_job: once every rank is evaluating, wait 1 s, read the counters, wait
    ``length`` s, read them again; then stop the wait (the hosts are closed after)."""

    def __init__(self, hosts, world: int, length: float):
        self.hosts, self.world, self.length = hosts, world, length
        self.before = self.after = None
        self.elapsed = 0.0

    def __call__(self, job) -> bool:
        if sum("PDOC_IN_EVAL" in t for t in job.logs().values()) < self.world:
            return False
        time.sleep(1.0)
        t0 = time.monotonic()
        self.before = [self.hosts.counters(i) for i in range(self.hosts.n)]
        time.sleep(self.length)
        self.after = [self.hosts.counters(i) for i in range(self.hosts.n)]
        self.elapsed = time.monotonic() - t0
        return True


def measure(n_hosts: int, per_host: int, window: float, tmp: Path) -> dict:
    world = n_hosts * per_host
    # every rank evaluates for about window + 12 s: 4 samples a batch, one batch per STEP_S
    samples = 4 * world * int((window + 12) / STEP_S)
    with netns.Hosts(n_hosts) as hosts:
        job = start_job(hosts, tmp, "host_eval.py", ["none", "-", str(samples)], nproc=per_host)
        win = Window(hosts, world, window)
        wait_job(job, 240, until=win)
        if win.after is None:
            raise SystemExit(f"{n_hosts}x{per_host}: the ranks never all reached their evaluation\n{job.describe()}")
    each = [{k: a[k] - b[k] for k in a} for a, b in zip(win.after, win.before)]
    delta = {k: sum(d[k] for d in each) for k in each[0]}
    per = world * win.elapsed
    # A host other than host 0 holds no TCP server: all its TCP goes out on eth0, so what else
    # leaves on its eth0 is UDP (the watchers' traffic; SWIM is symmetric, host 0 sends as much).
    cross_udp = [d["tx_packets"] - d["tcp_out_segs"] for d in each[1:]]
    cross_udp_total = sum(cross_udp) / len(cross_udp) * n_hosts if cross_udp else 0.0
    return {"layout": f"{n_hosts}x{per_host}", "hosts": n_hosts, "ranks_per_host": per_host, "world": world,
            "window_s": round(win.elapsed, 2), "udp_per_rank_s": round(delta["udp_out"] / per, 2),
            "cross_packets_per_rank_s": round(delta["tx_packets"] / per, 2),
            "cross_udp_per_rank_s": round(cross_udp_total / per, 2),
            "cross_bytes_per_rank_s": round(delta["tx_bytes"] / per, 1),
            "tcp_segs_per_s": round(delta["tcp_out_segs"] / win.elapsed, 2),
            "udp_dropped_noport": delta["udp_noports"], "udp_in_errors": delta["udp_in_errors"]}


class Freeze:
    """An ``until`` for wait_job: once every rank is evaluating, wait 1 s, send rank ``victim``'s
    worker ``sig`` (SIGSTOP, SIGKILL); then until rank 0's log names it (or ``limit`` s)."""

    def __init__(self, hosts, world: int, victim: int, sig: int, limit: float = 30.0):
        self.hosts, self.world, self.victim, self.sig, self.limit = hosts, world, victim, sig, limit
        self.pid = self.at = self.named_after = None
        self.line = ""

    def __call__(self, job) -> bool:
        if self.at is None:
            if sum("PDOC_IN_EVAL" in t for t in job.logs().values()) < self.world:
                return False
            time.sleep(1.0)
            self.pid = _worker_pid(self.hosts.proc_tag, self.victim)
            os.kill(self.pid, self.sig)
            self.at = time.monotonic()
            return False
        found = re.search(rf"^\[paddle-doctor\] watchdog on rank 0: .*\brank {self.victim}\b.*$",
                          job.logs().get(0, ""), re.MULTILINE)
        if found:
            self.named_after, self.line = time.monotonic() - self.at, found.group(0)
        return bool(found) or time.monotonic() - self.at > self.limit


def _worker_pid(tag: str, rank: int) -> int:
    """The worker of global rank ``rank`` among the job's tagged processes."""
    pid = next((pid for pid, r in workers(tag) if r == rank), None)
    if pid is None:
        raise SystemExit(f"rank {rank}'s worker not found")
    return pid


def freeze(spec: str, reps: int, sig: int) -> list[dict]:
    layout, _, victim = spec.partition(":")
    n_hosts, per_host = (int(x) for x in layout.split("x"))
    world, victim = n_hosts * per_host, int(victim)
    rows = []
    for rep in range(reps):
        with tempfile.TemporaryDirectory(prefix="pdh-bench-") as tmp, netns.Hosts(n_hosts) as hosts:
            samples = 4 * world * int(40 / STEP_S)
            job = start_job(hosts, Path(tmp), "host_eval.py", ["none", "-", str(samples)], nproc=per_host)
            fz = Freeze(hosts, world, victim, sig)
            try:
                wait_job(job, 240, until=fz)
            finally:
                if fz.pid is not None and sig == signal.SIGSTOP:
                    os.kill(fz.pid, signal.SIGCONT)  # so that the hosts' teardown can end it
        named = None if fz.named_after is None else round(fz.named_after, 2)
        row = {"layout": layout, "victim": victim, "signal": signal.Signals(sig).name, "rep": rep, "named_s": named,
               "line": fz.line[:200]}
        print(f"| {layout} | {victim} | {row['signal']} | {rep} | {row['named_s']} | {row['line'][:120]} |", flush=True)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", default="2x1,2x2,3x1,3x2,1x2,1x8")
    parser.add_argument("--window", type=float, default=5.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--freeze", default=None, help="HxK:R: time for rank 0 to name rank R SIGSTOPped")
    parser.add_argument("--signal", choices=("STOP", "KILL"), default="STOP")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args(argv)
    why = netns.unavailable()
    if why:
        print(f"bench_hosts: skipped: {why}")
        return 0
    if args.freeze:
        print("| layout | rank | signal | rep | named on rank 0 after (s) | its line |\n|---|---|---|---|---|---|")
        rows = freeze(args.freeze, args.reps, getattr(signal, f"SIG{args.signal}"))
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
        return 0
    rows = []
    print("| layout (hosts x ranks) | W | udp/rank/s | cross udp/rank/s | cross pkts/rank/s | cross B/rank/s | "
          "tcp segs/s | window |")
    print("|---|---|---|---|---|---|---|---|")
    for layout in args.layouts.split(","):
        n_hosts, per_host = (int(x) for x in layout.split("x"))
        with tempfile.TemporaryDirectory(prefix="pdh-bench-") as tmp:
            row = measure(n_hosts, per_host, args.window, Path(tmp))
        rows.append(row)
        print(f"| {row['layout']} | {row['world']} | {row['udp_per_rank_s']} | {row['cross_udp_per_rank_s']} | "
              f"{row['cross_packets_per_rank_s']} | "
              f"{row['cross_bytes_per_rank_s']} | {row['tcp_segs_per_s']} | {row['window_s']} s |", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
