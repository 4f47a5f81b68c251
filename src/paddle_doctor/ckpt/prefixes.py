"""Key prefixes, found in general rather than from a list: whatever leading dotted components a
wrapper added (``_layers.`` from DataParallel's named_parameters and old Paddle, ``module.`` from
converted PyTorch weights, ``student.`` / ``model.`` / ``ema.`` from distillation and EMA wrappers).

:func:`common_prefix` reads one key set; :func:`align` finds the rename (strip one prefix, add
another) that maps a checkpoint's keys onto a model's best.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

MAX_DEPTH = 3  # a wrapper adds one or two components; three covers wrappers of wrappers


def common_prefix(keys: Iterable[str]) -> str:
    """The longest run of leading components (with its trailing dot) that every key shares, such that
    every key keeps at least one component; '' when there is none or only one key."""
    split = [key.split(".") for key in keys]
    if len(split) < 2:
        return ""
    shortest = min(len(parts) for parts in split) - 1  # keep the last component of every key
    shared = []
    for depth in range(shortest):
        names = {parts[depth] for parts in split}
        if len(names) != 1:
            break
        shared.append(names.pop())
    return "".join(f"{name}." for name in shared)


def leading_prefixes(keys: Iterable[str], depth: int = MAX_DEPTH) -> Counter:
    """How many keys start with each dotted prefix of up to ``depth`` components (and '': all of them)."""
    counts: Counter = Counter()
    for key in keys:
        parts = key.split(".")[:-1]
        counts[""] += 1
        for n in range(1, min(depth, len(parts)) + 1):
            counts[".".join(parts[:n]) + "."] += 1
    return counts


@dataclass(frozen=True)
class Alignment:
    """Rename a checkpoint key ``k`` starting with ``strip`` to ``add + k[len(strip):]``."""

    strip: str = ""
    add: str = ""
    matched: int = 0  # checkpoint keys that land on a model key after the rename

    @property
    def is_identity(self) -> bool:
        return self.strip == self.add

    def apply(self, key: str) -> str:
        return self.add + key[len(self.strip):] if key.startswith(self.strip) else key

    def describe(self) -> str:
        if self.strip and self.add:
            return f"replace the prefix '{self.strip}' with '{self.add}'"
        if self.strip:
            return f"strip the prefix '{self.strip}'"
        return f"add the prefix '{self.add}'" if self.add else "keys as they are"


def align(source: Iterable[str], target: Iterable[str]) -> Alignment:
    """The rename of ``source`` keys (a checkpoint) that matches the most ``target`` keys (a model).

    Candidates are the dotted prefixes shared by at least two keys (or every key) on each side.
    Ties go to the smaller change, so keys that already match are left alone.
    """
    source, target = list(source), set(target)
    best = Alignment(matched=sum(key in target for key in source))
    for strip in _candidates(source):
        rest = [key[len(strip):] for key in source if key.startswith(strip)]
        for add in _candidates(target):
            matched = sum(add + key in target for key in rest)
            if matched > best.matched:
                best = Alignment(strip, add, matched)
    return best


def _candidates(keys: list[str]) -> list[str]:
    counts = leading_prefixes(keys)
    floor = min(2, len(keys))
    return [prefix for prefix, n in counts.most_common(16) if n >= floor]
