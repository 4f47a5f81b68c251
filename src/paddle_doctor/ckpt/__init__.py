"""Checkpoint tools that import no paddle and run nothing from the file: ``inspect`` (keys, shapes,
dtypes of every format Paddle users have), ``compare`` (prefix alignment, missing / unexpected /
shape-mismatched keys as Findings), ``strip`` (atomic rename of keys).

Modules: ``allowlist`` (the globals a pickle may ask for), ``safe_pickle`` (the unpickler),
``safetensors_io`` (the documented header), ``formats`` (detection, pickles, shards), ``arrays``
(real numpy arrays), ``prefixes``, ``compare``, ``strip``, ``atomic``, ``meta``.
"""

from __future__ import annotations

from .compare import compare
from .formats import read_checkpoint
from .meta import Checkpoint, TensorMeta
from .prefixes import Alignment, align, common_prefix
from .strip import StripError, strip_checkpoint

__all__ = ["Alignment", "Checkpoint", "StripError", "TensorMeta", "align", "common_prefix", "compare",
           "read_checkpoint", "strip_checkpoint"]
