"""The worker scripts the integration tests launch under the real launcher, and the kits they share.

A launched worker runs as a script, yet imports its kits as this package (``workers.evalkit``),
as the tests do: the launch helpers put ``tests/integration`` on the launch's PYTHONPATH
(:func:`with_test_packages`), as pytest's ``pythonpath`` (pyproject.toml) does for the tests.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PACKAGES_ROOT = Path(__file__).resolve().parent.parent  # tests/integration: workers/ and guards/


def with_test_packages(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with ``tests/integration`` first on PYTHONPATH (what was there stays, after it)."""
    rest = env.get("PYTHONPATH", "")
    return {**env, "PYTHONPATH": os.pathsep.join(p for p in (str(PACKAGES_ROOT), rest) if p)}
