"""The host harness as fixtures: ``make_hosts(n)`` gives real hosts (network namespaces) that are
torn down when the test ends, whatever happened; the whole folder skips, with one line, where
namespaces cannot be made (not root, or ``ip netns add`` refused)."""

from __future__ import annotations

import pytest

from hostkit import netns

_WHY_NOT = netns.unavailable()


def pytest_collection_modifyitems(config, items):
    if _WHY_NOT is None:
        return
    skip = pytest.mark.skip(reason=_WHY_NOT)
    for item in items:
        if "tests/integration/hosts/" in item.nodeid and "leaves_nothing" not in item.nodeid:
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
