"""The parallel suite's scheduler (tests/suite_schedule.py): pytest runs without pytest-xdist,
and with it a group's tests share one worker and the slow_first tests start before the rest."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from suite_schedule import scope_of

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent


def _pytest(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """pytest in ``cwd``; tests/ on PYTHONPATH (suite_schedule, as tests/conftest.py finds it)."""
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": path})


def test_the_suite_collects_without_xdist():
    """Without xdist its hooks are unknown: a plugin declaring one stopped every pytest run at
    collection (``unknown hook 'pytest_xdist_make_scheduler'``)."""
    run = _pytest("-p", "no:xdist", "--collect-only", "tests/unit/test_findings.py", cwd=REPO)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "unknown hook" not in run.stdout + run.stderr


def test_a_group_is_one_unit_and_other_tests_spread_out():
    groups = {"tests/integration/test_x.py::test_a": "slow_pair", "tests/integration/test_y.py::test_b": "slow_pair"}
    assert scope_of("tests/integration/test_x.py::test_a", groups) == scope_of(
        "tests/integration/test_y.py::test_b", groups) == "slow_pair"
    assert scope_of("tests/integration/test_z.py::test_c", groups) != scope_of("tests/integration/test_z.py::test_d", groups)
    assert scope_of("tests/unit/test_findings.py::test_x", groups) == "tests/unit/test_findings.py"


CONFTEST = """
def pytest_configure(config):
    if config.pluginmanager.has_plugin("xdist"):
        import suite_schedule
        config.pluginmanager.register(suite_schedule, "suite_schedule")
"""

TESTS_SOURCE = """
import json, os, time
import pytest

def note(name):
    with open("ran.jsonl", "a") as fh:
        fh.write(json.dumps({{"test": name, "worker": os.environ["PYTEST_XDIST_WORKER"], "t": time.time()}}) + "\\n")
    time.sleep(0.3)

{marks}
@pytest.mark.parametrize("k", range(4))
def test_{name}(k):
    note("{name}")
"""


@pytest.mark.skipif(importlib.util.find_spec("xdist") is None, reason="pytest-xdist is not installed")
def test_with_xdist_a_group_shares_a_worker_and_slow_first_starts_early(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_plain.py").write_text(TESTS_SOURCE.format(name="plain", marks=""))
    (tmp_path / "test_grouped.py").write_text(
        TESTS_SOURCE.format(name="grouped", marks='pytestmark = pytest.mark.xdist_group("pair")'))
    (tmp_path / "test_slow.py").write_text(TESTS_SOURCE.format(name="slow", marks="@pytest.mark.slow_first"))
    run = _pytest("-n", "2", "--dist", "loadgroup", "-W", "ignore::pytest.PytestUnknownMarkWarning", cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    ran = [json.loads(line) for line in (tmp_path / "ran.jsonl").read_text().splitlines()]
    assert len(ran) == 12
    assert len({r["worker"] for r in ran if r["test"] == "grouped"}) == 1, ran  # one worker for the group
    order = [r["test"] for r in sorted(ran, key=lambda r: r["t"])]
    # collection order is grouped, plain, slow (by file name): slow_first starts before plain
    assert order.index("plain") > max(order.index("grouped"), order.index("slow")), order
