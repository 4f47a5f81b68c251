"""Bridge: diagnose's current result (``diagnose.model.Diagnosis``) as a ``findings.Diagnosis``.

smoke, triage and the HTML page are written against ``paddle_doctor.findings``; diagnose is being
switched to return that type itself. Until it does, this one function converts. Once
``diagnose_paths`` returns a ``findings.Diagnosis``, the function passes it through and the
module can be deleted with its callers' one import.
"""

from __future__ import annotations

from paddle_doctor.findings import Diagnosis, EvidenceLine, Finding, Location


def as_findings_diagnosis(d) -> Diagnosis:
    if isinstance(d, Diagnosis):
        return d
    rc = d.root_cause
    root = None
    if rc is not None:
        root = Finding(
            code="diagnose", cause=rc.category, message=rc.title, ranks=() if rc.rank is None else (rc.rank,),
            evidence=tuple(EvidenceLine(e.file, e.line, e.text) for e in rc.evidence), fix=rc.fix,
            confidence=rc.confidence, why=rc.why_confident, status="root_cause",
            locations=tuple(Location(path=e.file, line=e.line, rank=rc.rank) for e in rc.evidence[:1]),
            facts={"time_source": rc.time_source, "confirm": rc.confirm})
    ranks = tuple(
        Finding(code="diagnose.rank", cause=rc.category if rc else "unknown",
                message=r.first_error or r.status, ranks=(r.rank,), status=r.status, why=r.why,
                severity="error" if r.status in ("root_cause", "victim") else "info",
                locations=(Location(path=r.log, rank=r.rank),) if r.log else (),
                facts={"exit_code": r.exit_code, "first_error": r.first_error, "log": r.log})
        for r in d.ranks)
    return Diagnosis(d.verdict, root, ranks, d.files_read, tuple(d.skipped), tuple(d.notes), d.launcher)
