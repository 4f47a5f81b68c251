"""The house's directions of dependence, and every cause id the code names, checked with ``ast``.

- ``cli/`` is the top: nothing else imports it;
- ``catalog/``, ``findings.py`` and ``contract.py`` are leaves: they import nothing of ours
  (``catalog/`` may import itself);
- only ``runtime/`` imports paddle (so diagnose, lint, env, ckpt and render work without it);
- ``runtime/`` imports neither ``cli/``, ``render/`` nor ``lab/``;
- every cause id written in the code (``cause=``/``category=`` arguments, ``default_cause`` and
  ``cause`` class attributes, ``"cause"``/``"category"`` dict values, the values of tables named
  ``*CAUSES*`` and ``GUARD_KINDS``, diagnose's signatures' cause argument) exists in the catalog,
  and every guard kind a guard reports is declared in ``contract.GUARD_KINDS``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from paddle_doctor.catalog import cause_ids
from paddle_doctor.contract import GUARD_KINDS

PKG = Path(__file__).resolve().parents[2] / "src" / "paddle_doctor"
CAUSE_NAMES = ("cause", "category", "default_cause")
SIGNATURE_MAKERS = ("Signature", "_sig")


def _is_cause_table(name: str) -> bool:
    return "CAUSES" in name or name == "GUARD_KINDS"


def _called(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")


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
    leaves = ("paddle_doctor.catalog", "paddle_doctor.findings", "paddle_doctor.contract")

    def forbidden(m, dep):
        own = "paddle_doctor.catalog" if _in(m, "paddle_doctor.catalog") else m
        return _in(dep, "paddle_doctor") and not _in(dep, own) and dep != "paddle_doctor"

    assert breaches(graph, lambda m: any(_in(m, leaf) for leaf in leaves), forbidden) == []


def test_only_the_runtime_imports_paddle(graph):
    assert breaches(graph, lambda m: not _in(m, "paddle_doctor.runtime"),
                    lambda m, dep: _in(dep, "paddle")) == []


def test_the_runtime_imports_neither_cli_render_nor_lab(graph):
    banned = ("paddle_doctor.cli", "paddle_doctor.render", "paddle_doctor.lab")
    assert breaches(graph, lambda m: _in(m, "paddle_doctor.runtime"),
                    lambda m, dep: any(_in(dep, b) for b in banned)) == []


def cause_literals() -> list[tuple[str, int, str]]:
    """(module, line, id) of every string the code hands over as a cause id."""
    found = []
    for name, tree in modules().items():
        for node in ast.walk(tree):
            for value in _cause_values(node):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.append((name, value.lineno, value.value))
    return found


def _cause_values(node: ast.AST):
    if isinstance(node, ast.keyword) and node.arg in CAUSE_NAMES:
        yield node.value
    elif isinstance(node, ast.Call) and _called(node) in SIGNATURE_MAKERS and len(node.args) > 3:
        yield node.args[3]  # Signature(name, pattern, role, cause, ...)
    elif isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if any(n in CAUSE_NAMES for n in names):
            yield node.value
        if any(_is_cause_table(n) for n in names) and isinstance(node.value, ast.Dict):
            for value in node.value.values:
                yield value.elts[0] if isinstance(value, ast.Tuple) and value.elts else value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and key.value in CAUSE_NAMES:
                yield value


def test_the_scan_finds_the_ids_it_must_find():
    ids = {(m, i) for m, _, i in cause_literals()}
    assert ("paddle_doctor.errors", "eval_samples_dropped") in ids  # default_cause = "..."
    assert ("paddle_doctor.contract", "host_oom_killed") in ids  # GUARD_KINDS
    assert ("paddle_doctor.diagnose.rootcause", "shm_too_small") in ids  # SIGNAL_CAUSES
    assert ("paddle_doctor.diagnose.signatures", "gpu_oom") in ids  # _sig(..., cause)
    assert len(ids) > 20


def test_every_cause_id_in_the_code_is_in_the_catalog():
    known = set(cause_ids())
    unknown = [f"{m}:{line}: {cid!r}" for m, line, cid in cause_literals() if cid not in known]
    assert unknown == []


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
