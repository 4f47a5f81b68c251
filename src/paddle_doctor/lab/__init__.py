"""The failure lab: replay real PaddlePaddle failure modes (``cases/``) and keep their outputs.

Why: every claim diagnose makes must hold on a real run of Paddle's real launchers. This package
only starts subprocesses; it never imports paddle.
"""

from __future__ import annotations

from paddle_doctor.lab.runner import (
    Case,
    CaseRun,
    LabError,
    exit_matches,
    expected_cause,
    load_case,
    missing_markers,
    run_case,
)

__all__ = ["Case", "CaseRun", "LabError", "exit_matches", "expected_cause", "load_case", "missing_markers", "run_case"]
