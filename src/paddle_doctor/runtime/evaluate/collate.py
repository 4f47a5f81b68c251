"""``pad_collate``: batch samples of different shapes, with a mask so that pads never count.

Guide 000 section 4.1 (method 2) pads each batch to its largest sample so that shapes line up; it
then scores the pads as if they were data. Here the collate function also returns a mask (the
last field of a tuple batch, or the ``"pad_mask"`` key of a dict batch), and ``evaluate`` drops
the masked positions from outputs and labels before any metric or loss sees them.

The mask follows the label (``label=``: the last field, or the field named): ``mask[b, ...]`` is
True where sample ``b``'s label has data, over the label's *spatial* axes, i.e. every axis that
is not of size 1 in all samples. So tags ``[L]`` or ``[L, 1]`` give ``[B, L]``; PaddleSeg's label
maps ``[1, H, W]`` give ``[B, H, W]``; a class id (``[]`` or ``[1]``) gives ``[B]`` (nothing in it
is padded). ``evaluate`` then maps every output and label onto those axes (``apply_mask``):
``[B, *S, ...]`` as it is, NCHW logits ``[B, C, *S]`` with the class axis moved last, and tensors
with extra axes of size 1 (``[B, 1, H, W]``) squeezed; the real positions are kept, flattened to
one axis. A batch with nothing padded goes through the same path, so the layout the metric sees
never depends on the sizes in a batch; when some tensor cannot be mapped and nothing is padded,
no tensor is touched. Inputs are padded with ``pad_value`` (one value, or one per field: e.g.
255, the ignore index, for label maps) and reach the model as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

MASK_KEY = "pad_mask"
DICT_LABELS = ("label", "labels")  # PaddleSeg's and PaddleClas's key, then PaddleNLP's


class PadCollate:
    """``collate_fn`` for ``paddle.io.DataLoader`` or ``evaluate``: pads, and adds a mask.

    ``pad_value``: a number, or ``{field: number}`` (fields by key or position; others get 0).
    ``label``: the field whose real extent the mask records (default: the last one, or in dict
    samples ``"label"``, else ``"labels"``, PaddleNLP's key). ``ragged``: fields kept as a list
    of per-sample arrays (e.g. detection boxes), neither padded nor stacked.
    ``mask=False``: no mask; every tensor keeps its layout (``[B, C, H, W]`` logits, ``[B, 1, H,
    W]`` labels) and the pads are left to the metric, through the label's pad value: for a
    metric built on PaddleSeg's ``calculate_area``, pad the label with its ``ignore_index``
    (``PadCollate(pad_value={"label": 255}, mask=False)``), whose pixels it never counts.
    """

    def __init__(self, pad_value: float | Mapping[Any, float] = 0, label: int | str | None = None,
                 ragged: Sequence[int | str] = (), mask: bool = True) -> None:
        self.pad_value, self.label, self.ragged = pad_value, label, tuple(ragged)
        self.returns_mask = bool(mask)  # tells evaluate that the batch carries the mask

    def __call__(self, samples: Sequence[Any]) -> Any:
        if not samples:
            raise ValueError("pad_collate got an empty batch")
        if all(isinstance(s, Mapping) for s in samples):
            return self._collate_dicts(samples)
        rows = [_fields(s) for s in samples]
        widths = {len(r) for r in rows}
        if len(widths) != 1:
            raise ValueError(f"samples have different numbers of fields: {sorted(widths)}")
        columns = list(zip(*rows))
        label = -1 if self.label is None else self.label
        if not isinstance(label, int):
            raise ValueError(f"PadCollate(label={label!r}): tuple samples name fields by position")
        width = len(columns)
        out = [self._column(i, c, {i, i - width}) for i, c in enumerate(columns)]
        return [*out, label_mask(columns[label])] if self.returns_mask else out

    def _collate_dicts(self, samples: Sequence[Mapping]) -> dict:
        keys = list(samples[0])
        if any(list(s) != keys for s in samples):
            raise ValueError("dict samples have different keys: every sample needs the same fields")
        label = self.label if self.label is not None else next((k for k in DICT_LABELS if k in keys), "label")
        if label not in keys:
            guess = next((k for k in keys if "label" in str(k)), keys[-1])
            raise ValueError(f"PadCollate(label={label!r}): the samples have keys {keys}; name the label field, "
                             f"e.g. PadCollate(label={guess!r})")
        out = {k: self._column(k, [s[k] for s in samples], {k}) for k in keys}
        if self.returns_mask:
            out[MASK_KEY] = label_mask([np.asarray(s[label]) for s in samples])
        return out

    def _column(self, field: Any, values: Sequence[Any], names: set) -> Any:
        if names & set(self.ragged):
            return [_array(v) for v in values]
        arrays = [_array(v) for v in values]
        if any(a.dtype.hasobject or a.dtype.kind in "USV" for a in arrays):
            return list(values)  # not numeric (PaddleSeg's trans_info, file names): kept per sample
        pad = self.pad_value
        if isinstance(pad, Mapping):
            pad = next((pad[n] for n in names if n in pad), 0)
        return pad_stack(arrays, pad)

    def __repr__(self) -> str:
        return (f"PadCollate(pad_value={self.pad_value!r}, label={self.label!r}, ragged={self.ragged!r}"
                + (")" if self.returns_mask else ", mask=False)"))


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
    """True where a label has data, over its spatial axes (those not of size 1 in every sample)."""
    shapes = np.array([np.shape(a) for a in labels], dtype=int).reshape(len(labels), -1)
    spatial = [k for k in range(shapes.shape[1]) if not (shapes[:, k] == 1).all()]
    mask = np.zeros((len(labels), *shapes.max(axis=0)[spatial]), dtype=bool)
    for b, shape in enumerate(shapes):
        mask[(b, *(slice(0, s) for s in shape[spatial]))] = True
    return mask


def apply_mask(outputs: list, labels: list, mask: Any) -> tuple[list, list]:
    """Keep only the real positions of every output and label (see the module docstring)."""
    shape = [int(d) for d in mask.shape]
    full = bool(mask.all())
    ways = [_mapping(list(t.shape), shape) for t in (*outputs, *labels)]
    if any(w is None for w in ways):
        if full:
            return outputs, labels
        bad = [list(t.shape) for t, w in zip((*outputs, *labels), ways) if w is None]
        raise ValueError(f"cannot apply the pad mask {shape} to tensors of shape {bad}: outputs need the "
                         "label's padded axes first ([B, *S, ...]) or after the class axis ([B, C, *S]); "
                         "pick the outputs with evaluate(..., output=...) or the label with PadCollate(label=...)")
    picked = [_apply(t, w, mask) for t, w in zip((*outputs, *labels), ways)]
    return picked[:len(outputs)], picked[len(outputs):]


def _mapping(t: list[int], mask: list[int]) -> tuple[str, list[int]] | None:
    """How a tensor of shape ``t`` lines up with the mask: ("lead" | "channels" | "squeeze", shape)."""
    if not t or t[0] != mask[0]:
        return None
    k, rest = len(mask) - 1, t[1:]
    if rest[:k] == mask[1:]:
        return "lead", t
    squeezed = [d for d in rest if d != 1]
    if squeezed[:k] == mask[1:]:  # [B, 1, H, W]: label maps, class ids, one-channel logits
        return "squeeze", [t[0], *squeezed]
    if len(rest) == k + 1 and rest[1:] == mask[1:]:
        return "channels", t
    return None


def _apply(t: Any, way: tuple[str, list[int]], mask: Any) -> Any:
    kind, shape = way
    if kind == "channels":
        t = _moveaxis(t)
    elif kind == "squeeze":
        t = t.reshape(shape)
    return t[mask]


def _moveaxis(t: Any) -> Any:
    if isinstance(t, np.ndarray):
        return np.moveaxis(t, 1, -1)
    import paddle

    return paddle.moveaxis(t, 1, -1)


def _array(value: Any) -> np.ndarray:
    try:
        return np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    except (ValueError, TypeError):  # nested and ragged (a list of tuples): not a numeric field
        return np.empty(0, dtype=object)


def _fields(sample: Any) -> list[Any]:
    if not isinstance(sample, (list, tuple)):
        raise TypeError("pad_collate expects each sample as a tuple (inputs..., label) or a dict, "
                        f"got {type(sample).__name__}")
    return list(sample)
