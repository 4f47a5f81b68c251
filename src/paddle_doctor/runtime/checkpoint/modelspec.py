"""``--model module:factory``: build the model a checkpoint is checked against, and its key table."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from typing import Any

from ...ckpt.meta import TensorMeta
from .unwrap import unwrap


class ModelSpecError(ValueError):
    """``module:factory`` cannot be imported or does not give a paddle.nn.Layer."""


def build_model(spec: str) -> Any:
    """Import ``module`` (a dotted name or a path to a .py file), then call ``factory`` with no
    arguments (or take it as it is when it is already a Layer)."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:  # said before paddle's import (1.2 s of CPU) is paid
        raise ModelSpecError(f"--model {spec!r}: expected module:factory, e.g. paddle.vision.models:resnet18")
    try:
        with warnings.catch_warnings():
            # Paddle's import warns "No ccache found" (a note for C++ extension builders): noise in
            # front of `ckpt check`'s report, which builds no extension.
            warnings.filterwarnings("ignore", message=r"No ccache found", category=UserWarning)
            import paddle  # the one ckpt path that needs it
    except ImportError as exc:
        raise ModelSpecError(f"--model needs paddle installed to build the model ({exc})") from None

    module = _import(module_name)
    target: Any = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise ModelSpecError(f"--model {spec!r}: {module_name} has no attribute {attr!r}")
        target = getattr(target, part)
    model = target if isinstance(target, paddle.nn.Layer) else target()
    if not isinstance(model, paddle.nn.Layer):
        raise ModelSpecError(f"--model {spec!r} gave a {type(model).__name__}, not a paddle.nn.Layer")
    return model


def _import(name: str) -> Any:
    if name.endswith(".py") or os.sep in name:
        if not os.path.isfile(name):
            raise ModelSpecError(f"--model: no such file {name}")
        spec = importlib.util.spec_from_file_location(os.path.basename(name)[:-3], name)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, os.path.dirname(os.path.abspath(name)))
        spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ModelSpecError(f"--model: cannot import {name}: {exc}") from None


def state_meta(model: Any) -> dict[str, TensorMeta]:
    """Key -> shape and dtype of the (unwrapped) model's state dict."""
    out = {}
    for key, value in unwrap(model).state_dict().items():
        dtype = str(value.dtype).replace("paddle.", "")
        out[key] = TensorMeta(tuple(int(n) for n in value.shape), dtype)
    return out
