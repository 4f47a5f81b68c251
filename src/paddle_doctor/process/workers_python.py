"""Make sure the workers' Python will have the guards before ``run``, ``triage`` or ``smoke`` launch.

paddle-doctor may live outside the job's Python (pipx, a tool venv, a container with the tool
outside). The injected ``sitecustomize`` then could not import ``paddle_doctor`` and, since it must
never break the user's program, it said nothing: no error records, no watchdog, and triage's
variations silently not applied. So before launching, the workers' interpreter is asked (with the
same environment and ``sitecustomize``, in probe mode) whether it can import the guards; when its own
install has none, ``sitecustomize`` loads this tool's package (``PACKAGE_DIR_ENV``); when even that
fails (another Python version, a missing dependency), the launch stops with one line that names the
interpreter and the command that fixes it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path

from paddle_doctor.contract import PACKAGE_DIR_ENV, PROBE_ENV

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # this tool's paddle_doctor package
PROBE_TIMEOUT_S = 60.0
PROBE_MARK = "paddle-doctor-probe "
FLOOR = (3, 10)  # pyproject's requires-python: the runtime runs in the job's Python


def _older_than_floor(version: str) -> bool:
    try:
        return tuple(int(x) for x in version.split(".")) < FLOOR
    except ValueError:
        return False


class GuardsUnreachable(Exception):
    """The workers' Python cannot run the guards; the message is the one line for the user."""


def workers_python(cmd: Sequence[str], env: Mapping[str, str]) -> str | None:
    """The interpreter the command's workers run: the command's Python itself, or the one a
    ``fleetrun``-like script names on its ``#!`` line; None when the command is not Python's."""
    found = shutil.which(cmd[0], path=env.get("PATH")) if cmd else None
    if found is None:
        return None
    if _is_python(found):
        return found
    try:
        with open(found, "rb") as script:
            head = script.readline(512)
    except OSError:
        return None
    words = head[2:].decode("utf-8", "replace").split() if head.startswith(b"#!") else []
    if words and Path(words[0]).name == "env" and len(words) > 1:
        words = [shutil.which(words[1], path=env.get("PATH")) or words[1]]
    return words[0] if words and _is_python(words[0]) else None


def _is_python(path: str) -> bool:
    name = Path(path).name
    return name.startswith("python") and not name.endswith(("-config", ".py"))


def ensure_guards(cmd: Sequence[str], env: MutableMapping[str, str]) -> str | None:
    """Check (and where needed arrange) that the workers can import the guards; ``env`` is the
    launch's environment (run's PYTHONPATH and variables already in it). Returns a note for the
    user when this tool's own package will be used; raises GuardsUnreachable when nothing works."""
    python = workers_python(cmd, env)
    if python is None or os.path.abspath(python) == os.path.abspath(sys.executable):
        return None  # not a Python command we can ask, or this very interpreter: it has us
    env[PACKAGE_DIR_ENV] = str(PACKAGE_DIR)
    where = _probe(python, env)
    if where is None or Path(where).resolve() != PACKAGE_DIR:
        return None
    return f"the workers' Python {python} has no paddle_doctor of its own; its workers use this tool's ({PACKAGE_DIR})"


def _probe(python: str, env: Mapping[str, str]) -> str | None:
    """The folder the workers' paddle_doctor comes from; GuardsUnreachable when none can load."""
    try:
        done = subprocess.run([python, "-c", "pass"], env={**env, PROBE_ENV: "1"}, capture_output=True,
                              timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None  # the launch itself will say what is wrong with that interpreter
    line = next((ln for ln in done.stdout.decode("utf-8", "replace").splitlines() if ln.startswith(PROBE_MARK)), "")
    status, _, rest = line[len(PROBE_MARK):].partition(" ")
    version, _, detail = rest.partition(" ")
    if status == "ok":
        return detail
    if status == "failed" and _older_than_floor(version):
        raise GuardsUnreachable(f"the workers' Python {python} is Python {version}; paddle-doctor's guards need "
                                f"Python >= {'.'.join(map(str, FLOOR))} (diagnose and lint still read this job's logs "
                                "and code; run it without `paddle-doctor run`, or on a newer Python)")
    if status == "failed":
        raise GuardsUnreachable(f"the workers' Python {python} cannot load paddle-doctor's guards ({detail}); "
                                f"install paddle-doctor into it: {python} -m pip install {install_source()}")
    return None  # no sitecustomize ran (e.g. python -S, or -I): nothing to install into anyway


def install_source() -> str:
    """What to ``pip install`` to get this very paddle-doctor: the folder or URL it was installed
    from when pip recorded one, else its name."""
    try:
        from importlib.metadata import distribution

        import json

        url = json.loads(distribution("paddle-doctor").read_text("direct_url.json") or "{}").get("url", "")
    except Exception:  # no metadata (a source checkout on sys.path)
        url = ""
    if url.startswith("file://"):
        return url[len("file://"):]
    return url or "paddle-doctor"
