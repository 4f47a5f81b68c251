"""The house's directions of dependence, and every cause id the code names, checked with ``ast``.

- ``cli/`` is the top: nothing else imports it;
- ``catalog/``, ``findings.py``, ``contract.py`` and ``rules.py`` are leaves: they import nothing of
  ours (``catalog/`` may import itself; ``contract.py``, ``rules.py`` and ``errors`` may import
  ``catalog/``; ``contract.py`` may import the rule protocol of ``rules.py``);
- only ``runtime/`` imports paddle (so diagnose, lint, env, ckpt and render work without it);
- ``runtime/`` imports neither ``cli/``, ``render/`` nor ``lab/``; inside it no floor imports a
  higher one (``RUNTIME_FLOORS``), and outside it only the package root and ``cli/ckpt.py`` import it;
- callers inside the package import the defining module, not a lazy facade (a package whose
  ``__getattr__`` serves names on first use: those tables are for users);
- every cause id written in the code (``cause=``/``category=`` arguments, ``default_cause`` and
  ``cause`` class attributes, ``"cause"``/``"category"`` dict values, the values of tables named
  ``*CAUSES*`` and ``GUARD_KINDS``, diagnose's signatures' cause argument) exists in the catalog,
  and every guard kind a guard reports is declared in ``contract.GUARD_KINDS``.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

from paddle_doctor.catalog import cause_ids
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.contract import GUARD_KINDS

PKG = Path(__file__).resolve().parents[2] / "src" / "paddle_doctor"
CAUSE_NAMES = ("cause", "category", "default_cause")


def _is_cause_table(name: str) -> bool:
    return "CAUSES" in name or name == "GUARD_KINDS"


def _called(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


@functools.cache  # parsed once for this file's tests (~1.3 s each time); they only read the trees
def modules() -> dict[str, ast.Module]:
    """Dotted module name -> parsed source, for every module of the package."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return out


def imported(name: str, tree: ast.Module, is_package: bool) -> set[str]:
    """Every module ``name`` imports, anywhere in its body (absolute names; relative ones resolved)."""
    base = name.split(".") if is_package else name.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                root = base[: len(base) - node.level + 1]
                module = ".".join(root + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    trees = modules()
    packages = {p.parent.relative_to(PKG.parent).as_posix().replace("/", ".") for p in PKG.rglob("__init__.py")}
    return {name: imported(name, tree, name in packages) for name, tree in trees.items()}


def _in(name: str, area: str) -> bool:
    return name == area or name.startswith(area + ".")


def breaches(graph, where, forbidden) -> list[str]:
    return sorted(f"{m} imports {dep}" for m, deps in graph.items() if where(m)
                  for dep in deps if forbidden(m, dep))


def test_nothing_but_cli_imports_cli(graph):
    assert breaches(graph, lambda m: not _in(m, "paddle_doctor.cli"),
                    lambda m, dep: _in(dep, "paddle_doctor.cli")) == []


def test_the_catalog_the_record_and_the_contract_are_leaves(graph):
    leaves = ("paddle_doctor.catalog", "paddle_doctor.findings", "paddle_doctor.contract", "paddle_doctor.rules")

    def forbidden(m, dep):
        own = "paddle_doctor.catalog" if _in(m, "paddle_doctor.catalog") else m
        if _in(dep, "paddle_doctor.catalog") and not _in(m, "paddle_doctor.findings"):
            return False  # the catalog is a leaf everything may use (contract's tables name CauseIds)
        if _in(dep, "paddle_doctor.rules") and _in(m, "paddle_doctor.contract"):
            return False  # the rule protocol, a leaf itself: the guard kinds are declared in its shape
        return _in(dep, "paddle_doctor") and not _in(dep, own) and dep != "paddle_doctor"

    assert breaches(graph, lambda m: any(_in(m, leaf) for leaf in leaves), forbidden) == []


def test_only_the_runtime_imports_paddle(graph):
    assert breaches(graph, lambda m: not _in(m, "paddle_doctor.runtime"),
                    lambda m, dep: _in(dep, "paddle")) == []


def test_the_runtime_imports_neither_cli_render_nor_lab(graph):
    banned = ("paddle_doctor.cli", "paddle_doctor.render", "paddle_doctor.lab")
    assert breaches(graph, lambda m: _in(m, "paddle_doctor.runtime"),
                    lambda m, dep: any(_in(dep, b) for b in banned)) == []


# runtime/ is the code inside the user's Paddle processes, in floors (docs/architecture.md): a room
# imports rooms of its own floor or below, never above. Lowest first.
RUNTIME_FLOORS = (
    ("channel",),  # the ground: the store client with a deadline on every call, this rank's identity
    ("guards",),  # heartbeats, watchdog, records, trace, pre-flight
    ("evaluate", "checkpoint", "metrics"),  # the library's calls, guarded
    ("launch", "suites", "smoke_worker"),  # what installs the guards in a worker, recipes, smoke's worker
)


def runtime_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["paddle_doctor", "runtime"] and len(parts) > 2 else None


def floor_of(room: str) -> int:
    return next(k for k, rooms in enumerate(RUNTIME_FLOORS) if room in rooms)


def test_every_runtime_room_has_a_floor(graph):
    rooms = {runtime_room(m) for m in graph} - {None}
    assert sorted(room for room in rooms if not any(room in floor for floor in RUNTIME_FLOORS)) == []


def test_inside_the_runtime_no_floor_imports_a_higher_one(graph):
    def upward(m, dep):
        here, there = runtime_room(m), runtime_room(dep)
        return there is not None and there != here and floor_of(there) > floor_of(here)

    assert breaches(graph, lambda m: runtime_room(m) is not None, upward) == []


def test_outside_the_runtime_only_the_public_surface_and_the_model_spec_check_import_it(graph):
    """``paddle-doctor run``, ``triage`` and ``smoke`` run in our own process (``process/``) and
    reach the workers through variables named in ``contract.py``; ``ckpt check --model`` builds the
    user's model, which needs Paddle; the package root re-exports the runtime's API lazily."""
    allowed = ("paddle_doctor", "paddle_doctor.cli.ckpt")
    assert breaches(graph, lambda m: not _in(m, "paddle_doctor.runtime") and m not in allowed,
                    lambda m, dep: _in(dep, "paddle_doctor.runtime")) == []


def _serves_lazily(tree: ast.Module) -> bool:
    """A facade: its module-level ``__getattr__`` (PEP 562) loads names on first use."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            return True
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "__getattr__" for t in targets):
            return True
    return False


def _bound_at_top(tree: ast.Module) -> set[str]:
    """The names a module binds itself (imports, definitions, assignments): not served lazily."""
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return out


def through_facades(trees: dict[str, ast.Module], packages: set[str]) -> list[str]:
    """``module:line imports facade.name`` for every ``from <facade> import <name>`` whose name the
    facade serves through its ``__getattr__`` (neither bound there nor a submodule)."""
    facades = {p: _bound_at_top(trees[p]) for p in packages if p in trees and _serves_lazily(trees[p])}
    found = []
    for name, tree in trees.items():
        base = name.split(".") if name in packages else name.split(".")[:-1]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module
            if module not in facades or module == name:
                continue
            found += [f"{name}:{node.lineno} imports {module}.{alias.name}" for alias in node.names
                      if alias.name not in facades[module] and f"{module}.{alias.name}" not in trees]
    return found


def test_callers_inside_the_package_import_the_defining_module_not_a_facade():
    """The lazy ``__getattr__`` tables (the package root, ``diagnose``, ``lint``, ``envcheck``,
    ``smoke``, ``runtime.metrics``) are for users; inside the package a caller names the module
    that defines what it uses, so a reader (and a type checker) finds it in one step."""
    trees = modules()
    packages = {p.parent.relative_to(PKG.parent).as_posix().replace("/", ".") for p in PKG.rglob("__init__.py")}
    assert sum(_serves_lazily(trees[p]) for p in packages) >= 5  # the scan sees the facades
    assert through_facades(trees, packages) == []


def test_the_facade_scan_finds_a_planted_import():
    facade = ast.parse('from ..lazy import lazy_exports\nX = 1\n__getattr__ = lazy_exports(__name__, {"f": ".m"})\n')
    trees = {"pkg.room": facade, "pkg.room.m": ast.parse("def f(): pass\n"),
             "pkg.user": ast.parse("from .room import f\nfrom .room import X, m\nfrom .room.m import f\n")}
    assert through_facades(trees, {"pkg", "pkg.room"}) == ["pkg.user:1 imports pkg.room.f"]


def cause_literals() -> list[tuple[str, int, str]]:
    """(module, line, id) of every string outside ``catalog/`` that spells a cause id.

    "unknown" is also an ordinary status word, so it counts only where the code hands it over as a
    cause (``cause=``/``category=`` arguments, ``default_cause`` attributes, ``"cause"`` dict values)."""
    known = set(cause_ids())
    found = []
    for name, tree in modules().items():
        if _in(name, "paddle_doctor.catalog"):
            continue
        as_cause = {id(v) for node in ast.walk(tree) for v in _cause_values(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
                if node.value != "unknown" or id(node) in as_cause:
                    found.append((name, node.lineno, node.value))
    return found


def _cause_values(node: ast.AST):
    if isinstance(node, ast.keyword) and node.arg in CAUSE_NAMES:
        yield node.value
    elif isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id in CAUSE_NAMES for t in targets):
            yield node.value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and key.value in CAUSE_NAMES:
                yield value


def cause_members_used() -> list[tuple[str, int, str]]:
    """(module, line, name) of every ``CauseId.<name>`` the code writes."""
    return [(name, node.lineno, node.attr) for name, tree in modules().items() for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "CauseId"]


def test_no_cause_id_is_written_as_a_string_outside_the_catalog():
    assert [f"{m}:{line}: {cid!r}" for m, line, cid in cause_literals()] == []


def test_the_scan_finds_a_planted_string_id(monkeypatch):
    planted = ast.parse('x = "gpu_oom"\nFinding(cause="unknown")\nstatus = "unknown"\n')
    monkeypatch.setattr(sys.modules[__name__], "modules", lambda: {"paddle_doctor.planted": planted})
    assert cause_literals() == [("paddle_doctor.planted", 1, "gpu_oom"), ("paddle_doctor.planted", 2, "unknown")]


def test_every_cause_member_the_code_names_exists():
    used = cause_members_used()
    assert len({n for _, _, n in used}) > 30  # the scan sees the code's uses
    members = {m.name for m in CauseId}
    assert [f"{m}:{line}: CauseId.{n}" for m, line, n in used if n not in members] == []


def test_every_guard_kind_points_at_a_catalog_cause():
    assert {k: v for k, v in GUARD_KINDS.items() if v not in set(cause_ids())} == {}


def test_every_guard_kind_reported_is_declared():
    kinds = []
    for name, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called(node) == "guard_finding" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    kinds.append((name, first.lineno, first.value))
    assert len(kinds) >= 8
    assert [k for k in kinds if k[2] not in GUARD_KINDS] == []


def test_tests_reach_their_helpers_as_packages():
    """The test helpers (tests/integration/workers, tests/integration/guards) are packages on
    pytest's ``pythonpath``; no test file edits sys.path to reach them."""
    tests = PKG.parents[1] / "tests"
    editing = [str(p.relative_to(tests)) for p in tests.rglob("*.py")
               if "sys.path.insert" in p.read_text(encoding="utf-8") and p.name != "test_structure.py"]
    assert editing == []
