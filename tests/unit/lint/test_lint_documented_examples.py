"""Every rule's documented examples (``explain PDLxxx``, docs/lint.md) run through the linter as a
user would run them: the "Wrong" example alone in a file reports its rule, the "Right" one nothing.

Before issue 32 the Wrong examples of PDL402, PDL403, PDL404 (and most others: they named no
import, so the prefilter skipped them) reported nothing, and PDL900's did not when the file did not
mention paddle.
"""

from __future__ import annotations

import pytest

from paddle_doctor.lint import LintConfig, lint_paths
from paddle_doctor.lint.rules import ALL_RULES


def _lint(tmp_path, source: str, code: str) -> list[str]:
    path = tmp_path / "example.py"
    path.write_text(source + "\n", encoding="utf-8")
    result = lint_paths([str(path)], LintConfig().with_cli((code,), ()), cache_dir=None)
    assert result.errors == []
    return [f.code for f in result.findings]


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_wrong_example_reports_its_rule(rule, tmp_path):
    assert rule.code in _lint(tmp_path, rule.wrong, rule.code)


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_right_example_is_silent(rule, tmp_path):
    assert _lint(tmp_path, rule.right, rule.code) == []


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.code)
def test_examples_are_silent_under_every_other_rule(rule, tmp_path):
    """A Wrong example shows one bug: no other default rule fires on it."""
    codes = _lint(tmp_path, rule.wrong, "ALL")
    assert set(codes) <= {rule.code}, codes


def test_a_syntax_error_is_pdl900_whether_or_not_the_file_mentions_paddle(tmp_path):
    for name, text in (("plain.py", "def f(:\n    pass\n"), ("uses.py", "import paddle\ndef f(:\n    pass\n")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = lint_paths([str(path)], cache_dir=None)
        assert [f.code for f in result.findings] == ["PDL900"], name
        assert result.skipped and "syntax error at line" in result.skipped[0]
