"""``paddle-doctor triage -- CMD...``: rerun a failing launch under guide 001 §4.1's variations.

Each variation (DataLoader workers forced to 0, one process, CPU, and on request no checkpoint
load) reruns the unchanged command with ``run``'s injection, bounded in time; which variations
pass points to a family of causes in the catalog. :func:`triage` returns one
:class:`~paddle_doctor.findings.Finding` per variation and a conclusion; it never prints and
never imports paddle.
"""

from __future__ import annotations

from paddle_doctor.triage.plan import VARIATIONS, Variation, plan_variations
from paddle_doctor.triage.runner import TriageResult, triage

__all__ = ["VARIATIONS", "TriageResult", "Variation", "plan_variations", "triage"]
