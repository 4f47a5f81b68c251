"""``pad_collate``: batch samples of different shapes, with a mask so that pads never count.

Guide 000 section 4.1 (method 2) pads each batch to its largest sample so that shapes line up; it
then scores the pads as if they were data. Here the collate function also returns a mask, as the
last field of the batch, and ``evaluate`` drops the masked positions from outputs and labels
before any metric or loss sees them.

The mask covers the label (the last field of each sample): ``mask[b, i, ...]`` is True where
sample ``b``'s label has data. Its shape is ``[B, *label axes]``, a fixed rule so that every batch
has the same layout: a scalar label gives ``[B]``; ``[L]`` gives ``[B, L]``; ``[L, 1]`` gives
``[B, L]`` (a trailing axis of size 1 is not a length). ``evaluate`` flattens the masked axes of
every output and label that starts with them; a class id of shape ``[1]`` next to logits
``[B, C]`` is left alone (nothing in it is padded). Inputs are padded with ``pad_value`` and
passed to the model as they are: a model that must ignore padded inputs needs their lengths
from the data itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


class PadCollate:
    """``collate_fn`` for ``paddle.io.DataLoader`` or ``evaluate``: pads, and appends a mask."""

    returns_mask = True  # tells evaluate that the last field of each batch is the mask

    def __init__(self, pad_value: float = 0) -> None:
        self.pad_value = pad_value

    def __call__(self, samples: Sequence[Any]) -> list[np.ndarray]:
        if not samples:
            raise ValueError("pad_collate got an empty batch")
        rows = [_fields(s) for s in samples]
        widths = {len(r) for r in rows}
        if len(widths) != 1:
            raise ValueError(f"samples have different numbers of fields: {sorted(widths)}")
        columns = list(zip(*rows))
        return [*(pad_stack(c, self.pad_value) for c in columns), label_mask(columns[-1])]

    def __repr__(self) -> str:
        return f"PadCollate(pad_value={self.pad_value!r})"


pad_collate = PadCollate()


def returns_mask(collate_fn: Any) -> bool:
    return bool(getattr(collate_fn, "returns_mask", False))


def pad_stack(arrays: Sequence[np.ndarray], pad_value: float = 0) -> np.ndarray:
    """Stack arrays of one rank but different shapes into ``[B, *max_shape]``, padding at the end."""
    ndims = {a.ndim for a in arrays}
    if len(ndims) != 1:
        raise ValueError(f"a field has samples of different ranks (ndim {sorted(ndims)}): cannot pad")
    shape = np.max([a.shape for a in arrays], axis=0).astype(int) if arrays[0].ndim else ()
    dtype = np.result_type(*arrays)
    out = np.full((len(arrays), *shape), pad_value, dtype=dtype)
    for b, a in enumerate(arrays):
        out[(b, *(slice(0, s) for s in a.shape))] = a
    return out


def label_mask(labels: Sequence[np.ndarray]) -> np.ndarray:
    """True where a label has data, over its axes (a trailing axis of size 1 excepted)."""
    shapes = np.array([a.shape for a in labels], dtype=int).reshape(len(labels), -1)
    k = shapes.shape[1]
    if k >= 2 and (shapes[:, -1] == 1).all():
        k -= 1
    mask = np.zeros((len(labels), *shapes.max(axis=0)[:k]), dtype=bool)
    for b, shape in enumerate(shapes):
        mask[(b, *(slice(0, s) for s in shape[:k]))] = True
    return mask


def _fields(sample: Any) -> list[np.ndarray]:
    if isinstance(sample, dict) or not isinstance(sample, (list, tuple)):
        raise TypeError("pad_collate expects each sample as a tuple (inputs..., label), "
                        f"got {type(sample).__name__}")
    return [np.asarray(f.numpy() if hasattr(f, "numpy") else f) for f in sample]
