"""``diagnose --format github``: GitHub Actions workflow commands, as ``ruff --output-format github``.

One ``::error`` on the culprit line: the innermost frame of the user's own code when the evidence
quotes one (``File "eval.py", line 49``) and it lies in the workspace, else the evidence line in the
worker log. GitHub shows it on the run's summary page and, for a file in the repository, beside
the line. Escaping follows the runner's rules (``%``, CR, LF in the message; also ``:`` and ``,``
in a property), so a log line can never end the command or add one of its own.
"""

from __future__ import annotations

import os
import re

from ...findings import Diagnosis, EvidenceLine

FRAME_RE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **props: str | int) -> str:
    given = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v not in (None, ""))
    return f"::{kind}{' ' + given if given else ''}::{escape_data(message)}"


def culprit_location(evidence: tuple[EvidenceLine, ...], workspace: str) -> tuple[str, int] | None:
    """(path relative to the workspace, line) of the innermost user frame that lies in the workspace."""
    root = os.path.abspath(workspace)
    for ev in reversed(evidence):
        m = FRAME_RE.search(ev.text)
        if m is None:
            continue
        path = os.path.abspath(os.path.join(root, m["file"]))
        if path.startswith(root + os.sep) and "site-packages" not in path:
            return os.path.relpath(path, root), int(m["line"])
    return None


def annotations(d: Diagnosis, verdict: str, workspace: str) -> list[str]:
    """The workflow commands for ``d``; ``verdict`` is its one-line text (render.text's)."""
    rc = d.root_cause
    if rc is None:
        kind = "error" if d.verdict == "failure" else "notice"
        return [command(kind, verdict, title="paddle-doctor")]
    rank = f" on rank {rc.ranks[0]}" if rc.ranks else ""
    title = f"paddle-doctor: {rc.cause}{rank} ({rc.confidence.value} confidence)"
    log = rc.evidence[0] if rc.evidence else None
    where_in_log = f"{log.path}:{log.line}" if log is not None else ""
    message = "\n".join(part for part in (verdict, f"evidence: {where_in_log}" if where_in_log else "",
                                          f"fix: {rc.fix.strip().splitlines()[0].lstrip('- ')}" if rc.fix.strip() else "",
                                          f"more: paddle-doctor explain {rc.cause}") if part)
    culprit = culprit_location(rc.evidence, workspace)
    if culprit is not None:
        return [command("error", message, file=culprit[0], line=culprit[1], title=title)]
    if log is not None:
        return [command("error", message, file=log.path, line=log.line, title=title)]
    return [command("error", message, title=title)]
