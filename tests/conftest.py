import importlib.util
import os
import sys
from pathlib import Path

import pytest

from paddle_doctor.process.ports import PORTS_VAR

REPO = Path(__file__).resolve().parents[1]
# The shared corpus lies beside the checkout (as in CI); PADDLE_DOCTOR_CORPUS points elsewhere.
# A worktree lies one level deeper (/work/wt/NAME): look beside its parent too.
_SHARED = next((d for d in (REPO.parent / "shared", REPO.parent.parent / "shared") if d.is_dir()),
               REPO.parent / "shared")
CORPUS = Path(os.environ.get("PADDLE_DOCTOR_CORPUS", _SHARED / "corpus" / "real-dev"))
CORPORA = [CORPUS, CORPUS.parent / "real-dev2"]

# Ports for parallel launches (pytest-xdist). Paddle's launcher picks its ports by bind-and-close
# in PORT_RANGE (35100:64000 by default, `launch/context/node.py`) and the lab by bind(0), both in
# the kernel's ephemeral range (32768-60999), and the workers bind them seconds later: another
# launch, or any outgoing connection, can take one in between. Each xdist worker gets its own
# slice of 10000-32000, below the ephemeral range: three quarters for Paddle (PORT_RANGE), a
# quarter for the lab and the tests' own --master ports (PORTS_VAR).
PORTS_FIRST, PORTS_END = 10000, 32000
_PORTS_SET_BY = "PDOC_TEST_PORTS_SET_BY"


def worker_port_ranges(worker: str, count: int) -> tuple[str, str]:
    """(PORT_RANGE for Paddle, the lab's range) of xdist worker `worker` ("gw3"; "" without xdist)."""
    index = int(worker[2:]) if worker.startswith("gw") else 0
    size = (PORTS_END - PORTS_FIRST) // max(count, 1)
    first = PORTS_FIRST + index * size
    split = first + size * 3 // 4
    return f"{first}:{split - 1}", f"{split}:{first + size - 1}"


def pytest_configure(config):
    """Runs in every xdist worker before any test; launches inherit os.environ."""
    # The parallel suite's scheduler uses xdist's hooks: pytest stops at collection on a plugin
    # whose hooks it does not know, so it is registered only where xdist is loaded.
    if config.pluginmanager.has_plugin("xdist") and not config.pluginmanager.has_plugin("suite_schedule"):
        import suite_schedule

        config.pluginmanager.register(suite_schedule, "suite_schedule")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if "PORT_RANGE" in os.environ and _PORTS_SET_BY not in os.environ:
        return  # the caller's own choice
    # xdist's workers inherit what the controller set here: each one sets its own slice again
    os.environ["PORT_RANGE"], os.environ[PORTS_VAR] = worker_port_ranges(worker, count)
    os.environ[_PORTS_SET_BY] = worker or "pytest"


@pytest.fixture
def run_cli():
    """Run the console script in a subprocess, as a user would."""
    import subprocess

    def run(*args, stdin: bytes | None = None, timeout: float = 60):
        cmd = [sys.executable, "-m", "paddle_doctor.cli.main", *map(str, args)]
        return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})

    return run


# Which tests share one xdist worker (`make test`: -n 4 --dist loadgroup; tests/suite_schedule.py
# schedules by the `xdist_group` marker, put here on each file's tests). The watchdog tests time a 10 s (3 s) deadline against a 15 s bound: each file's launches run one at a time (the
# two files side by side: under a load average of 15, with no grouping at all, the slowest
# survivor was gone 10.02 s after its fault). A module- or session-scoped fixture runs once per
# worker that takes one of its tests: the evaluate modules' launches and one-process references,
# and the checkpoints tests/unit/ckpt/ writes with paddle.save, are made once in a group (spread
# over four workers, edges' launch ran four times). A key ending in "/" groups a folder.
XDIST_GROUPS = {
    "tests/integration/test_guards_faults.py": "guards_faults",
    "tests/integration/test_guards_first_sample.py": "guards_first_sample",
    "tests/integration/test_guards_two_nodes.py": "guards_first_sample",
    "tests/integration/test_evaluate_parity.py": "evaluate_parity",
    "tests/integration/test_evaluate_suites.py": "evaluate_suites",
    "tests/integration/test_evaluate_edges.py": "evaluate_edges",
    "tests/unit/ckpt/": "ckpt_unit",
    # Real hosts (network namespaces, issue 31): one harness at a time, and the module that checks
    # that nothing is left behind runs after the others, on the same worker.
    "tests/integration/hosts/": "hosts",
}


def group_of_path(path: str) -> str | None:
    """The XDIST_GROUPS group of a test file ("tests/unit/ckpt/test_x.py"), or None."""
    if path in XDIST_GROUPS:
        return XDIST_GROUPS[path]
    return next((group for key, group in XDIST_GROUPS.items() if key.endswith("/") and path.startswith(key)), None)


HAS_PADDLE = importlib.util.find_spec("paddle") is not None
NO_PADDLE = pytest.mark.skip(reason="paddlepaddle is not installed (pip install -e '.[test]')")


def pytest_collection_modifyitems(items):
    for item in items:
        if not HAS_PADDLE and item.get_closest_marker("needs_paddle") is not None:
            item.add_marker(NO_PADDLE)
        group = group_of_path(item.nodeid.split("::", 1)[0])
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
