"""GPUs, the driver and the processes on each GPU, from ``nvidia-smi`` (when it is installed).

Three calls, run side by side, each with a timeout: the plain table (its header is the only place
that names the CUDA version the driver supports), ``--query-gpu`` and ``--query-compute-apps``
in the CSV format NVIDIA documents (``nvidia-smi --help-query-gpu``). ``/proc/driver/nvidia/version``
gives the driver version when ``nvidia-smi`` is missing.
"""

from __future__ import annotations

import csv
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .commands import CommandRunner

TIMEOUT_S = 5.0
GPU_FIELDS = ("index", "name", "uuid", "driver_version", "memory.total", "memory.used",
              "utilization.gpu", "pci.bus_id", "compute_cap")
APP_FIELDS = ("pid", "process_name", "used_memory", "gpu_uuid")
CSV = "--format=csv,noheader,nounits"
_HEADER = re.compile(r"Driver Version:\s*([\w.]+)\s+CUDA Version:\s*([\w./]+)")
_PROC_DRIVER = re.compile(r"Kernel Module\s+([\d.]+)")


def gpu_query(fields: tuple[str, ...]) -> tuple[str, ...]:
    return ("nvidia-smi", f"--query-gpu={','.join(fields)}", CSV)


APPS_QUERY = ("nvidia-smi", f"--query-compute-apps={','.join(APP_FIELDS)}", CSV)


def probe_gpus(run: CommandRunner, proc_root: Path = Path("/proc")) -> dict[str, Any]:
    """``{"nvidia_smi": bool, "driver_version", "driver_cuda_version", "gpus": [...], "processes": [...],
    "error"}``; no GPU stack at all gives ``nvidia_smi: False`` and empty lists."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        table = pool.submit(run, ("nvidia-smi",), TIMEOUT_S)
        gpus = pool.submit(run, gpu_query(GPU_FIELDS), TIMEOUT_S)
        apps = pool.submit(run, APPS_QUERY, TIMEOUT_S)
        table, gpus, apps = table.result(), gpus.result(), apps.result()
    facts: dict[str, Any] = {"nvidia_smi": table is not None, "driver_version": None,
                             "driver_cuda_version": None, "gpus": [], "processes": [], "error": None}
    if table is None:
        facts["driver_version"] = _proc_driver_version(proc_root)
        return facts
    if not table.ok:  # e.g. "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"
        facts["error"] = (table.error or table.stdout.strip() or "nvidia-smi failed").splitlines()[0]
        facts["driver_version"] = _proc_driver_version(proc_root)
        return facts
    header = _HEADER.search(table.stdout)
    if header:
        facts["driver_version"], facts["driver_cuda_version"] = header[1], header[2]
    if gpus is not None and not gpus.ok:  # drivers before 510 do not know compute_cap
        gpus = run(gpu_query(GPU_FIELDS[:-1]), TIMEOUT_S)
    facts["gpus"] = parse_gpu_csv(gpus.stdout) if gpus is not None and gpus.ok else []
    facts["processes"] = parse_apps_csv(apps.stdout) if apps is not None and apps.ok else []
    if not facts["driver_version"] and facts["gpus"]:
        facts["driver_version"] = facts["gpus"][0].get("driver_version")
    return facts


def parse_gpu_csv(text: str) -> list[dict[str, Any]]:
    """Rows of ``--query-gpu=GPU_FIELDS --format=csv,noheader,nounits`` (the last field optional)."""
    rows = []
    for cells in _csv_rows(text):
        row = dict(zip(GPU_FIELDS, cells))
        rows.append({
            "index": _int(row.get("index")), "name": row.get("name"), "uuid": row.get("uuid"),
            "driver_version": row.get("driver_version"),
            "memory_total_mib": _int(row.get("memory.total")), "memory_used_mib": _int(row.get("memory.used")),
            "utilization_pct": _int(row.get("utilization.gpu")), "pci_bus_id": row.get("pci.bus_id"),
            "compute_cap": row.get("compute_cap"),
        })
    return rows


def parse_apps_csv(text: str) -> list[dict[str, Any]]:
    """Rows of ``--query-compute-apps=pid,process_name,used_memory,gpu_uuid --format=csv,noheader,nounits``."""
    return [{"pid": _int(c[0]), "name": c[1], "used_memory_mib": _int(c[2]), "gpu_uuid": c[3]}
            for c in _csv_rows(text) if len(c) >= 4]


def _csv_rows(text: str) -> list[list[str]]:
    if "No devices were found" in text:
        return []
    return [[cell.strip() for cell in row] for row in csv.reader(text.splitlines()) if row and row[0].strip()]


def _int(value: str | None) -> int | None:
    # nvidia-smi writes "[N/A]" or "[Not Supported]" where a value is unknown
    try:
        return int(float(value)) if value is not None else None
    except ValueError:
        return None


def _proc_driver_version(proc_root: Path) -> str | None:
    try:
        text = (proc_root / "driver/nvidia/version").read_text()
    except OSError:
        return None
    found = _PROC_DRIVER.search(text)
    return found[1] if found else None
