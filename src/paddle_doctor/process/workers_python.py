"""Make sure the workers' Python will have the guards before ``run``, ``triage`` or ``smoke`` launch.

paddle-doctor may live outside the job's Python (pipx, a tool venv, a container with the tool
outside). The injected ``sitecustomize`` then could not import ``paddle_doctor`` and, since it must
never break the user's program, it said nothing: no error records, no watchdog, and triage's
variations silently not applied. So before launching, the workers' interpreter is asked (with the
same environment and ``sitecustomize``, in probe mode) whether it can import the guards; when its own
install has none, ``sitecustomize`` loads this tool's package (``PACKAGE_DIR_ENV``); when even that
fails (another Python version, a missing dependency), the launch stops with one line that names the
interpreter and the command that fixes it. A shell script's workers' Python is read from its text
(:mod:`.shell_script`); what the text cannot tell is said in one note, never guessed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, MutableMapping, Sequence
from pathlib import Path

from paddle_doctor.contract import PACKAGE_DIR_ENV, PROBE_ENV
from paddle_doctor.process.shell_script import is_python, pythons_in_script, shebang, shell_script

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
    if is_python(found):
        return found
    words = shebang(found, env)
    return words[0] if words and is_python(words[0]) else None


def ensure_guards(cmd: Sequence[str], env: MutableMapping[str, str], cwd: str | None = None,
                  strict: bool = False) -> str | None:
    """Check (and where needed arrange) that the workers can import the guards; ``env`` is the
    launch's environment (run's PYTHONPATH and variables already in it), ``cwd`` where it starts.
    Returns a note for the user when this tool's own package will be used, or when the command is
    a shell script whose workers' Python cannot be told; raises GuardsUnreachable when nothing works.
    A Python a shell script names that cannot load the guards is a note (it may be a helper's),
    unless ``strict`` (triage: its variations need the guards, so it stops)."""
    python = workers_python(cmd, env)
    if python is not None:
        return _ensure(python, env)
    script = shell_script(cmd, env, cwd or os.getcwd())
    if script is None:
        return None  # not a Python command, nor a script we can read: nothing to ask
    env[PACKAGE_DIR_ENV] = str(PACKAGE_DIR)  # whatever Python it runs, one without paddle_doctor can load ours
    found = pythons_in_script(script, env, cwd or os.getcwd())
    notes = [note for python in found.pythons if (note := (_ensure if strict else _ensure_in_script)(python, env))]
    if found.unknown:
        notes.append(f"could not tell which Python {found.script} starts its workers with ({found.unknown[0]}); "
                     "if that Python cannot import paddle_doctor, the guards stay off (no error records, no "
                     "watchdog): run it as `paddle-doctor run -- <python> -m paddle.distributed.launch ...`, or "
                     "install paddle-doctor into that Python")
    return "; ".join(notes) or None


def _ensure_in_script(python: str, env: MutableMapping[str, str]) -> str | None:
    """As :func:`_ensure`, but a Python read from a script's text may be a helper's, not the
    workers': one that cannot load the guards is said, and the launch goes on."""
    try:
        return _ensure(python, env)
    except GuardsUnreachable as exc:
        return f"{exc} (if the script starts its workers with it, they run without the guards)"


def _ensure(python: str, env: MutableMapping[str, str]) -> str | None:
    if os.path.abspath(python) == os.path.abspath(sys.executable):
        return None  # this very interpreter: it has us
    env[PACKAGE_DIR_ENV] = str(PACKAGE_DIR)
    if _probe(python, env) is None:
        return None  # the job's own paddle_doctor (the same venv by another name: python3 for python)
    return f"the workers' Python {python} has no paddle_doctor of its own; its workers use this tool's ({PACKAGE_DIR})"


def _probe(python: str, env: Mapping[str, str]) -> str | None:
    """The folder of this tool's paddle_doctor when the workers will borrow it (their Python has none
    of its own), None when they have their own; GuardsUnreachable when none can load."""
    try:
        done = subprocess.run([python, "-c", "pass"], env={**env, PROBE_ENV: "1"}, capture_output=True,
                              timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None  # the launch itself will say what is wrong with that interpreter
    line = next((ln for ln in done.stdout.decode("utf-8", "replace").splitlines() if ln.startswith(PROBE_MARK)), "")
    status, _, rest = line[len(PROBE_MARK):].partition(" ")
    version, _, detail = rest.partition(" ")
    if status == "borrowed":
        return detail
    if status == "ok":
        return None
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
