"""Version strings as the probes find them ("12.6", "9.5.1", "2.21.5", "12.6.77", "13"), compared by
their leading numbers."""

from __future__ import annotations

import re


def numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", str(version))[:3])


def major_minor(version: str) -> tuple[int, int]:
    parts = numbers(version) + (0, 0)
    return parts[0], parts[1]


def cudnn_major(version: str) -> int:
    """cuDNN's ABI changes with the major version (libcudnn.so.8 vs .9)."""
    return major_minor(version)[0]
