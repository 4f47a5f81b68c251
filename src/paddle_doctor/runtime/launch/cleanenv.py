"""``clean_env()``: drop the distributed variables a launcher (or an earlier job) left behind.

Guide 001 §3.3: a one-process evaluation started from a shell, notebook or job that still holds
``PADDLE_TRAINER_*`` tries to join peers that do not exist. Measured on Paddle 3.3.1: without
PADDLE_DISTRI_BACKEND it hangs silently in the legacy HTTP store (effectively forever), with it
the store gives up after 900 s, and two unrelated jobs with the same leftovers silently join
each other. ``FLAGS_selected_gpus`` left over pins the process to another rank's GPU.
Call it at the very top of the script, before anything distributed is created.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

# What the launchers set for their workers (paddle.distributed.launch 3.x, fleet.launch, spawn),
# and the torch-style names that init_parallel_env also reads (MASTER_ADDR / MASTER_PORT).
LAUNCHER_VARS = frozenset({
    "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_CURRENT_ENDPOINT",
    "PADDLE_MASTER", "PADDLE_MASTER_ENDPOINT", "PADDLE_GLOBAL_RANK", "PADDLE_GLOBAL_SIZE",
    "PADDLE_LOCAL_RANK", "PADDLE_LOCAL_SIZE", "PADDLE_RANK_IN_NODE", "PADDLE_NNODES",
    "PADDLE_DISTRI_BACKEND", "PADDLE_WITH_GLOO", "PADDLE_TRAINERS", "PADDLE_PORT", "PADDLE_CURRENT_IP",
    "PADDLE_LOG_DIR", "PADDLE_BACKUP_ENV_PATH", "PADDLE_AUTO_CLUSTER", "PADDLE_JOB_ID", "PADDLE_POD_NAME",
    "PADDLE_WORLD_DEVICE_IDS", "PADDLE_LOCAL_DEVICE_IDS", "PADDLE_RANK", "PADDLE_NODE_NUM",
    "PADDLE_CLUSTER_TRAIN", "TRAINING_ROLE", "POD_IP", "TRAINER_PORTS_NUM", "DISTRIBUTED_TRAINER_ENDPOINTS",
    "MASTER_ADDR", "MASTER_PORT", "PADDLE_DOCTOR_OWNER",
})
LAUNCHER_PREFIXES = ("FLAGS_selected_", "PADDLE_ELASTIC_", "PADDLE_TRAINER_")


def is_leftover(name: str) -> bool:
    return name in LAUNCHER_VARS or name.startswith(LAUNCHER_PREFIXES)


def clean_env(environ: MutableMapping[str, str] | None = None, *, keep: tuple[str, ...] = ()) -> dict[str, str]:
    """Remove leftover launcher variables from ``environ`` (default: ``os.environ``), except
    those in ``keep``; returns what was removed (name -> value)."""
    env = os.environ if environ is None else environ
    removed = {k: env[k] for k in sorted(env) if is_leftover(k) and k not in keep}
    for k in removed:
        del env[k]
    return removed
