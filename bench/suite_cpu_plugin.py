"""pytest plugin for bench/suite_cpu.py: each test's CPU (the worker's own and its reaped children's), one JSON line
per test in $SUITE_CPU_OUT/<pid>.jsonl."""

import json
import os
import resource

import pytest


def _cpu() -> tuple[float, float]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _cpu()
    yield
    after = _cpu()
    with open(os.path.join(os.environ["SUITE_CPU_OUT"], f"{os.getpid()}.jsonl"), "a") as out:
        out.write(json.dumps([item.nodeid, after[0] - before[0], after[1] - before[1]]) + "\n")
