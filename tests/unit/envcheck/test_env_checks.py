"""Each check on facts (as a report from another machine would carry them), and the CHECKS table."""

import importlib.util
from pathlib import Path

import pytest
from envhelpers import gpu_build, recorded_nvidia_smi

from paddle_doctor.catalog import cause_ids
from paddle_doctor.envcheck.checks import CHECKS, run_checks
from paddle_doctor.envcheck.probes.gpu import probe_gpus
from paddle_doctor.envcheck.probes.paddle_build import nccl_code_to_version, probe_paddle, read_version_file

MiB = 1 << 20
LINUX = {"os": {"system": "Linux"}}


def causes(facts, cause):
    return [f for f in run_checks(facts) if f.cause == cause]


def test_every_check_names_a_catalog_cause_and_says_what_it_checks():
    assert CHECKS and all(c.cause in cause_ids() and c.what for c in CHECKS.values())


def test_findings_carry_their_check_name_as_code():
    facts = {"system": {"shm": {"total_bytes": 64 * MiB, "free_bytes": 64 * MiB}, "open_files": {"soft": 1024,
                                                                                              "hard": 1048576}}}
    assert {(f.code, f.cause) for f in run_checks(facts)} == {("shm_size", "shm_too_small"),
                                                                ("open_files", "too_many_open_files")}


@pytest.mark.parametrize("total_mib, severity", [(64, "error"), (512, "warning"), (8192, None)])
def test_shm_size(total_mib, severity):
    found = causes({"system": {"shm": {"total_bytes": total_mib * MiB, "free_bytes": total_mib * MiB}}},
                   "shm_too_small")
    assert [f.severity.value for f in found] == ([severity] if severity else [])


def test_shm_nearly_full():
    found = causes({"system": {"shm": {"total_bytes": 8192 * MiB, "free_bytes": 100 * MiB}}}, "shm_too_small")
    assert len(found) == 1 and "full" in found[0].message


def test_open_file_limit():
    found = causes({"system": {"open_files": {"soft": 1024, "hard": 4096}}}, "too_many_open_files")
    assert len(found) == 1 and "`ulimit -n 4096`" in found[0].fix
    assert not causes({"system": {"open_files": {"soft": 65535, "hard": 65535}}}, "too_many_open_files")


def test_cudnn_major_mismatch():
    facts = {"paddle": gpu_build(cudnn="9.5.1"),
             "libraries": {"cudnn": {"version": "8.9.7.29", "source": "pip nvidia-cudnn-cu12", "found": True}}}
    found = causes(facts, "cuda_cudnn_mismatch")
    assert len(found) == 1 and "cuDNN 9.5.1" in found[0].message and "8.9.7.29" in found[0].message
    facts["libraries"]["cudnn"]["version"] = "9.1.0.70"
    assert not causes(facts, "cuda_cudnn_mismatch")


def test_nccl_missing_on_a_gpu_build_on_linux():
    facts = {"paddle": gpu_build(), "system": LINUX, "libraries": {"nccl": {"version": None, "found": False}}}
    assert [f.code for f in causes(facts, "nccl_library_missing")] == ["nccl_library"]
    facts["libraries"]["nccl"] = {"version": "2.21.5", "source": "pip nvidia-nccl-cu12", "found": True}
    assert not causes(facts, "nccl_library_missing")
    cpu = {"paddle": {"installed": True, "compiled_with": {"cuda": None}}, "system": LINUX,
           "libraries": {"nccl": {"found": False}}}
    assert not causes(cpu, "nccl_library_missing")


def test_nccl_version_mismatch_with_the_build():
    facts = {"paddle": gpu_build(nccl="2.21.5"), "libraries": {"nccl": {"version": "2.18.3", "found": True}}}
    found = causes(facts, "nccl_version_mismatch")
    assert len(found) == 1 and "2.21.5" in found[0].message and "2.18.3" in found[0].message
    facts["libraries"]["nccl"]["version"] = "2.21.5"
    assert not causes(facts, "nccl_version_mismatch")


def test_windows_with_two_gpus():
    facts = {"system": {"os": {"system": "Windows"}}, "gpu": probe_gpus(recorded_nvidia_smi("a100x2"))}
    assert [f.code for f in causes(facts, "windows_no_nccl")] == ["platform"]
    facts["system"]["os"]["system"] = "Linux"
    assert not causes(facts, "windows_no_nccl")


@pytest.mark.parametrize("variables, expect", [
    ({"CUDA_VISIBLE_DEVICES": "0,1"}, None),
    ({"CUDA_VISIBLE_DEVICES": "2,3"}, "hides every GPU"),
    ({"CUDA_VISIBLE_DEVICES": "1,5"}, "do not exist: 5"),
    ({"CUDA_VISIBLE_DEVICES": "1,1"}, "lists a GPU twice"),
    ({"CUDA_VISIBLE_DEVICES": "1", "FLAGS_selected_gpus": "1"}, "only 1 visible GPU"),
    ({"CUDA_VISIBLE_DEVICES": "0,1", "FLAGS_selected_gpus": "1"}, None),
    ({"CUDA_VISIBLE_DEVICES": "GPU-9c04d2e6"}, None),
])
def test_cuda_visible_devices_vs_flags_selected_gpus(variables, expect):
    facts = {"variables": variables, "gpu": probe_gpus(recorded_nvidia_smi("a100x2"))}
    found = causes(facts, "cuda_visible_devices_misconfig")
    assert [expect in f.message for f in found] == ([True] if expect else []), [f.message for f in found]


ON_GPU = {"gpus": [{"index": 0}], "processes": [{"pid": 4242, "name": "python", "used_memory_mib": 900}]}


def test_stale_orphan_worker_is_an_error():
    orphan = {"pid": 4242, "ppid": 1, "state": "S", "role": "worker", "rank": 3, "cmd": "python train.py",
              "age_s": 7300, "ancestor": False, "orphan": True, "ports": [6072]}
    found = causes({"processes": {"paddle": [orphan], "under_launcher": False}, "gpu": ON_GPU},
                   "stale_process_holding_gpu")
    assert len(found) == 1 and found[0].severity.value == "error"
    assert "PID 4242 worker rank 3 (orphan, 900 MiB GPU, ports 6072, up 2h01m)" in found[0].message
    rank0 = dict(orphan, rank=0, orphan=False, ports=[])
    assert "PID 4242 worker rank 0 (900 MiB GPU, up 2h01m)" in causes({"processes": {"paddle": [rank0]}, "gpu": ON_GPU},
                                                                      "stale_process_holding_gpu")[0].message
    mine = dict(orphan, ancestor=True)
    assert not causes({"processes": {"paddle": [mine], "under_launcher": True}, "gpu": ON_GPU},
                      "stale_process_holding_gpu")


@pytest.mark.parametrize("gpu", [None, {"gpus": [], "nvidia_smi": False, "processes": []},
                                 {"gpus": [{"index": 0}], "processes": [{"pid": 7, "used_memory_mib": 10}]}])
def test_cpu_jobs_are_leftovers_not_gpu_holders(gpu):
    """No GPU here, or nvidia-smi lists other processes but not these: CPU jobs (row 24 of the
    newcomer walk: 14 CPU jobs were reported as `stale_process_holding_gpu`)."""
    orphan = {"pid": 4242, "ppid": 1, "state": "S", "role": "worker", "rank": 3, "cmd": "python train.py",
              "age_s": 60, "ancestor": False, "orphan": True, "ports": [6072]}
    facts = {"processes": {"paddle": [orphan, dict(orphan, pid=4243, orphan=False)]}, "gpu": gpu}
    holders = [f for f in causes(facts, "stale_process_holding_gpu") if 4242 in f.facts.get("pids", [])]
    assert holders == []
    found = causes(facts, "leftover_paddle_process")
    assert len(found) == 1 and found[0].facts["pids"] == [4242, 4243] and found[0].severity.value == "error"
    assert "GPU" in found[0].message and "MiB GPU" not in found[0].message  # "(no GPU here)" / "(none holds ...)"
    assert "GPU memory" not in found[0].why


def test_a_gpu_machine_that_lists_no_process_cannot_tell():
    worker = {"pid": 4242, "state": "S", "role": "worker", "rank": 0, "ancestor": False}
    facts = {"processes": {"paddle": [worker]}, "gpu": {"gpus": [{"index": 0}], "processes": []}}
    assert causes(facts, "stale_process_holding_gpu") and not causes(facts, "leftover_paddle_process")


@pytest.mark.parametrize("code, version", [("21805", "2.18.5"), ("22203", "2.22.3"), ("2804", "2.8.4"),
                                           ("0", None), (False, None), ("False", None)])
def test_nccl_version_code(code, version):
    assert nccl_code_to_version(code) == version


def test_version_file_is_read_without_running_it(tmp_path):
    canary = tmp_path / "ran"
    path = tmp_path / "__init__.py"
    path.write_text(f"# THIS FILE IS GENERATED FROM PADDLEPADDLE SETUP.PY\n#\nimport inspect\n"
                    f"open({str(canary)!r}, 'w').write('x')\n"
                    "full_version     = '3.3.1'\ncommit           = 'abc'\ncuda_version     = '12.6'\n"
                    "cudnn_version    = '9.5.1'\nnccl_version     = '22203'\ncompiled_cuda_archs     = [80, 90]\n")
    values = read_version_file(path)
    assert values == {"full_version": "3.3.1", "commit": "abc", "cuda_version": "12.6", "cudnn_version": "9.5.1",
                      "nccl_version": "22203", "compiled_cuda_archs": [80, 90]}
    assert not canary.exists()


@pytest.mark.needs_paddle
def test_installed_paddle_is_read_from_its_files():
    from importlib import metadata

    facts = probe_paddle()
    assert facts["installed"] and facts["version"] == metadata.version("paddlepaddle")
    assert facts["build"] == "cpu" and facts["compiled_with"]["cuda"] is None
    location = Path(importlib.util.find_spec("paddle").submodule_search_locations[0])
    assert len(facts["commit"]) == 40 and facts["commit"] in (location / "version/__init__.py").read_text()


NET = {"hostname": "gpu-node-1", "fqdn_ip": "127.0.1.1",
       "addresses": [{"interface": "eth0", "family": "inet", "address": "10.0.0.7"}]}


@pytest.mark.parametrize("variables, severity", [
    ({}, "info"),  # one node: loopback does not matter yet
    ({"PADDLE_NNODES": "2"}, "error"),
    ({"PADDLE_MASTER": "10.0.0.1:8090"}, "error"),
    ({"POD_IP": "10.0.0.7", "PADDLE_NNODES": "2"}, None),  # the launcher advertises POD_IP instead
    ({"POD_IP": "10.9.9.9", "PADDLE_NNODES": "2"}, "error"),
    ({"PADDLE_MASTER": "127.0.0.1:8090", "PADDLE_NNODES": "2"}, "info"),  # both "nodes" on this machine
])
def test_host_ip(variables, severity):
    found = causes({"network": NET, "variables": variables}, "wrong_host_ip")
    assert [f.severity.value for f in found] == ([severity] if severity else [])


def test_docs_list_every_check_with_its_cause():
    docs = (Path(__file__).resolve().parents[3] / "docs" / "env.md").read_text()
    for name, c in CHECKS.items():
        assert f"| `{name}` | `{c.cause}` | {c.what} |" in docs, name


def _paddle_dir(tmp_path, fixture):
    (tmp_path / "paddle/version").mkdir(parents=True)
    src = Path(__file__).parent / "fixtures/paddle_version" / fixture
    (tmp_path / "paddle/version/__init__.py").write_text(src.read_text())
    return tmp_path / "paddle"


def test_real_gpu_build_version_file(tmp_path):
    facts = probe_paddle(_paddle_dir(tmp_path, "gpu-2.6.2-cu118.py"))
    assert (facts["version"], facts["build"], facts["commit"]) == ("2.6.2", "gpu", "8ce0de584c570589117e403322f3d1a0de6554e5")
    assert facts["compiled_with"]["cuda"] == "11.8" and facts["compiled_with"]["cudnn"] == "8.6.0"
    assert facts["compiled_with"]["nccl"] is None  # 2.6 did not record it yet
    # on the 470 driver (CUDA 11.4) that build is a same-major warning; without NCCL, an error
    checks = {"paddle": facts, "gpu": probe_gpus(recorded_nvidia_smi("driver470")), "system": LINUX,
              "libraries": {"nccl": {"found": False}, "cudnn": {"version": "8.9.2", "found": True}}}
    assert sorted((f.cause, f.severity.value) for f in run_checks(checks)) == [
        ("cuda_cudnn_mismatch", "warning"), ("nccl_library_missing", "error")]


def test_real_cpu_build_version_file(tmp_path):
    facts = probe_paddle(_paddle_dir(tmp_path, "cpu-3.3.1.py"))
    assert (facts["version"], facts["build"]) == ("3.3.1", "cpu")
    assert facts["compiled_with"]["nccl"] is None and facts["compiled_with"]["pip_cuda_libraries"] is True


def test_protobuf_too_new_for_the_generated_modules_of_a_real_older_build(tmp_path):
    """paddlepaddle 2.6.2's Windows wheel creates its descriptors directly; protobuf 4.21.12 (upb) refuses
    them at `import paddle` (measured: bench/results/29-dependency-versions.md), 3.20.3 and the pure-Python
    backend accept them."""
    location = _paddle_dir(tmp_path, "cpu-3.3.1.py")
    (location / "base/proto").mkdir(parents=True)
    src = Path(__file__).parent / "fixtures/paddle_proto/win-2.6.2-framework_pb2.py"
    (location / "base/proto/framework_pb2.py").write_text(src.read_text())
    paddle = probe_paddle(location)
    assert paddle["proto_creates_descriptors"] is True
    found = causes({"paddle": paddle, "packages": {"protobuf": "4.21.12"}}, "dependency_version_mismatch")
    assert len(found) == 1 and "protobuf<=3.20.3" in found[0].fix
    assert not causes({"paddle": paddle, "packages": {"protobuf": "3.20.3"}}, "dependency_version_mismatch")
    assert not causes({"paddle": paddle, "packages": {"protobuf": "5.28.2"},
                       "variables": {"PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION": "python"}}, "dependency_version_mismatch")


@pytest.mark.needs_paddle
def test_the_installed_paddles_generated_modules_load_under_any_protobuf():
    facts = probe_paddle()
    assert facts["proto_creates_descriptors"] is False  # 3.3.1: protoc's builder output
    assert not causes({"paddle": facts, "packages": {"protobuf": "6.31.1"}}, "dependency_version_mismatch")
