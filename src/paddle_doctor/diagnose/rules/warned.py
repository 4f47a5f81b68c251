"""A warning that names a cause, when no error in the text explains more (issue 29). Paddle prints
some causes only as warnings (a GPU compute capability the build has no kernels for, a build made
for another cuDNN/CUDA, no driver, a CPU-only build); when nothing after them names a cause of its
own, the warning is the best reading there is. It is never ``high``: a warning does not say the job
failed because of it."""

from __future__ import annotations

from ...catalog import is_generic
from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..ranks import most_specific_first
from ..verdict import format_title, make_verdict
from .launcher import ERROR_ROLES


def from_named_warning(ranks, unranked, facts) -> Finding | None:
    """The most specific warning that names a cause (its signature's role is ``context``): ``medium``
    when an error line follows it (the failure it leads to), ``low`` when it is the only sign."""
    owned = [(rank, e) for rank, s in ranks.items() for e in s.events] + [(None, e) for e in unranked]
    warnings = [e for _, e in owned if e.role == "context" and e.sig.cause != CauseId.unknown
                and not is_generic(e.sig.cause)]
    warning = most_specific_first(warnings)
    if warning is None:
        return None
    rank = next(r for r, e in owned if e is warning)
    after = [e for _, e in owned if e.role in ERROR_ROLES and e.role != "context" and e.file == warning.file
             and (e.line, e.offset) > (warning.line, warning.offset)]
    confidence = "medium" if after else "low"
    led_to = f"; the error after it ({after[0].file}:{after[0].line}) is what it leads to" if after else ""
    return make_verdict(
        "warning_names_cause", warning.sig.cause, rank, [warning, *after[:1]], confidence,
        f"a warning names the cause ({warning.sig.cause}) and no error in the text names another{led_to}",
        title=format_title(warning), alternatives=(Alternative(
            CauseId.unknown, "low", "a warning does not say the job failed because of it",
            "fix what the warning names and rerun: the failure goes away if it was the cause"),))
