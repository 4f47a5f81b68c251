"""Errors raised by the runtime helpers (no paddle import here).

    EvalError (RuntimeError)
     |-- SampleCountError    a sample was dropped or counted twice (num_samples != len(dataset))
     |-- StateSchemaError    ranks disagree on their metric states: a collective would crash or mix
     |                       unrelated numbers, so we stop before it
     `-- PeerFailedError     another rank raised inside evaluate(); names it

Every rank raises the same error at the same point, so none is left waiting in a collective.
"""

from __future__ import annotations


class EvalError(RuntimeError):
    """Base class of the errors that ``paddle_doctor.evaluate`` raises on purpose."""


class SampleCountError(EvalError):
    """The evaluated samples are not exactly the dataset: some are missing or counted twice."""


class StateSchemaError(EvalError):
    """The ranks hold metric states of different names, shapes or dtypes."""


class PeerFailedError(EvalError):
    """Another rank raised during the evaluation; this rank stops instead of waiting forever."""
