"""Mask secrets in any text paddle-doctor quotes: diagnose's evidence, env's report.

Older launchers print the whole environment into their error lines, the new launcher's own
``<job>.log`` starts with ``environ({...})``, and command lines carry ``--api-key VALUE``: tokens and
passwords must never be copied into output that people paste into public issues. A leaf module.

Masked: values of names that look secret (KEY, TOKEN, SECRET, PASS, AUTH, CREDENTIAL) in
``'NAME': 'value'`` (a dumped dict), ``NAME=value``, ``name: value`` and ``--name value``, and the
password of a URL (``scheme://user:password@host``).
"""

from __future__ import annotations

import re

MASK = "***"
_SECRET_WORD = r"KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL"
_SECRETISH = rf"[\w.-]*(?:{_SECRET_WORD})[\w.-]*"
_SECRET_NAME = re.compile(_SECRET_WORD, re.IGNORECASE)
_QUOTED = re.compile(rf"""(['"])({_SECRETISH})\1(\s*:\s*)(['"])(.*?)\4""", re.IGNORECASE)
_URL_PASSWORD = re.compile(r"(?P<scheme>[A-Za-z][\w+.-]*://)(?P<user>[^\s:/@]*):(?P<password>[^\s@/]*)@")
_ASSIGN = re.compile(rf"""(?P<name>{_SECRETISH})(?P<sep>\s*[=:]\s*)(?P<value>'[^']*'|"[^"]*"|[^\s,;'"]+)"""
                     rf"|(?P<flag>--?{_SECRETISH})(?P<space>\s+)(?P<arg>[^\s-][^\s]*)", re.IGNORECASE)


def is_secret_name(name: str) -> bool:
    return _SECRET_NAME.search(name) is not None


def redact(text: str) -> str:
    # Every pattern below needs a secret word or a URL: most lines have neither (one search, not three).
    if "://" not in text and _SECRET_NAME.search(text) is None:
        return text
    text = _QUOTED.sub(lambda m: f"{m[1]}{m[2]}{m[1]}{m[3]}{m[4]}{MASK}{m[4]}", text)
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{MASK}@", text)
    return _ASSIGN.sub(_mask_pair, text)


def _mask_pair(match: re.Match) -> str:
    if match["name"] is not None:
        if match["value"] == MASK or match["value"].strip("'\"") == MASK:
            return match[0]  # already masked (a dumped dict's quoted value)
        return f"{match['name']}{match['sep']}{MASK}"
    return f"{match['flag']}{match['space']}{MASK}"
