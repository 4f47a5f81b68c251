"""The rule protocol every lens declares its rules in: one shape for lint rules, env checks, log
signatures, guard kinds and smoke checks.

A rule is declared once, where its check lives, and says everything about itself there:

- ``code``: its stable name (``PDL101``, ``shm_size``, ``gloo_size_mismatch``, ``dead``, ``smoke.barrier``);
- ``cause``: the catalog cause it points at (a :class:`~paddle_doctor.catalog.ids.CauseId` member);
  a rule that names the cause of what it matched (a reasoning rule of diagnose that defers to the
  log signature or the code table it read) has ``cause`` None and says what it defers to in
  ``defers_to``; a rule that may name several causes lists them all in ``causes``;
- ``message``: what it reports, in one line;
- ``docs``: a :class:`Docs` pair, ``wrong``/``right`` (code a lint rule reports and the same code fixed)
  or ``source``/``example`` (where the message or check comes from, and a line it produces);
- ``check``: the check itself (a function, a compiled pattern) or, where the check runs in another
  process (guards and smoke checks run inside the workers, under paddle), its dotted location.

Each lens's own record type (``lint.codes.Rule``, ``envcheck.checks.base.Check``,
``diagnose.signatures.model.Signature``, ``contract.GuardKind``, ``smoke.results.SmokeCheck``,
``diagnose.verdict.VerdictRule``) has
these attributes, so :class:`Rule` is a structural protocol, not a base class; each lens collects
its registry from its declarations, and :mod:`paddle_doctor.links` reads every registry through
this one shape. ``docs/rules.md`` shows a worked example per lens. A leaf: it imports only the
catalog's ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .catalog.ids import CauseId


@dataclass(frozen=True)
class Docs:
    """The examples a rule documents itself with: ``wrong``/``right``, or ``source``/``example``."""

    wrong: str = ""  # code (or a setting) the rule reports
    right: str = ""  # the same, fixed
    source: str = ""  # where the message or the check comes from (file, function, package version)
    example: str = ""  # a line the rule matches, or a message it reports

    def __bool__(self) -> bool:
        """True when one pair is complete: a rule with half its docs is not documented."""
        return bool(self.wrong and self.right) or bool(self.source and self.example)


@runtime_checkable
class Rule(Protocol):
    """What every lens's rule declaration has (attributes or properties)."""

    @property
    def code(self) -> str: ...

    @property
    def cause(self) -> CauseId | None: ...  # None only for a log signature that marks structure, not a cause

    @property
    def message(self) -> str: ...

    @property
    def docs(self) -> Docs: ...

    @property
    def check(self) -> Any: ...


def problems(rule: Any) -> list[str]:
    """Why ``rule`` does not satisfy the protocol (empty when it does): the registries' tests use it."""
    if not isinstance(rule, Rule):
        missing = [name for name in ("code", "cause", "message", "docs", "check") if not hasattr(rule, name)]
        return [f"{rule!r}: lacks {', '.join(missing)}"]
    code = rule.code
    out = []
    if not code:
        out.append(f"{rule!r}: empty code")
    if not isinstance(rule.cause, CauseId) and not (rule.cause is None and getattr(rule, "defers_to", "")):
        out.append(f"{code}: cause {rule.cause!r} is not a CauseId member")
    if not rule.message or "\n" in rule.message:
        out.append(f"{code}: the message must be one non-empty line")
    if not isinstance(rule.docs, Docs) or not rule.docs:
        out.append(f"{code}: docs need wrong/right or source/example")
    if rule.check is None or rule.check == "":
        out.append(f"{code}: no check")
    return out


def causes_of(rule: Rule) -> tuple[CauseId, ...]:
    """Every cause ``rule`` may name (none for a rule that defers to what it matched)."""
    return tuple(getattr(rule, "causes", (rule.cause,) if rule.cause is not None else ()))


def pairs(rules: Iterable[Rule]) -> list[tuple[str, CauseId]]:
    """(code, cause) of each rule and each cause it may name, in declaration order: what the
    catalog's back-links read."""
    return [(rule.code, cause) for rule in rules for cause in causes_of(rule)]
