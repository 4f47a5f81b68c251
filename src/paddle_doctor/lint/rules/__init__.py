"""The rule families and the lint rule registry, collected from the families' declarations.

Each family module declares its rules (``PDL101 = Rule(...)``: code, name, cause, summary, the
``wrong``/``right`` examples, fix) beside the ``check(ctx)`` that reports them, and lists them in
its ``RULES``; it also has ``TRIGGERS``: words of which at least one must appear in the file's text
for the family to run at all (the cheap prefilter), and may have ``may_report(text)``, a narrower
test that decides whether the file is parsed at all (a file no family could report on is only
syntax-checked: :mod:`..engine`). The registry here is read from those
declarations, never typed twice: ``RULES`` (about user code, the catalog's back-links), ``ALL_RULES``
(with the linter's own PDL900), ``BY_CODE``, and ``FAMILIES`` (the codes each family can report, so
a family whose codes are all deselected is not run). This order is the docs' and the engine's.
"""

from __future__ import annotations

from ..codes import LINTER_RULES, Rule
from . import checkpoints, collectives, dataloader, device, eval_mode, evaluation, loads

_MODULES = (collectives, dataloader, loads, checkpoints, evaluation, eval_mode, device)

FAMILIES = tuple((tuple(rule.code for rule in module.RULES), module) for module in _MODULES)


def _triggered(module):
    return lambda text: any(word in text for word in module.TRIGGERS)


# (codes, may the family report on this text?): a family without may_report reports only where it runs
REPORTABLE = tuple((codes, getattr(module, "may_report", None) or _triggered(module)) for codes, module in FAMILIES)
RULES: tuple[Rule, ...] = tuple(sorted((rule for module in _MODULES for rule in module.RULES),
                                       key=lambda rule: rule.code))
ALL_RULES: tuple[Rule, ...] = (*RULES, *LINTER_RULES)
BY_CODE: dict[str, Rule] = {rule.code: rule for rule in ALL_RULES}
if len(BY_CODE) != len(ALL_RULES):
    raise ImportError("a lint rule code is declared twice")


def plan(text: str, enabled: frozenset[str]) -> tuple[list, bool]:
    """(the families lint_text runs on ``text``: those selected whose TRIGGERS it holds and that may
    report on it, or that record whole-program facts; whether any selected family may report on it,
    i.e. whether the file is parsed at all). Each family's tests are read once per text, and only
    as far as the answer needs (a run used to ask them twice for each parsed file)."""
    runs, parse, unasked = [], False, []
    for codes, module in FAMILIES:
        if not enabled.intersection(codes):
            continue
        may_report = getattr(module, "may_report", None)
        if may_report is None or getattr(module, "FEEDS_SUMMARY", False):
            triggered = _triggered(module)(text)
            if may_report is None:
                parse = parse or triggered
            elif not parse:
                unasked.append(may_report)
        else:
            reports = may_report(text)
            parse, triggered = parse or reports, reports and _triggered(module)(text)
        if triggered:
            runs.append((codes, module))
    return runs, parse or any(may_report(text) for may_report in unasked)


def get_rule(code: str) -> Rule:
    """The rule for ``code`` (KeyError for an unknown one)."""
    return BY_CODE[code.upper()]
