"""The env checks' registry: ``CHECKS`` maps a check name (a Finding's ``code``) to its
declaration (``base.Check``, a rule of :mod:`paddle_doctor.rules`: cause, what it looks at, the
function, and the facts it trips on and passes on), collected from the ``@check`` declarations of
the modules below. The catalog's ``env_checks`` back-links are derived from it.
"""

from __future__ import annotations

from ...findings import Finding, Severity
# Each module registers its checks on import; this order is the report's order.
from . import system  # noqa: F401  (machine and variables)
from . import versions  # noqa: F401  (compiled with vs running with)
from . import processes  # noqa: F401  (ports, other processes, device selection)
from .base import REGISTRY, Check, Facts

CHECKS: dict[str, Check] = dict(REGISTRY)
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def run_checks(facts: Facts) -> list[Finding]:
    """Every check on ``facts``; errors first, then warnings, then infos (check order within each)."""
    found = [f for c in CHECKS.values() for f in c.run(facts)]
    return sorted(found, key=lambda f: _ORDER[f.severity])


__all__ = ["CHECKS", "Check", "run_checks"]
