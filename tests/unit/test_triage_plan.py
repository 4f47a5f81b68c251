"""triage's pure parts: which variations apply, how each rewrites the command, what passes mean."""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.findings import Diagnosis, EvidenceLine, Finding
from paddle_doctor.process.bounded_run import BoundedRun
from paddle_doctor.triage import VARIATIONS, plan_variations
from paddle_doctor.triage.conclude import conclude, variation_finding
from paddle_doctor.triage.plan import rewrite_command, variation_env

LAUNCH = ["python", "-m", "paddle.distributed.launch", "--nproc_per_node", "4", "--nnodes", "2",
          "--master", "10.0.0.1:8090", "--log_dir=old", "--devices", "0,1,2,3", "train.py", "--nproc_per_node", "7"]


def names(cmd, **kw):
    return [v.name for v in plan_variations(cmd, **kw)]


def test_variations_that_apply():
    assert names(LAUNCH) == ["baseline", "workers0", "single", "cpu"]
    assert names(LAUNCH, checkpoint=True) == ["baseline", "workers0", "single", "cpu", "nockpt"]
    assert names(["python", "eval.py"]) == ["baseline", "workers0", "cpu"]
    one = ["python", "-m", "paddle.distributed.launch", "--nproc_per_node", "1", "eval.py"]
    assert names(one) == ["baseline", "workers0", "cpu"]


def test_single_keeps_the_script_and_its_arguments():
    cmd = rewrite_command(LAUNCH, VARIATIONS["single"], "/out/single/log")
    assert cmd == ["python", "-m", "paddle.distributed.launch", "--devices", "0,1,2,3", "--log_dir",
                   "/out/single/log", "--nproc_per_node", "1", "train.py", "--nproc_per_node", "7"]


def test_cpu_drops_device_flags_and_points_logs():
    cmd = rewrite_command(LAUNCH, VARIATIONS["cpu"], "/o")
    assert "--devices" not in cmd and cmd[cmd.index("--log_dir") + 1] == "/o" and "old" not in " ".join(cmd)
    assert cmd[cmd.index("--nproc_per_node") + 1] == "4"
    assert variation_env(VARIATIONS["cpu"], cmd) == {"PADDLE_DOCTOR_VARIATIONS": "cpu"}
    assert variation_env(VARIATIONS["cpu"], ["python", "x.py"])["CUDA_VISIBLE_DEVICES"] == ""
    assert rewrite_command(["python", "x.py"], VARIATIONS["single"], "/o") == ["python", "x.py"]


def _run(code):
    return BoundedRun(("python", "x.py"), code, False, 1.0, Path("t.out"))


def _diag(cause, rank=1):
    root = Finding("diagnose", cause, f"{cause} on rank {rank}", ranks=(rank,),
                   evidence=(EvidenceLine("log/workerlog.1", 3, "boom"),))
    return Diagnosis("failure", root, (), 1)


def _findings(outcomes):
    out, diags = [], []
    for name, passed, cause in outcomes:
        d = None if passed else _diag(cause)
        out.append(variation_finding(VARIATIONS[name], passed, _run(0 if passed else 1), d, Path("log")))
        diags.append(d)
    return out, diags


def test_pass_without_workers_keeps_a_diagnosis_of_that_family():
    f, d = _findings([("baseline", False, "main_guard_missing"), ("workers0", True, None), ("cpu", False, "main_guard_missing")])
    c = conclude(f, d)
    assert (c.cause, c.confidence.value, c.fact("passing")) == ("main_guard_missing", "high", ["workers0"])


def test_pass_with_one_process_keeps_a_diagnosis_of_that_family():
    f, d = _findings([("baseline", False, "uneven_eval_batches"), ("workers0", False, "uneven_eval_batches"),
                      ("single", True, None)])
    assert conclude(f, d).cause == "uneven_eval_batches"


def test_nothing_passes_blames_the_code_with_the_clearest_rerun():
    f, d = _findings([("baseline", False, "dataloader_worker_crash"), ("workers0", False, "python_exception"),
                      ("single", False, "dataloader_worker_crash")])
    c = conclude(f, d)
    assert c.cause == "dataloader_worker_crash" and c.fact("passing") == []
    assert "python_exception" in c.why and "every variation" in c.why


def test_baseline_passing_means_nothing_to_triage():
    f, d = _findings([("baseline", True, None)])
    assert conclude(f, d).cause == "unknown" and "nothing to triage" in conclude(f, d).message


def test_the_cpu_rerun_is_skipped_where_the_job_ran_on_cpu_already(tmp_path):
    from paddle_doctor.triage.plan import accelerator_present, skip_reason

    cpu = VARIATIONS["cpu"]
    assert not accelerator_present(tmp_path)
    for node in ("nvidia0", "kfd", "davinci3", "xpu1"):
        (tmp_path / node).touch()
        assert accelerator_present(tmp_path), node
        (tmp_path / node).unlink()
    (tmp_path / "nvidiactl").touch()  # the control node alone is no device
    assert not accelerator_present(tmp_path)
    assert "ran on the CPU already" in skip_reason(cpu, "python_exception", accelerator=False)
    assert skip_reason(cpu, None, accelerator=False) is not None
    # a GPU-family failure on a machine without a GPU: forcing the CPU is the telling rerun
    assert skip_reason(cpu, "device_not_found", accelerator=False) is None
    assert skip_reason(cpu, "python_exception", accelerator=True) is None
    assert skip_reason(VARIATIONS["workers0"], "python_exception", accelerator=False) is None


def test_a_skipped_variation_is_a_skip_row_not_a_failure():
    from paddle_doctor.render.checks import check_table
    from paddle_doctor.triage.conclude import skipped_finding

    row = check_table([skipped_finding(VARIATIONS["cpu"], "no GPU here")])[0]
    assert row.text.lstrip().startswith("SKIP  cpu") and "no GPU here" in row.text and "[unknown]" not in row.text
