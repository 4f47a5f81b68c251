"""A cause stated early, a generic error later: ranks that loaded different NCCL versions.

With ``NCCL_DEBUG=INFO`` (or ``VERSION``) every rank's NCCL prints ``NCCL version 2.x.y+cudaX.Y``
when it creates its first communicator. NCCL only works with the same NCCL on every rank; nodes
built from different images fail later with an error that says nothing about versions
(``NCCL error(3), internal error``, ``unhandled system error``, or a collective that times out).
When the banners of the text disagree, the mismatch is the cause and the later error its symptom.
"""

from __future__ import annotations

from ...findings import Alternative, Finding
from ...rankset import rank_ranges
from ..read.parse import Event
from ..verdict import make_verdict
from ...catalog.ids import CauseId

# The errors a version mismatch shows up as. An NCCL error is its usual face; a CUDA error, a bare
# exception or a collective timeout can be too, but less surely.
NCCL_FAILURES = (CauseId.nccl_error,)
OTHER_FAILURES = (CauseId.cuda_error_other, CauseId.python_exception, CauseId.segfault, CauseId.collective_timeout)
SAID_AS = {CauseId.nccl_error: "NCCL error", CauseId.cuda_error_other: "CUDA error", CauseId.python_exception: "exception",
           CauseId.segfault: "crash", CauseId.collective_timeout: "collective timeout"}


def nccl_versions(events: list[Event]) -> dict[str, list[Event]]:
    """NCCL version (x.y.z) -> the banner lines that print it, in the order given."""
    out: dict[str, list[Event]] = {}
    for e in events:
        if e.sig.name == "nccl_banner":
            out.setdefault(e.groups["version"], []).append(e)
    return out


def explained_by_nccl_versions(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """The verdict ``nccl_version_mismatch`` when the banners in ``events`` name two or more NCCL
    versions and ``event`` (the chosen cause) is an error such a mismatch produces."""
    if event.sig.cause not in NCCL_FAILURES + OTHER_FAILURES:
        return None
    versions = nccl_versions(events)
    if len(versions) < 2:
        return None
    shown = _one_banner_per_version(versions, rank)
    ordered = sorted(versions, key=lambda v: tuple(int(x) for x in v.split(".")))
    listing = ", ".join(f"{v} ({_who(versions[v])})" for v in ordered)
    confidence = "high" if event.sig.cause in NCCL_FAILURES else "medium"
    return make_verdict(
        "nccl_banner_mismatch", CauseId.nccl_version_mismatch, rank, shown + [event], confidence,
        f"the ranks' NCCL banners name {len(versions)} versions: {listing}; NCCL needs the same version on "
        f"every rank, and the later error ({event.sig.cause}) is what the mismatch leads to",
        title=f"the ranks loaded different NCCL versions ({', '.join(ordered)}); the {SAID_AS[event.sig.cause]} "
              "that follows is its symptom",
        alternatives=(Alternative(
            event.sig.cause, "low", "the later error may have its own reason",
            "install one NCCL on every node (one image) and rerun with NCCL_DEBUG=INFO: the banners agree "
            "and the error goes away if the mismatch was the cause"),),
        extra_facts={"nccl_versions": {v: _ranks_or_files(versions[v]) for v in ordered}})


def _one_banner_per_version(versions: dict[str, list[Event]], rank: int | None) -> list[Event]:
    """The failing rank's own banner first, then the first banner of every other version."""
    own = [b for banners in versions.values() for b in banners if rank is not None and b.rank == rank][:1]
    others = [banners[0] for banners in versions.values() if not own or own[0] not in banners]
    return own + others


def _ranks_or_files(banners: list[Event]) -> list:
    ranks = sorted({b.rank for b in banners if b.rank is not None})
    return ranks if ranks else sorted({b.file for b in banners})


def _who(banners: list[Event]) -> str:
    ranks = {b.rank for b in banners if b.rank is not None}
    if ranks:
        return ("rank " if len(ranks) == 1 else "ranks ") + rank_ranges(ranks)
    hosts = sorted({b.groups.get("host") for b in banners if b.groups.get("host")})
    return ("host " + ", ".join(hosts[:4])) if hosts else f"{len(banners)} line(s)"
