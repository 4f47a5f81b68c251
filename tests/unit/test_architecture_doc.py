"""docs/architecture.md names what it maps: every runtime room of the floors test_structure holds,
and every environment variable contract.py owns (issue 33)."""

from __future__ import annotations

import re
from pathlib import Path

from test_structure import RUNTIME_FLOORS

from paddle_doctor import contract

REPO = Path(__file__).resolve().parents[2]
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
