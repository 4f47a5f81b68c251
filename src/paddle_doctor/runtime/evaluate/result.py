"""``EvalResult``: what ``evaluate`` returns, with the evidence that every sample counted once.

Plain data, no paddle import: results can be built, compared and serialised anywhere.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class EvalResult:
    """The same on every rank.

    ``metrics`` maps each metric's ``name()`` to its value; ``num_samples`` is the number of
    samples counted over all ranks (always ``len(dataset)``: ``evaluate`` raises otherwise);
    ``loss`` is the sample-weighted mean of ``loss_fn`` over every sample (None without loss_fn).
    The rest is evidence: how many duplicate sample occurrences were skipped (the padding of
    ``DistributedBatchSampler``), and what this rank sent through collectives.
    """

    metrics: dict[str, Any]
    num_samples: int
    loss: float | None = None
    dataset_len: int = 0
    world_size: int = 1
    strategy: str = "sharded"
    duplicates_skipped: int = 0
    collectives: int = 0  # collective calls this evaluation made (each rank makes the same ones)
    bytes_exchanged: int = 0  # bytes those collectives delivered to this rank
    local_samples: int = 0  # samples this rank evaluated itself

    def __getitem__(self, name: str) -> Any:
        return self.metrics[name]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
