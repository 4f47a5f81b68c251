"""The host harness as fixtures, imported by each host test module (a second ``conftest.py`` under
tests/ would shadow the root one for every ``from conftest import ...``): ``make_hosts(n)`` gives
real hosts (network namespaces) that are torn down when the test ends, whatever happened; the
modules skip, with one line, where namespaces cannot be made (not root, or ``ip netns add``
refused)."""

from __future__ import annotations

import os

import pytest

from hostkit import netns, record

_WHY_NOT = netns.unavailable()
# Each host test module's mark: skipped with the reason where no namespace can be made.
NEEDS_NETNS = pytest.mark.skipif(_WHY_NOT is not None, reason=_WHY_NOT or "")


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
def record_scenario(request, tmp_path):
    """``hostkit/record.py`` sets PDOC_HOSTS_RECORD: each scenario's outputs become fixtures."""
    yield
    if os.environ.get(record.RECORD_VAR):
        record.copy_hosts(tmp_path, request.node.name)
