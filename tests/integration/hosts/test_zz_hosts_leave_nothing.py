"""After the host tests (this module runs last in the folder, on the same xdist worker: one
group): no namespace, /etc/netns folder or process that the harness made is left."""

from __future__ import annotations

import pytest

from hostkit import netns
from paddle_doctor.process import tree

pytestmark = pytest.mark.integration


def test_the_host_tests_leave_no_namespace_link_or_process_behind():
    if netns.unavailable() is not None:
        pytest.skip(netns.unavailable())
    assert netns.leftovers(netns.MADE_TAGS) == []
    assert [t for t in netns.MADE_PROC_TAGS if tree.tagged_pids(t)] == []
    assert not [n for n in netns.namespaces() if any(n.startswith(netns.PREFIX + t) for t in netns.MADE_TAGS)]
