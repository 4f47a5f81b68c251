"""The rule families, in one explicit registry (TorchFix's ``ALL_VISITOR_CLS``, flake8's plugin table).

Each family module has ``check(ctx)`` (adds Findings to ``ctx``) and ``TRIGGERS``: words of which at
least one must appear in the file's text for the family to run at all (the cheap prefilter), and
``CODES``: the codes it can report, so a family whose codes are all deselected is not run.
"""

from __future__ import annotations

from . import checkpoints, collectives, dataloader, device, evaluation

FAMILIES = (
    (("PDL101", "PDL102", "PDL103", "PDL104"), collectives),
    (("PDL201", "PDL202"), dataloader),
    (("PDL301", "PDL302", "PDL303"), checkpoints),
    (("PDL401", "PDL402", "PDL403", "PDL404", "PDL405"), evaluation),
    (("PDL501",), device),
)
