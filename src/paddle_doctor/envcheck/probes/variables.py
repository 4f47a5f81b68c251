"""The environment variables an env report may show, and how their values are masked.

By allowlist (a blocklist misses names such as ``AWS_SECRET_ACCESS_KEY``; vLLM's collect_env moved
to an allowlist for that reason): Paddle's, NCCL's and glog's variables and the CUDA device list
are shown; proxy variables only as present or absent. A shown name that looks like a secret gets
its value masked; any other value is masked by shape (URL credentials, tokens, JWTs, PEM blocks,
high-entropy words: ``paddle_doctor.redact``), and the home directory becomes ``~``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from ...redact import MASK, is_secret_name, redact, redact_value

SHOWN_PREFIXES = ("PADDLE_", "FLAGS_", "NCCL_", "GLOG_")
SHOWN_NAMES = frozenset({"CUDA_VISIBLE_DEVICES", "MASTER_ADDR", "MASTER_PORT", "LD_LIBRARY_PATH", "CUDA_HOME",
                         "OMP_NUM_THREADS", "POD_IP", "TRAINING_ROLE", "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"})
PROXY_NAMES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


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
    if is_secret_name(name):
        return MASK
    return redact_text(value, home, high_entropy=True)


def redact_text(text: str, home: str = "", high_entropy: bool = False) -> str:
    """Mask secrets (``paddle_doctor.redact``; a variable's value high-entropy words too); ``$HOME`` -> ``~``."""
    text = redact_value(text) if high_entropy else redact(text)
    if home and home != "/":
        # only as a whole path ("/root" in "etcd://root:pw@..." is a user name, not the home)
        text = re.sub(rf"(?<![\w/]){re.escape(home.rstrip('/'))}(?=/|\s|$|[:;,'\"])", "~", text)
    return text
