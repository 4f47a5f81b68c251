"""The one exception tree of paddle-doctor. No paddle import here.

    PaddleDoctorError (RuntimeError)              cause (catalog id) by default
     |-- EvalError                                the errors ``evaluate`` raises on purpose
     |    |-- SampleCountError                    eval_samples_dropped: a sample was dropped or
     |    |                                       counted twice (num_samples != len(dataset))
     |    |-- StateSchemaError                    rank_divergent_collective: ranks hold metric states
     |    |                                       of different names, shapes or dtypes
     |    |-- PeerFailedError                     python_exception: another rank raised inside
     |    |                                       evaluate(), or never entered it; names it
     |    `-- BatchError                          python_exception: the dataset or the collate_fn
     |                                            raised while building a batch; names the sample
     |                                            indices and the argument to change
     |-- GuardError                               the errors the runtime guards raise on purpose
     |    |-- PreflightError                      config_error: ranks disagree on their plan (data,
     |    |                                       model, versions); a table names ranks and values
     |    |-- CollectiveMismatchError             rank_divergent_collective: ranks are about to run
     |    |                                       different collectives, or shapes/dtypes differ
     |    `-- StoreTimeoutError                   collective_timeout: a TCP store call did not
     |                                            return within its deadline
     `-- CheckpointError                          checkpoint_corrupt: a checkpoint file cannot be read
          |                                       (empty, truncated, not a checkpoint)
          |-- UnsafeCheckpointError               checkpoint_unsafe: the pickle asks for a global
          |                                       outside the allowlist; nothing of it ran
          `-- StateDictMismatchError              state_dict_shape_mismatch (or _prefix_): load_clean
                                                  found keys or shapes that do not match the model;
                                                  ``findings`` and a table name each one

Every exception knows its cause id (``exc.cause``): the class default, or the one its ``finding``
names when the instance knows better (``SampleCountError`` for a duplicate says
``eval_samples_duplicated``). ``diagnose`` maps our exception names seen in logs to cause ids
with :data:`CAUSE_BY_NAME`.
"""

from __future__ import annotations

from .findings import Finding
from .catalog.ids import CauseId


class PaddleDoctorError(RuntimeError):
    """Base class of every error paddle-doctor raises on purpose."""

    default_cause = CauseId.unknown

    def __init__(self, message: str, finding: Finding | None = None):
        super().__init__(message)
        self.finding = finding  # what the guard found (culprit ranks, cause id), when it knows

    @property
    def cause(self) -> str:
        if self.finding is not None:
            return self.finding.cause
        return self.default_cause


class EvalError(PaddleDoctorError):
    """Base class of the errors that ``paddle_doctor.evaluate`` raises on purpose."""

    default_cause = CauseId.python_exception


class SampleCountError(EvalError):
    """The evaluated samples are not exactly the dataset: some are missing or counted twice."""

    default_cause = CauseId.eval_samples_dropped


class StateSchemaError(EvalError):
    """The ranks hold metric states of different names, shapes or dtypes."""

    default_cause = CauseId.rank_divergent_collective


class PeerFailedError(EvalError):
    """Another rank raised during the evaluation; this rank stops instead of waiting forever."""

    default_cause = CauseId.python_exception


class BatchError(EvalError):
    """Building a batch failed (the dataset's ``__getitem__`` or the ``collate_fn`` raised, in this
    process or a DataLoader worker): raised on the rank where it happened, within seconds."""

    default_cause = CauseId.python_exception


class GuardError(PaddleDoctorError):
    """Base class of the errors that the runtime guards raise on purpose."""

    default_cause = CauseId.unknown


class PreflightError(GuardError):
    """The ranks' plans differ: evaluating would mix unrelated numbers or hang."""

    default_cause = CauseId.config_error


class CollectiveMismatchError(GuardError):
    """The ranks reached different collectives (or different shapes/dtypes at the same one)."""

    default_cause = CauseId.rank_divergent_collective


class StoreTimeoutError(GuardError):
    """The TCP store did not answer in time (rank 0, which hosts it, may be stopped or dead)."""

    default_cause = CauseId.collective_timeout


class CheckpointError(PaddleDoctorError):
    """A checkpoint cannot be read: empty, truncated, or not a checkpoint at all."""

    default_cause = CauseId.checkpoint_corrupt


class UnsafeCheckpointError(CheckpointError):
    """The pickle asks for a global outside the allowlist (it could run code); it was not loaded."""

    default_cause = CauseId.checkpoint_unsafe


class StateDictMismatchError(CheckpointError):
    """The checkpoint does not fit the model: missing, unexpected or shape-mismatched keys.

    ``findings`` holds one Finding per kind of problem; the message is a table of them. The cause
    is the first problem a prefix rename does not fix (the rename itself is applied silently).
    """

    default_cause = CauseId.state_dict_shape_mismatch

    def __init__(self, message: str, findings: tuple[Finding, ...] = ()):
        blocking = [f for f in findings if f.cause != CauseId.state_dict_prefix_mismatch] or list(findings)
        super().__init__(message, finding=blocking[0] if blocking else None)
        self.findings = tuple(findings)


def _tree(root: type) -> list[type]:
    out = [root]
    for sub in root.__subclasses__():
        out.extend(_tree(sub))
    return out


# Exception class name -> default cause id, for diagnose reading a traceback's last line.
CAUSE_BY_NAME: dict[str, str] = {cls.__name__: cls.default_cause for cls in _tree(PaddleDoctorError)}
