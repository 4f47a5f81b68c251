"""``install()``: error records, and optionally the collective trace and check, for a whole process.

``paddle-doctor run`` puts a ``sitecustomize`` on the workers' PYTHONPATH that calls
``from_env()``; a script can call ``paddle_doctor.install()`` itself. Paddle installs C signal
handlers when it is imported, so whatever touches signals (and the collective wrappers) waits
until ``paddle`` has been imported: at once when it already is, else from an import hook.

The watchdog's heartbeats start right after ``init_parallel_env`` (wrapped), or at the first
guarded region or traced collective.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from pathlib import Path

from paddle_doctor.runtime.guards import hooks, trace, watchdog
from paddle_doctor.runtime.channel import rankenv

from paddle_doctor.contract import DEBUG_LOGS_ENV, GUARDS_ENV, LOG_DIR_ENV, OWNER_ENV, SINGLE_ENV
LAUNCHERS = ("paddle.distributed.launch", "paddle.distributed.fleet.launch")

_options = {"installed": False, "trace": False, "check": False, "watchdog": True}


def install(*, trace: bool = False, check: bool = False, watchdog: bool = True,
            log_dir: str | os.PathLike | None = None) -> None:
    """Write an error record when this process fails; with ``trace``, record every collective
    (``check``: compare each one across ranks first); with ``watchdog``, end this rank by name when
    a peer dies or stops. Safe to call twice; never imports paddle itself."""
    if log_dir is not None:
        os.environ[LOG_DIR_ENV] = str(Path(log_dir).absolute())
    _options.update(trace=_options["trace"] or trace or check, check=_options["check"] or check,
                    watchdog=watchdog)
    if not _options["installed"]:
        _options["installed"] = True
        hooks.install_python_hooks()
    if "paddle" in sys.modules and hasattr(sys.modules["paddle"], "distributed"):
        _after_paddle(sys.modules["paddle"])
    else:
        _when_imported("paddle", _after_paddle)


def _after_paddle(paddle) -> None:
    hooks.install_signal_hooks()
    from paddle_doctor.runtime.launch import variations  # triage's reruns (no-op when not asked)

    variations.apply_from_env(paddle)
    if _options["trace"]:
        trace.enable(check=_options["check"])
        _set_trace_hooks()
    if _options["watchdog"]:
        watchdog.watch_everywhere()
        _wrap_init(paddle.distributed)
        try:
            if paddle.distributed.is_initialized():
                watchdog.ensure_started()
        except Exception:
            pass


def _set_trace_hooks() -> None:
    from paddle_doctor.runtime.guards import collcheck
    from paddle_doctor.runtime.guards.guardstate import STATE

    def before(entry) -> None:
        m = watchdog.ensure_started() if _options["watchdog"] else None
        if trace.TRACER.check:
            collcheck.check(entry, m, STATE)

    trace.TRACER.before_hooks[:] = [before]


def _wrap_init(dist) -> None:
    original = dist.init_parallel_env
    if getattr(original, "__paddle_doctor_original__", None) is not None:
        return

    @functools.wraps(original)
    def init_parallel_env(*args, **kwargs):
        result = original(*args, **kwargs)
        watchdog.ensure_started()
        return result

    init_parallel_env.__paddle_doctor_original__ = original
    dist.init_parallel_env = init_parallel_env


# -- import hook ----------------------------------------------------------------------------------


class _AfterImport:
    """A meta path finder that runs ``callback(module)`` once ``name`` has finished importing."""

    def __init__(self, name: str, callback):
        self.name, self.callback, self.busy = name, callback, False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name or self.busy:
            return None
        self.busy = True
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            self.busy = False
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _Loader(spec.loader, self)
        return spec

    def done(self, module) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        try:
            self.callback(module)
        except Exception:  # our hook must never break the user's import
            pass


class _Loader:
    def __init__(self, loader, finder: _AfterImport):
        self._loader, self._finder = loader, finder

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        self._loader.exec_module(module)
        self._finder.done(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


def _when_imported(name: str, callback) -> None:
    if not any(isinstance(f, _AfterImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(name, callback))


# -- sitecustomize entry --------------------------------------------------------------------------


def from_env() -> bool:
    """Install what ``paddle-doctor run`` asked for (PADDLE_DOCTOR_GUARDS) in a worker process."""
    guards = {g.strip() for g in os.environ.get(GUARDS_ENV, "").split(",") if g.strip()}
    if not guards or not _is_target():
        return False
    me = rankenv.current()
    os.environ[OWNER_ENV] = f"{os.getpid()}:{me.rank}"
    if os.environ.get(DEBUG_LOGS_ENV) and "NCCL_DEBUG_FILE" not in os.environ:
        os.environ["NCCL_DEBUG_FILE"] = str(me.log_dir / f"nccl_debug.{me.label}.%h.%p.log")
    install(trace="trace" in guards or "check" in guards, check="check" in guards,
            watchdog="watchdog" in guards)
    return True


def _is_target() -> bool:
    """A worker: started by a launcher (it has a rank), or the user's own process in a plain run;
    not the launcher itself, and not a child of a process that installed already (same rank)."""
    argv = list(getattr(sys, "orig_argv", sys.argv))
    if any(a in LAUNCHERS for a in argv) or any(os.path.basename(a) == "fleetrun" for a in argv[:2]):
        return False
    rank = rankenv.current().rank
    owner = os.environ.get(OWNER_ENV)
    if owner:
        return rank is not None and owner.split(":", 1)[-1] != str(rank)
    return rank is not None or bool(os.environ.get(SINGLE_ENV))
