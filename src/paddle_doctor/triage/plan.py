"""The variations, as data, and how each one changes the user's command and environment.

Pure functions: no process is started here.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.contract import VARIATIONS_ENV
from ..catalog.ids import CauseId
from ..catalog.load import CatalogError
from ..catalog.triage import TRIAGE_FILE, triage_families

LAUNCH_MODULES = ("paddle.distributed.launch", "paddle.distributed.fleet.launch")
# launcher flags that take a value and only make sense with several processes or nodes
MULTI_FLAGS = ("--nnodes", "--master", "--ips", "--rank", "--node_rank")
DEVICE_FLAGS = ("--devices", "--gpus", "--selected_gpus", "--xpus")


@dataclass(frozen=True)
class Variation:
    name: str
    description: str  # what is changed
    runtime: str = ""  # the name applied in the workers (runtime/launch/variations.py), if any
    meaning: str = ""  # what a pass means
    # what a pass says about a concrete cause from outside the family ({where}: the failing rank)
    explains: str = ""
    unchanged: str = ""  # what it means that the variation changed nothing in the rerun

    @property
    def family(self) -> tuple[CauseId, ...]:
        """The causes that passing under this variation points to, the usual one first
        (``catalog/triage.toml``)."""
        return families().get(self.name, ())


VARIATIONS = {
    "baseline": Variation("baseline", "the command unchanged (under run's guards)"),
    "workers0": Variation(
        "workers0", "DataLoader workers forced to 0 (loading in the main process)", "workers0",
        "the failure needs DataLoader worker processes",
        "it happens only when DataLoader worker processes load the data (their start, memory, shared "
        "memory or open files)", "no DataLoader asked for worker processes"),
    "single": Variation(
        "single", "one process (--nproc_per_node 1, one node)", "",
        "the failure needs several ranks: what one rank gets or does differs, or the ranks cannot talk",
        "it happens only when the data is split across ranks: what {where} gets differs from what one "
        "process sees over all of it"),
    "cpu": Variation(
        "cpu", "CPU only (set_device('cpu') in every worker)", "cpu",
        "the failure needs the GPU: device, CUDA or NCCL",
        "it happens only on the GPU (device, CUDA or NCCL)", "the job ran on the CPU already"),
    "nockpt": Variation(
        "nockpt", "no checkpoint load (paddle.load returns nothing; random weights)", "nockpt",
        "the failure needs the checkpoint: a missing, mismatched or broken file",
        "it happens only when the checkpoint is loaded", "no checkpoint was loaded"),
}
ORDER = ("workers0", "single", "cpu", "nockpt")


@functools.lru_cache(maxsize=1)
def families() -> dict[str, tuple[CauseId, ...]]:
    """The catalog's triage families, checked (once) to name exactly the variations here."""
    found = triage_families()
    if set(found) != set(ORDER):
        raise CatalogError(f"{TRIAGE_FILE.name}: names the variations {sorted(found)}, triage has {sorted(ORDER)}")
    return found


# Device nodes of the accelerators Paddle runs on (NVIDIA, ROCm, Ascend, Kunlun XPU): without any,
# the job ran on CPU already.
ACCELERATOR_NODES = ("nvidia[0-9]*", "kfd", "davinci[0-9]*", "xpu[0-9]*")


def is_launcher(cmd: Sequence[str]) -> bool:
    return any(a in LAUNCH_MODULES for a in cmd)


def plan_variations(cmd: Sequence[str], *, checkpoint: bool = False) -> list[Variation]:
    """baseline first, then the variations that can change anything for this command."""
    names = ["baseline", "workers0"]
    if is_launcher(cmd) and _nproc(cmd) != (1, 1):
        names.append("single")
    names.append("cpu")
    if checkpoint:
        names.append("nockpt")
    return [VARIATIONS[n] for n in names]


def accelerator_present(dev: Path = Path("/dev")) -> bool:
    return any(any(dev.glob(pattern)) for pattern in ACCELERATOR_NODES)


def skip_reason(variation: Variation, baseline_cause: str | None, accelerator: bool) -> str | None:
    """Why a planned variation need not run, or None. The CPU rerun on a machine with no accelerator
    only repeats the baseline, unless the failure itself is of the GPU family (a script that asks
    for a GPU this machine lacks passes once it is forced onto the CPU)."""
    if variation.name == "cpu" and not accelerator and baseline_cause not in variation.family:
        return "no GPU or other accelerator on this machine: the command ran on the CPU already"
    return None


def _flag_value(cmd: Sequence[str], flag: str) -> str | None:
    for i, arg in enumerate(cmd):
        if arg == flag and i + 1 < len(cmd):
            return cmd[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def _nproc(cmd: Sequence[str]) -> tuple[int | None, int]:
    nproc = _flag_value(cmd, "--nproc_per_node")
    nnodes = _flag_value(cmd, "--nnodes") or "1"
    return (int(nproc) if nproc and nproc.isdigit() else None,
            int(nnodes.split(":")[-1]) if nnodes.split(":")[-1].isdigit() else 1)


def launcher_args_end(cmd: Sequence[str]) -> int:
    """Index of the script in a launcher command (the first argument after the module's own
    options that is not a flag's value)."""
    i = next(k for k, a in enumerate(cmd) if a in LAUNCH_MODULES) + 1
    while i < len(cmd) and cmd[i].startswith("-"):
        i += 1 if "=" in cmd[i] else 2
    return i


def rewrite_command(cmd: Sequence[str], variation: Variation, log_dir: str) -> list[str]:
    """The command for one variation; a launcher's --log_dir is pointed at ``log_dir``."""
    cmd = list(cmd)
    if not is_launcher(cmd):
        return cmd
    end = launcher_args_end(cmd)
    head, tail = cmd[:end], cmd[end:]
    drop = {"--log_dir", "--log-dir"} | (set(MULTI_FLAGS) | {"--nproc_per_node"} if variation.name == "single" else set())
    if variation.name == "cpu":
        drop |= set(DEVICE_FLAGS)
    module = next(k for k, a in enumerate(head) if a in LAUNCH_MODULES)
    kept = head[:module + 1] + _without(head[module + 1:], drop)
    extra = ["--log_dir", log_dir] + (["--nproc_per_node", "1"] if variation.name == "single" else [])
    return kept + extra + tail


def _without(args: list[str], flags: set[str]) -> list[str]:
    out, i = [], 0
    while i < len(args):
        name = args[i].split("=", 1)[0]
        if name in flags:
            i += 1 if "=" in args[i] else 2
            continue
        out.append(args[i])
        i += 1
    return out


def variation_env(variation: Variation, cmd: Sequence[str]) -> dict[str, str]:
    env = {}
    if variation.runtime:
        env[VARIATIONS_ENV] = variation.runtime
    if variation.name == "cpu" and not is_launcher(cmd):
        # Not for a launcher: 3.3.1's launcher indexes an empty device list and dies (IndexError in
        # collective.py _build_pod_with_master); its workers get set_device('cpu') instead.
        env["CUDA_VISIBLE_DEVICES"] = ""
    return env
