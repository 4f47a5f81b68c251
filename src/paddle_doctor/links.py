"""The catalog's back-links, read from the rules that point at each cause.

Every lens declares its rules where their checks live, each one a rule of the shared protocol
(:mod:`paddle_doctor.rules`: ``code``, ``cause``, ``message``, ``docs``, ``check``), and collects
them in one registry: lint rules (``lint.rules.RULES``), env checks (``envcheck.checks.CHECKS``),
log signatures (``diagnose.signatures.CAUSE_SIGNATURES``), guard kinds (``contract.GUARD_RULES``)
and smoke checks (``smoke.results.SMOKE_CHECKS``). This module reads every registry through that
one shape; the catalog (a leaf) holds none of them, so nothing is typed twice. ``explain`` and
``docs/causes.md`` show what this module collects, and tests check that every rule of every
registry satisfies the protocol and names a cause of the catalog. Nothing here imports paddle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .rules import Rule, pairs


@dataclass(frozen=True)
class Links:
    """What points at one cause, per lens (names or codes, in table order)."""

    lint_rules: tuple[str, ...] = ()
    env_checks: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    guard_kinds: tuple[str, ...] = ()
    smoke_checks: tuple[str, ...] = ()


LENSES = ("lint_rules", "env_checks", "signatures", "guard_kinds", "smoke_checks")


def registries() -> dict[str, tuple[Rule, ...]]:
    """lens -> its rules, in declaration order (imported here: ``explain`` needs them only now)."""
    from .contract import GUARD_RULES
    from .diagnose.signatures import CAUSE_SIGNATURES
    from .envcheck.checks import CHECKS as ENV_CHECKS
    from .lint.rules import RULES
    from .smoke.results import SMOKE_CHECKS

    return {"lint_rules": RULES, "env_checks": tuple(ENV_CHECKS.values()), "signatures": CAUSE_SIGNATURES,
            "guard_kinds": GUARD_RULES, "smoke_checks": SMOKE_CHECKS}


def references() -> dict[str, list[tuple[str, str]]]:
    """lens -> [(code, cause id), ...] of its rules."""
    return {lens: pairs(rules) for lens, rules in registries().items()}


@functools.lru_cache(maxsize=1)
def backlinks() -> dict[str, Links]:
    """cause id -> its Links (causes that nothing points at are absent)."""
    found: dict[str, dict[str, list[str]]] = {}
    for lens, refs in references().items():
        for name, cause in refs:
            found.setdefault(cause, {}).setdefault(lens, []).append(name)
    return {cause: Links(**{lens: tuple(names) for lens, names in by_lens.items()})
            for cause, by_lens in found.items()}


def links_for(cause_id: str) -> Links:
    return backlinks().get(cause_id, Links())
