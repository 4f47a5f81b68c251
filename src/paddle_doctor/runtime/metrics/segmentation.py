"""Semantic segmentation scores from per-class areas, as PaddleSeg computes them.

Why areas: mIoU, pixel accuracy, kappa and Dice are all functions of three per-class counts
(intersection, predicted area, label area), so three ``sum`` states of ``num_classes`` integers
sync every image of every rank in the evaluator's one all_reduce. PaddleSeg's own loop
(``paddleseg/core/val.py``) sends the same counts with three all_gathers *per image*.

The formulas are PaddleSeg's (``paddleseg/utils/metrics.py``): pixels whose label is
``ignore_index`` are left out; ``pixel_acc`` = sum(intersect) / sum(pred_area); kappa from the
areas over the label total. A class with an empty union (neither predicted nor labelled
anywhere) still counts in the mean, with the IoU ``empty_class``: 0 as PaddleSeg 2.8 (the PyPI
wheel) scores it, the default; 1 as PaddleSeg 2.9 and GitHub head do (commit 3fea7bb9,
2023-10-10, "Add analysis for val dataset"). Dice scores an empty class 0 in both.

Checked at every update: labels must be integer class ids (a float label map, e.g. after a
resize with bilinear interpolation, is refused: casting it would count wrong classes without a
word), each either in ``0..num_classes-1`` or ``ignore_index``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import paddle

NAMES = ("miou", "class_iou", "pixel_acc", "kappa", "dice")


class SegmentationMetric(paddle.metric.Metric):
    """``compute(pred, label)`` takes logits (NCHW ``[B, C, H, W]``, NHWC, or ``[K, C]`` after
    ``pad_collate``'s mask) or class ids (``[B, 1, H, W]``, ``[B, H, W]``, ``[K]``), and labels
    ``[B, 1, H, W]``, ``[B, H, W]`` or ``[K]``. ``prefix`` keeps names distinct when there are
    several (``prefix="val_"`` -> ``val_miou``)."""

    sync_states = {"intersect": "sum", "pred_area": "sum", "label_area": "sum"}

    def __init__(self, num_classes: int, ignore_index: int = 255, prefix: str = "",
                 empty_class: float = 0.0) -> None:
        super().__init__()
        if not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"num_classes must be a positive int, got {num_classes!r}")
        if empty_class not in (0, 1):
            raise ValueError(f"empty_class must be 0 (PaddleSeg 2.8) or 1 (PaddleSeg 2.9, GitHub head), "
                             f"got {empty_class!r}")
        self.num_classes, self.ignore_index, self.prefix = num_classes, ignore_index, prefix
        self.empty_class = float(empty_class)
        self.reset()

    def reset(self) -> None:
        self.intersect = np.zeros(self.num_classes, np.int64)
        self.pred_area = np.zeros(self.num_classes, np.int64)
        self.label_area = np.zeros(self.num_classes, np.int64)

    def compute(self, pred: Any, label: Any) -> tuple[Any, Any]:
        return class_ids(pred, label, self.num_classes), label

    def update(self, pred: Any, label: Any) -> None:
        pred = np.asarray(pred).reshape(-1).astype(np.int64)
        label = self._class_label(np.asarray(label).reshape(-1))
        if pred.size != label.size:
            raise ValueError(f"{pred.size} predicted pixels for {label.size} label pixels")
        inter, pred_area, label_area = areas(pred, label, self.num_classes, self.ignore_index)
        self.intersect += inter
        self.pred_area += pred_area
        self.label_area += label_area

    def _class_label(self, label: np.ndarray) -> np.ndarray:
        if label.dtype.kind not in "iub":
            raise TypeError(f"SegmentationMetric: labels are {label.dtype}, not integer class ids (a resize with "
                            "interpolation makes float label maps): give the dataset's label int64 ids, resized "
                            "with nearest-neighbour interpolation")
        label = label.astype(np.int64)
        bad = (label != self.ignore_index) & ((label < 0) | (label >= self.num_classes))
        if bad.any():
            values = np.unique(label[bad])[:5].tolist()
            raise ValueError(f"SegmentationMetric: label values {values} are neither class ids 0..{self.num_classes - 1} "
                             f"nor ignore_index={self.ignore_index}: set num_classes= or ignore_index= to the "
                             "dataset's")
        return label

    def accumulate(self) -> list:
        return list(scores(self.intersect, self.pred_area, self.label_area, self.empty_class))

    def name(self) -> list[str]:
        return [self.prefix + n for n in NAMES]


def areas(pred: np.ndarray, label: np.ndarray, num_classes: int, ignore_index: int):
    """(intersect, pred_area, label_area) per class, over the pixels not labelled ignore_index."""
    keep = label != ignore_index
    pred, label = pred[keep], label[keep]
    in_pred = (pred >= 0) & (pred < num_classes)
    in_label = (label >= 0) & (label < num_classes)
    count = lambda v: np.bincount(v, minlength=num_classes)[:num_classes].astype(np.int64)  # noqa: E731
    hit = in_label & (pred == label)
    return count(label[hit]), count(pred[in_pred]), count(label[in_label])


def scores(intersect, pred_area, label_area, empty_class: float = 0.0) -> tuple:
    """(miou, class_iou, pixel_acc, kappa, dice) as PaddleSeg defines them."""
    inter, pred, lab = (np.asarray(a, np.float64) for a in (intersect, pred_area, label_area))
    union = pred + lab - inter
    class_iou = np.divide(inter, union, out=np.full_like(inter, empty_class), where=union > 0)
    both = pred + lab
    class_dice = np.divide(2 * inter, both, out=np.zeros_like(inter), where=both > 0)
    acc = inter.sum() / pred.sum() if pred.sum() else 0.0
    total = lab.sum()
    if total:
        po, pe = inter.sum() / total, (pred * lab).sum() / (total * total)
        kappa = (po - pe) / (1 - pe) if pe != 1 else 0.0
    else:
        kappa = 0.0
    return (float(class_iou.mean()), [float(v) for v in class_iou], float(acc), float(kappa),
            float(class_dice.mean()))


def class_ids(pred: Any, label: Any, num_classes: int) -> Any:
    """Class ids shaped like the label (squeezed), from logits or ids in any layout above."""
    p, lab = [int(d) for d in pred.shape], _squeezed(label.shape)
    if _squeezed(p) == lab:
        return pred
    if len(p) == len(lab) + 1:
        if p[1] == num_classes and [p[0], *p[2:]] == lab:
            return _argmax(pred, 1)
        if p[-1] == num_classes and p[:-1] == lab:
            return _argmax(pred, len(p) - 1)
    if len(p) == len(lab) + 1 and p[0] == lab[0] and num_classes in (p[1], p[-1]):
        raise ValueError(f"SegmentationMetric: predictions {p} are not at the size of the labels "
                         f"{list(label.shape)}: the val transforms resize the image, not the label; map the "
                         "logits back to the label's size with evaluate_paddleseg(..., infer_fn="
                         "paddleseg.core.infer.inference) (batch_size=1), or a model wrapper that resizes them")
    raise ValueError(f"SegmentationMetric: predictions {p} do not match labels {list(label.shape)} with "
                     f"{num_classes} classes: pass logits [B, C, H, W] or ids [B, 1, H, W] "
                     "(choose the model output with evaluate(..., output=...))")


def _squeezed(shape) -> list[int]:
    shape = [int(d) for d in shape]
    return shape[:1] + [d for d in shape[1:] if d != 1]


def _argmax(pred: Any, axis: int) -> Any:
    if isinstance(pred, np.ndarray):
        return pred.argmax(axis=axis)
    return paddle.argmax(pred, axis=axis)
