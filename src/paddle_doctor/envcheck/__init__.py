"""``paddle-doctor env``: the environment doctor.

probes/ read facts cheaply without importing paddle; checks/ turn them into Findings linked to
catalog causes (``checks.CHECKS``); :func:`compare_reports` lists what differs between nodes.
"""

from __future__ import annotations

from ..lazy import lazy_exports

__all__ = ["ENV_SCHEMA", "NEEDS_IMPORT", "collect_env", "compare_reports", "label_nodes"]
__getattr__ = lazy_exports(__name__, {
    "compare_reports": ".compare", "label_nodes": ".compare",
    "ENV_SCHEMA": ".report", "NEEDS_IMPORT": ".report", "collect_env": ".report",
})
