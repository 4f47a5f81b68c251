"""Package exports loaded on first use (PEP 562), for packages that the fast CLI paths reach
only for one table: ``explain`` reads the rule registries (``lint.rules``, ``envcheck.checks``,
``diagnose.signatures``: ``paddle_doctor.links``), and must not pay for the lint engine, the env
probes or the log readers.
Imports nothing of ours.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(package: str, table: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__``: ``name`` -> the module (relative to ``package``) that defines it."""

    def __getattr__(name: str) -> object:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    return __getattr__
