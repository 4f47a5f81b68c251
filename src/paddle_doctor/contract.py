"""What the runtime (which writes) and diagnose (which reads) share: record schema and file names,
and the variables ``paddle-doctor run`` passes to its workers.

Both sides import these names; none is typed twice. A leaf module: it imports nothing of
paddle_doctor but the catalog's ids and the rule protocol, and never imports paddle.

Error record, schema 2 (``paddle_doctor_error.<rank>.json``, one per process, written atomically)::

    {"schema": "paddle_doctor.error_record/2",
     "finding": {...Finding.to_dict()...},      # code = guard kind, cause = catalog id
     "kind": "exception" | "signal" | "watchdog" | ...,   # what ended the process
     "rank", "local_rank", "world_size", "host", "pid", "run_id", "time", "time_iso",
     "exception": {"type", "message", "traceback"} | null, "signal": str | null,
     "phase", "step", "current_collective", "last_collective", "collectives",
     "peers", "channel", "memory", "argv", "paddle_version", "messages", "later"}

``channel``: the liveness channel's counters (accepted, dropped by reason, loop errors), or null.

Schema 1 (``paddle_doctor.error_record/1``) had a ``hint`` dict (kind, category, ranks, summary)
instead of ``finding``; readers accept both.

A guard's finding: ``code`` is one of :data:`GUARD_KINDS` (declared in :data:`GUARD_RULES`, one
:class:`GuardKind` rule each), ``cause`` its catalog id there (or a more precise one the guard
knows), ``ranks`` the culprits, ``message`` one line naming them. A record of one of our own
exceptions that has no guard finding (``SampleCountError``) carries a finding whose ``code`` is the
exception's class name and ``cause`` its ``default_cause``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .catalog.ids import CauseId
from .rules import Docs

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


APPLIED_PREFIX = "paddle_doctor_applied."  # + "<rank>.json": what triage's variations changed in a worker


def applied_name(label: str) -> str:
    """Where a worker counts what each of triage's variations changed (runtime/launch/variations.py)."""
    return f"{APPLIED_PREFIX}{label}.json"


CHANNEL_PREFIX = "paddle_doctor_channel."  # + "<rank>.json" / "w<node>.json": the liveness channel's drops


def channel_name(label: str) -> str:
    """Where a rank (or node watcher ``w<node>``) counts the datagrams its channel dropped."""
    return f"{CHANNEL_PREFIX}{label}.json"


@dataclass(frozen=True)
class GuardKind:
    """What a runtime guard reports (a Finding's ``code``), declared as a rule of the shared protocol
    (:mod:`paddle_doctor.rules`). The guards run inside the workers, under paddle, so ``check`` is where
    the guard that reports this kind lives (``module:function``), not the function itself."""

    code: str
    cause: CauseId  # the cause it points at when the guard knows no more precise one
    message: str  # what it means, one line
    check: str  # the reporting guard, "paddle_doctor.runtime.guards.<module>:<function>"
    example: str  # a message the guard reports

    @property
    def docs(self) -> Docs:
        return Docs(source=self.check, example=self.example)


_LIVENESS = "paddle_doctor.runtime.guards.liveness.verdict:"
_COLLCHECK = "paddle_doctor.runtime.guards.collcheck:"
GUARD_RULES: tuple[GuardKind, ...] = (
    GuardKind("dead", CauseId.host_oom_killed, "a peer's process vanished without a word (SIGKILL: the OOM killer)",
              _LIVENESS + "judge", "rank 1 died without a word: its process is gone (killed by a signal, "
              "e.g. SIGKILL from the kernel's OOM killer or kill -9)"),
    GuardKind("crashed", CauseId.segfault, "a peer died in native code (its faulthandler dump says how)",
              _LIVENESS + "judge", "rank 1 crashed in native code (Segmentation fault)"),
    GuardKind("failed", CauseId.python_exception, "a peer ended with an error (its own record names the cause)",
              _LIVENESS + "judge", "rank 1 ended with an error (see paddle_doctor_error.1.json)"),
    GuardKind("stuck", CauseId.collective_timeout, "a peer sent no heartbeat for the deadline (frozen, SIGSTOP)",
              _LIVENESS + "judge", "rank 1 has sent no heartbeat for 31.2 s: its process is stopped "
              "(state T: SIGSTOP or a debugger)"),
    GuardKind("missing", CauseId.collective_timeout, "a peer was never heard from within the deadline",
              _LIVENESS + "judge", "rank 1 has not been heard from in 30.4 s (no heartbeat since this rank "
              "started watching)"),
    GuardKind("mismatch", CauseId.rank_divergent_collective,
              "ranks are in (or about to run) different collectives",
              _COLLCHECK + "compare", "rank 0 entered all_reduce #3 at eval.py:41; rank 1 finished after its "
              "last collective barrier #2 at eval.py:50 without entering it"),
    GuardKind("uneven", CauseId.uneven_eval_batches, "ranks ran different numbers of batches, or last-batch sizes",
              _COLLCHECK + "compare", "all_gather #7 at eval.py:38 got tensors of different sizes: rank 0 "
              "[[32, 10]]; rank 1 [[8, 10]] (the ranks' batches differ in size, usually the last batch)"),
    GuardKind("preflight", CauseId.config_error, "ranks' plans (data, model, versions) differ, or one never came",
              "paddle_doctor.runtime.guards.preflight:mismatch_error",
              "ranks disagree on dataset_len (rank 1 differs from the others)"),
)
# kind -> the cause id it points to by default (what the guards read; collected from GUARD_RULES).
GUARD_KINDS: dict[str, str] = {kind.code: kind.cause for kind in GUARD_RULES}

# Every environment variable paddle-doctor owns is named here (docs/architecture.md: who sets it,
# who reads it). Variables `paddle-doctor run` sets for its workers (read by runtime/launch).
LOG_DIR_ENV = "PADDLE_DOCTOR_LOG_DIR"  # where records go (the old launcher has no PADDLE_LOG_DIR)
RUN_ID_ENV = "PADDLE_DOCTOR_RUN_ID"  # tells this run's records from an earlier run's in one dir
GUARDS_ENV = "PADDLE_DOCTOR_GUARDS"  # comma list: record, watchdog, trace, check
OWNER_ENV = "PADDLE_DOCTOR_OWNER"  # "pid:rank" of the process that installed; its children skip
DEBUG_LOGS_ENV = "PADDLE_DOCTOR_DEBUG_LOGS"
SINGLE_ENV = "PADDLE_DOCTOR_SINGLE"
PACKAGE_DIR_ENV = "PADDLE_DOCTOR_PACKAGE_DIR"  # the tool's own paddle_doctor, for a job Python without one
PROBE_ENV = "PADDLE_DOCTOR_PROBE"  # sitecustomize reports whether it can install, and installs nothing
WATCHDOG_ENV = "PADDLE_DOCTOR_WATCHDOG"  # "0": no heartbeats at all
WATCHDOG_TIMEOUT_ENV = "PADDLE_DOCTOR_WATCHDOG_TIMEOUT"  # seconds without a heartbeat = missing
SIDECAR_ENV = "PADDLE_DOCTOR_SIDECAR"  # "0": no sidecar beats for a rank (its starved beat thread looks frozen)
BEAT_LOSS_ENV = "PADDLE_DOCTOR_BEAT_LOSS"  # a fraction of outgoing beats dropped on purpose (fault tests)
WATCHDOG_EXIT_CODE = 86  # what a rank the watchdog ends exits with
KEY_FILE_ENV = "PADDLE_DOCTOR_KEY_FILE"  # the PATH of the liveness channel's key file (0600), never the key
RANKS_PER_NODE_ENV = "PADDLE_DOCTOR_RANKS_PER_NODE"  # n: node = rank // n (fakes nodes on one host); default: by endpoint host

# Variables `triage` and `smoke` set for the workers they launch (read inside those workers).
VARIATIONS_ENV = "PADDLE_DOCTOR_VARIATIONS"  # comma list: triage's reruns (runtime/launch/variations.py)
SMOKE_FAULT_ENV = "PADDLE_DOCTOR_SMOKE_FAULT"  # KIND:RANK, a fault smoke injects (runtime/smoke_worker.py)
SMOKE_DEVICE_ENV = "PADDLE_DOCTOR_SMOKE_DEVICE"  # cpu | gpu
NO_CACHE_ENV = "PADDLE_DOCTOR_NO_CACHE"  # "1": diagnose compiles its trigger database, never reads or writes ~/.cache

# Variables of the processes paddle-doctor starts itself (process/): deliberately not PADDLE_*,
# since recorded fixtures keep PADDLE_* keys.
TAG_VAR = "PDOC_LAB_RUN"  # a unique tag in every launched process's environment, to find and end them all
PORTS_VAR = "PDOC_LAB_PORTS"  # FIRST:LAST, where free_ports picks (tests/conftest.py gives each xdist worker a slice)


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
