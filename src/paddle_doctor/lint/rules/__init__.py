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


def get_rule(code: str) -> Rule:
    """The rule for ``code`` (KeyError for an unknown one)."""
    return BY_CODE[code.upper()]
