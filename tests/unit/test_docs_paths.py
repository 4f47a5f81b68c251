"""The docs name files that exist and README sections that exist (issue 30, "the rest": docs/rules.md
cited a README section that was never there, docs/diagnose.md named ``signatures.py`` after it
became a package; the README's JSON contract example said line 26 where the output says 27)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PATH_RE = re.compile(r"`((?:src|tests|bench|cases|docs|action)/[\w./-]+)`")
PLACEHOLDER = re.compile(r"(^|/)(X|NAME|N)(\.|/|$)")
HEADINGS = [line.lstrip("#").strip() for line in (REPO / "README.md").read_text().splitlines() if line.startswith("#")]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_a_doc_names_exists(doc):
    text = doc.read_text()
    missing = [p for p in (m.group(1).rstrip(".") for m in PATH_RE.finditer(text))
               if "*" not in p and not PLACEHOLDER.search(p) and not (REPO / p).exists()]
    assert not missing, missing


PKG = REPO / "src" / "paddle_doctor"
# ``anatomy/parts.py``, ``diagnose/signatures/model.py``: a module of ours named from a room down
MODULE_RE = re.compile(r"`([\w./-]+/[\w.-]+\.py)`")


def _stale_module_paths(text: str) -> list[str]:
    """The ``room/module.py`` paths a doc names whose module is one of ours (its file name exists in
    the package) but that no file of the package ends with: a module renamed or moved since."""
    ours = [p.relative_to(PKG.parent).as_posix() for p in PKG.rglob("*.py") if "__pycache__" not in p.parts]
    names = {p.rsplit("/", 1)[-1] for p in ours} - {"__init__.py"}
    named = [m.group(1) for m in MODULE_RE.finditer(text) if not PATH_RE.fullmatch(m.group(0))]
    return [p for p in named if p.rsplit("/", 1)[-1] in names
            and not any(f == p or f.endswith("/" + p) for f in ours)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_module_a_doc_names_from_its_room_exists(doc):
    assert _stale_module_paths(doc.read_text()) == []


def test_a_renamed_module_is_caught():
    """The names docs/diagnose.md and docs/rules.md used before issue 33 renamed them."""
    old = "`errors/parts.py`, `diagnose/signatures/sources.py`, `anatomy/parts.py`, `distributed/parallel.py`"
    assert _stale_module_paths(old) == ["errors/parts.py", "diagnose/signatures/sources.py"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_readme_section_a_doc_cites_exists(doc):
    cited = re.findall(r'\(README, "([^"]+)"\)', doc.read_text())
    assert all(any(name in h for h in HEADINGS) for name in cited), cited


def test_the_json_contract_example_has_the_line_the_output_has():
    readme = (REPO / "README.md").read_text()
    shown = int(re.search(r'"evidence": \[\{"file": "log/workerlog.1", "line": (\d+), "text": "ValueError', readme)[1])
    case = REPO / "tests" / "fixtures" / "cases" / "01_exception_rank1"
    evidence = diagnose_paths([str(case / "log")]).root_cause.evidence
    assert shown == next(e.line for e in evidence if e.text.startswith("ValueError"))
