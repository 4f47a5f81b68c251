"""nvidia-smi probes on recorded outputs (no GPU here), and this machine's real no-GPU answer."""

from pathlib import Path

import pytest

from envhelpers import recorded_nvidia_smi, gpu_build

from paddle_doctor.envcheck.checks import run_checks
from paddle_doctor.envcheck.probes.commands import run_command
from paddle_doctor.envcheck.probes.gpu import GPU_FIELDS, gpu_query, probe_gpus


def test_two_a100s_with_a_process_on_gpu0():
    facts = probe_gpus(recorded_nvidia_smi("a100x2"))
    assert facts["nvidia_smi"] is True and facts["error"] is None
    assert (facts["driver_version"], facts["driver_cuda_version"]) == ("535.154.05", "12.2")
    assert [g["index"] for g in facts["gpus"]] == [0, 1]
    gpu0 = facts["gpus"][0]
    assert gpu0["name"] == "NVIDIA A100-SXM4-80GB" and gpu0["compute_cap"] == "8.0"
    assert (gpu0["memory_used_mib"], gpu0["memory_total_mib"], gpu0["utilization_pct"]) == (30729, 81920, 87)
    assert facts["processes"] == [{"pid": 48213, "name": "/usr/bin/python3", "used_memory_mib": 30716,
                                   "gpu_uuid": "GPU-3b1e4f0c-8d2a-6c7e-91f4-2a5d0e7b9c11"}]


def test_old_driver_without_compute_cap_falls_back():
    runner = recorded_nvidia_smi("driver470")
    facts = probe_gpus(runner)
    assert facts["driver_cuda_version"] == "11.4"
    assert [g["name"] for g in facts["gpus"]] == ["Tesla V100-SXM2-32GB"]
    assert facts["gpus"][0]["compute_cap"] is None and facts["processes"] == []
    assert gpu_query(GPU_FIELDS) in runner.calls and gpu_query(GPU_FIELDS[:-1]) in runner.calls


def test_driver_not_loaded_is_an_error_fact(tmp_path):
    facts = probe_gpus(recorded_nvidia_smi("nodriver"), proc_root=tmp_path)
    assert facts["nvidia_smi"] is True and facts["gpus"] == []
    assert facts["error"].startswith("NVIDIA-SMI has failed because it couldn't communicate")


def test_no_nvidia_smi_reads_the_driver_version_from_proc(tmp_path):
    (tmp_path / "driver/nvidia").mkdir(parents=True)
    (tmp_path / "driver/nvidia/version").write_text(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.154.05  Thu Dec 28 15:37:48 UTC 2023\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
    facts = probe_gpus(lambda argv, timeout: None, proc_root=tmp_path)
    assert facts == {"nvidia_smi": False, "driver_version": "535.154.05", "driver_cuda_version": None,
                     "gpus": [], "processes": [], "error": None}


def test_this_machine_has_no_gpu():
    facts = probe_gpus(run_command, proc_root=Path("/proc"))
    assert facts["gpus"] == [] and facts["processes"] == []


def test_build_for_cuda_12_6_on_a_cuda_11_4_driver_is_an_error():
    facts = {"paddle": gpu_build(cuda="12.6"), "gpu": probe_gpus(recorded_nvidia_smi("driver470")),
             "system": {"os": {"system": "Linux"}}, "libraries": {"nccl": {"found": True}}}
    found = [f for f in run_checks(facts) if f.cause == "cuda_cudnn_mismatch"]
    assert len(found) == 1 and found[0].severity.value == "error"
    assert "CUDA 12.6" in found[0].message and "11.4" in found[0].message


def test_build_for_cuda_12_6_on_a_cuda_12_2_driver_is_a_warning():
    facts = {"paddle": gpu_build(cuda="12.6"), "gpu": probe_gpus(recorded_nvidia_smi("a100x2"))}
    found = [f for f in run_checks(facts) if f.cause == "cuda_cudnn_mismatch"]
    assert [f.severity.value for f in found] == ["warning"]


def test_gpu_memory_held_by_another_process_is_reported():
    facts = {"gpu": probe_gpus(recorded_nvidia_smi("a100x2")), "processes": {"paddle": [], "under_launcher": False}}
    found = [f for f in run_checks(facts) if f.cause == "stale_process_holding_gpu"]
    assert len(found) == 1 and found[0].fact("pids") == [48213]
    assert "30716 MiB" in found[0].message


@pytest.mark.needs_paddle
def test_whole_report_of_a_simulated_gpu_machine():
    from paddle_doctor.envcheck import collect_env
    from paddle_doctor.render.env_text import render_env

    report = collect_env({"CUDA_VISIBLE_DEVICES": "0,1", "FLAGS_selected_gpus": "2"},
                         run=recorded_nvidia_smi("a100x2"))
    assert [g["index"] for g in report["gpu"]["gpus"]] == [0, 1]
    causes = {f["cause"] for f in report["findings"]}
    assert {"stale_process_holding_gpu", "cuda_visible_devices_misconfig", "residual_dist_env"} <= causes
    text = render_env(report)
    assert "- **GPUs**: 2 | 0: NVIDIA A100-SXM4-80GB, sm 8.0, 30729/81920 MiB used, 87% busy " \
           "[PID 48213 30716 MiB] | 1: NVIDIA A100-SXM4-80GB" in text
    assert "driver 535.154.05 (supports CUDA 12.2)" in text
