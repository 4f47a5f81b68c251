"""Probes on planted files: library versions on the library path, and a fake /proc with a launcher,
its worker, an orphan and this command."""

from pathlib import Path

from paddle_doctor.envcheck.probes.paddle_build import probe_libraries
from paddle_doctor.envcheck.probes.processes import probe_processes


def test_versioned_library_files_on_ld_library_path(tmp_path):
    for name in ("libnccl.so", "libnccl.so.2", "libnccl.so.2.18.3", "libcudnn.so.8", "libcudnn.so.8.9.7"):
        (tmp_path / name).write_bytes(b"")
    libs = probe_libraries({"LD_LIBRARY_PATH": f"/nonexistent:{tmp_path}"})
    # pip wheels or system headers, when this machine has them, come first; here it has neither
    assert libs["nccl"] == {"version": "2.18.3", "source": f"{tmp_path}/libnccl.so.2.18.3", "found": True}
    assert libs["cudnn"] == {"version": "8.9.7", "source": f"{tmp_path}/libcudnn.so.8.9.7", "found": True}


def _proc(root: Path, pid: int, ppid: int, cmd: list[str], env: dict | None = None, state: str = "S"):
    d = root / str(pid)
    (d / "fd").mkdir(parents=True)
    fields = [state, str(ppid)] + ["0"] * 17 + ["1000"]  # field 22 (start time) = 1000 ticks
    (d / "stat").write_text(f"{pid} (python3 (x)) {' '.join(fields)}\n")
    (d / "cmdline").write_bytes(b"\0".join(c.encode() for c in cmd) + b"\0")
    (d / "environ").write_bytes(b"\0".join(f"{k}={v}".encode() for k, v in (env or {}).items()))


def test_launcher_workers_orphans_and_ancestry(tmp_path):
    (tmp_path / "uptime").write_text("10000.00 100.00\n")
    _proc(tmp_path, 100, 1, ["python", "-m", "paddle.distributed.launch", "--nproc_per_node", "2", "eval.py"])
    _proc(tmp_path, 101, 100, ["python", "-u", "eval.py"], {"PADDLE_TRAINER_ID": "0"})
    _proc(tmp_path, 102, 101, ["python", "-m", "paddle_doctor.cli.main", "env"], {"PADDLE_TRAINER_ID": "0"})
    _proc(tmp_path, 200, 1, ["python", "-u", "old.py"], {"PADDLE_TRAINER_ID": "3"}, state="T")
    _proc(tmp_path, 300, 1, ["bash"])
    facts = probe_processes(tmp_path, self_pid=102)
    assert facts["under_launcher"] is True
    by_pid = {p["pid"]: p for p in facts["paddle"]}
    assert set(by_pid) == {100, 101, 200}
    assert by_pid[100]["role"] == "launcher" and by_pid[100]["ancestor"] is True
    assert by_pid[101]["rank"] == 0 and by_pid[101]["ancestor"] is True
    old = by_pid[200]
    assert (old["rank"], old["orphan"], old["state"], old["ancestor"]) == (3, True, "T", False)
    assert old["age_s"] > 0
    assert probe_processes(tmp_path, self_pid=300)["under_launcher"] is False


def test_a_shell_or_wrapper_that_runs_a_launcher_is_not_one(tmp_path):
    # The docs walk: `bash -c "paddle-doctor run ..."` and `timeout 200 bash -c ...` were counted as
    # Paddle launchers of other runs. The program itself must be the launcher.
    (tmp_path / "uptime").write_text("10000.00 100.00\n")
    _proc(tmp_path, 100, 1, ["bash", "-c", "paddle-doctor run --single -- python eval.py; echo rc=$?"])
    _proc(tmp_path, 101, 1, ["timeout", "200", "bash", "-c", "python -m paddle.distributed.launch eval.py"])
    _proc(tmp_path, 102, 1, ["/bin/bash", "./walk.sh", "python -m paddle.distributed.launch --nproc_per_node 2"])
    _proc(tmp_path, 103, 1, ["vim", "fleetrun_notes.txt", "paddle.distributed.launch"])
    _proc(tmp_path, 200, 1, ["/venv/bin/python3", "-u", "-X", "dev", "-m", "paddle.distributed.fleet.launch", "a.py"])
    _proc(tmp_path, 201, 1, ["/venv/bin/python", "/venv/bin/paddle-doctor", "run", "--", "python", "a.py"])
    _proc(tmp_path, 202, 1, ["/usr/local/bin/fleetrun", "--gpus", "0,1", "train.py"])
    _proc(tmp_path, 203, 1, ["python", "-c", "import paddle.distributed.launch"])
    launchers = {p["pid"] for p in probe_processes(tmp_path, self_pid=1)["paddle"] if p["role"] == "launcher"}
    assert launchers == {200, 201, 202}


def test_loader_config_folders_are_searched(tmp_path):
    from paddle_doctor.envcheck.probes.paddle_build import _ld_so_conf_dirs

    (tmp_path / "nccl.conf").write_text("# NCCL from NVIDIA's repository\n/opt/nccl/lib\ninclude other\n")
    (tmp_path / "cuda.conf").write_text("/usr/local/cuda-12.2/targets/x86_64-linux/lib\n")
    (tmp_path / "readme.txt").write_text("/not/a/conf\n")
    assert _ld_so_conf_dirs(tmp_path) == ["/usr/local/cuda-12.2/targets/x86_64-linux/lib", "/opt/nccl/lib"]
