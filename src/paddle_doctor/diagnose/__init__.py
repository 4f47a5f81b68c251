"""``paddle-doctor diagnose``: read every rank's log and name the root cause of a failed run.

Library entry point: :func:`diagnose_paths` (in ``paths.py``). It returns a :class:`Diagnosis` and
never prints. The names below are loaded on first use, so that ``explain`` can read the signature
table (``diagnose.signatures``) without loading the readers.
"""

from __future__ import annotations

from ..lazy import lazy_exports

__all__ = ["DiagnoseInputError", "Diagnosis", "diagnose_paths"]
__getattr__ = lazy_exports(__name__, {"DiagnoseInputError": ".read.sources", "Diagnosis": "..findings",
                                      "diagnose_paths": ".paths"})
