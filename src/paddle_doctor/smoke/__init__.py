"""``paddle-doctor smoke``: a tiny real distributed training step and evaluation, as a CI check.

:func:`run_smoke` launches ``runtime/smoke_worker.py`` (what runs in each rank) through ``python -m
paddle.distributed.launch`` with the guards of ``paddle-doctor run``, and returns one
:class:`~paddle_doctor.findings.Finding` per check (and the diagnosis when the launch failed).
It never imports paddle itself and never prints.
"""

from __future__ import annotations

from ..lazy import lazy_exports

__all__ = ["SmokeOptions", "SmokeRun", "run_smoke"]
__getattr__ = lazy_exports(__name__, {
    "SmokeOptions": ".launch", "SmokeRun": ".launch", "run_smoke": ".launch",
})
