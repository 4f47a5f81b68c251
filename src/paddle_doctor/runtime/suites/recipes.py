"""The suites' evaluation loops, moved to ``paddle_doctor.evaluate``: one call each.

Each recipe reproduces what the suite's loop feeds its metric and returns an ``EvalResult``.
Read from the PyPI wheels: PaddleSeg 2.8 ``paddleseg/core/val.py`` and ``core/infer.py``, PaddleNLP
2.8 ``paddlenlp/trainer/trainer.py`` (``prediction_step``); the PaddleClas 2.6 wheel ships no
``ppcls/engine``, so its loop is as ``research/eval-anchors.md`` read it on GitHub
(``ppcls/engine/evaluation/classification.py``):

- PaddleSeg: batches ``{"img": [B, 3, H, W], "label": [B, 1, H, W] int64, "trans_info": [...]}``;
  the model returns ``logit_list`` (the first is the main head); per-class areas with the
  dataset's ``ignore_index``. Images of different sizes: ``batch_size > 1`` pads images with 0
  and labels with ``ignore_index`` and masks the pads.
- PaddleClas: batches ``[image, label [B, 1]]``; the model returns logits, or a dict with
  ``"logits"`` (or a distillation dict with ``"Student"``); top-k accuracy.
- PaddleNLP: dict batches; the label keys (``label_names``, default ``labels``) are labels and
  every other key is a keyword argument of the model, which returns logits, a tuple whose first
  element is the logits, or a ``ModelOutput`` with ``logits`` (``nlp.py``: ``compute_metrics``
  and the model's own loss).
- PaddleOCR: list batches (rec ``[image, label, length]``, det ``[image, shape, polys,
  ignore_tags]``); ``model(image)``, its decoder and its metric on the whole batch (``ocr.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import paddle

from paddle_doctor.runtime.evaluate.api import evaluate
from paddle_doctor.runtime.evaluate.collate import PadCollate
from paddle_doctor.runtime.evaluate.result import EvalResult
from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric
from paddle_doctor.runtime.suites.nlp import ModelLoss
from paddle_doctor.runtime.suites.ocr import OCRMetric


class SegInference(paddle.nn.Layer):
    """PaddleSeg's ``infer.inference`` step as a layer: the main logits ``[B, C, H, W]``.

    ``infer_fn``: PaddleSeg's own ``paddleseg.core.infer.inference`` when the val transforms
    resize (it maps the logits back to the label's size with ``trans_info``; batch size 1)."""

    def __init__(self, model: paddle.nn.Layer, infer_fn: Any = None) -> None:
        super().__init__()
        self.model, self.infer_fn = model, infer_fn

    def forward(self, img: Any, trans_info: Any = None) -> Any:
        if self.infer_fn is not None:
            return self.infer_fn(self.model, img, trans_info=trans_info)[1]
        logits = self.model(img)
        return logits[0] if isinstance(logits, (list, tuple)) else logits


def evaluate_paddleseg(model: Any, eval_dataset: Any, *, batch_size: int = 1, num_workers: int = 0,
                       infer_fn: Any = None, progress: bool | float = True,
                       empty_class: float | str = "installed") -> EvalResult:
    """For ``paddleseg.core.evaluate(model, eval_dataset)``: miou, class_iou, pixel_acc, kappa, dice.

    ``empty_class``: the IoU of a class absent from labels and predictions: ``"installed"`` (the
    default) follows the installed PaddleSeg (0 in 2.8, 1 from 2.9; 0 without PaddleSeg), or
    0 or 1. The model's training flags are left as they were (``evaluate`` restores them)."""
    if infer_fn is not None and batch_size != 1:
        raise ValueError(f"infer_fn with batch_size={batch_size}: PaddleSeg's inference maps one image back "
                         "to its label's size with that image's trans_info; use batch_size=1 with infer_fn")
    ignore = int(getattr(eval_dataset, "ignore_index", 255))
    empty = installed_empty_class() if empty_class == "installed" else empty_class
    metric = SegmentationMetric(int(eval_dataset.num_classes), ignore_index=ignore, empty_class=empty)
    # one image a batch needs no padding: skip the mask (PaddleSeg's own collate then)
    collate = PadCollate(pad_value={"label": ignore}, label="label") if batch_size > 1 else None
    inputs = {"img": "img", "trans_info": "trans_info"} if infer_fn is not None else "img"
    return evaluate(SegInference(model, infer_fn), eval_dataset, metric, batch_size=batch_size,
                    num_workers=num_workers, collate_fn=collate, inputs=inputs, labels="label",
                    progress=progress)


def installed_empty_class() -> float:
    """The IoU the installed PaddleSeg gives a class with an empty union (asked of its own
    ``mean_iou``, not read from its version): 0.0 without PaddleSeg."""
    try:
        from paddleseg.utils.metrics import mean_iou
    except Exception:  # not installed, or broken: PaddleSeg 2.8's released convention
        return 0.0
    import numpy as np

    zeros = np.zeros(1, np.int64)
    class_iou, _ = mean_iou(paddle.to_tensor(zeros), paddle.to_tensor(zeros), paddle.to_tensor(zeros))
    return float(np.asarray(class_iou).reshape(-1)[0])


def clas_logits(outputs: Any) -> Any:
    """The logits in whatever PaddleClas's model returned (as its evaluation loop picks them)."""
    while isinstance(outputs, Mapping):
        for key in ("logits", "Student"):
            if key in outputs:
                outputs = outputs[key]
                break
        else:
            raise ValueError(f"the model returned a dict with keys {sorted(outputs)}: expected 'logits' or "
                             "'Student' (pass your own output= to evaluate)")
    return outputs


def evaluate_paddleclas(model: Any, data: Any, topk: Sequence[int] = (1, 5), *, batch_size: int | None = None,
                        loss_fn: Any = None, num_workers: int = 0, progress: bool | float = True) -> EvalResult:
    """For PaddleClas's ``classification_eval``: ``acc_top1``, ``acc_top5`` (and the loss)."""
    return evaluate(model, data, paddle.metric.Accuracy(topk=tuple(topk)), batch_size=batch_size,
                    num_workers=num_workers, loss_fn=loss_fn, inputs=0, labels=1, output=clas_logits,
                    progress=progress)


def nlp_logits(outputs: Any) -> Any:
    """``logits`` of a PaddleNLP model's return value (tensor, tuple or ``ModelOutput``)."""
    if isinstance(outputs, Mapping):
        return outputs["logits"]
    if isinstance(outputs, (list, tuple)):
        return outputs[0]
    return outputs


def evaluate_paddlenlp(model: Any, data: Any, metrics: Any, *, batch_size: int | None = None,
                       collate_fn: Any = None, label_names: Sequence[str] = ("labels",),
                       loss_fn: Any = None, model_loss: bool = False, num_workers: int = 0,
                       progress: bool | float = True) -> EvalResult:
    """For ``Trainer.evaluate``: ``metrics`` see ``(logits, *labels)``.

    ``metrics``: ``paddle.metric`` objects, or ``nlp.ComputeMetrics(compute_metrics, names=[...])``
    for a PaddleNLP ``compute_metrics(EvalPrediction)`` function. ``model_loss=True``: the labels
    also go into the model as keyword arguments, as the Trainer passes them, and the model's own
    loss (``outputs["loss"]``, or the first element of a tuple) is ``EvalResult.loss``; without
    it, ``loss_fn(logits, *labels)`` gives the loss, or there is none. A ``PadCollate`` left at its
    default label follows ``label_names[0]``."""
    if model_loss and loss_fn is not None:
        raise ValueError("model_loss=True and loss_fn= both give the loss: pass one of them")
    collate_fn = _label_bound(collate_fn, label_names)
    if model_loss:
        wrapped = ModelLoss(model, label_names)
        return evaluate(wrapped, data, metrics, batch_size=batch_size, collate_fn=collate_fn,
                        num_workers=num_workers, loss_fn=wrapped.loss, labels=list(label_names),
                        inputs=_whole_batch, progress=progress)
    return evaluate(model, data, metrics, batch_size=batch_size, collate_fn=collate_fn,
                    num_workers=num_workers, loss_fn=loss_fn, labels=list(label_names), output=nlp_logits,
                    progress=progress)


def _whole_batch(batch: Any) -> list:
    return [batch]  # ModelLoss takes every key, labels too, as keyword arguments


def _label_bound(collate_fn: Any, label_names: Sequence[str]) -> Any:
    """``pad_collate`` (label left to its default) masks by the recipe's first label name."""
    if isinstance(collate_fn, PadCollate) and collate_fn.label is None and label_names:
        return PadCollate(collate_fn.pad_value, label=label_names[0], ragged=collate_fn.ragged,
                          mask=collate_fn.returns_mask)
    return collate_fn


def evaluate_paddleocr(model: Any, data: Any, metric: Any, post_process: Any = None, *,
                       batch_size: int | None = None, collate_fn: Any = None, names: Any = None,
                       num_workers: int = 0, progress: bool | float = True) -> EvalResult:
    """For PaddleOCR's ``tools/program.py`` ``eval``: ``model(batch[0])``, then
    ``metric(post_process(preds, batch[1]), batch)`` as PaddleOCR calls them, on each rank's own
    samples, and the metric's ``get_metric()`` over the counts of every rank.

    ``metric``: PaddleOCR's ``RecMetric()`` or ``DetMetric()`` (or an ``ocr.OCRMetric`` already
    built); ``post_process``: its decoder (``CTCLabelDecode``, ``DBPostProcess``). Batches are
    PaddleOCR's lists (rec ``[image, label, length]``, det ``[image, shape, polys, ignore_tags]``):
    the image goes to the model, the whole batch to the metric. Detection polygons of different
    counts per image: ``collate_fn=PadCollate(ragged=(2, 3), mask=False)``, or batch size 1."""
    if not isinstance(metric, OCRMetric):
        metric = OCRMetric(metric, post_process, names=names)
    elif post_process is not None or names is not None:
        raise ValueError("post_process= and names= belong to the OCRMetric already built: set them there")
    return evaluate(model, data, metric, batch_size=batch_size, collate_fn=collate_fn, num_workers=num_workers,
                    inputs=0, labels=_every_field, progress=progress)


def _every_field(batch: Any) -> list:
    return list(batch)  # PaddleOCR's metrics index the whole batch (batch[1], batch[2], ...)
