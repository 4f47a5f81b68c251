"""``paddle-doctor triage``'s variations, applied inside each worker once paddle is imported.

Guide 001 §4.1 bisects a failure by hand: DataLoader ``num_workers=0``, ``set_device('cpu')``,
random weights instead of the checkpoint. ``triage`` reruns the user's unchanged command with
``PADDLE_DOCTOR_VARIATIONS`` (a comma list) beside ``run``'s guards; ``bootstrap`` calls
:func:`apply_from_env` after paddle is imported. Each variation patches paddle's own entry points
on their classes, so every way a script reaches them (``paddle.io.DataLoader``, ``from paddle.io
import DataLoader``) is covered. Nothing here may break the user's program when the env var is unset.
"""

from __future__ import annotations

import functools
import inspect
import json
import os

from paddle_doctor.contract import VARIATIONS_ENV, applied_name
from paddle_doctor.runtime.channel import rankenv

KNOWN = ("workers0", "cpu", "nockpt")
# What each variation changed in this process: a DataLoader that asked for workers, a device other
# than the CPU, a checkpoint load. triage reads the counts (``paddle_doctor_applied.<rank>.json``):
# a rerun that passes under a variation that changed nothing says the failure is intermittent, not
# that it needs what the variation takes away.
_changed: dict[str, int] = {}


def requested() -> set[str]:
    return {v.strip() for v in os.environ.get(VARIATIONS_ENV, "").split(",") if v.strip() in KNOWN}


def apply_from_env(paddle) -> set[str]:
    """Apply the variations named in the environment; returns those applied."""
    wanted = requested()
    for name in sorted(wanted):
        _changed.setdefault(name, 0)
        {"workers0": no_dataloader_workers, "cpu": cpu_only, "nockpt": no_checkpoint_load}[name](paddle)
    if wanted:
        _save()  # zero counts too: "applied, changed nothing" differs from "never applied"
    return wanted


def _count(name: str) -> None:
    _changed[name] = _changed.get(name, 0) + 1
    _save()  # at once: the rerun may crash right after the change


def _save() -> None:
    try:
        me = rankenv.current()
        path = me.log_dir / applied_name(me.label)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(_changed), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # the counts only qualify triage's reading; never fail the user's program for them


def _once(owner, attr: str, make) -> None:
    original = getattr(owner, attr)
    if getattr(original, "__paddle_doctor_variation__", False):
        return
    patched = functools.wraps(original)(make(original))
    patched.__paddle_doctor_variation__ = True
    setattr(owner, attr, patched)


def no_dataloader_workers(paddle) -> None:
    """Every DataLoader loads in the main process (no worker processes at all)."""
    def make(original):
        signature = inspect.signature(original)

        def __init__(self, *args, **kwargs):
            bound = signature.bind(self, *args, **kwargs)
            if (bound.arguments.get("num_workers") or 0) > 0:
                _count("workers0")
            bound.arguments["num_workers"] = 0
            bound.arguments.pop("persistent_workers", None)  # needs workers
            return original(*bound.args, **bound.kwargs)
        return __init__

    _once(paddle.io.DataLoader, "__init__", make)


def cpu_only(paddle) -> None:
    """The device is the CPU, whatever the script asks for."""
    def make(original):
        def set_device(device=None, *args, **kwargs):
            if not str(device or "cpu").lower().startswith("cpu"):
                _count("cpu")
            return original("cpu")
        return set_device

    if not str(paddle.device.get_device()).startswith("cpu"):
        _count("cpu")  # the process would have run on its accelerator
    for owner in (paddle, paddle.device):
        _once(owner, "set_device", make)
    paddle.set_device("cpu")


def no_checkpoint_load(paddle) -> None:
    """Random weights: ``paddle.load`` reads nothing and returns an empty state; loading a state
    into a layer or an optimizer keeps what it has."""
    def make_load(original):
        def load(path, **kwargs):
            _count("nockpt")
            return {}
        return load

    def make_set_state(original):
        def set_state_dict(self, state_dict, *args, **kwargs):
            if state_dict:  # what paddle.load gave back here is empty: only a state built otherwise counts
                _count("nockpt")
            return [], []
        return set_state_dict

    _once(paddle, "load", make_load)
    _once(paddle.framework, "load", make_load)
    for name in ("set_state_dict", "set_dict", "load_dict"):
        if hasattr(paddle.nn.Layer, name):
            _once(paddle.nn.Layer, name, make_set_state)
    _once(paddle.optimizer.Optimizer, "set_state_dict", make_set_state)
