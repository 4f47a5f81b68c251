"""The rule protocol (``paddle_doctor.rules``): every registry of every lens is collected from
declarations that each say code, cause, message, docs and check, and every entry resolves to a
catalog cause. Nothing here imports paddle (the guards' and smoke checks' locations are read with
``ast``)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from paddle_doctor.catalog import cause_ids
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.links import LENSES, references, registries
from paddle_doctor.rules import Docs, Rule, causes_of, pairs, problems

SRC = Path(__file__).resolve().parents[2] / "src"
REPO = SRC.parent
REGISTRIES = registries()
ENTRIES = [(lens, rule) for lens, rules in REGISTRIES.items() for rule in rules]


def _id(entry) -> str:
    return f"{entry[0]}:{entry[1].code}"


def test_every_lens_has_a_registry():
    assert tuple(REGISTRIES) == LENSES
    sizes = {lens: len(rules) for lens, rules in REGISTRIES.items()}
    assert all(sizes.values()), sizes
    assert sum(sizes.values()) > 100  # 15 lint rules, 11 env checks, 78 signatures, 8 guard kinds, 10 smoke checks,
    # 38 diagnose rules (31 verdicts of the chain, 7 refiners)


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_each_entry_satisfies_the_protocol(entry):
    _, rule = entry
    assert isinstance(rule, Rule)
    assert problems(rule) == []


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_each_entry_resolves_to_a_cause(entry):
    """Every rule names its causes; only a diagnose rule may defer to what it matched (and says to what)."""
    lens, rule = entry
    if rule.cause is None:
        assert lens == "diagnose_rules" and rule.defers_to, rule.code
    for cause in causes_of(rule):
        assert isinstance(cause, CauseId), cause
        assert CauseId(cause) is cause and cause.value in cause_ids()


@pytest.mark.parametrize("lens", LENSES)
def test_codes_are_unique_within_a_lens(lens):
    codes = [rule.code for rule in REGISTRIES[lens]]
    assert len(codes) == len(set(codes)), [c for c in codes if codes.count(c) > 1]


def test_links_read_the_one_shape():
    assert references() == {lens: pairs(rules) for lens, rules in REGISTRIES.items()}
    assert all(pairs(rules) == [(r.code, r.cause) for r in rules]
               for lens, rules in REGISTRIES.items() if lens != "diagnose_rules")


def test_the_protocol_check_can_fail():
    class HalfDeclared:
        code, cause, message, check = "X1", "gpu_oom", "two\nlines", None
        docs = Docs(wrong="only the wrong half")

    found = problems(HalfDeclared())
    assert [p.split(": ", 1)[1] for p in found] == [
        "cause 'gpu_oom' is not a CauseId member", "the message must be one non-empty line",
        "docs need wrong/right or source/example", "no check"]
    assert problems(object())[0].endswith(": lacks code, cause, message, docs, check")


# --- lint: each rule is declared in its family's module, beside the check that reports it ---------

def test_lint_rules_are_declared_beside_their_check():
    from paddle_doctor.lint.codes import LINTER_RULES
    from paddle_doctor.lint.rules import ALL_RULES, FAMILIES, RULES

    assert [r.code for r in RULES] == sorted(r.code for r in RULES)
    assert ALL_RULES == (*RULES, *LINTER_RULES)
    by_family = {module.__name__: codes for codes, module in FAMILIES}
    for rule in RULES:
        module_name, function = rule.check.split(":")
        module = importlib.import_module(module_name)
        assert function == "check" and callable(module.check)
        assert getattr(module, rule.code) is rule, f"{rule.code} is not declared in {module_name}"
        assert rule.code in by_family[module_name]
    module_name, function = LINTER_RULES[0].check.split(":")
    assert callable(getattr(importlib.import_module(module_name), function))


def test_every_lint_rule_a_family_reports_is_one_it_declares():
    """``ctx.report(PDLxxx, ...)`` takes the declaration; a family reports only its own rules."""
    from paddle_doctor.lint.rules import FAMILIES

    for codes, module in FAMILIES:
        text = Path(module.__file__).read_text(encoding="utf-8")
        reported = set(re.findall(r"ctx\.report\((PDL\d+)", text))
        assert reported == set(codes), module.__name__
        assert not re.search(r"ctx\.report\([\"']", text), f"{module.__name__} reports a code as a string"


# --- env checks: the documented facts trip the check, the fixed ones do not ------------------------

@pytest.mark.parametrize("check", REGISTRIES["env_checks"], ids=lambda c: c.code)
def test_env_check_docs_are_what_the_check_does(check):
    reported = check.run(check.trips)
    assert reported and {f.code for f in reported} == {check.code}
    assert {f.cause for f in reported} == {check.cause}
    assert check.run(check.passes) == []
    assert check.docs.example == reported[0].message
    assert check.docs.source.endswith(check.run.__qualname__)


# --- log signatures: the documented example is a line the pattern matches -------------------------

@pytest.mark.parametrize("signature", REGISTRIES["signatures"], ids=lambda s: s.code)
def test_signature_docs_example_matches_its_pattern(signature):
    assert signature.check.search(signature.docs.example), signature.code
    assert signature.points_at_cause


# --- guard kinds and smoke checks run in the workers: their checks are named by location ----------

def _functions(dotted: str) -> set[str]:
    path = SRC / Path(*dotted.split(".")).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


@pytest.mark.parametrize("rule", [*REGISTRIES["guard_kinds"], *REGISTRIES["smoke_checks"]], ids=lambda r: r.code)
def test_worker_side_checks_name_a_function_that_exists(rule):
    module, function = rule.check.split(":")
    assert function in _functions(module), rule.check


def test_guard_kinds_table_is_collected_from_the_declarations():
    from paddle_doctor.contract import GUARD_KINDS, GUARD_RULES

    assert GUARD_KINDS == {kind.code: kind.cause for kind in GUARD_RULES}


def test_smoke_checks_are_the_ones_the_worker_runs_in_its_order():
    from paddle_doctor.smoke.results import CHECKS

    tree = ast.parse((SRC / "paddle_doctor/runtime/smoke_worker.py").read_text(encoding="utf-8"))
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    listed = next(n.value for n in ast.walk(main) if isinstance(n, ast.Assign)
                  and getattr(n.targets[0], "id", "") == "checks")
    ran = [(pair.elts[0].value, pair.elts[1].id) for pair in listed.elts]
    assert [name for name, _ in ran] == list(CHECKS)
    assert [f"paddle_doctor.runtime.smoke_worker:{func}" for _, func in ran] == [c.check for c in CHECKS.values()]


# --- the doc shows one worked example per lens, each a real declaration ---------------------------

def test_rules_doc_has_a_worked_example_per_lens():
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    examples = dict(re.findall(r"<!-- example (\w+) (\S+) -->", text))
    assert set(examples) == set(LENSES)
    for lens, code in examples.items():
        assert code in {r.code for r in REGISTRIES[lens]}, (lens, code)
