"""Errors raised by the runtime guards (pre-flight, collective check). No paddle import here.

    GuardError (RuntimeError)
     |-- PreflightError           ranks disagree on their plan (data, model, versions); a table
     |                            names the ranks and the values that differ
     |-- CollectiveMismatchError  ranks are about to run different collectives, or the same one
     |                            with different shapes or dtypes; names who called what, where
     `-- StoreTimeoutError        a call on the TCP store did not return within its deadline

Each carries ``hint``: a dict that error records keep so that ``diagnose`` can name the cause id
and the culprit ranks without parsing the message (``{"category", "ranks", "summary"}``).
"""

from __future__ import annotations


class GuardError(RuntimeError):
    """Base class of the errors that the runtime guards raise on purpose."""

    def __init__(self, message: str, hint: dict | None = None):
        super().__init__(message)
        self.hint = hint or {}


class PreflightError(GuardError):
    """The ranks' plans differ: evaluating would mix unrelated numbers or hang."""


class CollectiveMismatchError(GuardError):
    """The ranks reached different collectives (or different shapes/dtypes at the same one)."""


class StoreTimeoutError(GuardError):
    """The TCP store did not answer in time (rank 0, which hosts it, may be stopped or dead)."""
