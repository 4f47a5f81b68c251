"""``paddle-doctor env``: the environment doctor.

probes/ read facts cheaply without importing paddle; checks/ turn them into Findings linked to
catalog causes (``checks.CHECKS``); :func:`compare_reports` lists what differs between nodes.
"""

from __future__ import annotations

from .compare import compare_reports
from .report import ENV_SCHEMA, NEEDS_IMPORT, collect_env

__all__ = ["ENV_SCHEMA", "NEEDS_IMPORT", "collect_env", "compare_reports"]
