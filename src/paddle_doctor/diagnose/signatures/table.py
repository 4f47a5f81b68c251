"""The whole signature table, in match order (the first match wins: specific before generic): the rows of Paddle
and its suites (:mod:`.rows`) and of the tools around it (:mod:`.tools`)."""

from __future__ import annotations

from .rows.api_versions import RENAMED_MODULES
from .rows.crashes import CRASHES
from .rows.devices import DEVICE_FACTS, DEVICES
from .rows.launch_env import LAUNCH_ENV
from .rows.libraries import LIBRARIES, LIBRARY_NOT_FOUND
from .rows.loading import LOADING
from .model import Signature
from .rows.native import NATIVE
from .rows.older_forms import OLDER_FORMS
from .rows.signals import SIGNALS
from .rows.windows import WINDOWS
from .tools.inference import INFERENCE
from .tools.installs import INSTALLS
from .tools.lite import LITE_LOADERS
from .tools.paddlex import PADDLEX

SIGNATURES: tuple[Signature, ...] = (*RENAMED_MODULES, *LAUNCH_ENV, *NATIVE, *CRASHES, *WINDOWS, *SIGNALS, *OLDER_FORMS, *LOADING, *LITE_LOADERS, *DEVICES, *INFERENCE, *PADDLEX, *INSTALLS,
                                     *LIBRARY_NOT_FOUND, *LIBRARIES, *DEVICE_FACTS)
# The lens's registry of rules (paddle_doctor.rules): the rows that are evidence of a cause.
CAUSE_SIGNATURES: tuple[Signature, ...] = tuple(s for s in SIGNATURES if s.points_at_cause)


def signature_table() -> list[dict]:
    """The signatures as plain data (name, role, cause id, source, example): the catalog's
    ``signatures`` back-links are derived from it."""
    return [{"name": s.name, "role": s.role, "cause": s.cause, "specificity": s.specificity,
             "source": s.source, "example": s.example} for s in SIGNATURES]


def signatures_by_cause() -> dict[str, list[str]]:
    """cause id -> names of the signatures that point to it."""
    out: dict[str, list[str]] = {}
    for s in CAUSE_SIGNATURES:
        out.setdefault(s.cause, []).append(s.name)
    return out

