"""Adapters for ``paddle.metric``: where each built-in metric keeps its sufficient statistics,
and the calling convention shared with ``paddle.Model`` (compute, then update with numpy).

Paddle's metrics hold host-side statistics and never sync them across ranks; naming those
attributes here is all it takes to sync them exactly (``states.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def builtin_states(metric: Any) -> dict[str, str] | None:
    """The state attributes of a ``paddle.metric`` built-in, or None for other classes."""
    import paddle.metric as pm

    table = (
        (pm.Accuracy, {"total": "sum", "count": "sum"}),  # per top-k: correct, seen
        (pm.Precision, {"tp": "sum", "fp": "sum"}),
        (pm.Recall, {"tp": "sum", "fn": "sum"}),
        (pm.Auc, {"_stat_pos": "sum", "_stat_neg": "sum"}),  # histograms over thresholds
    )
    for cls, states in table:
        if isinstance(metric, cls):
            return dict(states)
    return None


def metric_names(metric: Any) -> list[str]:
    names = metric.name()
    return [str(n) for n in names] if isinstance(names, (list, tuple)) else [str(names)]


def metric_values(metric: Any) -> dict[str, Any]:
    """``name() -> accumulate()``; a metric with several names (Accuracy with several top-k)
    returns one value per name."""
    names = metric_names(metric)
    value = metric.accumulate()
    if len(names) == 1:
        return {names[0]: _plain(value)}
    values = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if len(values) != len(names):
        raise ValueError(f"{type(metric).__name__}: name() gives {len(names)} names but accumulate() "
                         f"gives {len(values)} values")
    return {n: _plain(v) for n, v in zip(names, values)}


def update_metric(metric: Any, outputs: Sequence[Any], labels: Sequence[Any]) -> None:
    """The ``paddle.Model`` convention: ``update(*compute(*outputs, *labels))``, as numpy."""
    computed = metric.compute(*outputs, *labels)
    args = computed if isinstance(computed, (list, tuple)) else [computed]
    metric.update(*[to_numpy(a) for a in args])


def to_numpy(value: Any) -> Any:
    return value.numpy() if hasattr(value, "numpy") and not isinstance(value, np.ndarray) else value


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value
