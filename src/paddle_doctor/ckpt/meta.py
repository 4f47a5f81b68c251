"""What ``ckpt inspect`` learns about a checkpoint: tensor shapes and dtypes, never their data."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TensorMeta:
    """One tensor as stored: shape, numpy dtype name, and the bytes its data takes in the file."""

    shape: tuple[int, ...]
    dtype: str
    nbytes: int | None = None

    @property
    def numel(self) -> int:
        return math.prod(self.shape)

    def to_dict(self) -> dict:
        return {"shape": list(self.shape), "dtype": self.dtype, "nbytes": self.nbytes}


@dataclass
class Checkpoint:
    """A checkpoint's table of contents.

    ``tensors`` maps each key (split ``key@@.N`` pieces already re-joined) to its metadata;
    ``extras`` maps the other top-level entries (an optimizer's ``LR_Scheduler``, Paddle's
    ``StructuredToParameterName@@`` name table) to a short description; ``joined`` lists the keys
    that were stored in pieces; ``files`` the files read (several for a sharded checkpoint).
    """

    path: str
    format: str  # "pickle" | "safetensors" | "sharded-pickle" | "sharded-safetensors"
    tensors: dict[str, TensorMeta] = field(default_factory=dict)
    extras: dict[str, str] = field(default_factory=dict)
    joined: dict[str, list[str]] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    protocol: int | None = None

    @property
    def num_parameters(self) -> int:
        return sum(meta.numel for meta in self.tensors.values())

    @property
    def nbytes(self) -> int:
        return sum(meta.nbytes or 0 for meta in self.tensors.values())

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "format": self.format,
            "protocol": self.protocol,
            "files": list(self.files),
            "num_tensors": len(self.tensors),
            "num_parameters": self.num_parameters,
            "nbytes": self.nbytes,
            "tensors": {key: meta.to_dict() for key, meta in self.tensors.items()},
            "joined": dict(self.joined),
            "extras": dict(self.extras),
        }
