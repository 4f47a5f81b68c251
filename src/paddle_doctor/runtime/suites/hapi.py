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


def evaluate_model(model: Any, eval_data: Any, batch_size: int = 1, num_workers: int = 0, *,
                   collate_fn: Any = None, progress: bool | float = True,
                   details: bool = False) -> dict[str, Any] | tuple[dict[str, Any], EvalResult]:
    """Evaluate a prepared ``paddle.Model`` like ``model.evaluate`` does, but exactly.

    ``eval_data``: a Dataset or a DataLoader (as for ``model.evaluate``). Returns hapi's dict:
    ``{"loss": [mean loss], <metric names>: values}`` (``loss`` only with a loss in
    ``prepare``); ``details=True`` also returns the ``EvalResult`` (sample counts, collectives).
    """
    network = getattr(model, "network", None)
    if network is None or not hasattr(model, "_metrics"):
        raise TypeError(f"evaluate_model expects a paddle.Model after prepare(), got {type(model).__name__}")
    n_inputs = len(model._inputs or [])
    n_labels = len(model._labels or [])
    if n_inputs < 1:
        raise ValueError("the paddle.Model has no inputs: build it as paddle.Model(network, inputs, labels)")
    loss = model._loss
    result = evaluate(network, eval_data, list(model._metrics),
                      batch_size=None if _is_loader(eval_data) else batch_size,
                      num_workers=num_workers, collate_fn=collate_fn, loss_fn=loss, progress=progress,
                      inputs=list(range(n_inputs)), output=_every_output,
                      labels=list(range(n_inputs, n_inputs + n_labels)) if n_labels else _no_labels)
    out: dict[str, Any] = {"loss": [result.loss]} if loss is not None else {}
    out.update(result.metrics)
    return (out, result) if details else out


def _every_output(outputs: Any) -> list:
    """hapi's convention: ``metric.compute(*outputs, *labels)`` with every output."""
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def _no_labels(batch: Any) -> list:
    return []


def _is_loader(data: Any) -> bool:
    from paddle.io import DataLoader

    return isinstance(data, DataLoader)
