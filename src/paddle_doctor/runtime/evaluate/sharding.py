"""Which rank evaluates which sample: every dataset index exactly once, by global index ownership.

Why by index and not by trimming: ``DistributedBatchSampler`` pads with items ``0..pad-1``
*before* shuffling, so with ``shuffle=True`` the duplicates sit anywhere, and ``drop_last``
silently loses real samples. Knowing every rank's index list lets each rank keep exactly the
occurrences it owns, before any data is loaded, with no communication:

- a Dataset: contiguous balanced shards (sizes differ by at most one; ranks past N get none);
- a ``DistributedBatchSampler``: every rank rebuilds every rank's list from the sampler's
  settings (vectorised copy of Paddle 3.3.1's algorithm), checked against its own real list;
- any other batch sampler: the index lists are exchanged once (``exchange``), before the loop.

Then each index is owned by one of the ranks that hold it (chosen by index, the same on every
rank), and the plan is checked to cover the dataset: a dropped sample fails before any work.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from paddle_doctor.errors import SampleCountError

Exchange = Callable[[np.ndarray], list[np.ndarray]]  # this rank's flat indices -> every rank's


@dataclass(frozen=True)
class ShardPlan:
    """This rank's batches of dataset indices (duplicates removed, no empty batch)."""

    batches: list[np.ndarray]
    dataset_len: int
    duplicates_skipped: int = 0  # over all ranks
    source: str = "dataset"  # dataset | distributed_batch_sampler | exchanged | local

    @property
    def local_samples(self) -> int:
        return int(sum(len(b) for b in self.batches))


def plan_dataset(n: int, world: int, rank: int, batch_size: int) -> ShardPlan:
    """Contiguous balanced shards of ``range(n)``: no padding, no dropping."""
    base, extra = divmod(n, world)
    start = rank * base + min(rank, extra)
    stop = start + base + (rank < extra)
    return ShardPlan(_batched(np.arange(start, stop, dtype=np.int64), batch_size), n)


def plan_rank0(n: int, rank: int, batch_size: int) -> ShardPlan:
    """Rank 0 evaluates everything (strategy="rank0"); the others nothing."""
    indices = np.arange(n, dtype=np.int64) if rank == 0 else np.zeros(0, np.int64)
    return ShardPlan(_batched(indices, batch_size), n, source="rank0")


def plan_batch_sampler(batch_sampler, n: int, world: int, rank: int,
                       exchange: Exchange | None) -> ShardPlan:
    """Own the user's batches: keep each index on one rank, drop the other occurrences."""
    epoch = getattr(batch_sampler, "epoch", 0)
    local = [np.asarray(b, dtype=np.int64).reshape(-1) for b in batch_sampler]  # iterate once
    flat = np.concatenate(local) if local else np.zeros(0, np.int64)
    if world == 1:
        everyone, source = [flat], "local"
    elif _is_distributed_batch_sampler(batch_sampler):
        everyone, source = _dbs_lists(batch_sampler, n, world, rank, epoch), "distributed_batch_sampler"
        if not np.array_equal(everyone[rank], flat):
            raise RuntimeError(
                f"{type(batch_sampler).__name__} on rank {rank} did not yield the indices that "
                "Paddle's DistributedBatchSampler algorithm gives; pass the Dataset instead")
    elif exchange is None:
        raise RuntimeError("cannot learn the other ranks' indices without a process group")
    else:
        everyone, source = exchange(flat), "exchanged"
    keep, duplicates = own(everyone, rank, n)
    kept = np.split(keep, np.cumsum([len(b) for b in local])[:-1]) if local else []
    batches = [b[k] for b, k in zip(local, kept) if k.any()]
    return ShardPlan(batches, n, duplicates, source)


def own(everyone: Sequence[np.ndarray], rank: int, n: int) -> tuple[np.ndarray, int]:
    """Keep-mask over ``everyone[rank]`` and the number of duplicate occurrences over all ranks.

    Index ``i`` held by ``k`` occurrences goes to occurrence ``i % k`` (in rank order), so that
    when every rank holds everything the work still splits evenly. Raises if an index is
    missing or outside the dataset, the same way on every rank.
    """
    sizes = [len(e) for e in everyone]
    idx = np.concatenate(everyone) if sizes else np.zeros(0, np.int64)
    _check_cover(idx, n)
    order = np.argsort(idx, kind="stable")  # stable: occurrences stay in rank order
    sorted_idx = idx[order]
    starts = np.flatnonzero(np.r_[True, sorted_idx[1:] != sorted_idx[:-1]]) if idx.size else idx
    counts = np.diff(np.r_[starts, idx.size])
    chosen = order[starts + sorted_idx[starts] % counts]
    keep = np.zeros(idx.size, dtype=bool)
    keep[chosen] = True
    offset = sum(sizes[:rank])
    return keep[offset:offset + sizes[rank]], int(idx.size - chosen.size)


def _check_cover(idx: np.ndarray, n: int) -> None:
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise SampleCountError(f"the batch sampler yields index {int(idx.max())} or {int(idx.min())}, "
                               f"outside a dataset of {n}")
    seen = np.zeros(n, dtype=bool)
    seen[idx] = True
    missing = n - int(seen.sum())
    if missing:
        first = np.flatnonzero(~seen)[:5].tolist()
        raise SampleCountError(
            f"{missing} of {n} samples are never evaluated (e.g. indices {first}); "
            "DistributedBatchSampler(drop_last=True) drops real samples: use drop_last=False "
            "(evaluate removes the padded duplicates itself) or pass the Dataset")


def _is_distributed_batch_sampler(sampler) -> bool:
    from paddle.io import DistributedBatchSampler

    return isinstance(sampler, DistributedBatchSampler)


def _dbs_lists(s, n: int, world: int, rank: int, epoch: int) -> list[np.ndarray]:
    """Every rank's index list, as ``DistributedBatchSampler.__iter__`` (Paddle 3.3.1) makes it."""
    if s.nranks != world or s.local_rank != rank:
        raise ValueError(f"the DistributedBatchSampler was built for {s.nranks} ranks (rank "
                         f"{s.local_rank}), but this is rank {rank} of {world}")
    total = int(math.ceil(n / world)) * world
    indices = np.concatenate([np.arange(n), np.resize(np.arange(n), total - n)]).astype(np.int64)
    if s.shuffle:
        np.random.RandomState(epoch).shuffle(indices)  # same draws as shuffling the list
    tail = total % (s.batch_size * world)  # the last round is split evenly across ranks
    head_owner = (np.arange(total - tail) // s.batch_size) % world
    per_tail = tail // world
    local_bs = s.batch_size * getattr(s, "_acc_steps", 1)
    lists = []
    for r in range(world):
        mine = np.concatenate([indices[:total - tail][head_owner == r],
                               indices[total - tail + r * per_tail: total - tail + (r + 1) * per_tail]])
        if s.drop_last:
            mine = mine[: len(mine) // local_bs * local_bs]
        lists.append(mine)
    return lists


def _batched(indices: np.ndarray, batch_size: int) -> list[np.ndarray]:
    return [indices[i:i + batch_size] for i in range(0, len(indices), batch_size)]
