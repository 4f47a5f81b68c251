"""``paddle.Model.evaluate``, exact on any number of ranks, with the loss over every sample.

Why: hapi is exact only by all-gathering every output and label each batch (and on its default
unshuffled path), and the loss it reports is the *last batch's* loss on *this* rank. Here the
same prepared ``paddle.Model`` (its network, loss and metrics) goes through
``paddle_doctor.evaluate``: metric states synced once, the loss a sample-weighted mean over all
samples of all ranks. The one-line change::

    result = model.evaluate(eval_set, batch_size=64)                  # before
    result = evaluate_model(model, eval_set, batch_size=64)           # after: same keys
"""

from __future__ import annotations

from typing import Any

from paddle_doctor.runtime.evaluate.api import evaluate
from paddle_doctor.runtime.evaluate.result import EvalResult


def evaluate_model(model: Any, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                   num_workers: int = 0, callbacks: Any = None, num_iters: int | None = None, *,
                   collate_fn: Any = None, progress: bool | float | None = None,
                   details: bool = False) -> dict[str, Any] | tuple[dict[str, Any], EvalResult]:
    """Evaluate a prepared ``paddle.Model`` like ``model.evaluate`` does, but exactly.

    hapi's own arguments, in its order: ``eval_data`` a Dataset or a DataLoader; ``batch_size``
    and ``num_workers`` as there; ``verbose=0`` silences the progress (1 and 2 show it on rank 0:
    a bar on a terminal, else a line every 5 s; ``log_freq`` is accepted, since lines go by time
    here, not by step); ``callbacks``: each gets ``set_model(model)``, ``on_eval_begin(logs)``
    and ``on_eval_end(logs)`` with the result, as hapi calls them (no per-batch calls: batches
    differ by rank); ``num_iters`` (a subset of batches) is refused, since it cannot be exact.
    Returns hapi's dict ``{"loss": [mean loss], <metric names>: values}`` (``loss`` only with a
    loss in ``prepare``); ``details=True`` also returns the ``EvalResult``. The network's
    training flags are left as they were.
    """
    network = getattr(model, "network", None)
    if network is None or not hasattr(model, "_metrics"):
        raise TypeError(f"evaluate_model expects a paddle.Model after prepare(), got {type(model).__name__}")
    if num_iters is not None:
        raise ValueError(f"num_iters={num_iters}: evaluate_model evaluates every sample exactly once; pass a "
                         "smaller dataset (paddle.io.Subset) to evaluate part of it")
    n_inputs, n_labels = len(model._inputs or []), len(model._labels or [])
    if n_inputs < 1:
        raise ValueError("the paddle.Model has no inputs: build it as paddle.Model(network, inputs, labels)")
    callbacks = _callbacks(callbacks, model)
    for cb in callbacks:
        cb.on_eval_begin({"steps": None, "metrics": _metric_names(model)})
    loss = model._loss
    result = evaluate(network, eval_data, list(model._metrics),
                      batch_size=None if _is_loader(eval_data) else batch_size,
                      num_workers=num_workers, collate_fn=collate_fn, loss_fn=loss,
                      progress=bool(verbose) if progress is None else progress,
                      inputs=list(range(n_inputs)), output=_every_output,
                      labels=list(range(n_inputs, n_inputs + n_labels)) if n_labels else _no_labels)
    out: dict[str, Any] = {"loss": [result.loss]} if loss is not None else {}
    out.update(result.metrics)
    for cb in callbacks:
        cb.on_eval_end(dict(out))
    return (out, result) if details else out


def _callbacks(callbacks: Any, model: Any) -> list:
    if callbacks is None:
        return []
    callbacks = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for cb in callbacks:
        if not hasattr(cb, "on_eval_end"):
            raise TypeError(f"callbacks: {type(cb).__name__} is not a paddle.callbacks.Callback")
        if hasattr(cb, "set_model"):
            cb.set_model(model)
    return callbacks


def _metric_names(model: Any) -> list[str]:
    names = ["loss"] if model._loss is not None else []
    for metric in model._metrics:
        name = metric.name()
        names.extend(name if isinstance(name, (list, tuple)) else [name])
    return names


def _every_output(outputs: Any) -> list:
    """hapi's convention: ``metric.compute(*outputs, *labels)`` with every output."""
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def _no_labels(batch: Any) -> list:
    return []


def _is_loader(data: Any) -> bool:
    from paddle.io import DataLoader

    return isinstance(data, DataLoader)
