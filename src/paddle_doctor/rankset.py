"""Rank lists in words: ``[5, 0, 1, 2, 7, 8, 9, 3]`` -> ``"0-3, 5, 7-9"``, for every renderer and
for the reasons diagnose writes (1024 ranks must read as a few ranges). Imports nothing of ours."""

from __future__ import annotations

from collections.abc import Iterable


def rank_ranges(ranks: Iterable[int]) -> str:
    ranks = sorted(set(ranks))
    parts, i = [], 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        parts.append(str(ranks[i]) if i == j else f"{ranks[i]}-{ranks[j]}")
        i = j + 1
    return ", ".join(parts)
