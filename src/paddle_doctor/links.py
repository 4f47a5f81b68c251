"""The catalog's back-links, read from the code that points at each cause.

Every lens declares its own table: lint rules (``lint.codes.RULES``), env checks
(``envcheck.checks.CHECKS``), log signatures (``diagnose.signatures``), guard kinds
(``contract.GUARD_KINDS``) and smoke checks (``smoke.results.CHECKS``). The catalog (a leaf) holds
none of them, so nothing is typed twice; ``explain`` and ``docs/causes.md`` show what this module
collects, and a test checks that every cause id named in these tables exists in the catalog.
Nothing here imports paddle.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class Links:
    """What points at one cause, per lens (names or codes, in table order)."""

    lint_rules: tuple[str, ...] = ()
    env_checks: tuple[str, ...] = ()
    signatures: tuple[str, ...] = ()
    guard_kinds: tuple[str, ...] = ()
    smoke_checks: tuple[str, ...] = ()


LENSES = ("lint_rules", "env_checks", "signatures", "guard_kinds", "smoke_checks")


def references() -> dict[str, list[tuple[str, str]]]:
    """lens -> [(name, cause id), ...] from each lens's own table."""
    from .contract import GUARD_KINDS
    from .diagnose.signatures import signatures_by_cause
    from .envcheck.checks import CHECKS as ENV_CHECKS
    from .lint.codes import RULES
    from .smoke.results import CHECKS as SMOKE_CHECKS

    return {
        "lint_rules": [(rule.code, rule.cause) for rule in RULES],
        "env_checks": [(name, check.cause) for name, check in ENV_CHECKS.items()],
        "signatures": [(name, cause) for cause, names in signatures_by_cause().items() for name in names],
        "guard_kinds": list(GUARD_KINDS.items()),
        "smoke_checks": [(name, cause) for name, (_, cause) in SMOKE_CHECKS.items()],
    }


@functools.lru_cache(maxsize=1)
def backlinks() -> dict[str, Links]:
    """cause id -> its Links (causes that nothing points at are absent)."""
    found: dict[str, dict[str, list[str]]] = {}
    for lens, pairs in references().items():
        for name, cause in pairs:
            found.setdefault(cause, {}).setdefault(lens, []).append(name)
    return {cause: Links(**{lens: tuple(names) for lens, names in by_lens.items()})
            for cause, by_lens in found.items()}


def links_for(cause_id: str) -> Links:
    return backlinks().get(cause_id, Links())
