"""``paddle-doctor smoke``: a tiny real distributed training step and evaluation, as a CI check.

:func:`run_smoke` launches ``runtime/smoke/worker.py`` through ``python -m
paddle.distributed.launch`` with the guards of ``paddle-doctor run``, and returns one
:class:`~paddle_doctor.findings.Finding` per check (and the diagnosis when the launch failed).
It never imports paddle itself and never prints.
"""

from __future__ import annotations

from paddle_doctor.smoke.launch import SmokeOptions, SmokeRun, run_smoke

__all__ = ["SmokeOptions", "SmokeRun", "run_smoke"]
