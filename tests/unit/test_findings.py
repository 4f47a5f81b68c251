"""The one record: every field survives a JSON round trip, plain strings are coerced, facts are read-only."""

import json

import pytest

from paddle_doctor.findings import (ROW_CONTRACT_KEYS, Alternative, Confidence, Diagnosis, Edit, EvidenceLine,
                                    Facts, Finding, Fixable, Location, Outcome, RankRow, RankStatus, Severity)


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


def test_facts_are_a_plain_dict_that_pickles_and_refuses_changes():
    import copy
    import pickle

    finding = _full()
    assert isinstance(finding.facts, dict) and isinstance(finding.facts, Facts)
    again = pickle.loads(pickle.dumps(finding))  # what a process pool does with every Finding
    assert again == finding and isinstance(again.facts, Facts)
    assert copy.deepcopy(finding) == finding
    for change in (lambda f: f.update(x=1), lambda f: f.pop("log"), lambda f: f.setdefault("x", 1),
                   lambda f: f.clear(), lambda f: f.__delitem__("log"), lambda f: f.__ior__({"x": 1})):
        with pytest.raises(TypeError):
            change(finding.facts)
    assert dict(finding.facts) == {"exit_code": 1, "log": "log/workerlog.1"}


def test_outcome_is_typed_and_only_written_when_set():
    check = Finding("smoke.barrier", "unknown", "barrier: ok", outcome="pass")
    assert check.outcome is Outcome.PASS
    assert Finding.from_dict(json.loads(json.dumps(check.to_dict()))) == check
    assert "outcome" not in _full().to_dict()  # records and lint reports keep their keys
    with pytest.raises(ValueError):
        Finding("x", "unknown", "m", outcome="maybe")


def test_rank_rows_carry_the_contract_keys_first_and_default_from_the_rank_findings():
    row = RankRow(1, "victim", exit_code=1, first_error="boom", log="log/workerlog.1", why="peer died")
    assert tuple(row.to_dict())[:len(ROW_CONTRACT_KEYS)] == ROW_CONTRACT_KEYS
    assert row.status is RankStatus.VICTIM and row.to_dict()["status"] == "victim"
    with pytest.raises(TypeError):
        RankRow(1, exit_cod=1)  # type: ignore[call-arg]  (a typo is an error, not a null)
    d = Diagnosis("failure", None, (_full(),), 1)
    assert d.rows == (RankRow(1, "victim", exit_code=1, log="log/workerlog.1"),)
