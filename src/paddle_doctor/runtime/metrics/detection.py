"""Detection scores from every prediction of every rank, fed to the user's evaluator.

Why gathered: mAP (COCO or VOC) is not a function of fixed-size counts; it needs every box. So
the boxes are ``gather`` states (rows of float32 numbers plus an int64 image id, any count per
rank, one padded gather of raw bytes to rank 0 for all of them, no pickling): rank 0 alone
receives every image's predictions and ground truth (the other ranks receive nothing), runs the
evaluator once, and evaluate() hands its numbers to every rank through the TCP store; the
result is cached until the next ``update`` or ``reset``, so ``accumulate()`` never runs the
evaluator twice. The rows are sorted by image id (and within an image by every column), so the
evaluator sees the same input in one process and on W ranks, whatever the sharding or shuffle.
Per box: 32 bytes (6 float32 + an int64 id), where float64 rows with the id took 56.

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

    sync_states = {"preds": "gather", "pred_ids": "gather", "gts": "gather", "gt_ids": "gather",
                   "images": "gather"}
    evaluated_on_rank0 = True  # evaluate() runs accumulate() on rank 0 and shares the numbers

    def __init__(self, evaluator: Evaluator, names: str | Sequence[str] = "bbox_map") -> None:
        super().__init__()
        if not callable(evaluator):
            raise TypeError(f"evaluator must be a function of (predictions, ground_truth), got {evaluator!r}")
        self.evaluator = evaluator
        self.names = [names] if isinstance(names, str) else list(names)
        self.evaluator_calls = 0
        self.reset()

    def reset(self) -> None:
        self.preds = np.zeros((0, 6), np.float32)  # class, score, x1, y1, x2, y2
        self.pred_ids = np.zeros((0,), np.int64)  # the image of each prediction row
        self.gts = np.zeros((0, 5), np.float32)  # class, x1, y1, x2, y2
        self.gt_ids = np.zeros((0,), np.int64)
        self.images = np.zeros((0,), np.int64)
        self._result = None

    def compute(self, bbox, bbox_num, im_id, gt_bbox, gt_class):
        return bbox, bbox_num, im_id, gt_bbox, gt_class

    def update(self, bbox, bbox_num, im_id, gt_bbox, gt_class) -> None:
        ids = _np(im_id).reshape(-1).astype(np.int64)
        boxes, counts = _np(bbox).reshape(-1, 6), _np(bbox_num).reshape(-1).astype(np.int64)
        if counts.size != ids.size or counts.sum() != len(boxes):
            raise ValueError(f"bbox_num {counts.tolist()} does not split {len(boxes)} boxes over {ids.size} images")
        gt_boxes, gt_classes = _per_image(gt_bbox, ids.size, "gt_bbox"), _per_image(gt_class, ids.size, "gt_class")
        gt_rows = [np.column_stack([np.asarray(c).reshape(-1), np.asarray(b).reshape(-1, 4)])
                   for b, c in zip(gt_boxes, gt_classes)]
        self.preds = np.concatenate([self.preds, boxes.astype(np.float32)])
        self.pred_ids = np.concatenate([self.pred_ids, np.repeat(ids, counts)])
        self.gts = np.concatenate([self.gts, *[g.astype(np.float32).reshape(-1, 5) for g in gt_rows]])
        self.gt_ids = np.concatenate([self.gt_ids, *[np.full(len(g), i, np.int64) for i, g in zip(ids, gt_rows)]])
        self.images = np.concatenate([self.images, ids])
        self._result = None

    def accumulate(self) -> Any:
        if self._result is None:
            preds = grouped(self.preds, self.pred_ids, self.images)
            value = self.evaluator(preds, grouped(self.gts, self.gt_ids, self.images))
            self.evaluator_calls += 1
            self._result = value if len(self.names) == 1 else list(value)
        return self._result

    def share(self, value: Any) -> None:
        """The result rank 0 computed (evaluate() calls this on the other ranks)."""
        self._result = value

    def name(self) -> list[str] | str:
        return self.names[0] if len(self.names) == 1 else list(self.names)


def grouped(rows: np.ndarray, ids: np.ndarray, images: np.ndarray) -> dict[int, np.ndarray]:
    """Image id -> its rows (float64, as evaluators expect), in a canonical order (every column sorted)."""
    rows = np.asarray(rows, np.float64)
    order = np.lexsort([*rows.T[::-1], ids]) if len(rows) else np.zeros(0, np.int64)
    rows, ids = rows[order], ids[order]
    out = {int(i): rows[:0] for i in np.unique(images)}
    if len(rows):
        cuts = np.flatnonzero(np.diff(ids)) + 1
        for part, part_ids in zip(np.split(rows, cuts), np.split(ids, cuts)):
            out[int(part_ids[0])] = part
    return out


def _per_image(value: Any, images: int, argument: str) -> list[np.ndarray]:
    items = list(value) if isinstance(value, (list, tuple)) else [v for v in _np(value)]
    if len(items) != images:
        raise ValueError(f"{argument}: {len(items)} entries for {images} images; keep one array per image "
                         f"(PadCollate(ragged=({argument!r},)))")
    return [_np(v) for v in items]


def _np(value: Any) -> np.ndarray:
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value)
