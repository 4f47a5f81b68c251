"""The one record: every field survives a JSON round trip, plain strings are coerced, facts are read-only."""

import json

import pytest

from paddle_doctor.findings import (Alternative, Confidence, Edit, EvidenceLine, Finding, Fixable, Location,
                                    RankStatus, Severity)


def _full() -> Finding:
    return Finding(
        code="PDL101", cause="main_guard_missing", message="DataLoader workers without a __main__ guard",
        severity="warning", locations=(Location("eval.py", 3, 4, 3, 20),),
        evidence=(EvidenceLine("eval.py", 3, "loader = DataLoader(ds, num_workers=2)"),), ranks=(1,),
        fix="guard it", confidence="medium", why="a module-level call", fixable="unsafe",
        alternatives=(Alternative("python_exception", "low", "maybe", "run it"),),
        edits=(Edit("eval.py", 3, 0, 3, 0, "if __name__ == '__main__':\n"),), status="victim",
        facts={"exit_code": 1, "log": "log/workerlog.1"})


def test_round_trip_through_json_keeps_every_field():
    finding = _full()
    again = Finding.from_dict(json.loads(json.dumps(finding.to_dict())))
    assert again == finding
    assert hash(again) == hash(finding)


def test_strings_become_the_enums():
    finding = _full()
    assert finding.severity is Severity.WARNING and finding.confidence is Confidence.MEDIUM
    assert finding.fixable is Fixable.UNSAFE and finding.status is RankStatus.VICTIM
    assert finding.alternatives[0].confidence is Confidence.LOW


def test_facts_are_read_only_and_unknown_keys_ignored():
    finding = Finding.from_dict({"code": "x", "cause": "unknown", "message": "m", "facts": {"a": 1}, "new": 2})
    with pytest.raises(TypeError):
        finding.facts["a"] = 2  # type: ignore[index]
    assert finding.fact("a") == 1 and finding.fact("b", 0) == 0
    assert finding.location == Location()


def test_bad_enum_value_is_refused():
    with pytest.raises(ValueError):
        Finding("x", "unknown", "m", severity="fatal")
