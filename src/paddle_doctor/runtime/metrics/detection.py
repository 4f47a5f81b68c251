"""Detection scores from every prediction of every rank, fed to the user's evaluator.

Why gathered: mAP (COCO or VOC) is not a function of fixed-size counts; it needs every box. So
the boxes are ``cat`` states (rows of numbers, any count per rank, one padded all_gather of raw
bytes for all of them, no pickling), tagged with the image id, and after the sync every rank
holds every image's predictions and ground truth. They are then sorted by image id (and within
an image by every column), so the evaluator sees the same input in one process and on W ranks,
whatever the sharding or the shuffle.

Layout, as PaddleDetection shapes it: the model's ``bbox`` ``[M, 6]`` rows ``(class, score, x1,
y1, x2, y2)`` for the whole batch and ``bbox_num`` ``[B]`` (rows per image); labels ``im_id``
``[B]`` or ``[B, 1]``, ``gt_bbox`` (per image ``[G_i, 4]``) and ``gt_class`` (per image ``[G_i]``
or ``[G_i, 1]``), each a list of per-image arrays (``PadCollate(ragged=("gt_bbox", "gt_class"))``
keeps them so).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import paddle

Evaluator = Callable[[dict[int, np.ndarray], dict[int, np.ndarray]], Any]


class DetectionMetric(paddle.metric.Metric):
    """``evaluator(predictions, ground_truth)``: two dicts image id -> array, predictions
    ``[M, 6]`` (class, score, x1, y1, x2, y2), ground truth ``[G, 5]`` (class, x1, y1, x2, y2);
    every evaluated image is a key of both (maybe with no rows). It returns one number, or one
    per name in ``names`` (a COCO-style evaluator: ``["bbox_map", "bbox_map50"]``)."""

    sync_states = {"preds": "cat", "gts": "cat", "images": "cat"}

    def __init__(self, evaluator: Evaluator, names: str | Sequence[str] = "bbox_map") -> None:
        super().__init__()
        if not callable(evaluator):
            raise TypeError(f"evaluator must be a function of (predictions, ground_truth), got {evaluator!r}")
        self.evaluator = evaluator
        self.names = [names] if isinstance(names, str) else list(names)
        self.reset()

    def reset(self) -> None:
        self.preds = np.zeros((0, 7), np.float64)  # image id, class, score, x1, y1, x2, y2
        self.gts = np.zeros((0, 6), np.float64)  # image id, class, x1, y1, x2, y2
        self.images = np.zeros((0,), np.int64)

    def compute(self, bbox, bbox_num, im_id, gt_bbox, gt_class):
        return bbox, bbox_num, im_id, gt_bbox, gt_class

    def update(self, bbox, bbox_num, im_id, gt_bbox, gt_class) -> None:
        ids = _np(im_id).reshape(-1).astype(np.int64)
        boxes, counts = _np(bbox).reshape(-1, 6), _np(bbox_num).reshape(-1).astype(np.int64)
        if counts.size != ids.size or counts.sum() != len(boxes):
            raise ValueError(f"bbox_num {counts.tolist()} does not split {len(boxes)} boxes over {ids.size} images")
        gt_boxes, gt_classes = _per_image(gt_bbox, ids.size, "gt_bbox"), _per_image(gt_class, ids.size, "gt_class")
        pred_rows = np.column_stack([np.repeat(ids, counts), boxes]) if len(boxes) else self.preds[:0]
        gt_rows = [np.column_stack([np.full(len(b), i), np.asarray(c).reshape(-1), np.asarray(b).reshape(-1, 4)])
                   for i, b, c in zip(ids, gt_boxes, gt_classes)]
        self.preds = np.concatenate([self.preds, pred_rows.astype(np.float64)])
        self.gts = np.concatenate([self.gts, *[g.astype(np.float64) for g in gt_rows]])
        self.images = np.concatenate([self.images, ids])

    def accumulate(self) -> Any:
        preds, gts = grouped(self.preds, self.images), grouped(self.gts, self.images)
        value = self.evaluator(preds, gts)
        if len(self.names) == 1:
            return value
        return list(value)

    def name(self) -> list[str] | str:
        return self.names[0] if len(self.names) == 1 else list(self.names)


def grouped(rows: np.ndarray, images: np.ndarray) -> dict[int, np.ndarray]:
    """Image id -> its rows without the id column, in a canonical order (every column sorted)."""
    order = np.lexsort(rows.T[::-1]) if len(rows) else np.zeros(0, np.int64)
    rows = rows[order]
    out = {int(i): rows[:0, 1:] for i in np.unique(images)}
    if len(rows):
        ids = rows[:, 0].astype(np.int64)
        cuts = np.flatnonzero(np.diff(ids)) + 1
        for part in np.split(rows, cuts):
            out[int(part[0, 0])] = part[:, 1:]
    return out


def _per_image(value: Any, images: int, argument: str) -> list[np.ndarray]:
    items = list(value) if isinstance(value, (list, tuple)) else [v for v in _np(value)]
    if len(items) != images:
        raise ValueError(f"{argument}: {len(items)} entries for {images} images; keep one array per image "
                         f"(PadCollate(ragged=({argument!r},)))")
    return [_np(v) for v in items]


def _np(value: Any) -> np.ndarray:
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value)
