"""PaddleOCR's metrics as metrics ``evaluate`` syncs: recognition (``RecMetric``) and detection (``DetMetric``).

PaddleOCR's eval loop (``tools/program.py``, ``eval``; the same in 2.x and 3.x) is, per batch::

    preds = model(batch[0])
    post_result = post_process_class(preds, batch_numpy[1])   # e.g. CTCLabelDecode: (text, conf) pairs
    eval_class(post_result, batch_numpy)                      # RecMetric / DetMetric.__call__
    ...
    metric = eval_class.get_metric()                          # a dict; get_metric() also resets

and its Eval loader is a plain ``BatchSampler`` (every rank scores the whole set). ``OCRMetric``
runs the same two calls on each rank's own batches, keeps the metric's counts as ``sum``
states (fixed size: a few numbers, whatever the dataset), and gives the synced counts back to
the metric's own ``get_metric``:

- ``RecMetric`` (``ppocr/metrics/rec_metric.py``) counts in ``correct_num``, ``all_num`` and
  ``norm_edit_dis``: those attributes are summed.
- ``DetMetric`` (``ppocr/metrics/det_metric.py``) keeps one result dict per image in ``results``,
  which its evaluator's ``combine_results`` folds through three counts only, ``gtCare``,
  ``detCare`` and ``detMatched`` (``ppocr/metrics/eval_det_iou.py``): those are summed, and
  ``get_metric`` sees one result holding the totals.
- another metric: name its count attributes, ``OCRMetric(metric, post, counts=["hit", "total"])``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import paddle

REC_COUNTS = ("correct_num", "all_num", "norm_edit_dis")  # RecMetric's state, set in its reset()
DET_RESULT_COUNTS = ("gtCare", "detCare", "detMatched")  # what DetectionIoUEvaluator.combine_results reads


class OCRMetric(paddle.metric.Metric):
    """``metric(post_process(preds, batch[1]), batch)`` per batch, as PaddleOCR's eval calls it.

    ``metric``: PaddleOCR's metric object (``RecMetric``, ``DetMetric``, or one with the same
    ``__call__(post_result, batch)`` / ``get_metric()`` / ``reset()`` calls). ``post_process``:
    its decoder (``CTCLabelDecode``, ``DBPostProcess``), called ``post_process(preds, batch[1])``;
    None passes the model's output as it is. ``names``: the keys of ``get_metric()`` to report
    (default: the keys it returns before any batch). ``counts``: the metric's attributes that
    hold its state, for a metric that is neither RecMetric- nor DetMetric-like.
    ``evaluate`` must pass the whole batch as labels (``recipes.evaluate_paddleocr`` does):
    ``update(preds, *batch)``.
    """

    sync_states = {"sums": "sum"}

    def __init__(self, metric: Any, post_process: Callable[..., Any] | None = None, *,
                 names: str | Sequence[str] | None = None, counts: Sequence[str] | None = None) -> None:
        super().__init__()
        for method in ("get_metric", "reset"):
            if not callable(getattr(metric, method, None)):
                raise TypeError(f"OCRMetric needs PaddleOCR's metric protocol (__call__, get_metric, reset): "
                                f"{type(metric).__name__} has no {method}()")
        self.metric, self.post_process = metric, post_process
        self.metric.reset()
        self.kind, self.keys = _state_kind(metric, counts)
        self.names = _names(metric, names)
        self._result: list | None = None
        self.reset()

    def reset(self) -> None:
        self.sums = np.zeros(len(self.keys), np.float64)
        self._result = None

    def compute(self, preds: Any, *batch: Any) -> Any:
        if len(batch) < 2:
            raise TypeError(f"OCRMetric gets the model's output and the whole batch (image, label, ...), got "
                            f"{len(batch)} batch field(s): pass every field as labels=, as "
                            "recipes.evaluate_paddleocr does")
        return (preds, *batch)

    def update(self, preds: Any, *batch: Any) -> None:
        batch_numpy = list(batch)
        post = preds if self.post_process is None else self.post_process(preds, batch_numpy[1])
        self.metric.reset()
        self.metric(post, batch_numpy)
        self.sums = self.sums + self._read()
        self.metric.reset()
        self._result = None

    def accumulate(self) -> Any:
        if self._result is None:
            self._write(self.sums)
            out = self.metric.get_metric()  # PaddleOCR's own formula over the synced counts (it resets)
            missing = [n for n in self.names if n not in out]
            if missing:
                raise ValueError(f"{type(self.metric).__name__}.get_metric() returned {sorted(out)}, not {missing}: "
                                 f"pass OCRMetric(..., names={sorted(out)!r})")
            self._result = [_plain(out[n]) for n in self.names]
        return self._result[0] if len(self._result) == 1 else list(self._result)

    def name(self) -> Any:
        return self.names[0] if len(self.names) == 1 else list(self.names)

    def _read(self) -> np.ndarray:
        if self.kind == "results":
            rows = getattr(self.metric, "results")
            return np.array([sum(float(r[k]) for r in rows) for k in self.keys], np.float64)
        return np.array([float(getattr(self.metric, k)) for k in self.keys], np.float64)

    def _write(self, sums: np.ndarray) -> None:
        self.metric.reset()
        if self.kind == "results":
            self.metric.results = [{k: _count(v) for k, v in zip(self.keys, sums)}]
            return
        for k, v in zip(self.keys, sums):
            setattr(self.metric, k, _count(v) if isinstance(getattr(self.metric, k), (int, np.integer)) else float(v))


def _state_kind(metric: Any, counts: Sequence[str] | None) -> tuple[str, tuple[str, ...]]:
    if counts is not None:
        missing = [c for c in counts if not hasattr(metric, c)]
        if missing:
            raise AttributeError(f"OCRMetric(counts={list(counts)!r}): {type(metric).__name__} has no {missing} "
                                 "after reset()")
        return "attributes", tuple(counts)
    if all(hasattr(metric, k) for k in REC_COUNTS):
        return "attributes", REC_COUNTS
    if isinstance(getattr(metric, "results", None), list):
        return "results", DET_RESULT_COUNTS
    raise TypeError(f"OCRMetric does not know where {type(metric).__name__} keeps its counts (not RecMetric's "
                    f"{list(REC_COUNTS)}, nor DetMetric's results list): name the attributes that reset() sets "
                    "and that add up over batches, OCRMetric(metric, post_process, counts=['hit', 'total'])")


def _names(metric: Any, names: str | Sequence[str] | None) -> list[str]:
    if names is not None:
        return [names] if isinstance(names, str) else list(names)
    try:
        keys = list(metric.get_metric())  # on a fresh metric: the keys of its result (and it resets)
    except Exception as exc:
        raise TypeError(f"{type(metric).__name__}.get_metric() on no data raised {type(exc).__name__}: {exc}; "
                        "name the results to report with OCRMetric(..., names=['acc'])") from exc
    finally:
        metric.reset()
    return [k for k in keys if k != "fps"]


def _count(value: float) -> Any:
    return int(round(value)) if float(value).is_integer() else float(value)


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value
