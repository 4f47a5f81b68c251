"""Mask secrets in quoted evidence.

Older launchers print the whole environment into their error lines, and the new launcher's own
``<job>.log`` starts with ``environ({...})``: tokens and passwords must never be copied into a
diagnosis that people paste into public issues.
"""

from __future__ import annotations

import re

SECRET_NAME = r"[A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL)[A-Za-z0-9_]*"
_QUOTED = re.compile(rf"""(['"])({SECRET_NAME})\1(\s*:\s*)(['"])(.*?)\4""", re.IGNORECASE)
_ASSIGN = re.compile(rf"""\b({SECRET_NAME})=([^\s,'"]+|'[^']*'|"[^"]*")""", re.IGNORECASE)
MASK = "***"


def redact(text: str) -> str:
    text = _QUOTED.sub(lambda m: f"{m[1]}{m[2]}{m[1]}{m[3]}{m[4]}{MASK}{m[4]}", text)
    return _ASSIGN.sub(lambda m: f"{m[1]}={MASK}", text)
