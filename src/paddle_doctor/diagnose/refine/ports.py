"""A busy port that the launcher itself chose: its free-port race, not a port the user set.

With no port given, the launchers pick ports that are free *now* and hand them to the workers,
which bind them seconds later:

- ``fleet.launch`` / ``fleetrun`` of 2.0.2-2.6.2, one node, no ``FLAGS_START_PORT``:
  ``find_free_ports`` binds port 0 and closes the socket (fleet/launch.py get_cluster_from_args);
  the ports are the kernel's ephemeral ones, in no order. With ``FLAGS_START_PORT`` (or several
  nodes) they are consecutive from it (6070 by default).
- ``paddle.distributed.launch`` of 2.4.2-3.x without ``--master``: ``Node.get_free_port`` tries
  ports of ``PORT_RANGE`` (35100:64000) from a random start (launch/context/node.py); the launcher's
  configuration block then says ``master: None``.

Anything that opens a socket in between takes the port (Paddle PRs #32892, #38174). The launcher's
endpoints are in its env table (``|  PADDLE_TRAINER_ENDPOINTS  ip:p,ip:q |``), an ``envlog.N`` or an
``env`` dump (``PADDLE_TRAINER_ENDPOINTS=...``); a bind error that names one of them, or names no
port while every port was the launcher's choice, is the race.
"""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..read.parse import Event
from ..verdict import make_verdict

# A host starts only where no host character precedes it (a ``-`` included): a match cannot start
# inside a run of host characters, so each run is tried once and the search is linear even on a
# line of thousands of ``-`` (with ``-`` allowed before the start it was quadratic: 2.4 MB, 54 s).
ENDPOINT_RE = re.compile(r"(?<![\w.-])(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|[\w-]+(?:\.[\w-]+)+):(\d{2,5})\b")
# host:port, or "port N"; a source position (gen_comm_id_helper.cc:176) is no port
PORT_IN_TEXT = re.compile(r"(?:(?<![\w.\-])(?P<host>[\w.\-]+):|\bport[ :=]+)(?P<port>\d{2,5})\b")
SOURCE_FILE = re.compile(r"\.(?:cc|cu|h|hpp|cpp|c|py)$")
FLEET_DEFAULT_START = 6070
EPHEMERAL_LOW = 32768  # Linux ip_local_port_range starts here by default
ENDPOINT_SIGS = ("fleet_env_endpoints", "paddle_env_var")


def explained_by_port_race(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``event`` is a rank's bind failure (``port_in_use``); the verdict when the port was the launcher's pick."""
    if event.sig.cause != CauseId.port_in_use:
        return None
    every = _master_unset(events) and not _start_port_set(events)  # the new launcher chose every port
    chosen = set() if every else _fleet_free_ports(events)
    if not every and not chosen:
        return None
    named = {int(m['port']) for m in PORT_IN_TEXT.finditer(event.text) if not SOURCE_FILE.search(m['host'] or '')}
    if named and all(FLEET_DEFAULT_START <= p < FLEET_DEFAULT_START + 100 for p in named):
        return None  # the launchers' fixed default range (6070 + i): deterministic, not a race
    if named and not every and not named & chosen:
        return None  # another port than the launcher's: a port of the user's, held by someone else
    shown = [e for e in events if e.sig.name in ENDPOINT_SIGS + ("launch_master_config", "launch_started_port")]
    facts_line = next((e for e in shown if "TRAINER_ENDPOINTS" in e.text or re.search(r"\b(?:master|started_port): "
                                                                                    r"None", e.text)), None) or \
        next(iter(shown), None)
    return make_verdict(
        "launcher_chose_the_port", CauseId.launcher_port_race, rank, [facts_line, event], "high" if named else "medium",
        "the port could not be bound, and it is one the launcher picked itself (no port was given: "
        + (f"`{_unset_key(events)}: None`" if _master_unset(events) else "the endpoints are free ports in no order, not a range from "
           "FLAGS_START_PORT") + "): another process took it between the launcher's check and the worker's bind",
        title="a port the launcher picked as free was taken before the worker bound it (the launcher's free-port race)",
        alternatives=(Alternative(CauseId.port_in_use, "low", "a process of yours may have held that port all along",
                                  "`ss -ltnp | grep :PORT` while the job starts"),))


def _fleet_free_ports(events: list[Event]) -> set[int]:
    """The ports of the fleet launcher's endpoints when it found them free itself (empty otherwise)."""
    ports: list[int] = []
    for e in events:
        if e.sig.name in ENDPOINT_SIGS and "ENDPOINT" in e.text:
            ports += [int(p) for p in ENDPOINT_RE.findall(e.text)]
    ports = list(dict.fromkeys(ports))
    if len(ports) < 2 or FLEET_DEFAULT_START in ports:
        return set()
    consecutive = sorted(ports) == list(range(min(ports), min(ports) + len(ports)))
    return set() if consecutive or min(ports) < EPHEMERAL_LOW else set(ports)


def _unset_key(events: list[Event]) -> str:
    """The launcher's argument that was left unset: ``master`` (2.4+) or ``started_port`` (1.x-2.0)."""
    return "started_port" if any(e.sig.name == "launch_started_port" for e in events) else "master"


def _master_unset(events: list[Event]) -> bool:
    """The launcher chose every port itself: the new launcher with no --master, 1.x's with no --started_port."""
    return any(e.sig.name == "launch_master_config" and e.groups.get("key") == "master" and e.groups.get("val") == "None"
               or e.sig.name == "launch_started_port" and e.groups.get("val") == "None" for e in events)


def _start_port_set(events: list[Event]) -> bool:
    return any(e.sig.name == "launch_master_config" and e.groups.get("key") == "start_port"
               and e.groups.get("val") not in (None, str(FLEET_DEFAULT_START)) for e in events)
