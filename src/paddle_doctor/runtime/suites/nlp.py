"""PaddleNLP's evaluation pieces as ``evaluate`` takes them: ``compute_metrics`` and the model's own loss.

PaddleNLP's ``Trainer`` (``paddlenlp/trainer/trainer.py``, 2.8: ``evaluation_loop`` and
``prediction_step``) gathers every step's logits and labels, cuts them to the dataset's length
and calls the user's ``compute_metrics(EvalPrediction(predictions=..., label_ids=...))`` once,
which returns a dict of numbers. ``ComputeMetrics`` keeps the logits and labels as ``cat``
states (one all_gather for the whole evaluation, no pickling) and calls the same function once,
on every rank, with every sample's row exactly once.

Rows arrive in rank order (rank 0's samples, then rank 1's), not in dataset order: a metric
that depends on the order of samples (none of accuracy, F1, precision, recall, MCC, seqeval's
or rouge's corpus scores does) would see another order than one process gives.

The model's own loss: ``Trainer`` passes the labels into the model (``model(**inputs, labels=...)``)
and reads the loss from what it returns (``outputs["loss"]``, or ``outputs[0]`` of a tuple).
``ModelLoss`` wraps the model so that it does the same: the metrics see the logits, and
``evaluate``'s loss is the model's loss weighted by the batch's rows (exact when the model's
loss is a mean over samples, as PaddleNLP's sequence classifiers compute it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import paddle


class EvalPrediction(NamedTuple):
    """What ``compute_metrics`` receives, as ``paddlenlp.trainer.EvalPrediction`` holds it."""

    predictions: np.ndarray
    label_ids: np.ndarray


class ComputeMetrics(paddle.metric.Metric):
    """A PaddleNLP ``compute_metrics(EvalPrediction) -> dict`` as a metric ``evaluate`` syncs.

    ``names``: the keys of the dict it returns that become ``EvalResult.metrics`` (they must be
    known before the first batch, since every rank announces its metric names). PaddleNLP's
    Trainer prefixes them with ``eval_``; here they are kept as ``compute_metrics`` names them.
    ``prediction_class``: the class ``compute_metrics`` is given (``paddlenlp.trainer.EvalPrediction``
    when PaddleNLP is installed; a namedtuple with the same two fields otherwise).
    Logits of every batch must have the same shape after the first axis (pad sequence outputs
    with ``pad_collate``, whose mask flattens them to ``[tokens, classes]``).
    """

    sync_states = {"predictions": "cat", "label_ids": "cat"}

    def __init__(self, compute_metrics: Callable[[Any], Mapping[str, Any]], names: str | Sequence[str],
                 prediction_class: Any = None) -> None:
        super().__init__()
        if not callable(compute_metrics):
            raise TypeError(f"compute_metrics must be a function of an EvalPrediction, got {compute_metrics!r}")
        self.compute_metrics = compute_metrics
        self.names = [names] if isinstance(names, str) else list(names)
        if not self.names:
            raise ValueError("ComputeMetrics(names=[...]): name the keys of compute_metrics' dict to report")
        self.prediction_class = prediction_class or _paddlenlp_eval_prediction()
        self._result: list | None = None
        self.reset()

    def reset(self) -> None:
        self.predictions = np.zeros((0,), np.float32)  # the first update fixes dtype and row shape
        self.label_ids = np.zeros((0,), np.int64)
        self._seen = False
        self._result = None

    def compute(self, logits: Any, labels: Any, *more: Any) -> Any:
        if more:
            raise TypeError(f"ComputeMetrics gets one output and one label, got {2 + len(more)} values: choose "
                            "the logits with output= and one label field with labels=")
        return logits, labels

    def update(self, logits: Any, labels: Any) -> None:
        logits, labels = np.asarray(logits), np.asarray(labels)
        if not self._seen:
            self.predictions = np.zeros((0, *logits.shape[1:]), logits.dtype)
            self.label_ids = np.zeros((0, *labels.shape[1:]), labels.dtype)
            self._seen = True
        self.predictions = np.concatenate([self.predictions, logits.astype(self.predictions.dtype)])
        self.label_ids = np.concatenate([self.label_ids, labels.astype(self.label_ids.dtype)])
        self._result = None

    def accumulate(self) -> Any:
        if self._result is None:
            out = self.compute_metrics(self.prediction_class(predictions=self.predictions,
                                                             label_ids=self.label_ids))
            if not isinstance(out, Mapping):
                raise TypeError(f"compute_metrics returned {type(out).__name__}: PaddleNLP's convention is a "
                                "dict of metric name -> number")
            missing = [n for n in self.names if n not in out]
            if missing:
                raise ValueError(f"compute_metrics returned the keys {sorted(out)}, not {missing}: pass "
                                 f"ComputeMetrics(..., names={sorted(out)!r})")
            self._result = [_plain(out[n]) for n in self.names]
        return self._result[0] if len(self._result) == 1 else list(self._result)

    def name(self) -> Any:
        return self.names[0] if len(self.names) == 1 else list(self.names)


class ModelLoss(paddle.nn.Layer):
    """The model called as PaddleNLP's Trainer calls it to get a loss: labels as keyword arguments.

    ``forward(batch)`` (the whole dict batch) returns the logits for the metrics and keeps the model's loss in
    ``last_loss``, which ``loss`` (a ``loss_fn`` for ``evaluate``) returns."""

    def __init__(self, model: Any, label_names: Sequence[str]) -> None:
        super().__init__()
        self.model, self.label_names = model, list(label_names)
        self.last_loss: Any = None

    def forward(self, batch: Mapping[str, Any]) -> Any:
        try:
            outputs = self.model(**batch)
        except TypeError as exc:
            if not any(repr(name) in str(exc) for name in self.label_names):
                raise
            raise TypeError(f"model_loss=True passes the labels {self.label_names} to the model as keyword "
                            f"arguments, as PaddleNLP's Trainer does, and the model refused them ({exc}): pass "
                            "loss_fn= instead (e.g. paddle.nn.CrossEntropyLoss())") from exc
        self.last_loss, logits = split_loss(outputs, self.label_names)
        return logits

    def loss(self, *outputs_and_labels: Any) -> Any:
        return self.last_loss


def split_loss(outputs: Any, label_names: Sequence[str]) -> tuple[Any, Any]:
    """``(loss, logits)`` from what a PaddleNLP model returns when it is given labels."""
    if isinstance(outputs, Mapping) or hasattr(outputs, "keys") and hasattr(outputs, "__getitem__"):
        keys = list(outputs.keys())
        if "loss" in keys and "logits" in keys and outputs["loss"] is not None:
            return outputs["loss"], outputs["logits"]
        raise TypeError(f"model_loss=True: the model was given {list(label_names)} and returned keys {keys}, "
                        "with no 'loss' and 'logits': pass loss_fn= instead")
    if isinstance(outputs, (list, tuple)) and len(outputs) >= 2:
        return outputs[0], outputs[1]  # PaddleNLP's tuple convention with labels: (loss, logits, ...)
    raise TypeError(f"model_loss=True: the model was given {list(label_names)} but returned "
                    f"{type(outputs).__name__} alone, not (loss, logits): it computes no loss from labels; "
                    "pass loss_fn= (e.g. paddle.nn.CrossEntropyLoss()) instead")


def _paddlenlp_eval_prediction() -> Any:
    try:
        from paddlenlp.trainer import EvalPrediction as installed
    except Exception:  # not installed, or broken (see docs/evaluate.md: its pins)
        return EvalPrediction
    return installed


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.item() if value.size == 1 else value.tolist()
    return value
