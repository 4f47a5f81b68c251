"""The local evaluation loop: forward, mask, metric updates, loss and sample bookkeeping.

No collective and no store call happens in here, so ranks with different batch counts (or none)
cannot block each other; everything that crosses ranks happens once, after the loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from paddle_doctor.runtime.evaluate.batches import BatchLayout, describe_call_error, describe_model_call_error
from paddle_doctor.runtime.evaluate.collate import apply_mask
from paddle_doctor.runtime.evaluate.states import to_numpy, update_metric

CHECKSUM_PRIME = 2_147_483_647  # sums of ids modulo this stay exact in float64 over 2**22 ranks


class Tally:
    """The evaluator's own states, synced in the same bucket as the metrics' states: the sample
    count and two id checksums prove that each index was counted once; the loss is a weighted sum."""

    sync_states = {"count": "sum", "id_sum": "sum", "id_sq": "sum", "loss_sum": "sum",
                   "loss_weight": "sum"}

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.count, self.id_sum, self.id_sq = 0, 0, 0
        self.loss_sum, self.loss_weight = 0.0, 0.0

    def add_ids(self, idx: np.ndarray) -> None:
        """Checksums of the evaluated indices (``count`` is kept live by the loop)."""
        ids = idx.astype(np.int64) % CHECKSUM_PRIME
        self.id_sum = (self.id_sum + int(ids.sum() % CHECKSUM_PRIME)) % CHECKSUM_PRIME
        self.id_sq = (self.id_sq + int((ids * ids % CHECKSUM_PRIME).sum() % CHECKSUM_PRIME)) % CHECKSUM_PRIME

    def add_loss(self, value: Any, rows: int) -> None:
        """``value``: the batch mean (one number) or one loss per row; weighted by rows."""
        v = np.asarray(to_numpy(value), dtype=np.float64).reshape(-1)
        if v.size == 1:
            self.loss_sum += float(v[0]) * rows
        elif v.size == rows:
            self.loss_sum += float(v.sum())
        else:
            raise ValueError(f"loss_fn returned {v.size} values for {rows} samples: return the batch "
                             "mean (reduction='mean') or one loss per sample (reduction='none')")
        self.loss_weight += rows

    @staticmethod
    def expected(n: int) -> tuple[int, int, int]:
        """(count, id_sum, id_sq) of ``range(n)``, each index once."""
        p = CHECKSUM_PRIME
        return n, (n * (n - 1) // 2) % p, ((n - 1) * n * (2 * n - 1) // 6) % p


def run_local(model: Any, batches: Iterable[tuple[np.ndarray, Any]], metrics: Sequence[Any], *,
              tally: Tally, loss_fn: Any = None, masked: bool = False, progress: Any = None,
              after_batch: Callable[[], None] | None = None, layout: BatchLayout | None = None) -> None:
    """Evaluate ``(indices, batch)`` pairs on this rank only; ``after_batch()`` may raise to stop."""
    layout = layout if layout is not None else BatchLayout()
    seen = []  # the indices actually evaluated; checksummed once at the end (cheaper than per batch)
    for idx, batch in batches:
        args, kwargs, labels, mask = layout.split(batch, masked)
        if not seen:
            check_labels(labels, layout)
        outputs = layout.pick_outputs(_call(model, args, kwargs, layout, batch, masked))
        if mask is not None and mask.ndim == 1 and not bool(mask.all()):
            outputs, labels = apply_mask(outputs, labels, mask)  # padded sample slots
        if labels and _rows(labels[0]) != len(idx):
            raise ValueError(f"a batch of {len(idx)} samples has {_rows(labels[0])} label rows: "
                             "the collate_fn must keep one row per sample")
        seen.append(idx)
        tally.count += len(idx)  # live: readable during the loop (progress, hang reports)
        if mask is not None and mask.ndim > 1:  # padded positions inside samples: keep the real ones
            outputs, labels = apply_mask(outputs, labels, mask)
        rows = _rows(labels[0]) if labels else len(idx)
        if rows:
            for metric in metrics:
                _update(metric, outputs, labels)
            if loss_fn is not None:
                tally.add_loss(loss_fn(*outputs, *labels), rows)
        if progress is not None:
            progress.advance(len(idx))
        if after_batch is not None:
            after_batch()
    if seen:
        tally.add_ids(np.concatenate(seen))


def check_labels(labels: list, layout: BatchLayout) -> None:
    """At the first batch: labels that no metric can count (text, objects) are refused by name."""
    for k, label in enumerate(labels):
        values = label if isinstance(label, (list, tuple)) else [label]
        text = next((v for v in values if isinstance(v, (str, bytes))), None)
        chosen = layout.labels if layout.labels is not None else -1
        if text is not None:
            raise TypeError(f"label {k} (labels={chosen!r}) holds text ({text!r}): metrics count integer class "
                            "ids; map the names to ids in the dataset's __getitem__, or name the right field "
                            "with labels=")


def _call(model: Any, args: list, kwargs: dict, layout: BatchLayout, batch: Any, masked: bool) -> Any:
    try:
        return model(*args, **kwargs)
    except TypeError as exc:
        hint = describe_model_call_error(exc, layout, batch, masked, args, kwargs)
        if hint is None or not _raised_by_the_call(exc, model):
            raise
        raise TypeError(hint) from exc


def _raised_by_the_call(exc: TypeError, model: Any) -> bool:
    """Binding the arguments failed: no frame of the traceback runs the model's own ``forward``
    (a TypeError raised inside it is the model's, and goes out as it is)."""
    code = getattr(getattr(model, "forward", model), "__code__", None)
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code is code:
            return False
        tb = tb.tb_next
    return code is not None


def _update(metric: Any, outputs: list, labels: list) -> None:
    try:
        update_metric(metric, outputs, labels)
    except TypeError as exc:
        hint = describe_call_error(exc, metric, outputs, labels)
        if hint is None:
            raise
        raise TypeError(hint) from exc


def _rows(value: Any) -> int:
    shape = getattr(value, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(value)


