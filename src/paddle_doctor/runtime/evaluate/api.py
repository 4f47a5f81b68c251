"""``paddle_doctor.evaluate``: exact distributed evaluation, every sample counted once.

What happens on every rank:

1. plan (``sharding.py``): the dataset indices this rank evaluates; each index belongs to
   exactly one rank, and a plan that misses a sample fails here, before any work;
2. loop (``loop.py``): forward and metric updates on local data only, no collective; each
   rank's plan was announced on the store before it (``evalguard.py``), the verdict is read
   after each batch until it is in, and awaited before step 3;
3. barrier (``barrier.py``): wait on the TCP store until every rank is done, so that nobody
   sits in a gloo collective (30 s timeout) while another rank still works;
4. sync (``sync.py``): one all_reduce for all sum states, one for max/min, one all_gather for
   cat states; with strategy="rank0", rank 0's states are broadcast instead;
5. finish: the synced states go back into the metric objects, and the sample count and id
   checksums are checked against ``len(dataset)``.

Any rank that raises tells the others through the store, and they raise ``PeerFailedError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from paddle_doctor.runtime.evaluate.batches import BatchLayout
from paddle_doctor.runtime.evaluate.collate import returns_mask
from paddle_doctor.errors import PeerFailedError, SampleCountError
from paddle_doctor.runtime.evaluate.evalguard import evaluation_guard
from paddle_doctor.runtime.evaluate.fetch import (GuardedCollate, GuardedDataset, LocalBatches, batch_error,
                                                    failure_of)
from paddle_doctor.runtime.evaluate.loop import CHECKSUM_PRIME, Tally, run_local
from paddle_doctor.runtime.evaluate.states import metric_names, metric_values
from paddle_doctor.runtime.evaluate.progress import make_progress
from paddle_doctor.runtime.evaluate.result import EvalResult
from paddle_doctor.runtime.evaluate.sharding import ShardPlan, plan_batch_sampler, plan_dataset, plan_rank0
from paddle_doctor.runtime.evaluate.states import read_state, schema_fingerprint, state_slots, write_state
from paddle_doctor.runtime.evaluate.sync import (Collectives, broadcast_states, gather_ragged, share_rank0_results,
                                                 sync_states)

STRATEGIES = ("sharded", "rank0")


def evaluate(model: Any, data: Any, metrics: Any = (), *, batch_size: int | None = None,
             collate_fn: Any = None, num_workers: int = 0, loss_fn: Any = None,
             strategy: str = "sharded", progress: bool | float = True, inputs: Any = None,
             labels: Any = None, output: Any = None) -> EvalResult:
    """Evaluate ``model`` on every sample of ``data`` exactly once, across all ranks.

    ``data``: a map-style ``paddle.io.Dataset`` (sharded here: no padding, no dropping; needs
    ``batch_size``), or a ``paddle.io.DataLoader`` whose batch sampler is a
    ``DistributedBatchSampler`` (or any batch sampler), whose padded duplicates are skipped by
    sample index, with or without shuffle. A batch is ``(inputs..., label)`` by default; the
    model is called as ``model(*inputs)``. Name the fields otherwise (``batches.py``): ``labels``
    a key, a position, a dotted path or a list of them (required for dict batches); ``inputs``
    the same (positional arguments), or ``{kwarg: field}``, or a function of the batch; without
    ``inputs``, every field that is not a label goes in (a dict batch as keyword arguments).
    ``output``: what the metrics and ``loss_fn`` see of the model's return value: a position or
    key (``0``, ``"logits"``), a list of them, or a function; by default a tensor or the only
    element of a tuple/list/dict (several outputs must be chosen: an auxiliary head is refused).
    ``metrics``: ``paddle.metric`` objects (Accuracy, Precision, Recall, Auc) or custom metrics
    with ``sync_states``; they are reset first and hold the global state afterwards.
    ``loss_fn(*outputs, *labels)`` returns the batch mean or one loss per sample.
    ``strategy="rank0"``: rank 0 evaluates everything, the others wait on the TCP store (no
    timeout) and receive its result. ``progress``: a bar on rank 0's terminal, or plain lines in
    its log under the launcher every ``progress`` seconds (True: 5 s). Works in one process
    without ``init_parallel_env``.
    Every rank must call it; every rank gets the same ``EvalResult``.
    """
    metrics = _metric_list(metrics)
    layout = BatchLayout(inputs, labels, output)
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {STRATEGIES}, got {strategy!r}")
    source = _source(data, batch_size, collate_fn, num_workers)
    world, rank = _world()
    call = _Call(model, source, metrics, layout, loss_fn, progress, strategy,
                 world, rank, Collectives(world) if world > 1 else None)
    names = [n for m in metrics for n in metric_names(m)]
    with evaluation_guard(world=world, rank=rank, comm=call.comm, model=model, dataset=source.dataset,
                          batch_size=source.batch_size, metric_names=names, strategy=strategy,
                          progress=lambda: f"{call.tally.count} samples done") as agreed:
        plan = _evaluate_here(call, agreed)
    return _result(call, plan)


@dataclass
class _Call:
    """One evaluate() call: what the user asked for, where this rank stands, and what it counted."""

    model: Any
    source: _Source
    metrics: list
    layout: BatchLayout
    loss_fn: Any
    progress: bool | float
    strategy: str
    world: int
    rank: int
    comm: Collectives | None
    tally: Tally = field(default_factory=Tally)


def _evaluate_here(call: _Call, agreed) -> ShardPlan:
    """Inside the guard: this rank's share, then the states synced (or rank 0's shared)."""
    barrier = agreed.barrier
    try:
        agreed.announce()
        plan = _plan(call, agreed)
        for metric in call.metrics:
            metric.reset()
        slots = [slot for m in (*call.metrics, call.tally) for slot in state_slots(m)]
        _run(call, plan, agreed.check)
        agreed.wait()  # every rank has the same data, weights and settings: safe to combine
        values = [read_state(slot) for slot in slots]
    except BaseException as exc:
        if barrier is not None and not isinstance(exc, PeerFailedError):
            barrier.fail(exc)
        raise
    if barrier is not None:
        barrier.wait_all("sync", schema_fingerprint(slots, values))
        values = (sync_states(call.comm, slots, values, call.rank) if call.strategy == "sharded"
                  else broadcast_states(call.comm, slots, values, call.rank))
    for slot, value in zip(slots, values):
        write_state(slot, value)
    share_rank0_results(call.metrics, barrier, call.comm, call.rank)
    return plan


@dataclass(frozen=True)
class _Source:
    """What to load and how: the dataset, the user's batch sampler (None: we shard), loader kwargs."""

    dataset: Any
    batch_size: int
    batch_sampler: Any = None
    loader_kwargs: dict = field(default_factory=dict)
    masked: bool = False


def _source(data: Any, batch_size: int | None, collate_fn: Any, num_workers: int) -> _Source:
    from paddle.io import DataLoader, IterableDataset

    if isinstance(data, DataLoader):
        return _loader_source(data, batch_size, collate_fn, num_workers)
    if isinstance(data, IterableDataset) or not hasattr(data, "__getitem__") or not hasattr(data, "__len__"):
        raise TypeError(f"data must be a map-style paddle.io.Dataset or a DataLoader over one, got "
                        f"{type(data).__name__}: an iterable dataset has no sample index to count by")
    if not isinstance(batch_size, int) or batch_size < 1:
        raise TypeError(f"batch_size must be a positive int when data is a Dataset, got {batch_size!r}")
    _check_len(data)
    kwargs = {"collate_fn": collate_fn, "num_workers": num_workers}
    return _Source(data, batch_size, None, kwargs, returns_mask(collate_fn))


def _loader_source(loader: Any, batch_size: int | None, collate_fn: Any, num_workers: int) -> _Source:
    sampler = loader.batch_sampler
    if sampler is None or type(sampler).__name__ == "_InfiniteIterableSampler":
        raise TypeError("the DataLoader has no batch sampler over a map-style dataset: evaluate "
                        "counts samples by index, pass a DataLoader built with batch_size or batch_sampler")
    own_bs = getattr(sampler, "batch_size", None)
    for name, given, own in (("batch_size", batch_size, own_bs), ("collate_fn", collate_fn, loader.collate_fn),
                             ("num_workers", num_workers or None, loader.num_workers)):
        if given is not None and given != own:
            raise ValueError(f"{name}={given!r} conflicts with the DataLoader's {own!r}: set it on the "
                             "DataLoader, or pass the Dataset instead")
    _check_len(loader.dataset)
    kwargs = {"collate_fn": loader.collate_fn, "num_workers": loader.num_workers,
              "use_shared_memory": loader.use_shared_memory, "timeout": loader.timeout,
              "worker_init_fn": loader.worker_init_fn, "use_buffer_reader": loader.use_buffer_reader,
              "prefetch_factor": loader.prefetch_factor}
    return _Source(loader.dataset, own_bs or batch_size or 1, sampler, kwargs, returns_mask(loader.collate_fn))


def _check_len(dataset: Any) -> None:
    if len(dataset) < 1:
        raise ValueError("the dataset is empty: there is nothing to evaluate")


def _world() -> tuple[int, int]:
    import paddle.distributed as dist

    world = dist.get_world_size()
    if world > 1 and not dist.is_initialized():
        raise RuntimeError(f"this process is one of {world} (launcher environment), but "
                           "paddle.distributed.init_parallel_env() was not called: call it before evaluate")
    return world, (dist.get_rank() if world > 1 else 0)


def _plan(call: _Call, agreed) -> ShardPlan:
    source, world, rank = call.source, call.world, call.rank
    n = len(source.dataset)
    if call.strategy == "rank0":
        return plan_rank0(n, rank, source.batch_size)
    if source.batch_sampler is None:
        return plan_dataset(n, world, rank, source.batch_size)

    def exchange(flat: np.ndarray) -> list[np.ndarray]:
        agreed.wait()  # ranks with different datasets would gather plans that make no sense
        agreed.barrier.wait_all("plan")  # all ranks reach the gather together: no gloo timeout
        return gather_ragged(call.comm, flat)

    return plan_batch_sampler(source.batch_sampler, n, world, rank, exchange if call.comm else None)


class _Batches:
    """A batch sampler that replays a fixed plan (what DataLoader needs from one)."""

    def __init__(self, batches: Sequence[np.ndarray]) -> None:
        self.batches = batches

    def __iter__(self):
        return (b.tolist() for b in self.batches)

    def __len__(self) -> int:
        return len(self.batches)


def _run(call: _Call, plan: ShardPlan, after_batch) -> None:
    if not plan.batches:
        return  # nothing here (N < world, or rank0 strategy): go straight to the barrier
    import paddle

    model, source = call.model, call.source
    bar = make_progress(call.progress, rank=call.rank, world=call.world, local_total=plan.local_samples,
                        global_total=plan.dataset_len)
    batches, close = _batches(source, plan, after_batch)
    modes = _modes(model)
    if hasattr(model, "eval"):
        model.eval()
    try:
        with paddle.no_grad():
            run_local(model, _raising(batches, source, call.rank), call.metrics, tally=call.tally,
                      loss_fn=call.loss_fn, masked=source.masked, progress=bar, after_batch=after_batch,
                      layout=call.layout)
    finally:
        close()
        bar.close()
        _restore(model, modes)


def _batches(source: _Source, plan: ShardPlan, poll):
    """``(indices, batch)`` pairs and a function that stops their producer (see ``fetch.py``)."""
    collate = GuardedCollate(source.loader_kwargs.get("collate_fn"))
    if not source.loader_kwargs.get("num_workers"):
        local = LocalBatches(source.dataset, plan.batches, collate, poll)
        return local, local.close
    import paddle

    kwargs = {**source.loader_kwargs, "collate_fn": collate}
    loader = paddle.io.DataLoader(GuardedDataset(source.dataset), batch_sampler=_Batches(plan.batches),
                                  return_list=True, **kwargs)
    return zip(plan.batches, loader), lambda: None


def _raising(pairs, source: _Source, rank: int):
    """The batches, with a failure carried from the dataset or collate_fn raised here."""
    custom = source.loader_kwargs.get("collate_fn") is not None
    workers = bool(source.loader_kwargs.get("num_workers"))
    for idx, batch in pairs:
        failure = failure_of(batch)
        if failure is not None:
            raise batch_error(failure, idx.tolist(), rank, custom, workers)
        yield idx, batch


def _modes(model: Any) -> list[tuple[Any, bool]]:
    """The training flag of the model, of every sublayer and of Paddle's tracer (``eval()`` sets
    all three), to put back exactly afterwards: a wrapper around an eval-mode model must not
    leave the model in train mode (``model.train()`` would)."""
    from paddle.base import framework

    layers = model.sublayers(include_self=True) if hasattr(model, "sublayers") else [model]
    tracer = framework._dygraph_tracer()
    modes = [(layer, bool(layer.training)) for layer in layers if hasattr(layer, "training")]
    return modes + ([(tracer, bool(tracer._train_mode))] if tracer is not None else [])


def _restore(model: Any, modes: list[tuple[Any, bool]]) -> None:
    for owner, training in modes:
        if hasattr(owner, "_train_mode") and not hasattr(owner, "training"):
            owner._train_mode = training
        else:
            owner.training = training


def _result(call: _Call, plan: ShardPlan) -> EvalResult:
    tally, comm = call.tally, call.comm
    n = len(call.source.dataset)
    counted = (tally.count, tally.id_sum % CHECKSUM_PRIME, tally.id_sq % CHECKSUM_PRIME)
    if counted != Tally.expected(n):
        detail = "" if tally.count != n else " (the right count, but some index twice and another never)"
        raise SampleCountError(f"counted {tally.count} samples for a dataset of {n}{detail}")
    values: dict[str, Any] = {}
    for metric in call.metrics:
        values.update(metric_values(metric))
    loss = tally.loss_sum / tally.loss_weight if call.loss_fn is not None and tally.loss_weight else None
    return EvalResult(metrics=values, num_samples=int(tally.count), loss=loss, dataset_len=n,
                      world_size=call.world, strategy=call.strategy, duplicates_skipped=plan.duplicates_skipped,
                      collectives=comm.calls if comm else 0, bytes_exchanged=comm.bytes if comm else 0,
                      local_samples=plan.local_samples)


def _metric_list(metrics: Any) -> list:
    if metrics is None:
        return []
    metrics = list(metrics) if isinstance(metrics, (list, tuple)) else [metrics]
    names = [n for m in metrics for n in metric_names(m)]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise ValueError(f"several metrics are named {duplicated}: give each a distinct name")
    return metrics
