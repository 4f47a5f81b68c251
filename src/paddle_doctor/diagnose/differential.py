"""The differential diagnosis: ``rootcause`` attaches up to two alternatives to every verdict (JSON
``root_cause.alternatives``, text "also possible"): the ones the evidence itself suggests, then the
catalog's for the cause (``catalog/alternatives.toml``: the causes that produce the same log lines,
why, and the check that tells them apart). Confidence of an alternative is always below the verdict's.
"""

from __future__ import annotations

from ..findings import Alternative, Confidence
from ..catalog.alternatives import alternatives_of

MAX_ALTERNATIVES = 2

_LOWER = {Confidence.HIGH: Confidence.LOW, Confidence.MEDIUM: Confidence.LOW, Confidence.LOW: Confidence.LOW}


def alternatives_for(cause: str, confidence: Confidence, exclude: tuple[str, ...] = (),
                     first: tuple[Alternative, ...] = ()) -> tuple[Alternative, ...]:
    """Up to two alternatives: ``first`` (the ones the evidence itself suggests), then the table's."""
    out = list(first)
    seen = {cause, *exclude, *(a.cause for a in first)}
    for other in alternatives_of(cause):
        if other.cause not in seen:
            out.append(Alternative(other.cause, _LOWER[Confidence(confidence)], other.why, other.check))
            seen.add(other.cause)
    return tuple(out[:MAX_ALTERNATIVES])
