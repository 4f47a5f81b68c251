"""How `make test` spreads the suite over pytest-xdist's workers (``-n 4 --dist loadgroup``).

A pytest plugin that tests/conftest.py registers only where pytest-xdist is loaded: its hooks are
xdist's, and pytest refuses a plugin whose hooks it does not know.

- Which tests share a worker: the ``xdist_group`` marker (xdist's own; tests/conftest.py puts it
  on whole files through ``XDIST_GROUPS``). A module- or session-scoped fixture runs once per
  worker that takes one of its tests, so a group's launches and references are made once.
- What starts first: the groups (the longest units), then the tests marked ``slow_first`` (30-60 s
  each: gloo's fixed 30 s timeout, or triage's three launches in a row), so that none of them is
  left to run alone at the end; then the rest in collection order.

Why a scheduler of our own: pytest-xdist 3.8 marks a test's group by rewriting ``item._nodeid``,
which pytest 9 no longer reads, so its ``loadgroup`` loses every group. The controller sees only
node ids, not markers: each worker orders its items (the order the controller queues the units
in) and writes which group each test is in to a file the controller named for it
(``pytest_configure_node``, ``workerinput``: xdist's public hooks); the scheduler reads it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

GROUPS_DIR_KEY = "paddle_doctor_groups_dir"


def group_of(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return None
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def start_order(item: pytest.Item) -> int:
    """0: the groups, 1: the tests marked slow_first, 2: the rest."""
    if group_of(item) is not None:
        return 0
    return 1 if item.get_closest_marker("slow_first") is not None else 2


def scope_of(nodeid: str, groups: dict[str, str]) -> str:
    """The unit of work a worker takes: a group, a unit-test module, or one integration test."""
    if nodeid in groups:
        return groups[nodeid]
    path = nodeid.split("::", 1)[0]
    return path if path.startswith("tests/unit/") else nodeid


def _loadgroup(config: pytest.Config) -> bool:
    return config.getvalue("dist") == "loadgroup"


# -- in the controller -------------------------------------------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    if _loadgroup(config) and not hasattr(config, "workerinput"):
        config.option.loadscopereorder = False  # --no-loadscope-reorder: keep the workers' order
        config._paddle_doctor_groups = Path(tempfile.mkdtemp(prefix="pdoc-xdist-groups-"))  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, "_paddle_doctor_groups", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_configure_node(node) -> None:
    folder = getattr(node.config, "_paddle_doctor_groups", None)
    if folder is not None:
        node.workerinput[GROUPS_DIR_KEY] = str(folder)


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    if not _loadgroup(config):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):
        """LoadScopeScheduling whose scopes are scope_of's: the groups the workers wrote."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:  # the subclassing point xdist's own schedulers use
            if self.groups is None:
                self.groups = read_groups(config._paddle_doctor_groups)
            return scope_of(nodeid, self.groups)

    return GroupScheduling(config, log)


def read_groups(folder: Path) -> dict[str, str]:
    """Every worker collects the same tests: any one's file says it all (all are written before
    the controller schedules, which waits for every worker's collection)."""
    for path in sorted(folder.glob("*.json")):
        return json.loads(path.read_text())
    return {}


# -- in each worker ------------------------------------------------------------------------------


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or GROUPS_DIR_KEY not in workerinput:
        return
    items.sort(key=start_order)  # stable: collection order within each rank
    groups = {item.nodeid: group for item in items if (group := group_of(item)) is not None}
    target = Path(workerinput[GROUPS_DIR_KEY]) / f"{workerinput['workerid']}.json"
    partial = target.with_suffix(".tmp")
    partial.write_text(json.dumps(groups))
    os.replace(partial, target)
