"""A real launcher left waiting for a second node holds its --master port: `env` with that
PADDLE_MASTER names the port, the launcher's PID and command, and lists it as another run."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from paddle_doctor.process.ports import free_ports

pytestmark = pytest.mark.integration


def _free_port() -> int:
    return free_ports(1)[0]  # in this xdist worker's own range (tests/conftest.py)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_waiting_launcher_holds_the_master_port(tmp_path):
    (tmp_path / "sleep.py").write_text("import time; time.sleep(60)\n")
    port = _free_port()
    launcher = subprocess.Popen([sys.executable, "-m", "paddle.distributed.launch", "--master", f"127.0.0.1:{port}",
                                 "--nnodes", "2", "--nproc_per_node", "1", "--log_dir", str(tmp_path / "log"),
                                 "sleep.py"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not _listening(port):
            assert launcher.poll() is None and time.monotonic() < deadline, "the launcher never listened"
            time.sleep(0.2)
        proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--format", "json"],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PADDLE_MASTER": f"127.0.0.1:{port}"})
    finally:
        os.killpg(launcher.pid, signal.SIGTERM)
        launcher.wait(timeout=30)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    busy = [f for f in report["findings"] if f["cause"] == "port_in_use"]
    assert len(busy) == 1 and busy[0]["severity"] == "error" and busy[0]["facts"]["holders"] == [launcher.pid]
    assert "paddle.distributed.launch --master" in busy[0]["message"]
    others = [f for f in report["findings"] if f["cause"] == "leftover_paddle_process"]  # a CPU job: no GPU here
    assert others and launcher.pid in others[0]["facts"]["pids"]
