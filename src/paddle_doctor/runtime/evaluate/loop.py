"""The local evaluation loop: forward, mask, metric updates, loss and sample bookkeeping.

No collective and no store call happens in here, so ranks with different batch counts (or none)
cannot block each other; everything that crosses ranks happens once, after the loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from paddle_doctor.runtime.evaluate.metrics import to_numpy, update_metric

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
              after_batch: Callable[[], None] | None = None) -> None:
    """Evaluate ``(indices, batch)`` pairs on this rank only; ``after_batch()`` may raise to stop."""
    seen = []  # the indices actually evaluated; checksummed once at the end (cheaper than per batch)
    for idx, batch in batches:
        inputs, labels, mask = split_batch(batch, masked)
        outputs = _as_list(model(*inputs))
        if mask is not None and mask.ndim == 1 and not bool(mask.all()):
            outputs, labels = apply_mask(outputs, labels, mask)  # padded sample slots
        if int(labels[0].shape[0]) != len(idx):
            raise ValueError(f"a batch of {len(idx)} samples has {labels[0].shape[0]} label rows: "
                             "the collate_fn must keep one row per sample")
        seen.append(idx)
        tally.count += len(idx)  # live: readable during the loop (progress, hang reports)
        if mask is not None and mask.ndim > 1:  # padded positions inside samples: keep the real ones
            outputs, labels = apply_mask(outputs, labels, mask)
        rows = int(labels[0].shape[0])
        if rows:
            for metric in metrics:
                update_metric(metric, outputs, labels)
            if loss_fn is not None:
                tally.add_loss(loss_fn(*outputs, *labels), rows)
        if progress is not None:
            progress.advance(len(idx))
        if after_batch is not None:
            after_batch()
    if seen:
        tally.add_ids(np.concatenate(seen))


def split_batch(batch: Any, masked: bool) -> tuple[list, list, Any]:
    """``[inputs..., label]`` (plus the mask last when the collate_fn returns one)."""
    if not isinstance(batch, (list, tuple)):
        raise TypeError(f"evaluate expects batches as (inputs..., label), got {type(batch).__name__}")
    fields = list(batch)
    mask = fields.pop() if masked else None
    if len(fields) < 2:
        raise TypeError(f"a batch needs at least one input and a label, got {len(fields)} field(s)")
    return fields[:-1], fields[-1:], mask


def apply_mask(outputs: list, labels: list, mask: Any) -> tuple[list, list]:
    """Keep only the positions where ``mask`` is True, flattening the masked axes of every tensor
    that starts with them (also when nothing is padded, so every batch has the same layout).
    A tensor that does not start with them (logits ``[B, C]`` next to class ids ``[B, 1]``) is
    left as it is, which is only allowed when nothing is masked."""
    shape = list(mask.shape)
    full = bool(mask.all())

    def pick(t: Any) -> Any:
        if list(t.shape[:len(shape)]) == shape:
            return t[mask]
        if full:
            return t
        raise ValueError(f"cannot apply the pad mask {shape} to a tensor of shape {list(t.shape)}: "
                         "outputs must start with the label's padded axes")

    return [pick(t) for t in outputs], [pick(t) for t in labels]


def _as_list(outputs: Any) -> list:
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
