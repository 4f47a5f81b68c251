"""The suite's parallel workers: the ports they give their launches (disjoint slices, below the
kernel's ephemeral range, Paddle's and the lab's apart, the lab's picker keeps to its slice) and
which tests share a worker."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from conftest import PORTS_END, PORTS_FIRST, XDIST_GROUPS, group_of_path, worker_port_ranges

from paddle_doctor.process.ports import PORTS_VAR, free_ports

REPO = Path(__file__).resolve().parents[2]


def _span(text: str) -> range:
    first, last = (int(x) for x in text.split(":"))
    return range(first, last + 1)


def test_every_worker_has_its_own_ports_below_the_ephemeral_range():
    count = 8
    spans = [_span(r) for w in range(count) for r in worker_port_ranges(f"gw{w}", count)]
    taken = [p for s in spans for p in s]
    assert len(taken) == len(set(taken)), "two slices overlap"
    assert min(taken) >= PORTS_FIRST and max(taken) < PORTS_END <= 32768
    assert worker_port_ranges("", 1) == worker_port_ranges("gw0", 1)


def test_this_process_got_its_slice():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if os.environ.get("PDOC_TEST_PORTS_SET_BY"):
        assert (os.environ["PORT_RANGE"], os.environ[PORTS_VAR]) == worker_port_ranges(worker, count)


def test_the_lab_picks_distinct_free_ports_in_its_range_only(monkeypatch):
    with socket.socket() as held:
        held.bind(("", 0))
        busy = held.getsockname()[1]
        monkeypatch.setenv(PORTS_VAR, f"{busy}:{busy + 3}")
        ports = free_ports(3)
    assert len(set(ports)) == 3 and set(ports) <= set(range(busy + 1, busy + 4))


def test_the_lab_says_when_its_range_is_full(monkeypatch):
    with socket.socket() as held:
        held.bind(("", 0))
        busy = held.getsockname()[1]
        monkeypatch.setenv(PORTS_VAR, f"{busy}:{busy}")
        try:
            free_ports(1)
        except OSError as exc:
            assert PORTS_VAR in str(exc)
        else:
            raise AssertionError("a busy range gave a port")


def test_grouped_files_share_a_worker_and_other_launches_spread_out():
    faults = "tests/integration/test_guards_faults.py"
    assert group_of_path(faults) == "guards_faults"
    assert group_of_path("tests/integration/test_triage.py") is None  # its launches spread out
    ckpt = ("tests/unit/ckpt/test_ckpt_cli.py", "tests/unit/ckpt/test_ckpt_formats.py")
    assert group_of_path(ckpt[0]) == group_of_path(ckpt[1]) == "ckpt_unit"  # the session's checkpoints: made once
    for path in XDIST_GROUPS:  # a renamed file or folder must not silently leave its group
        assert (REPO / path).is_dir() if path.endswith("/") else (REPO / path).is_file(), path
