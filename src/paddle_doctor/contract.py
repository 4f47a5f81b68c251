"""What the runtime (which writes) and diagnose (which reads) share: record schema and file names,
and the variables ``paddle-doctor run`` passes to its workers.

Both sides import these names; none is typed twice. A leaf module: it imports nothing of
paddle_doctor and never imports paddle.

Error record, schema 2 (``paddle_doctor_error.<rank>.json``, one per process, written atomically)::

    {"schema": "paddle_doctor.error_record/2",
     "finding": {...Finding.to_dict()...},      # code = guard kind, cause = catalog id
     "kind": "exception" | "signal" | "watchdog" | ...,   # what ended the process
     "rank", "local_rank", "world_size", "host", "pid", "run_id", "time", "time_iso",
     "exception": {"type", "message", "traceback"} | null, "signal": str | null,
     "phase", "step", "current_collective", "last_collective", "collectives",
     "peers", "memory", "argv", "paddle_version", "messages", "later"}

Schema 1 (``paddle_doctor.error_record/1``) had a ``hint`` dict (kind, category, ranks, summary)
instead of ``finding``; readers accept both.

A guard's finding: ``code`` is one of :data:`GUARD_KINDS`, ``cause`` its catalog id there (or a
more precise one the guard knows), ``ranks`` the culprits, ``message`` one line naming them. A
record of one of our own exceptions that has no guard finding (``SampleCountError``) carries a
finding whose ``code`` is the exception's class name and ``cause`` its ``default_cause``.
"""

from __future__ import annotations

import re
from .catalog.ids import CauseId

RECORD_SCHEMA = "paddle_doctor.error_record/2"
RECORD_SCHEMA_PREFIX = "paddle_doctor.error_record/"

RECORD_PREFIX = "paddle_doctor_error."  # + "<rank>.json" ("main" outside a launcher)
FAULT_PREFIX = "paddle_doctor_fault."  # + "<rank>.dump": faulthandler output of a native crash
RECORD_NAME_RE = re.compile(r"^paddle_doctor_error\.(\d+|main)\.json$")
FAULT_NAME_RE = re.compile(r"^paddle_doctor_fault\.(\d+|main)\.dump$")


def record_name(label: str) -> str:
    return f"{RECORD_PREFIX}{label}.json"


def fault_name(label: str) -> str:
    return f"{FAULT_PREFIX}{label}.dump"


# What the runtime guards report (a Finding's ``code``) -> the cause id they point to by default.
GUARD_KINDS: dict[str, str] = {
    "dead": CauseId.host_oom_killed,  # a peer's process vanished without a word (SIGKILL: the OOM killer)
    "crashed": CauseId.segfault,  # a peer died in native code (its faulthandler dump says how)
    "failed": CauseId.python_exception,  # a peer ended with an error (its own record names the cause)
    "stuck": CauseId.collective_timeout,  # a peer sent no heartbeat for the deadline (frozen, SIGSTOP)
    "missing": CauseId.collective_timeout,  # a peer was never heard from within the deadline
    "mismatch": CauseId.rank_divergent_collective,  # ranks are in (or about to run) different collectives
    "uneven": CauseId.uneven_eval_batches,  # ranks ran different numbers of batches, or last-batch sizes
    "preflight": CauseId.config_error,  # ranks' plans (data, model, versions) differ, or one never came
}

# Variables `paddle-doctor run` sets for its workers (read by runtime/launch).
LOG_DIR_ENV = "PADDLE_DOCTOR_LOG_DIR"  # where records go (the old launcher has no PADDLE_LOG_DIR)
RUN_ID_ENV = "PADDLE_DOCTOR_RUN_ID"  # tells this run's records from an earlier run's in one dir
GUARDS_ENV = "PADDLE_DOCTOR_GUARDS"  # comma list: record, watchdog, trace, check
OWNER_ENV = "PADDLE_DOCTOR_OWNER"  # "pid:rank" of the process that installed; its children skip
DEBUG_LOGS_ENV = "PADDLE_DOCTOR_DEBUG_LOGS"
SINGLE_ENV = "PADDLE_DOCTOR_SINGLE"
WATCHDOG_ENV = "PADDLE_DOCTOR_WATCHDOG"  # "0": no heartbeats at all
WATCHDOG_TIMEOUT_ENV = "PADDLE_DOCTOR_WATCHDOG_TIMEOUT"  # seconds without a heartbeat = missing
SIDECAR_ENV = "PADDLE_DOCTOR_SIDECAR"  # "0": no sidecar beats for a rank (its starved beat thread looks frozen)
BEAT_LOSS_ENV = "PADDLE_DOCTOR_BEAT_LOSS"  # a fraction of outgoing beats dropped on purpose (fault tests)
RANKS_PER_NODE_ENV = "PADDLE_DOCTOR_RANKS_PER_NODE"  # n: node = rank // n (fakes nodes on one host); default: by endpoint host


# Leftovers (clean_env, `run --single`, env's residual check): what the launchers set for their
# workers (paddle.distributed.launch 3.x, fleet.launch, spawn), and the torch-style names that
# init_parallel_env also reads (MASTER_ADDR / MASTER_PORT).
LAUNCHER_VARS = frozenset({
    "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS", "PADDLE_CURRENT_ENDPOINT",
    "PADDLE_MASTER", "PADDLE_MASTER_ENDPOINT", "PADDLE_GLOBAL_RANK", "PADDLE_GLOBAL_SIZE",
    "PADDLE_LOCAL_RANK", "PADDLE_LOCAL_SIZE", "PADDLE_RANK_IN_NODE", "PADDLE_NNODES",
    "PADDLE_DISTRI_BACKEND", "PADDLE_WITH_GLOO", "PADDLE_TRAINERS", "PADDLE_PORT", "PADDLE_CURRENT_IP",
    "PADDLE_LOG_DIR", "PADDLE_BACKUP_ENV_PATH", "PADDLE_AUTO_CLUSTER", "PADDLE_JOB_ID", "PADDLE_POD_NAME",
    "PADDLE_WORLD_DEVICE_IDS", "PADDLE_LOCAL_DEVICE_IDS", "PADDLE_RANK", "PADDLE_NODE_NUM",
    "PADDLE_CLUSTER_TRAIN", "TRAINING_ROLE", "POD_IP", "TRAINER_PORTS_NUM", "DISTRIBUTED_TRAINER_ENDPOINTS",
    "MASTER_ADDR", "MASTER_PORT", OWNER_ENV,
})
LAUNCHER_PREFIXES = ("FLAGS_selected_", "PADDLE_ELASTIC_", "PADDLE_TRAINER_")
# Parameter-server (fleet PS mode) and auto-parallel launches set these too; a plain run with them left
# over takes the PS role or waits for a cluster, so `clean_env` drops them and `env` flags them.
PS_AND_AUTO_VARS = frozenset({"PADDLE_PSERVERS_IP_PORT_LIST", "PADDLE_PSERVER_ENDPOINTS", "PADDLE_PSERVER_NUMS",
                              "PADDLE_ROLE", "PADDLE_HETER_TRAINER_IP_PORT_LIST", "PADDLE_STAGE_TRAINERS_NUM"})
PS_AND_AUTO_PREFIXES = ("PADDLE_GLOO_", "PADDLE_AUTO_PARALLEL_", "PADDLE_PSERVER")


def is_leftover(name: str) -> bool:
    return (name in LAUNCHER_VARS or name in PS_AND_AUTO_VARS
            or name.startswith(LAUNCHER_PREFIXES) or name.startswith(PS_AND_AUTO_PREFIXES))
