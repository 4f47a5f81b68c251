"""docs/architecture.md names what it maps: every runtime room of the floors test_structure holds,
every room of diagnose, every registry links.py reads, and every environment variable contract.py
owns (issue 33)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from test_structure import RUNTIME_FLOORS

from paddle_doctor import contract

REPO = Path(__file__).resolve().parents[2]
PKG = REPO / "src" / "paddle_doctor"
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_variable_of_the_contract_has_an_owner_on_the_page():
    names = [value for key, value in vars(contract).items() if re.fullmatch(r"[A-Z_]+_(ENV|VAR)", key)]
    assert len(names) >= 15
    assert [name for name in names if f"`{name}`" not in DOC] == []


def floor_items() -> dict[int, str]:
    """The numbered list of floors: number -> the item's text (its continuation lines included)."""
    items: dict[int, str] = {}
    current = None
    for line in DOC.split("## The registries")[0].splitlines():
        start = re.match(r"(\d+)\. ", line)
        if start:
            current = int(start[1])
            items[current] = line
        elif current is not None and line.startswith("   "):
            items[current] += " " + line.strip()
        else:
            current = None
    return items


def test_every_runtime_room_is_on_its_floor():
    items = floor_items()
    assert sorted(items) == list(range(1, len(RUNTIME_FLOORS) + 1))
    for floor, rooms in enumerate(RUNTIME_FLOORS, 1):
        for room in rooms:
            name = f"runtime/{room}.py" if room == "smoke_worker" else f"runtime/{room}/"
            assert f"`{name}`" in items[floor], (floor, room, items[floor])


def test_rules_md_points_at_the_page():
    rules = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "README, \"House rules\"" not in rules and "(architecture.md" in rules


def test_every_room_of_diagnose_is_on_the_page():
    rooms = sorted(p.parent.name for p in (PKG / "diagnose").glob("*/__init__.py"))
    assert len(rooms) >= 5
    assert [room for room in rooms if f"`diagnose/{room}/`" not in DOC] == []


def test_every_registry_links_reads_is_on_the_page():
    """The names ``links.registries()`` imports its registries by (``from .lint.rules import RULES``
    is ``lint.rules.RULES`` on the page)."""
    tree = ast.parse((PKG / "links.py").read_text(encoding="utf-8"))
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "registries")
    names = [f"{node.module}.{alias.name}" for node in ast.walk(function) if isinstance(node, ast.ImportFrom)
             for alias in node.names]
    assert len(names) >= 6
    assert [name for name in names if f"`{name}`" not in DOC] == []
