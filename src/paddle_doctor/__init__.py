"""paddle-doctor: find the root cause of failed PaddlePaddle distributed runs, and prevent them.

Importing this package is cheap and never imports paddle: the runtime helpers that need Paddle
are loaded on first use (module-level ``__getattr__``), so ``paddle-doctor diagnose`` and
``explain`` start fast and work where Paddle is not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> (module, attribute), imported on first access.
_LAZY = {
    "EvalResult": ("paddle_doctor.runtime.result", "EvalResult"),
    "SyncableMetric": ("paddle_doctor.runtime.states", "SyncableMetric"),
    "evaluate": ("paddle_doctor.runtime.evaluate", "evaluate"),
    "pad_collate": ("paddle_doctor.runtime.collate", "pad_collate"),
}

__all__ = ["EvalResult", "SyncableMetric", "__version__", "evaluate", "pad_collate"]

if TYPE_CHECKING:  # for type checkers and IDEs only; never runs
    from paddle_doctor.runtime.collate import pad_collate
    from paddle_doctor.runtime.evaluate import evaluate
    from paddle_doctor.runtime.result import EvalResult
    from paddle_doctor.runtime.states import SyncableMetric


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
