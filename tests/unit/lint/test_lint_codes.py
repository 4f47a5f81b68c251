"""The rule table: distinct codes in the documented ranges, every code documented, in SARIF, explained."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from paddle_doctor.catalog import cause_ids
from paddle_doctor.lint.rules import ALL_RULES as RULES, BY_CODE
from paddle_doctor.lint.docs import render_markdown, rule_text
from paddle_doctor.render.sarif import to_sarif

REPO = Path(__file__).resolve().parents[3]
CODE = re.compile(r"^PDL[1-59]\d\d$")  # PDL9xx: the linter's own codes
NAME = re.compile(r"^[a-z]+(-[a-z0-9]+)+$")


def test_codes_are_distinct_and_in_range():
    codes = [rule.code for rule in RULES]
    assert len(codes) == len(set(codes)) == len(BY_CODE)
    assert all(CODE.match(code) for code in codes), codes
    assert codes == sorted(codes)


def test_names_are_distinct_kebab_symbols():
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert all(NAME.match(name) for name in names), names


def test_every_rule_points_to_a_catalog_cause():
    assert {rule.cause for rule in RULES} <= set(cause_ids())


def test_examples_are_python_and_summaries_one_line():
    import ast
    for rule in RULES:
        if not rule.code.startswith("PDL9"):  # PDL900's wrong example is a file that does not parse
            ast.parse(rule.wrong)
        ast.parse(rule.right)
        assert "\n" not in rule.summary and rule.summary.endswith(".")


def test_docs_lint_md_is_in_step():
    doc = REPO / "docs" / "lint.md"
    assert doc.read_text(encoding="utf-8") == render_markdown(), (
        "docs/lint.md is stale: run `python -m paddle_doctor.lint.docs > docs/lint.md`")


def test_every_code_is_documented_with_its_examples():
    md = render_markdown()
    for rule in RULES:
        assert f"\n## {rule.code} {rule.name}\n" in md
        assert rule.wrong in md and rule.right in md
        assert rule.url.endswith(f"#{rule.code.lower()}-{rule.name}")


def test_every_code_is_in_the_sarif_rule_list():
    sarif = to_sarif([], RULES, version="0")
    driver = sarif["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [rule.code for rule in RULES]
    for entry in driver["rules"]:
        assert entry["shortDescription"]["text"] and entry["helpUri"] and entry["name"]


def test_explain_shows_a_rule_with_both_examples():
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "explain", "pdl401"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rule = BY_CODE["PDL401"]
    assert proc.stdout == rule_text(rule)
    assert "Wrong\n" in proc.stdout and "Right\n" in proc.stdout and rule.cause in proc.stdout


def test_explain_unknown_rule_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "explain", "PDL999"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "PDL999" in proc.stderr


def test_findings_carry_the_rules_cause_and_one_line_fix():
    from paddle_doctor.lint import lint_text
    source = "import paddle.distributed as dist\nif dist.get_rank() == 0:\n    dist.barrier()\n"
    (finding,) = lint_text(source)[0]
    rule = BY_CODE[finding.code]
    assert finding.cause == rule.cause and finding.fix == rule.fix and "\n" not in rule.fix
    assert all(r.fix for r in RULES)
