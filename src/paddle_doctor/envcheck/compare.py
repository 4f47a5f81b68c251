"""``env --compare A.json B.json ...``: the differences between nodes' env reports that matter.

Every node of one job must run the same Paddle build with the same CUDA, cuDNN and NCCL (guide 000
§3.4, §4.3); NCCL_* and FLAGS_* settings that differ change how ranks talk. Each difference is a
Finding (``code`` ``compare.<field>``) naming the value on every node.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..findings import Confidence, Finding, Severity
from ..redact import redact, redact_value
from ..catalog.ids import CauseId

# (field, how to read it from a report, cause id, severity)
FIELDS: tuple[tuple[str, tuple[str, ...], str, Severity], ...] = (
    ("paddle.version", ("paddle", "version"), CauseId.paddle_version_mismatch, Severity.ERROR),
    ("paddle.commit", ("paddle", "commit"), CauseId.paddle_version_mismatch, Severity.ERROR),
    ("paddle.distribution", ("paddle", "distribution"), CauseId.paddle_version_mismatch, Severity.ERROR),
    ("paddle.compiled_with.nccl", ("paddle", "compiled_with", "nccl"), CauseId.nccl_version_mismatch, Severity.ERROR),
    ("libraries.nccl", ("libraries", "nccl", "version"), CauseId.nccl_version_mismatch, Severity.ERROR),
    ("paddle.compiled_with.cuda", ("paddle", "compiled_with", "cuda"), CauseId.cuda_cudnn_mismatch, Severity.ERROR),
    ("paddle.compiled_with.cudnn", ("paddle", "compiled_with", "cudnn"), CauseId.cuda_cudnn_mismatch, Severity.ERROR),
    ("libraries.cudnn", ("libraries", "cudnn", "version"), CauseId.cuda_cudnn_mismatch, Severity.ERROR),
    ("libraries.cuda_runtime", ("libraries", "cuda_runtime", "version"), CauseId.cuda_cudnn_mismatch, Severity.WARNING),
    ("gpu.driver_cuda_version", ("gpu", "driver_cuda_version"), CauseId.cuda_cudnn_mismatch, Severity.WARNING),
    ("gpu.driver_version", ("gpu", "driver_version"), CauseId.cuda_cudnn_mismatch, Severity.WARNING),
    ("python.version", ("system", "python", "version"), CauseId.paddle_version_mismatch, Severity.WARNING),
    # Each node's DataLoader workers hand batches over in its own /dev/shm: one node's small one
    # fails that node alone (measured on real hosts, issue 31).
    ("system.shm.total_bytes", ("system", "shm", "total_bytes"), CauseId.shm_too_small, Severity.WARNING),
)


def compare_reports(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Finding]:
    """``reports`` is ``[(label, report), ...]`` (labels: file names or host names)."""
    out = []
    for field, path, cause, severity in FIELDS:
        values = {label: _get(report, path) for label, report in reports}
        if len(set(map(_key, values.values()))) > 1:
            out.append(_difference(field, cause, severity, values))
    out += _gpu_differences(reports)
    out += _variable_differences(reports)
    out += _package_differences(reports)
    return out


def label_nodes(reports: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, Mapping[str, Any]]]:
    """``[(path, report)]`` -> ``[(label, report)]``: each node by its host name; where several
    reports share a host name (or have none), every one of them by ``host (file)``, so that no
    node is named differently from its twins (not the first by host and the next by file)."""
    hosts = [(r.get("network") or {}).get("hostname") or "" for _, r in reports]
    files = [os.path.basename(path) or path for path, _ in reports]
    if len(set(files)) < len(files):  # one file name in several folders: the paths tell them apart
        files = [path for path, _ in reports]
    labels = [host if host and hosts.count(host) == 1 else f"{host} ({file})" if host else file
              for host, file in zip(hosts, files)]
    return [(label, report) for label, (_, report) in zip(labels, reports)]


SAME_IMAGE = ("use one image or lock file on every node; `paddle-doctor env --format json > env_$(hostname).json` "
              "on each, then compare again")


def _difference(field: str, cause: str, severity: Severity, values: Mapping[str, Any],
                confidence: Confidence = Confidence.HIGH, fix: str = SAME_IMAGE) -> Finding:
    listed = ", ".join(f"{label}: {_text(v)}" for label, v in values.items())
    return Finding(code=f"compare.{field}", cause=cause, severity=severity, confidence=confidence,
                   message=f"{field} differs between nodes ({listed})", fix=fix,
                   facts={"field": field, "values": {k: v for k, v in values.items()}})


def _gpu_differences(reports) -> list[Finding]:
    counts = {label: len((r.get("gpu") or {}).get("gpus") or []) for label, r in reports}
    names = {label: sorted({g.get("name") for g in (r.get("gpu") or {}).get("gpus") or []}) for label, r in reports}
    out = []
    if len(set(counts.values())) > 1:
        out.append(_difference("gpu.count", CauseId.cuda_visible_devices_misconfig, Severity.WARNING, counts,
                               Confidence.MEDIUM))
    if len({tuple(n) for n in names.values()}) > 1:
        out.append(_difference("gpu.names", CauseId.cuda_arch_unsupported, Severity.WARNING, names, Confidence.LOW))
    return out


def _variable_differences(reports) -> list[Finding]:
    # Rank and endpoint variables differ per node by design; NCCL_* and FLAGS_* settings should not.
    names = sorted({n for _, r in reports for n in (r.get("variables") or {}) if n.startswith(("NCCL_", "FLAGS_"))
                    and not n.startswith("FLAGS_selected_")})
    out = []
    for name in names:
        values = {label: _masked((r.get("variables") or {}).get(name)) for label, r in reports}
        if len(set(values.values())) > 1:
            cause = CauseId.nccl_network_interface if name in ("NCCL_SOCKET_IFNAME", "NCCL_IB_HCA", "NCCL_IB_DISABLE") \
                else CauseId.nccl_error if name.startswith("NCCL_") else CauseId.config_error
            out.append(_difference(f"variables.{name}", cause, Severity.WARNING, values, Confidence.MEDIUM,
                                   fix=f"set {name} to one value on every node (or leave it unset everywhere) in "
                                   "the job's launch script, then compare again"))
    return out


def _package_differences(reports) -> list[Finding]:
    # The suites and numpy/protobuf/OpenCV versions: another version on one node gives that node's
    # ranks other results (or another failure) than the rest; absent on a node is a difference too.
    names = list(dict.fromkeys(n for _, r in reports for n in (r.get("packages") or {})))
    out = []
    for name in names:
        values = {label: (r.get("packages") or {}).get(name) or "not installed" for label, r in reports}
        if len(set(values.values())) > 1:
            out.append(_difference(f"packages.{name}", CauseId.paddle_version_mismatch, Severity.WARNING, values,
                                   Confidence.MEDIUM))
    return out


def _get(report: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = report
    for part in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _masked(value: Any) -> Any:
    return redact_value(value) if isinstance(value, str) else value


def _key(value: Any) -> str:
    return repr(value)


def _text(value: Any) -> str:
    # A report read from a file: mask again (by shape only: a commit hash is high-entropy and must show)
    return "none" if value is None else redact(str(value))[:200]
