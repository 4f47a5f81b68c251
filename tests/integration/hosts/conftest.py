"""The host harness as fixtures: ``make_hosts(n)`` gives real hosts (network namespaces) that are
torn down when the test ends, whatever happened; the whole folder skips, with one line, where
namespaces cannot be made (not root, or ``ip netns add`` refused)."""

from __future__ import annotations

import os

import pytest

from hostkit import netns, record

_WHY_NOT = netns.unavailable()


def pytest_collection_modifyitems(config, items):
    if _WHY_NOT is None:
        return
    skip = pytest.mark.skip(reason=_WHY_NOT)
    for item in items:
        if "tests/integration/hosts/" in item.nodeid and "leave_nothing" not in item.nodeid:
            item.add_marker(skip)


@pytest.fixture
def make_hosts(request):
    made = []

    def make(n: int, **kwargs) -> netns.Hosts:
        hosts = netns.Hosts(n, **kwargs)
        request.addfinalizer(hosts.close)  # before __enter__: a half-made harness is undone too
        made.append(hosts)
        return hosts.__enter__()

    yield make
    for hosts in made:
        hosts.close()


@pytest.fixture(autouse=True)
def _record_scenario(request, tmp_path):
    """``hostkit/record.py`` sets PDOC_HOSTS_RECORD: each scenario's outputs become fixtures."""
    yield
    if os.environ.get(record.RECORD_VAR):
        record.copy_hosts(tmp_path, request.node.name)
