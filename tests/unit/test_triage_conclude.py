"""triage's conclusion on real diagnoses: the recorded failure cases (tests/fixtures/cases/) and a
triage baseline recorded under run's guards (tests/fixtures/triage/, see its README.md).

The rule under test: a concrete cause diagnosed in the failing run (an exception, a shm failure)
stays the cause and the passing variation says where it comes from; the family's usual cause is
named only when the failing run's diagnosis is a symptom (unknown, a timeout, nothing at all).
"""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.process.bounded_run import BoundedRun
from paddle_doctor.triage import VARIATIONS
from paddle_doctor.triage.conclude import conclude, variation_finding

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _diagnosis(rel: str):
    return diagnose_paths([str(FIXTURES / rel)])


def _triage(baseline, runs: dict[str, bool], changed: dict[str, int] | None = None):
    """Findings as triage makes them: the baseline fails with the recorded diagnosis; a variation
    that fails again fails the same way (as they did in the live runs). ``changed``: what each
    variation changed in the workers (not given: not known, as before the workers counted)."""
    findings, diagnoses = [], []
    for name, passed in {"baseline": False, **runs}.items():
        diagnosis = None if passed else baseline
        launch = BoundedRun(("python", "eval.py"), 0 if passed else 1, False, 5.0, Path("terminal.out"))
        findings.append(variation_finding(VARIATIONS[name], passed, launch, diagnosis, Path("log"),
                                          (changed or {}).get(name)))
        diagnoses.append(diagnosis)
    return conclude(findings, diagnoses)


def test_an_exception_on_one_rank_that_needs_several_ranks_stays_the_cause():
    baseline = _diagnosis("cases/21_metric_on_one_rank_shard")
    assert (baseline.root_cause.cause, baseline.root_cause.ranks) == ("python_exception", (2,))
    c = _triage(baseline, {"workers0": False, "single": True, "cpu": False})
    assert (c.cause, c.ranks, c.confidence.value) == ("python_exception", (2,), "high")
    assert c.fact("passing") == ["single"] and c.fact("kept_baseline_cause") is True
    assert "rank_divergent_collective" not in c.message + c.why
    assert "split across ranks: what rank 2 gets differs" in c.why
    assert any("ZeroDivisionError" in e.text for e in c.evidence)


def test_a_shm_failure_that_needs_workers_is_of_the_workers_family():
    baseline = _diagnosis("cases/20_dataloader_shm_too_small")
    c = _triage(baseline, {"workers0": True, "single": False, "cpu": False})
    assert (c.cause, c.ranks, c.confidence.value) == ("shm_too_small", (1,), "high")
    assert "is of that family" in c.why and "docker run --shm-size" in c.fix


def test_under_runs_guards_the_rank_record_yields_to_the_workers_bus_error():
    """Under triage the rank's own record says only "Blocking queue is killed"; its log says why."""
    baseline = _diagnosis("triage/20_baseline_under_guards")
    assert (baseline.root_cause.cause, baseline.root_cause.ranks) == ("shm_too_small", (1,))
    assert any("Unexpected BUS error" in e.text for e in baseline.root_cause.evidence)
    c = _triage(baseline, {"workers0": True, "single": False, "cpu": False})
    assert c.cause == "shm_too_small"


def test_a_concrete_exception_outside_the_family_says_where_it_comes_from():
    baseline = _diagnosis("cases/01_exception_rank1")
    c = _triage(baseline, {"workers0": True, "cpu": False})
    assert (c.cause, c.ranks, c.confidence.value) == ("python_exception", (1,), "high")
    assert "only when DataLoader worker processes load the data" in c.why
    c = _triage(baseline, {"workers0": False, "nockpt": True})
    assert c.cause == "python_exception" and "only when the checkpoint is loaded" in c.why


def test_a_symptom_gives_way_to_the_familys_usual_cause():
    """From the terminal alone, case 21 is `unknown` (the cause is in workerlog.2): a symptom."""
    baseline = _diagnosis("cases/21_metric_on_one_rank_shard/terminal.out")
    assert baseline.root_cause.cause == "unknown"
    c = _triage(baseline, {"workers0": False, "single": True, "cpu": False})
    assert (c.cause, c.confidence.value, c.fact("kept_baseline_cause")) == ("rank_divergent_collective", "medium", False)
    assert "only as unknown, a symptom" in c.why


def test_no_diagnosis_at_all_names_the_familys_usual_cause():
    c = _triage(None, {"workers0": True, "cpu": False})
    assert (c.cause, c.confidence.value) == ("dataloader_worker_crash", "medium")
    assert "left no diagnosis" in c.why


def test_main_guard_missing_passes_without_workers():
    baseline = _diagnosis("cases/17_main_guard_missing_spawn")
    c = _triage(baseline, {"workers0": True, "cpu": False})
    assert (c.cause, c.confidence.value) == ("main_guard_missing", "high")


def test_nothing_helps_keeps_the_baselines_cause():
    baseline = _diagnosis("cases/06_dataloader_worker_exception")
    c = _triage(baseline, {"workers0": False, "single": False, "cpu": False})
    assert c.cause == baseline.root_cause.cause == "dataloader_worker_crash"
    assert c.fact("passing") == [] and "every variation" in c.why


def test_a_pass_under_a_variation_that_changed_nothing_is_no_evidence():
    """The job failed once and passed under workers0, but no DataLoader asked for workers: the same
    command passed as it was. Naming the workers' family would be a guess from chance."""
    baseline = _diagnosis("cases/21_metric_on_one_rank_shard")
    c = _triage(baseline, {"workers0": True, "single": False, "cpu": False}, changed={"workers0": 0, "cpu": 1})
    assert c.fact("passing") == [] and c.fact("passed_unchanged") == ["workers0"] and c.fact("intermittent")
    assert (c.cause, c.confidence.value) == ("python_exception", "low")
    assert c.message.startswith("intermittent") and "no DataLoader asked for worker processes" in c.why
    assert "dataloader_worker_crash" not in c.message + c.why


def test_a_real_pass_beside_an_unchanged_one_is_named_at_low_confidence():
    baseline = _diagnosis("cases/20_dataloader_shm_too_small")
    c = _triage(baseline, {"workers0": True, "single": False, "cpu": True}, changed={"workers0": 2, "cpu": 0})
    assert (c.cause, c.confidence.value) == ("shm_too_small", "low")
    assert c.fact("passing") == ["workers0"] and c.fact("passed_unchanged") == ["cpu"]
    assert "cpu passed though it changed nothing (the job ran on the CPU already)" in c.why


def test_a_variations_row_says_when_it_changed_nothing():
    launch = BoundedRun(("python", "eval.py"), 0, False, 5.0, Path("terminal.out"))
    row = variation_finding(VARIATIONS["nockpt"], True, launch, None, Path("log"), 0)
    assert row.message.startswith("nockpt: passes (it changed nothing: no checkpoint was loaded)")
    assert row.fact("changed") == 0
    counted = variation_finding(VARIATIONS["nockpt"], True, launch, None, Path("log"), 3)
    assert "changed nothing" not in counted.message and counted.fact("changed") == 3
