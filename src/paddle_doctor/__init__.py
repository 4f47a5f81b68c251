"""paddle-doctor: find the root cause of failed PaddlePaddle distributed runs, and prevent them.

Importing this package is cheap and never imports paddle: the runtime helpers that need Paddle
are loaded on first use (module-level ``__getattr__``), so ``paddle-doctor diagnose`` and
``explain`` start fast and work where Paddle is not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> (module, attribute), imported on first access. The metric classes subclass
# paddle.metric.Metric, so resolving them imports paddle (NEEDS_PADDLE); nothing else does.
_LAZY = {
    "BatchError": ("paddle_doctor.errors", "BatchError"),
    "CheckpointError": ("paddle_doctor.errors", "CheckpointError"),
    "CollectiveMismatchError": ("paddle_doctor.errors", "CollectiveMismatchError"),
    "DetectionMetric": ("paddle_doctor.runtime.metrics.detection", "DetectionMetric"),
    "EvalError": ("paddle_doctor.errors", "EvalError"),
    "EvalResult": ("paddle_doctor.runtime.evaluate.result", "EvalResult"),
    "GuardError": ("paddle_doctor.errors", "GuardError"),
    "PadCollate": ("paddle_doctor.runtime.evaluate.collate", "PadCollate"),
    "PaddleDoctorError": ("paddle_doctor.errors", "PaddleDoctorError"),
    "PeerFailedError": ("paddle_doctor.errors", "PeerFailedError"),
    "PreflightError": ("paddle_doctor.errors", "PreflightError"),
    "SampleCountError": ("paddle_doctor.errors", "SampleCountError"),
    "SegmentationMetric": ("paddle_doctor.runtime.metrics.segmentation", "SegmentationMetric"),
    "StateDictMismatchError": ("paddle_doctor.errors", "StateDictMismatchError"),
    "StateSchemaError": ("paddle_doctor.errors", "StateSchemaError"),
    "StoreTimeoutError": ("paddle_doctor.errors", "StoreTimeoutError"),
    "SyncableMetric": ("paddle_doctor.runtime.evaluate.states", "SyncableMetric"),
    "UnsafeCheckpointError": ("paddle_doctor.errors", "UnsafeCheckpointError"),
    "clean_env": ("paddle_doctor.process.launchenv", "clean_env"),
    "evaluate": ("paddle_doctor.runtime.evaluate.api", "evaluate"),
    "evaluate_model": ("paddle_doctor.runtime.suites.hapi", "evaluate_model"),
    "guarded": ("paddle_doctor.runtime.guards.watchdog", "guarded"),
    "install": ("paddle_doctor.runtime.launch.bootstrap", "install"),
    "last_collectives": ("paddle_doctor.runtime.guards.trace", "last_collectives"),
    "load_clean": ("paddle_doctor.runtime.checkpoint.load", "load_clean"),
    "pad_collate": ("paddle_doctor.runtime.evaluate.collate", "pad_collate"),
    "preflight": ("paddle_doctor.runtime.guards.preflight", "preflight"),
    "record": ("paddle_doctor.runtime.guards.record", "record"),
    "save_clean": ("paddle_doctor.runtime.checkpoint.save", "save_clean"),
    "trace_collectives": ("paddle_doctor.runtime.guards.trace", "enable"),
}

NEEDS_PADDLE = frozenset({"DetectionMetric", "SegmentationMetric"})

__all__ = ["BatchError", "CheckpointError", "CollectiveMismatchError", "DetectionMetric", "EvalError", "EvalResult",
           "GuardError", "PadCollate", "PaddleDoctorError", "PeerFailedError", "PreflightError",
           "SampleCountError", "SegmentationMetric", "StateDictMismatchError", "StateSchemaError",
           "StoreTimeoutError", "SyncableMetric", "UnsafeCheckpointError", "__version__", "clean_env",
           "evaluate", "evaluate_model", "guarded", "install", "last_collectives", "load_clean",
           "pad_collate", "preflight", "record", "save_clean", "trace_collectives"]

if TYPE_CHECKING:  # for type checkers and IDEs only; never runs
    from paddle_doctor.errors import (
        BatchError,
        CheckpointError,
        CollectiveMismatchError,
        EvalError,
        GuardError,
        PaddleDoctorError,
        PeerFailedError,
        PreflightError,
        SampleCountError,
        StateDictMismatchError,
        StateSchemaError,
        StoreTimeoutError,
        UnsafeCheckpointError,
    )
    from paddle_doctor.runtime.checkpoint.load import load_clean
    from paddle_doctor.runtime.checkpoint.save import save_clean
    from paddle_doctor.runtime.evaluate.api import evaluate
    from paddle_doctor.runtime.evaluate.collate import PadCollate, pad_collate
    from paddle_doctor.runtime.evaluate.result import EvalResult
    from paddle_doctor.runtime.evaluate.states import SyncableMetric
    from paddle_doctor.runtime.guards.preflight import preflight
    from paddle_doctor.runtime.guards.record import record
    from paddle_doctor.runtime.guards.trace import last_collectives
    from paddle_doctor.runtime.guards.trace import enable as trace_collectives
    from paddle_doctor.runtime.guards.watchdog import guarded
    from paddle_doctor.runtime.launch.bootstrap import install
    from paddle_doctor.process.launchenv import clean_env
    from paddle_doctor.runtime.metrics.detection import DetectionMetric
    from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric
    from paddle_doctor.runtime.suites.hapi import evaluate_model


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'paddle_doctor' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
