"""The metric state protocol: named states, each with a reduction, read from and written back to
metric objects.

Why states and not predictions: a metric's sufficient statistics (Accuracy's correct and total
counts, Precision's tp/fp, Auc's two histograms) have a fixed size however many samples were
seen, so syncing them costs bytes where gathering predictions costs O(N) per evaluation.

A custom metric takes part by declaring ``sync_states``, a mapping from attribute name to
reduction; ``reset()`` must create every listed attribute::

    class ExactAuc(paddle.metric.Metric):
        sync_states = {"scores": "cat", "labels": "cat"}

        def reset(self):
            self.scores = np.zeros((0,), "float32")  # cat states: dtype and row shape fixed here
            self.labels = np.zeros((0,), "int64")

- ``sum``/``max``/``min``: a number, a list of numbers or an array; the same shape on every rank.
- ``cat``: an array of rows (first axis = rows, any count per rank, even 0); the rows of all
  ranks are joined in rank order. Sent as raw bytes: no pickling.
- ``gather``: like ``cat``, but the rows are joined on rank 0 only (one gather, not an
  all_gather: the other ranks receive nothing and keep no rows), for a metric whose
  ``accumulate`` runs on rank 0 and shares its numbers (``evaluated_on_rank0 = True``, see
  ``metrics/detection.py``).

The built-in ``paddle.metric`` classes need no declaration (``builtin_states`` below).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

Reduction = Literal["sum", "max", "min", "cat", "gather"]
REDUCTIONS: tuple[str, ...] = ("sum", "max", "min", "cat", "gather")
ROWS = ("cat", "gather")  # the reductions whose states are arrays of rows
SCHEMA_BITS = 24  # the fingerprint must fit, summed over ranks, in the barrier's store counter


@runtime_checkable
class SyncableMetric(Protocol):
    """What ``evaluate`` needs from a metric: ``paddle.metric.Metric``'s API plus ``sync_states``."""

    sync_states: Mapping[str, Reduction]

    def reset(self) -> None: ...

    def update(self, *args: Any) -> Any: ...

    def accumulate(self) -> Any: ...

    def name(self) -> Any: ...


@dataclass(frozen=True)
class StateSlot:
    """One state of one metric object."""

    owner: Any
    attr: str
    reduction: str

    @property
    def label(self) -> str:
        return f"{type(self.owner).__name__}.{self.attr}"


def state_slots(metric: Any) -> list[StateSlot]:
    """The declared states of ``metric`` (its ``sync_states``, or the built-in table)."""
    declared = getattr(metric, "sync_states", None)
    if declared is None:
        declared = builtin_states(metric)
    if declared is None:
        raise TypeError(
            f"{type(metric).__name__} does not declare its states, so it cannot be synced exactly: "
            "add a class attribute sync_states = {'attr_name': 'sum' | 'max' | 'min' | 'cat' | 'gather'} "
            "(see docs/evaluate.md, 'Custom metrics')")
    slots = []
    for attr, reduction in declared.items():
        if reduction not in REDUCTIONS:
            raise ValueError(f"{type(metric).__name__}.sync_states[{attr!r}] = {reduction!r}: "
                             f"the reduction must be one of {', '.join(REDUCTIONS)}")
        if not hasattr(metric, attr):
            raise AttributeError(f"{type(metric).__name__} declares state {attr!r} but has no such "
                                 "attribute: reset() must create it")
        slots.append(StateSlot(metric, attr, reduction))
    return slots


def read_state(slot: StateSlot) -> np.ndarray:
    """The state as an array: float64 for sum/max/min (exact for counts below 2**53), the
    metric's own dtype for cat."""
    arr = np.asarray(getattr(slot.owner, slot.attr))
    if slot.reduction not in ROWS:
        return arr.astype(np.float64)
    if arr.ndim == 0:
        raise ValueError(f"cat state {slot.label} must be an array of rows, got a scalar")
    if arr.dtype.hasobject:
        raise TypeError(f"cat state {slot.label} has dtype object; only numeric arrays are sent "
                        "(no pickling)")
    return np.ascontiguousarray(arr)


def write_state(slot: StateSlot, value: np.ndarray) -> None:
    """Put a reduced value back, in the type the metric used (list, int, float, array, Tensor)."""
    setattr(slot.owner, slot.attr, _like(getattr(slot.owner, slot.attr), value, slot.reduction))


def _like(original: Any, value: np.ndarray, reduction: str) -> Any:
    if isinstance(original, np.ndarray):
        value = value.astype(original.dtype, copy=False)
        return value if reduction in ROWS else value.reshape(original.shape)
    if isinstance(original, (list, tuple)):
        flat = value.reshape(-1)
        if reduction not in ROWS and flat.size == len(original) and all(np.ndim(o) == 0 for o in original):
            return type(original)(_scalar_like(o, v) for o, v in zip(original, flat))
        return value.tolist()
    if hasattr(original, "numpy") and hasattr(original, "place"):  # a paddle Tensor
        import paddle

        return paddle.to_tensor(value.astype(np.asarray(original).dtype, copy=False))
    if reduction in ROWS:
        return value
    return _scalar_like(original, value.reshape(-1)[0])


def _scalar_like(original: Any, value: Any) -> Any:
    # Integer-valued counts must come back as ints: metrics format and divide them as such.
    if isinstance(original, (bool, np.bool_)):
        return bool(value)
    if isinstance(original, (int, np.integer)):
        return int(round(float(value)))
    return float(value)


def schema_fingerprint(slots: Sequence[StateSlot], values: Sequence[np.ndarray]) -> int:
    """A small hash of every state's name, reduction and layout; equal on all ranks iff their
    collectives will line up (cat: dtype and row shape; others: the full shape)."""
    parts = []
    for slot, value in zip(slots, values):
        layout = (value.dtype.str, value.shape[1:]) if slot.reduction in ROWS else value.shape
        parts.append(f"{slot.label}:{slot.reduction}:{layout}")
    return zlib.crc32("|".join(parts).encode()) & ((1 << SCHEMA_BITS) - 1)


# -- adapters for paddle.metric: where each built-in keeps its sufficient statistics, and the
# calling convention shared with paddle.Model (compute, then update with numpy) --
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
