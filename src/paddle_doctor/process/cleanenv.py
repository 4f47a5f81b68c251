"""``clean_env()``: drop the distributed variables a launcher (or an earlier job) left behind.

Guide 001 §3.3: a one-process evaluation started from a shell, notebook or job that still holds
``PADDLE_TRAINER_*`` tries to join peers that do not exist. Measured on Paddle 3.3.1: without
PADDLE_DISTRI_BACKEND it hangs silently in the legacy HTTP store (effectively forever), with it
the store gives up after 900 s, and two unrelated jobs with the same leftovers silently join
each other. ``FLAGS_selected_gpus`` left over pins the process to another rank's GPU.
Call it at the very top of the script, before anything distributed is created.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

from paddle_doctor.contract import is_leftover


def clean_env(environ: MutableMapping[str, str] | None = None, *, keep: tuple[str, ...] = ()) -> dict[str, str]:
    """Remove leftover launcher variables from ``environ`` (default: ``os.environ``), except
    those in ``keep``; returns what was removed (name -> value)."""
    env = os.environ if environ is None else environ
    removed = {k: env[k] for k in sorted(env) if is_leftover(k) and k not in keep}
    for k in removed:
        del env[k]
    return removed
