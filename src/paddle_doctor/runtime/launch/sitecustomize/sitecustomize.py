"""Loaded by Python at start-up in every process that ``paddle-doctor run`` starts.

``paddle-doctor run`` puts only this folder in front of PYTHONPATH (the pattern coverage and
ddtrace use), so Python imports this file as ``sitecustomize``. It installs paddle-doctor's error
records (and trace, check, watchdog) in the workers, then runs the sitecustomize that would have
run without us, if there is one, so a user's or a distribution's start-up code keeps working.
Nothing here may break the user's program: every failure is swallowed.
"""

import importlib.machinery
import importlib.util
import os
import sys


def _install():
    try:
        from paddle_doctor.runtime.launch import bootstrap
    except Exception:  # this interpreter does not have paddle_doctor: run the user's code untouched
        return
    try:
        bootstrap.from_env()
    except Exception:
        pass


def _chain():
    """Execute the next ``sitecustomize`` on sys.path (the one we shadow) under its own name."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # what Python itself does with a failing sitecustomize
        sys.stderr.write(f"Error in sitecustomize; set PYTHONVERBOSE for traceback:\n{type(exc).__name__}: {exc}\n")


_install()
_chain()
