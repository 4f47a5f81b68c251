"""JSON output: stable key order, UTF-8 kept readable."""

from __future__ import annotations

import json


def dumps(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
