"""The environment variables an env report may show, and how their values are masked.

By allowlist (a blocklist misses names such as ``AWS_SECRET_ACCESS_KEY``; vLLM's collect_env moved
to an allowlist for that reason): Paddle's, NCCL's and glog's variables and the CUDA device list
are shown; proxy variables only as present or absent. A shown name that looks like a secret gets
its value masked, a password inside a URL is masked, and the home directory becomes ``~``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

SHOWN_PREFIXES = ("PADDLE_", "FLAGS_", "NCCL_", "GLOG_")
SHOWN_NAMES = frozenset({"CUDA_VISIBLE_DEVICES", "MASTER_ADDR", "MASTER_PORT", "LD_LIBRARY_PATH", "CUDA_HOME",
                         "OMP_NUM_THREADS", "POD_IP", "TRAINING_ROLE"})
PROXY_NAMES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL", re.IGNORECASE)
_URL_PASSWORD = re.compile(r"(?P<scheme>[A-Za-z][\w+.-]*://)(?P<user>[^\s:/@]*):(?P<password>[^\s@/]*)@")
_SECRETISH = r"[\w.-]*(?:KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL)[\w.-]*"
# "NAME=value", "name: value", and on command lines "--api-key value"
_SECRET_ASSIGN = re.compile(rf"(?P<name>{_SECRETISH})(?P<sep>\s*[=:]\s*)(?P<value>[^\s,;'\"]+)"
                            rf"|(?P<flag>--?{_SECRETISH})(?P<space>\s+)(?P<arg>[^\s-][^\s]*)", re.IGNORECASE)
MASK = "***"


def shown_variables(environ: Mapping[str, str], home: str | None = None) -> dict[str, str]:
    """name -> masked value for the allowlisted variables, sorted by name."""
    home = os.path.expanduser("~") if home is None else home
    shown = {}
    for name in sorted(environ):
        if name.startswith(SHOWN_PREFIXES) or name in SHOWN_NAMES:
            shown[name] = mask_value(name, environ[name], home)
    return shown


def proxy_variables(environ: Mapping[str, str]) -> dict[str, bool]:
    """Which proxy variables are set (either case); never their values."""
    return {name: name in environ or name.upper() in environ for name in PROXY_NAMES}


def mask_value(name: str, value: str, home: str = "") -> str:
    if SECRET_NAME.search(name):
        return MASK
    return redact_text(value, home)


def redact_text(text: str, home: str = "") -> str:
    """Mask URL passwords and ``NAME=value`` pairs whose name looks secret; ``$HOME`` -> ``~``."""
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{MASK}@", text)
    text = _SECRET_ASSIGN.sub(_mask_pair, text)
    if home and home != "/":
        # only as a whole path ("/root" in "etcd://root:pw@..." is a user name, not the home)
        text = re.sub(rf"(?<![\w/]){re.escape(home.rstrip('/'))}(?=/|\s|$|[:;,'\"])", "~", text)
    return text


def _mask_pair(match: re.Match) -> str:
    if match["name"] is not None:
        return f"{match['name']}{match['sep']}{MASK}"
    return f"{match['flag']}{match['space']}{MASK}"
