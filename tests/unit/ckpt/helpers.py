"""Helpers shared by the ckpt tests."""

from __future__ import annotations

import pickle


def split_like_paddle(state: dict, key: str, pieces: int, protocol: int) -> bytes:
    """What paddle.framework.io_utils._unpack_saved_dict writes for an array over 1 GiB, on a small
    array: ``key@@.N`` flat slices plus ``UnpackBigParamInfor@@`` (the real threshold needs > 1 GiB;
    ``test_real_split_over_1gib`` does that one when PADDLE_DOCTOR_BIG_TESTS=1)."""
    saved = dict(state)
    value = saved.pop(key)
    flat = value.flatten()
    step = -(-flat.size // pieces)
    names = [f"{key}@@.{i}" for i in range(pieces)]
    for i, name in enumerate(names):
        saved[name] = flat[i * step:(i + 1) * step]
    saved["UnpackBigParamInfor@@"] = {key: {"OriginShape": value.shape, "slices": names}}
    return pickle.dumps(saved, protocol=protocol)
