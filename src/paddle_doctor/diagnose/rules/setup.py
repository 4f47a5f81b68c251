"""Rules over the whole text of a run's setup: rendezvous that never completes, peers' endpoints that
never answer, NCCL's communicator set-up that never finishes, spawned children that fail on re-import,
launch commands that disagree on ``--ips``.
Each returns the root-cause Finding (:func:`verdict.make_verdict`) or None."""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..ranks import RankState
from ..read.parse import Event
from ..refine.context import sets_paddle_env
from ..verdict import make_verdict
from .launcher import ERROR_ROLES


def _rank_or_none(state: RankState) -> int | None:
    return state.rank if state.rank >= 0 else None


def from_hang_dump(ranks, unranked, facts) -> Finding | None:
    states = list(ranks.values()) or [RankState(-1, events=unranked)]
    for state in states:
        retries = [e for e in state.events if e.role == "rendezvous_retry"]
        listens = [e for e in state.events if e.role == "listen"]
        if _retries_own_port(retries, listens):
            return make_verdict("retries_own_port", CauseId.wrong_host_ip, _rank_or_none(state), [listens[0], retries[0]],
                                "medium",
                           "the process listens on a port and keeps retrying to reach that same port at another "
                           "address: the address it was given is not this machine's")
        stuck = [e for e in state.events if e.role == "hang_site" and "rendezvous" in e.sig.name]
        if stuck or (retries and len(retries) >= 3):
            ev = (stuck or retries)[:2] + [e for e in state.events if e.role == "terminated"][:1]
            if facts.kind and not retries and any("waitWorkers" in e.text for e in stuck):
                return _workers_never_came(state, ev)
            if not facts.kind:
                return make_verdict("lone_rendezvous", CauseId.residual_dist_env, _rank_or_none(state), ev, "medium",
                               "a single process (no launcher) hung in distributed rendezvous until it was "
                               "killed: it was told to wait for peers that do not exist")
            return make_verdict("rendezvous_never_met", CauseId.wrong_host_ip, _rank_or_none(state), ev, "low",
                           "the ranks never met during rendezvous")
    return None


def _workers_never_came(state: RankState, ev: list[Event]) -> Finding:
    """The rank that hosts the TCP store (only its master calls ``TCPStore::waitWorkers``, in the
    store's constructor) waited there, and no rank here ever
    retried to reach it: the store was up and reachable from here; the ranks of the other nodes never
    came (measured on real hosts, issue 31: a node started with another ``--nnodes`` waits in its own
    launcher's rendezvous and never starts its ranks)."""
    return make_verdict(
        "store_workers_never_came", CauseId.config_error, _rank_or_none(state), ev, "medium",
        "this rank hosts the job's TCP store and waited (TCPStore::waitWorkers) for ranks that never connected, "
        "while nothing here retried to reach it: the other nodes never started their ranks (their launchers were "
        "given another --nnodes or --master, or were never started)",
        title="the ranks of the other nodes never connected to the job's store",
        alternatives=(Alternative(CauseId.wrong_host_ip, "low", "the other nodes' ranks run but cannot reach this "
                                  "node's address",
                                  "on the other nodes, `grep -c 'Retry to connect' log/workerlog.*`"),))


def _retries_own_port(retries: list[Event], listens: list[Event]) -> bool:
    ports = {e.groups.get("port") or e.groups.get("port2") for e in listens}
    return any(e.groups.get("port") in ports and e.groups.get("host") not in ("127.0.0.1", "localhost")
               for e in retries)


def from_unreached_endpoints(ranks, unranked, facts) -> Finding | None:
    """Fleet's ``wait_server_ready`` lists the peers' endpoints it cannot reach, after each 3 s wait
    (one list means it has waited already). Endpoints at an address no host has (0.x, broadcast) were
    advertised wrongly; endpoints at real addresses belong to nodes that never started their own
    launcher (the launch must run on every node of ``--ips``) or were started with other arguments."""
    events = [e for s in ranks.values() for e in s.events] + unranked
    waits = [e for e in events if e.sig.name == "fleet_server_not_ready"]
    if not waits:
        return None
    hosts = {h for h in re.findall(r"'([\d.]+):\d+'", waits[-1].text)}
    bogus = [h for h in hosts if h.startswith(("0.", "255.")) or h.endswith(".255")]
    if any(h.startswith("127.") for h in hosts) and any(not h.startswith("127.") for h in hosts):
        bogus = sorted(h for h in hosts if h.startswith("127."))  # a node's hostname resolves to loopback
    env = [e for e in events if e.sig.name == "paddle_env_var"]
    by_hand = any(sets_paddle_env(e.text) for e in env)  # set in the pasted script or command: not leftovers
    if not facts.kind and env and not by_hand and hosts and all(h.startswith("127.") for h in hosts):
        # No launcher in the text, peers on this machine that nothing started, and the environment names them: a lone
        # process that read an earlier launch's PADDLE_* variables (an `export`ed shell, a notebook).
        return make_verdict(
            "lone_process_waits_for_peers", CauseId.residual_dist_env, None, [env[0], waits[-1]], "medium",
            "no launcher ran, the environment holds the launcher's PADDLE_* variables, and the process kept waiting "
            f"for peers on this machine ({', '.join(sorted(hosts))}) that nothing started",
            title="a single process read leftover PADDLE_* variables and waits for peers that do not exist",
            alternatives=(Alternative(CauseId.config_error, "low", "the peers may be meant to run and failed to start",
                                      "was a launcher (python -m paddle.distributed.launch) meant to start them?"),))
    if bogus:
        return make_verdict("endpoints_never_ready", CauseId.wrong_host_ip, None, waits[:1] + waits[-1:],
                            "high" if len(waits) > 1 else "medium",
                            f"the trainers kept waiting for endpoints at {', '.join(sorted(bogus))}, which is not "
                            "a usable host address",
                            title="the trainers' endpoints were never reachable: the host addresses are wrong")
    return make_verdict(
        "nodes_never_registered", CauseId.config_error, None, waits[:1] + waits[-1:], "medium",
        f"the trainers kept waiting for the endpoints of {', '.join(sorted(hosts)) or 'their peers'}, which never "
        "answered: those nodes never started (the same launch command must run on every node of --ips) or "
        "were started with other arguments",
        title="some nodes of the job never joined: their endpoints never answered",
        alternatives=(Alternative(CauseId.wrong_host_ip, "low", "the nodes run, but at other addresses than --ips says",
                                  "on each listed node, `hostname -I` shows the address in --ips"),))


def from_spawn_child(ranks, unranked, facts) -> Finding | None:
    """A traceback that starts in ``multiprocessing/spawn.py spawn_main`` comes from a child process
    re-importing the main module; with no error of its own after it, the re-import is what failed."""
    events = [e for s in ranks.values() for e in s.events] + unranked
    spawned = [e for e in events if e.sig.name == "spawn_main_frame"]
    if not spawned:
        return None
    return make_verdict("spawn_child_failed", CauseId.main_guard_missing, None, spawned[:1], "medium",
                        "a spawned child failed while re-importing the main module (spawn_main), and no other "
                        "error follows", title="a spawned worker failed while re-importing the main script")


def from_contradicting_launch_cmds(ranks, unranked, facts) -> Finding | None:
    """The launchers of a multi-node job must get the same ``--ips`` in the same order: each node
    takes its rank from its position in that list, so two orders give two nodes the same rank."""
    events = [e for s in ranks.values() for e in s.events] + unranked
    cmds = [e for e in events if e.sig.name == "launch_cmd_ips"]
    lists = {tuple(x.strip() for x in e.groups["ips"].split(",")) for e in cmds}
    if len(lists) < 2:
        return None
    first, *others = sorted(lists)
    same_nodes = all(set(o) == set(first) for o in others)
    shown = [next(e for e in cmds if tuple(x.strip() for x in e.groups["ips"].split(",")) == ips)
             for ips in sorted(lists)][:2]
    why = ("the nodes were launched with the same --ips in different orders: each node takes its rank from "
           "its position in the list, so two nodes claim the same rank" if same_nodes else
           "the nodes were launched with different --ips lists: they do not agree on who is in the job")
    return make_verdict("launch_ips_disagree", CauseId.config_error, None, shown, "high" if same_nodes else "medium", why,
                        title="the nodes' launch commands disagree on --ips"
                              + (" (same hosts, different order)" if same_nodes else ""))


def from_lone_timeout(ranks, unranked, facts) -> Finding | None:
    """One process's text (no ranks, no launcher) whose only error is a collective that timed out:
    from here the peer is unseen, so the timeout itself is the finding."""
    if ranks or facts.kind:
        return None
    timeouts = [e for e in unranked if e.role in ("peer_closed", "real_timeout") and "TIMEOUT" in e.text]
    if not timeouts:
        return None
    return make_verdict(
        "lone_collective_timeout", CauseId.collective_timeout, None, timeouts[:1], "medium",
        "this process timed out in a collective (gloo TIMEOUT) and the text shows no error of its own; its peer's "
        "log was not given",
        alternatives=(Alternative(CauseId.host_oom_killed, "low", "the peer died silently (SIGKILL)",
                                  "the peer's log stops without an error"),
                      Alternative(CauseId.rank_divergent_collective, "low", "the peer was busy elsewhere (a "
                                  "rank-0-only evaluation, another collective)", "the peer's log ends in other work")))


# What the launcher prints after it has started a job's processes: a wait followed by these was over.
_STARTED = ("launcher_failed", "launcher_abort", "launcher_exit", "launcher_ok", "cause", "exception", "peer_closed",
            "real_timeout", "listen")


def from_peers_never_joined(ranks, unranked, facts) -> Finding | None:
    """The new launcher's master sync (``Waiting peer start...``, ``master not ready``) that is the
    last thing it did: the other nodes never joined, or this node never reached the master."""
    events = sorted((e for s in ranks.values() for e in s.events), key=lambda e: (e.file, e.offset)) + unranked
    waits = [e for e in events if e.role == "peer_wait"]
    if not waits or facts.completed:
        return None
    last = waits[-1]
    if any(e.role in _STARTED and (e.file, e.offset) > (last.file, last.offset) for e in events):
        return None
    unreachable = sum("master not ready" in e.text for e in waits)
    why = ("this node kept failing to reach the launcher's master (`master not ready`): the master was not started, "
           "or --master names an address this node cannot reach" if unreachable >= 2 else
           "the launcher waited for the other nodes to join and nothing followed: they were never started with the "
           "same command (the same --master and --nnodes on every node)")
    return make_verdict(
        "peers_never_joined", CauseId.config_error, None, waits[:1] + waits[-1:], "medium", why,
        title="the job's other nodes never joined the launcher's rendezvous",
        alternatives=(Alternative(CauseId.wrong_host_ip, "low", "the nodes run, but --master is an address they "
                                  "cannot reach", "from each node, `nc -zv <master ip> <port>`"),))


# A line a running job logs (glog's, a timestamp's, the launcher's, a training step's): after NCCL's set-up
# one of these says the job went on. Prose a reporter wrote around the paste is none of them.
_LOG_LINE = re.compile(r"^\s*(?:[IWEF]\d{4} \d|\[?\d{4}[-/]\d{2}[-/]\d{2}|\[\d{2}/\d{2} \d{2}:|LAUNCH |.*\b(?:[Ee]poch|"
                       r"[Ss]tep|iter|loss)\b\s*[:=\[]?\s*\d)")
_AFTER_BYTES = 64 << 10


def from_stopped_at_nccl_init(ranks, unranked, facts) -> Finding | None:
    """Every given text stops at NCCL's communicator set-up (1.8-2.x ``init nccl context nranks: N``), with
    no error, no launcher failure and no line logged after it: the ranks hang in NCCL's bootstrap. Across
    nodes that is most often a network interface the other nodes cannot reach (NCCL_SOCKET_IFNAME)."""
    events = sorted((e for s in ranks.values() for e in s.events), key=lambda e: (e.file, e.offset)) + unranked
    inits = [e for e in events if e.role == "nccl_init"]
    if not inits or facts.completed or facts.failed or any(e.role in ERROR_ROLES for e in events):
        return None
    if max(int(e.groups.get("nranks") or 0) for e in inits) < 2:
        return None
    last_of_file = {e.file: e for e in inits}
    if any(_logged_after(e) for e in last_of_file.values()):
        return None
    return make_verdict(
        "stopped_at_nccl_init", CauseId.nccl_network_interface, None, list(last_of_file.values())[:2], "low",
        "the text stops at NCCL's communicator set-up and nothing, not even an error, follows it: the ranks wait "
        "in NCCL's bootstrap for peers they cannot reach",
        title="the job stops in NCCL's communicator set-up: the ranks cannot reach each other",
        alternatives=(Alternative(CauseId.nccl_error, "low", "NCCL's transport inside one node (P2P, shared memory) "
                                  "can hang the same way", "rerun with NCCL_DEBUG=INFO: the last NCCL INFO line "
                                  "names the transport it was setting up"),))


def _logged_after(event: Event) -> bool:
    """Whether the job logged another line after ``event``'s (unreadable: taken as yes)."""
    if event.index is None:
        return True
    try:
        with event.index.reopen() as stream:
            stream.seek(event.offset)
            raw = stream.read(_AFTER_BYTES)
    except (OSError, ValueError):
        return True
    after = raw.decode("utf-8", errors="replace").split("\n")[1:]
    prefix = event.index.prefix
    if prefix is not None:  # a runner's or a paste's prefix (docker's times) is no log line of the job
        after = [split[0] if (split := prefix.split(line)) is not None else line for line in after]
    return any(_LOG_LINE.match(line) and "init nccl context" not in line for line in after)

