"""A cause stated early, a generic error later: ranks that loaded different NCCL versions.

With ``NCCL_DEBUG=INFO`` (or ``VERSION``) every rank's NCCL prints ``NCCL version 2.x.y+cudaX.Y``
when it creates its first communicator. NCCL only works with the same NCCL on every rank; nodes
built from different images fail later with an error that says nothing about versions
(``NCCL error(3), internal error``, ``unhandled system error``, or a collective that times out).
When the banners of the text disagree, the mismatch is the cause and the later error its symptom.

Likewise an environment report (Paddle's tools/summary_env.py, as its issue template asks) that pairs a CUDA
toolkit with a driver older than NVIDIA's floor for it explains a GPU the runtime could not find.
"""

from __future__ import annotations

import dataclasses

from ...catalog import get_cause
from ...findings import Alternative, Confidence, EvidenceLine, Finding
from ...redact import redact
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


def explained_by_lite_versions(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``paddle_api_mismatch`` when the Paddle-Lite runtime lacks a kernel the model needs and, earlier, warned
    that the model was optimised by another opt release: the library and the opt that made the .nb are of two
    releases. Not where the runtime also said it has no OpenCL for an OpenCL model (a build, config_error)."""
    if event.sig.name != "lite_kernel_for_target_missing":
        return None
    warned = next((e for e in events if e.sig.name == "lite_opt_version_differs" and e.file == event.file
                   and e.offset < event.offset), None)
    if warned is None or any(e.sig.name == "lite_opencl_model_unsupported" for e in events):
        return None
    return make_verdict(
        "lite_opt_runtime_versions", CauseId.paddle_api_mismatch, rank, [warned, event], "medium",
        "Paddle-Lite warned that the opt release that made the model is not the runtime's own, then found no kernel "
        "for one of the model's ops: the two releases do not fit",
        title="the model was optimised by another opt release than this Paddle-Lite library, which lacks a kernel it "
              "needs: run the opt of the library's release (or the library of opt's)",
        alternatives=(Alternative(event.sig.cause, "low", "the library may lack that target's kernels whatever its "
                                  "release", "the opt --valid_targets the model was made for, against the library"),))


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


# NVIDIA's CUDA Toolkit release notes, "CUDA Toolkit and Corresponding Driver Versions" (Linux x86_64): the oldest
# driver each toolkit's runtime runs on (from 11.1 and 12.0 on, minor version compatibility: one floor per major).
# Newest first; a toolkit older than 9.0 is not read.
MIN_LINUX_DRIVER = (((13, 0), "580.65.06"), ((12, 0), "525.60.13"), ((11, 1), "450.80.02"), ((11, 0), "450.36.06"),
                    ((10, 2), "440.33"), ((10, 1), "418.39"), ((10, 0), "410.48"), ((9, 2), "396.26"),
                    ((9, 1), "390.46"), ((9, 0), "384.81"))
# The verdicts a driver too old for the CUDA runtime shows up as: the runtime's device count fails (Paddle's
# init.cc then warns that it found no GPU) or a CUDA call returns a status that names no reason.
NO_GPU_FAILURES = (CauseId.device_not_found, CauseId.cuda_error_other)


def min_driver(cuda: str) -> str | None:
    """The oldest Linux driver that runs CUDA ``cuda`` ("11.2", "11.2.142"), or None for one the table lacks."""
    major, minor = (int(x) for x in cuda.split(".")[:2])
    return next((floor for (m, n), floor in MIN_LINUX_DRIVER if (major, minor) >= (m, n)), None)


def explained_by_old_driver(root: Finding | None, events: list[Event]) -> Finding | None:
    """``root`` re-stated as ``cuda_cudnn_mismatch`` when it says no GPU was usable (or a CUDA status with no
    reason) and the text shows a driver too old for the CUDA in use: Paddle's device line (driver API below the
    runtime), or an environment report pairing a CUDA toolkit with a driver older than NVIDIA's floor for it (the
    report's own CUDA version, never nvidia-smi's "CUDA Version", the newest the driver supports)."""
    if root is None or root.cause not in NO_GPU_FAILURES:
        return root
    device = next((e for e in events if e.sig.name == "device_cuda_versions"
                   and _driver_below_runtime(e.groups["driver_api"], e.groups["runtime_api"])), None)
    if device is not None:
        driver_api, runtime = device.groups["driver_api"], device.groups["runtime_api"]
        return _restated(root, (device,), f"the NVIDIA driver runs CUDA {driver_api} at most, older than the CUDA "
                         f"{runtime} runtime this Paddle carries: the runtime finds no usable GPU",
                         f"the device line reports driver API {driver_api} and runtime API {runtime}",
                         {"driver_api": driver_api, "runtime_api": runtime})
    cuda = next((e for e in events if e.sig.name == "env_report_cuda"), None)
    driver = next((e for e in events if e.sig.name == "env_report_driver"), None)
    if cuda is None or driver is None:
        return root
    wanted = min_driver(cuda.groups["cuda"])
    if wanted is None or _numbers(driver.groups["driver"]) >= _numbers(wanted):
        return root
    return _restated(root, (cuda, driver), f"the NVIDIA driver ({driver.groups['driver']}) is older than CUDA "
                     f"{cuda.groups['cuda']} needs ({wanted} or newer): the runtime finds no usable GPU",
                     f"the environment the text reports has CUDA {cuda.groups['cuda']} and driver "
                     f"{driver.groups['driver']}; NVIDIA's floor for that CUDA on Linux is {wanted}",
                     {"cuda": cuda.groups["cuda"], "driver": driver.groups["driver"], "driver_needed": wanted})


def _driver_below_runtime(driver_api: str, runtime: str) -> bool:
    """A driver that runs CUDA ``driver_api`` at most cannot serve runtime ``runtime``: an older major, or from
    CUDA 11.1 on (minor version compatibility: any driver of the major serves its minors) an older major only."""
    driver_v, runtime_v = _numbers(driver_api), _numbers(runtime)
    if runtime_v >= (11, 1):
        return driver_v[0] < runtime_v[0]
    return driver_v < runtime_v


def _restated(root: Finding, facts: tuple[Event, ...], message: str, seen: str, numbers: dict) -> Finding:
    entry = get_cause(CauseId.cuda_cudnn_mismatch)
    first = Alternative(root.cause, "low", f"the failure may have its own reason ({root.message})",
                        "`nvidia-smi` (top right: the newest CUDA this driver runs) against "
                        "`python -c \"import paddle; print(paddle.version.cuda())\"`")
    shown = {(e.path, e.line) for e in root.evidence}
    quoted = tuple(EvidenceLine(e.file, e.line, redact(e.text.strip())) for e in facts
                   if (e.file, e.line) not in shown)
    return dataclasses.replace(
        root, code="driver_older_than_cuda", cause=CauseId.cuda_cudnn_mismatch, message=message,
        confidence=Confidence.MEDIUM, evidence=root.evidence + quoted,
        why=f"{seen}, so the {root.cause} that follows is what the old driver leads to",
        fix=entry.fix.strip(), alternatives=(first,),
        facts={**root.facts, "cuda_driver": numbers, "confirm": entry.confirm.strip()})


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))
