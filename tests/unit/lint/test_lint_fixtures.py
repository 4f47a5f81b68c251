"""Golden fixtures, TorchFix style: ``checker/X.py`` + ``X.txt`` (``line:col CODE`` per finding, sorted)
and ``codemod/X.in.py`` + ``X.out.py`` (the file after ``--fix --unsafe-fixes``).

Regenerate an expected file after a deliberate change (then read the diff!):
    .venv/bin/python -c "import sys; from tests.unit.lint.test_lint_fixtures import expected; print(expected(sys.argv[1]), end='')" F.py > F.txt
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from paddle_doctor.lint import RULES, lint_paths, lint_text

FIXTURES = Path(__file__).parent / "fixtures"
CHECKERS = sorted((FIXTURES / "checker").glob("*.py"))
CODEMODS = sorted((FIXTURES / "codemod").glob("*.in.py"))


def expected(path) -> str:
    findings, skipped, error, _ = lint_text(Path(path).read_text(encoding="utf-8"), str(path))
    assert skipped is None and error is None, (skipped, error)
    return "".join(f"{f.location.line}:{f.location.column} {f.code}\n" for f in findings)


@pytest.mark.parametrize("source", CHECKERS, ids=lambda p: p.stem)
def test_checker_fixture(source: Path):
    want = source.with_suffix(".txt").read_text(encoding="utf-8")
    assert expected(source) == want


@pytest.mark.parametrize("source", CODEMODS, ids=lambda p: p.name)
def test_codemod_fixture(source: Path, tmp_path):
    work = tmp_path / "case.py"
    shutil.copy(source, work)
    result = lint_paths([str(work)], fix=True, unsafe_fixes=True)
    assert result.errors == [] and result.fixed > 0
    assert work.read_text(encoding="utf-8") == Path(str(source).replace(".in.py", ".out.py")).read_text(encoding="utf-8")


def test_every_rule_has_a_positive_and_a_negative_fixture():
    names = {p.stem for p in CHECKERS}
    for rule in RULES:
        if rule.code.startswith("PDL9"):
            continue  # the linter's own codes: test_lint_robust
        code = rule.code.lower()
        assert f"{code}_positive" in names and f"{code}_negative" in names, rule.code
        assert rule.code in (FIXTURES / "checker" / f"{code}_positive.txt").read_text(), rule.code


def test_positive_fixtures_only_report_their_own_rule():
    for source in CHECKERS:
        match = re.match(r"(pdl\d{3})_(positive|negative)$", source.stem)
        if match:
            codes = set(re.findall(r"PDL\d{3}", source.with_suffix(".txt").read_text()))
            assert codes <= {match.group(1).upper()}, (source.name, codes)


def test_fixable_rules_have_a_codemod_fixture():
    covered = {re.match(r"(pdl\d{3})", p.name).group(1).upper() for p in CODEMODS}
    assert covered == {r.code for r in RULES if r.fixable is not None}
