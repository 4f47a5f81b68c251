"""diagnose's reasoning rules (``diagnose/rules/``, ``diagnose/refine/``): every verdict the chain or
a refiner returns is declared once (code, cause, message, docs, check), each declared example log
is decided by its own rule, every verdict on every recorded log is traced to a declared rule, and
``explain`` shows each rule."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from conftest import CORPUS
from paddle_doctor.contract import GUARD_KINDS
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.records import RECORD_CODES
from paddle_doctor.diagnose.refine import REFINERS
from paddle_doctor.diagnose.rules import BY_CODE, CHAIN, RULES, rule_of
from paddle_doctor.diagnose.verdict import by_structure

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
CORPUS_ROOT = CORPUS.parent


def _example_path(example: str) -> Path | None:
    if example.startswith(("tests/fixtures/", "tests/built/")):
        return REPO / example
    if example.startswith("corpus:"):
        return CORPUS_ROOT / f"{example.split(':', 1)[1]}.log"
    return None


def test_the_chain_and_the_declarations_agree():
    """Each function of the chain declares what it returns, and each declared check is a rule of the
    chain, a refiner, or the structure reading they share."""
    checks = {rule.check for rule in RULES}
    assert set(CHAIN) <= checks
    assert checks <= {*CHAIN, *(r.check for r in REFINERS), by_structure}
    assert len(BY_CODE) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_each_rule_names_its_check_and_each_code_is_in_its_source(rule):
    module, name = rule.docs.source.split(":")
    assert rule.check.__module__ == module and rule.check.__qualname__ == name
    if rule.defers_to:  # its code is the signature's, the table part's: not written in the check
        return
    assert f'"{rule.code}"' in inspect.getsource(rule.check) or rule.code in inspect.getsource(
        inspect.getmodule(rule.check)), rule.code


EXAMPLES = [r for r in RULES if _example_path(r.docs.example) is not None]


def test_most_rules_show_a_real_log():
    assert len(EXAMPLES) >= 0.6 * len(RULES), [r.code for r in RULES if r not in EXAMPLES]


@pytest.mark.parametrize("rule", EXAMPLES, ids=lambda r: r.code)
def test_each_example_log_is_decided_by_its_rule(rule):
    path = _example_path(rule.docs.example)
    if rule.docs.example.startswith("corpus:") and not CORPUS_ROOT.is_dir():
        pytest.skip("shared corpus not present")
    root = diagnose_paths([str(path)]).root_cause
    assert rule_of(root) is rule, (rule.code, root and root.code)


RECORDED = sorted({p for p in FIXTURES.rglob("*") if p.is_file()} | {p.parent for p in FIXTURES.rglob("*")
                                                                     if p.is_file()})


# The codes a verdict taken from paddle-doctor's own error records carries (diagnose/records.py).
RECORD_VERDICTS = frozenset(GUARD_KINDS) | set(RECORD_CODES)


def test_every_verdict_on_a_recorded_log_comes_from_a_declared_rule():
    """No verdict without a declaration: each recorded fixture (file or folder) and shared corpus log."""
    paths = RECORDED + sorted(CORPUS_ROOT.glob("real-dev*/*.log"))
    found, untraced = set(), []
    for path in paths:
        try:
            root = diagnose_paths([str(path)]).root_cause
        except Exception:  # an unreadable fixture (a binary) is another test's business
            continue
        if root is None or root.code in RECORD_VERDICTS:
            continue  # an error record's verdict: the guard that wrote it is its rule (contract.GUARD_RULES)
        rule = rule_of(root)
        if rule is None:
            untraced.append((path.name, root.code))
        else:
            found.add(rule.code)
    assert untraced == []
    assert len(found) >= 20  # the test must not go vacuous


def _explain(*args: str):
    from click.testing import CliRunner

    from paddle_doctor.cli.main import cli

    return CliRunner().invoke(cli, ["explain", *args])


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_explain_shows_each_rule(rule):
    """``explain CODE`` shows the rule, and ``explain CAUSE`` lists it under each cause it names."""
    shown = _explain(rule.code)
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith(f"{rule.code}: a reasoning rule") and rule.docs.source in shown.output
    for cause in rule.causes:
        assert str(cause) in shown.output
        if str(cause) != "unknown":
            listed = _explain(str(cause)).output
            assert "Diagnose rules: " in listed and rule.code in listed.split("Diagnose rules: ")[1]


def test_explain_suggests_a_rule_for_a_typo():
    shown = _explain("sillent_death")
    assert shown.exit_code == 2 and "Did you mean: silent_death" in shown.output


def test_explain_lists_every_rule_in_chain_order():
    shown = _explain("--rules")
    assert shown.exit_code == 0
    codes = [line.split()[0] for line in shown.output.splitlines()]
    assert codes == [rule.code for rule in RULES]

