"""``save_clean(model, path)``: the model's own keys, written once, never half-written."""

from __future__ import annotations

import os
from typing import Any

from ...ckpt.atomic import atomic_path
from .unwrap import unwrap


def save_clean(model: Any, path: str, *, rank: int | None = None, protocol: int = 4) -> str | None:
    """Save the state dict of ``model`` without wrapper prefixes, on one rank, atomically.

    ``model`` may be wrapped (``paddle.DataParallel``, fleet's meta-parallel or group-sharded
    wrappers): the innermost Layer's ``state_dict()`` is saved, so its keys are the ones a bare
    model expects. Only the process of global rank ``rank`` (default 0) writes; the others return
    None at once (all ranks writing one path is the ``concurrent_checkpoint_write`` cause). The
    file is written to a temp name in the same directory, synced and renamed over ``path``, so a
    reader never sees half a checkpoint. A ``.safetensors`` path is saved as safetensors.
    Returns the path written, or None on the other ranks.
    """
    import paddle
    import paddle.distributed as dist

    writer = 0 if rank is None else rank
    if dist.get_world_size() > 1 and dist.get_rank() != writer:
        return None
    state = unwrap(model).state_dict()
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with atomic_path(path) as tmp:
        if path.endswith(".safetensors"):
            paddle.save(state, tmp, safetensors=True)
        else:
            paddle.save(state, tmp, protocol=protocol)
    return path
