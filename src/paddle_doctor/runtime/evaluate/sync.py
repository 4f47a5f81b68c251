"""Sync metric states across ranks in as few collectives as possible, once per evaluation.

Why bucketed: a collective costs a round of latency however small it is (torchmetrics pays 2-3
per state). Here every ``sum`` state of every metric, plus the evaluator's own counters, plus
the row count of every ``cat`` state, travels in ONE float64 all_reduce; ``max`` and ``min``
states share a second one (min(x) = -max(-x)); all ``cat`` states share one all_gather of raw
bytes, padded to the longest rank (ragged sizes, no pickling). Every rank enters the same
collectives with the same sizes, including ranks that saw no sample, so none can hang.

Measured (Paddle 3.3.1, gloo): an all_gather of an empty tensor kills the process with SIGFPE,
so buffers are never empty.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from paddle_doctor.runtime.channel.rendezvous import Rendezvous
from paddle_doctor.runtime.evaluate.states import StateSlot, metric_names

RANK0_PHASE = "results"  # share_rank0_results' one exchange, under its own key prefix


class Collectives:
    """``paddle.distributed`` on numpy arrays, counting calls and the bytes delivered to this rank
    (all_reduce and broadcast: the buffer; all_gather: world x the buffer)."""

    def __init__(self, world: int) -> None:
        self.world = world
        self.calls = 0
        self.bytes = 0

    def all_reduce(self, arr: np.ndarray, op: str = "sum") -> np.ndarray:
        import paddle
        import paddle.distributed as dist

        tensor = paddle.to_tensor(arr)
        dist.all_reduce(tensor, op=dist.ReduceOp.MAX if op == "max" else dist.ReduceOp.SUM)
        self._count(arr.nbytes)
        return tensor.numpy()

    def all_gather(self, arr: np.ndarray) -> list[np.ndarray]:
        import paddle
        import paddle.distributed as dist

        assert arr.size > 0, "gloo all_gather of an empty tensor dies with SIGFPE"
        out: list = []
        dist.all_gather(out, paddle.to_tensor(arr))
        self._count(arr.nbytes * self.world)
        return [t.numpy() for t in out]

    def gather(self, arr: np.ndarray, rank: int, dst: int = 0) -> list[np.ndarray]:
        """Every rank's ``arr`` (same size) on ``dst``; an empty list elsewhere."""
        import paddle
        import paddle.distributed as dist

        assert arr.size > 0, "never send an empty tensor through gloo"
        out: list | None = [] if rank == dst else None
        dist.gather(paddle.to_tensor(arr), out, dst=dst)
        self._count(arr.nbytes * self.world if rank == dst else 0)
        return [t.numpy() for t in out] if out is not None else []

    def broadcast(self, arr: np.ndarray, src: int = 0) -> np.ndarray:
        import paddle
        import paddle.distributed as dist

        assert arr.size > 0, "never send an empty tensor through gloo"
        tensor = paddle.to_tensor(arr)
        dist.broadcast(tensor, src=src)
        self._count(arr.nbytes)
        return tensor.numpy()

    def _count(self, nbytes: int) -> None:
        self.calls += 1
        self.bytes += int(nbytes)


def sync_states(comm: Collectives, slots: Sequence[StateSlot], values: Sequence[np.ndarray],
                rank: int) -> list[np.ndarray]:
    """Reduce every state over all ranks; returns the new values in ``slots`` order."""
    world = comm.world
    out = list(values)
    sums = [i for i, s in enumerate(slots) if s.reduction == "sum"]
    cats = [i for i, s in enumerate(slots) if s.reduction == "cat"]
    gathers = [i for i, s in enumerate(slots) if s.reduction == "gather"]
    rows = np.zeros((len(cats) + len(gathers), world))
    rows[:, rank] = [len(values[i]) for i in cats + gathers]  # every rank learns every rank's row counts
    reduced = comm.all_reduce(_pack([values[i] for i in sums] + [rows]))
    for i, value in zip(sums, _unpack(reduced, [values[i] for i in sums])):
        out[i] = value
    rows = reduced[reduced.size - rows.size:].reshape(rows.shape).astype(np.int64)
    _reduce_extrema(comm, slots, values, out)
    if cats:
        for i, value in zip(cats, _gather_rows(comm, [values[i] for i in cats], rows[:len(cats)], rank)):
            out[i] = value
    if gathers:
        templates = [values[i] for i in gathers]
        for i, value in zip(gathers, _gather_rows(comm, templates, rows[len(cats):], rank, to_rank0=True)):
            out[i] = value
    return out


def broadcast_states(comm: Collectives, slots: Sequence[StateSlot], values: Sequence[np.ndarray],
                     rank: int, src: int = 0) -> list[np.ndarray]:
    """Every rank takes ``src``'s states (strategy="rank0"): two broadcasts at most."""
    fixed = [i for i, s in enumerate(slots) if s.reduction not in ("cat", "gather")]
    cats = [i for i, s in enumerate(slots) if s.reduction == "cat"]  # gather states stay on rank 0
    head = _pack([values[i] for i in fixed] + [np.array([len(values[i]) for i in cats], float)])
    head = comm.broadcast(head, src)
    out = list(values)
    for i, value in zip(fixed, _unpack(head, [values[i] for i in fixed])):
        out[i] = value
    rows = head[head.size - len(cats):].astype(np.int64)
    templates = [values[i] for i in cats]
    size = sum(_row_bytes(t) * r for t, r in zip(templates, rows))
    if size:
        payload = np.zeros(size, np.uint8)
        if rank == src:
            payload = np.frombuffer(b"".join(values[i].tobytes() for i in cats), np.uint8).copy()
        payload = comm.broadcast(payload, src)
        for i, value in zip(cats, _split_rows(payload, templates, rows)):
            out[i] = value
    return out


def gather_ragged(comm: Collectives, arr: np.ndarray) -> list[np.ndarray]:
    """Every rank's 1-D array (any lengths, even 0): one size exchange, one padded all_gather."""
    sizes = comm.all_gather(np.array([arr.size], np.int64))
    width = max(1, max(int(s[0]) for s in sizes))
    padded = np.zeros(width, arr.dtype)
    padded[:arr.size] = arr
    return [g[:int(s[0])] for g, s in zip(comm.all_gather(padded), sizes)]


def _reduce_extrema(comm, slots, values, out) -> None:
    ext = [i for i, s in enumerate(slots) if s.reduction in ("max", "min")]
    if not ext:
        return
    signs = [1.0 if slots[i].reduction == "max" else -1.0 for i in ext]
    reduced = comm.all_reduce(_pack([g * values[i] for g, i in zip(signs, ext)]), op="max")
    for g, i, value in zip(signs, ext, _unpack(reduced, [values[i] for i in ext])):
        out[i] = g * value


def _gather_rows(comm, templates, rows, rank, to_rank0: bool = False) -> list[np.ndarray]:
    sizes = [sum(_row_bytes(t) * int(r[k]) for t, r in zip(templates, rows)) for k in range(comm.world)]
    if not max(sizes):
        return [t[:0] for t in templates]
    mine = b"".join(t.tobytes() for t in templates)
    buf = np.zeros(max(sizes), np.uint8)
    buf[:len(mine)] = np.frombuffer(mine, np.uint8)
    received = comm.gather(buf, rank) if to_rank0 else comm.all_gather(buf)
    if not received:  # gather: not rank 0, which alone keeps the rows
        return [t[:0] for t in templates]
    per_rank = [_split_rows(g, templates, rows[:, k]) for k, g in enumerate(received)]
    return [np.concatenate([p[j] for p in per_rank]) for j in range(len(templates))]


def _split_rows(buf: np.ndarray, templates, rows) -> list[np.ndarray]:
    out, offset = [], 0
    for t, r in zip(templates, rows):
        size = _row_bytes(t) * int(r)
        out.append(np.frombuffer(buf[offset:offset + size].tobytes(), t.dtype).reshape(int(r), *t.shape[1:]))
        offset += size
    return out


def _row_bytes(template: np.ndarray) -> int:
    return int(template.dtype.itemsize * int(np.prod(template.shape[1:], dtype=np.int64)))


def _pack(arrays: Sequence[np.ndarray]) -> np.ndarray:
    flat = [np.asarray(a, np.float64).reshape(-1) for a in arrays]
    packed = np.concatenate(flat) if flat else np.zeros(0)
    return packed if packed.size else np.zeros(1)  # never an empty collective


def _unpack(buf: np.ndarray, templates: Sequence[np.ndarray]) -> list[np.ndarray]:
    out, offset = [], 0
    for t in templates:
        out.append(buf[offset:offset + t.size].reshape(t.shape))
        offset += t.size
    return out


def share_rank0_results(metrics: Sequence[Any], barrier: Any, comm: Any, rank: int) -> None:
    """Metrics with ``evaluated_on_rank0`` (their rows were gathered to rank 0 only): rank 0 runs
    ``accumulate()`` once and every other rank receives the numbers through the TCP store, where
    waiting has no 30 s gloo limit (a COCO evaluator may run for minutes), or by one broadcast
    without a store. A failure on rank 0 is raised on every rank as PeerFailedError."""
    owners = [m for m in metrics if getattr(m, "evaluated_on_rank0", False)]
    if not owners or barrier is None:
        return  # one process: accumulate() runs here, when asked
    if not isinstance(barrier, Rendezvous):
        for m in owners:
            value = np.asarray(m.accumulate() if rank == 0 else np.zeros(len(metric_names(m))), np.float64)
            m.share(_shaped(comm.broadcast(value.reshape(-1)), len(metric_names(m))))
        return
    results = Rendezvous(barrier.store, barrier.prefix + "/rank0", barrier.world, rank)
    text = "[]"
    if rank == 0:
        try:
            text = json.dumps([_plain(m.accumulate()) for m in owners])
        except BaseException as exc:
            results.fail(exc)
            raise
    results.publish(RANK0_PHASE, text)  # every rank publishes: texts() reads them all
    results.arrive(RANK0_PHASE)
    results.fingerprints(RANK0_PHASE)  # every rank has arrived: rank 0's text is there
    if rank != 0:
        for m, value in zip(owners, json.loads(results.texts(RANK0_PHASE)[0])):
            m.share(value)


def _plain(value: Any) -> Any:
    return np.asarray(value, np.float64).tolist()


def _shaped(values: np.ndarray, count: int) -> Any:
    return float(values[0]) if count == 1 else [float(v) for v in values]
