"""Helpers of the env tests: recorded nvidia-smi outputs as a command runner, and report facts."""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.envcheck.probes.commands import RecordedCommands
from paddle_doctor.envcheck.probes.gpu import APPS_QUERY, GPU_FIELDS, gpu_query

FIXTURES = Path(__file__).parent / "fixtures"


def recorded_nvidia_smi(machine: str) -> RecordedCommands:
    """The runner for one folder of fixtures/ (see fixtures/README.md)."""
    folder = FIXTURES / machine
    table = (folder / "nvidia-smi.txt").read_text()
    if machine == "nodriver":  # every nvidia-smi call fails the same way, exit 9
        return RecordedCommands({cmd: (9, table) for cmd in
                                 [("nvidia-smi",), gpu_query(GPU_FIELDS), gpu_query(GPU_FIELDS[:-1]), APPS_QUERY]})
    outputs = {("nvidia-smi",): table, APPS_QUERY: (folder / "query-compute-apps.csv").read_text()}
    err = folder / "query-gpu-compute-cap.err"
    if err.exists():
        outputs[gpu_query(GPU_FIELDS)] = (2, err.read_text())
        outputs[gpu_query(GPU_FIELDS[:-1])] = (folder / "query-gpu.csv").read_text()
    else:
        outputs[gpu_query(GPU_FIELDS)] = (folder / "query-gpu.csv").read_text()
    return RecordedCommands(outputs)


def gpu_build(cuda="12.6", cudnn="9.5.1", nccl="2.21.5") -> dict:
    """The ``paddle`` facts of a GPU build as probe_paddle reports them."""
    return {"installed": True, "distribution": "paddlepaddle-gpu", "version": "3.3.1", "commit": "7688495538",
            "build": "gpu", "compiled_with": {"cuda": cuda, "cudnn": cudnn, "nccl": nccl, "rocm": None,
                                              "xpu": None, "cuda_archs": [], "pip_cuda_libraries": True}}
