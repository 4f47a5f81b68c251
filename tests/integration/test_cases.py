"""Every failure case in cases/, run for real under Paddle's real launcher, then diagnosed.

Why: the cases are the ground truth of this project. Each run must fail the way its README says
(exit status and marker strings), and ``diagnose`` must name the case's root cause and the global
rank where it happened, from exactly what the user has: terminal.out plus the launcher's logs.
New folders in cases/ are picked up by the glob below; no list to keep in step.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import pytest

from paddle_doctor.lab import exit_matches, expected_cause, missing_markers, run_case

CASES_DIR = Path(__file__).resolve().parents[2] / "cases"
CASE_DIRS = sorted(p.parent for p in CASES_DIR.glob("*/expected.json"))
HAS_PADDLE = importlib.util.find_spec("paddle") is not None
COMMON_TIMEOUT_S = 60  # expected.json's timeout_s for a case that fails within seconds


def _param(case_dir: Path):
    timeout_s = json.loads((case_dir / "expected.json").read_text())["timeout_s"]
    marks = [pytest.mark.timeout(int(timeout_s) + 60)]
    if timeout_s > COMMON_TIMEOUT_S:  # it waits out gloo's 30 s timeout: start it early in a parallel run
        marks.append(pytest.mark.slow_first)
    return pytest.param(case_dir, id=case_dir.name, marks=marks)


def _skip_unless_wrapper_works(case_dir: Path) -> None:
    """A case's wrapper (e.g. a small /dev/shm in a user namespace) needs what some machines forbid."""
    wrapper = json.loads((case_dir / "expected.json").read_text()).get("wrapper")
    if not wrapper:
        return
    try:
        works = subprocess.run([*wrapper, "true"], cwd=case_dir, timeout=20, capture_output=True).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        pytest.skip(f"{' '.join(wrapper)} cannot run here (no unprivileged user and mount namespaces?)")


def _describe(run) -> str:
    return (f"{run.case.name}: exit {run.returncode} (timed_out={run.timed_out}), "
            f"expected {run.case.expect_exit}; outputs in {run.work_dir}")


def test_cases_found():
    assert len(CASE_DIRS) >= 18


@pytest.mark.integration
@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
@pytest.mark.parametrize("case_dir", [_param(d) for d in CASE_DIRS])
def test_case_fails_as_documented_and_is_diagnosed(case_dir, tmp_path):
    _skip_unless_wrapper_works(case_dir)
    run = run_case(case_dir, tmp_path / "run")
    case = run.case
    assert exit_matches(run), _describe(run)
    assert missing_markers(run) == [], _describe(run)

    from paddle_doctor.diagnose import diagnose_paths

    d = diagnose_paths([str(run.work_dir)])
    assert d.root_cause is not None, _describe(run)
    assert d.root_cause.cause == expected_cause(run), _describe(run)
    assert d.root_cause.ranks == ((case.rank,) if case.rank is not None else ()), _describe(run)
