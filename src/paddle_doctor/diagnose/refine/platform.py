"""Facts about the platform a run was on, read across the text. A Windows run (its traceback paths
are drive-letter paths) cannot run Paddle's NCCL collectives at all: Windows wheels are built
without NCCL. A generic error in distributed code on such a run is that limit, not its own cause."""

from __future__ import annotations


from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..read.parse import Event
from ..verdict import make_verdict
from ...lazy import lazy_compile

WINDOWS_PATH = lazy_compile(r"^[A-Za-z]:\\|\\(?:site|dist)-packages\\|\\Lib\\|\\envs\\")
DISTRIBUTED = lazy_compile(r"paddle[/\\](?:distributed|incubate[/\\]fleet|fluid[/\\]incubate[/\\]fleet)[/\\]|"
                         r"dygraph[/\\]parallel\.py|init_parallel_env|NCCL|nccl")
GENERIC = (CauseId.python_exception, CauseId.nccl_error, CauseId.launcher_bug, CauseId.cuda_error_other)


def explained_by_windows(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    if event.sig.cause not in GENERIC:
        return None
    windows = [e for e in events if e.role == "frame" and WINDOWS_PATH.search(e.groups.get("path", ""))]
    if not windows or not any(DISTRIBUTED.search(e.text) for e in events if e.role in ("frame", "exception",
                                                                                        "cause")):
        return None
    return make_verdict(
        "windows_distributed", CauseId.windows_no_nccl, rank, [windows[-1], event], "medium",
        "the traceback's paths are Windows paths and the error is raised in distributed code: Paddle's Windows "
        "builds have no NCCL, so multi-GPU collective training cannot run there",
        title="a distributed (NCCL) run on Windows, where Paddle has no NCCL",
        alternatives=(Alternative(event.sig.cause, "low", "the error may have its own reason on this platform",
                                  "the same script fails the same way on Linux"),))


# An endpoint list (PADDLE_TRAINER_ENDPOINTS, fleet's not-ready list, a launcher's print) that mixes
# loopback and real addresses: a node took its address from a hostname that resolves to 127.x
# (an /etc/hosts entry), so its peers dial their own machine and retry forever.
ENDPOINT = lazy_compile(r"\b(\d{1,3}(?:\.\d{1,3}){3}):\d{2,5}\b")
LOOPBACK_EXPLAINS = (CauseId.python_exception, CauseId.nccl_error, CauseId.cuda_error_other,
                     CauseId.collective_timeout, CauseId.missing_dist_env)


def mixed_loopback(events: list[Event]) -> Event | None:
    for e in events:
        hosts = set(ENDPOINT.findall(e.text))
        if len(hosts) >= 2 and any(h.startswith("127.") for h in hosts) and any(not h.startswith("127.") for h in hosts):
            return e
    return None


def explained_by_loopback(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    if event.sig.cause not in LOOPBACK_EXPLAINS:
        return None
    mixed = mixed_loopback(events)
    if mixed is None:
        return None
    return make_verdict(
        "loopback_endpoint", CauseId.wrong_host_ip, rank, [mixed, event], "medium",
        "the job's endpoint list mixes loopback (127.x) and real addresses: a node took its address from a "
        "hostname that resolves to 127.0.0.1, so its peers cannot reach it; the later error is what that leads to",
        title="a node advertised a loopback address (its hostname resolves to 127.x)",
        alternatives=(Alternative(event.sig.cause, "low", "the error may have its own reason",
                                  "`getent hosts $(hostname)` on each node shows a real address"),))
