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


# contract.PACKAGE_DIR_ENV: the paddle_doctor package of the tool that started us (a pipx install or
# a tool venv the job's Python cannot import from); contract.PROBE_ENV: ``run`` asks, before it
# launches, whether the workers will have the guards (this file then reports instead of installing).
PACKAGE_DIR_ENV = "PADDLE_DOCTOR_PACKAGE_DIR"
PROBE_ENV = "PADDLE_DOCTOR_PROBE"


def _bootstrap():
    """paddle_doctor's bootstrap, and whether it is borrowed: the job's own install (False), else
    the package of the tool that started us (True)."""
    try:
        from paddle_doctor.runtime.launch import bootstrap
        return bootstrap, False
    except ImportError:
        package = os.environ.get(PACKAGE_DIR_ENV)
        if not package:
            raise
    for name in [m for m in sys.modules if m == "paddle_doctor" or m.startswith("paddle_doctor.")]:
        del sys.modules[name]  # a half-imported or namespace paddle_doctor
    spec = importlib.util.spec_from_file_location("paddle_doctor", os.path.join(package, "__init__.py"),
                                                  submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules["paddle_doctor"] = module
    spec.loader.exec_module(module)
    from paddle_doctor.runtime.launch import bootstrap
    return bootstrap, True


def _install():
    if os.environ.get(PROBE_ENV):
        _probe()
        return
    try:
        bootstrap, _ = _bootstrap()
    except Exception:  # this interpreter cannot have paddle_doctor (run checked it before launching)
        return
    try:
        bootstrap.from_env()
    except Exception:
        pass


def _probe():
    """One line on stdout for ``run``'s check: where the guards come from (``ok``: the job's own
    paddle_doctor, ``borrowed``: the tool's), or why they cannot."""
    version = "%d.%d" % sys.version_info[:2]
    try:
        bootstrap, borrowed = _bootstrap()
        where = os.path.dirname(os.path.dirname(os.path.dirname(bootstrap.__file__)))
        sys.stdout.write(f"paddle-doctor-probe {'borrowed' if borrowed else 'ok'} {version} {where}\n")
    except Exception as exc:
        sys.stdout.write(f"paddle-doctor-probe failed {version} {type(exc).__name__}: {exc}\n")


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
