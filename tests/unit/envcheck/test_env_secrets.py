"""Planted secrets never reach any output format of `paddle-doctor env`."""

import json
import os
import subprocess
import sys

import pytest

from paddle_doctor.envcheck.probes.variables import proxy_variables, redact_text, shown_variables

SECRETS = {
    "MY_SERVICE_TOKEN": "tok-7f3a9c1e5d",
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI-K7MDENG",
    "PADDLE_AUTH_KEY": "pdk-0b1c2d3e4f",  # an allowlisted prefix, but a secret name
    "NCCL_PASSWORD": "nccl-pw-91ab",
    "https_proxy": "http://alice:hunter2proxy@proxy.corp:3128",
    "PADDLE_MASTER": "etcd://root:etcdpw5521@10.0.0.1:2379",  # elastic masters are URLs
}
SECRET_VALUES = ["tok-7f3a9c1e5d", "wJalrXUtnFEMI-K7MDENG", "pdk-0b1c2d3e4f", "nccl-pw-91ab", "hunter2proxy",
                 "etcdpw5521", "cmdline-secret-3141"]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Both formats, from a real CLI run with the secrets in its environment, while a fake leftover
    worker (PADDLE_TRAINER_ID set, a token on its command line) runs beside it."""
    env = {**os.environ, **SECRETS, "PYTHONWARNINGS": "ignore"}
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "--api-token",
                               "cmdline-secret-3141"], env={**env, "PADDLE_TRAINER_ID": "1"})
    try:
        result = {}
        for fmt in ("text", "json"):
            proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--format", fmt],
                                  capture_output=True, text=True, timeout=60, env=env)
            assert proc.returncode in (0, 1), proc.stderr
            result[fmt] = proc.stdout + proc.stderr
        result["worker_pid"] = worker.pid
        return result
    finally:
        worker.kill()
        worker.wait(timeout=10)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_secret_value_is_printed(outputs, fmt):
    leaked = [value for value in SECRET_VALUES if value in outputs[fmt]]
    assert not leaked, leaked


def test_masked_names_and_proxy_presence_are_shown(outputs):
    report = json.loads(outputs["json"])
    assert report["variables"]["PADDLE_AUTH_KEY"] == "***"
    assert report["variables"]["NCCL_PASSWORD"] == "***"
    assert report["variables"]["PADDLE_MASTER"] == "etcd://root:***@10.0.0.1:2379"
    assert "MY_SERVICE_TOKEN" not in report["variables"] and "AWS_SECRET_ACCESS_KEY" not in report["variables"]
    assert report["proxies"]["https_proxy"] is True


def test_the_leftover_worker_is_found_with_its_command_masked(outputs):
    report = json.loads(outputs["json"])
    worker = [p for p in report["processes"]["paddle"] if p["pid"] == outputs["worker_pid"]]
    assert worker and worker[0]["role"] == "worker" and worker[0]["rank"] == 1
    assert "--api-token ***" in worker[0]["cmd"]
    stale = [f for f in report["findings"] if f["cause"] in ("stale_process_holding_gpu", "leftover_paddle_process")]
    assert stale and outputs["worker_pid"] in stale[0]["facts"]["pids"]


def test_allowlist_drops_everything_else():
    env = {"PADDLE_TRAINER_ID": "0", "HOME": "/home/u", "SSH_AUTH_SOCK": "/tmp/x", "GITHUB_TOKEN": "g",
           "CUDA_VISIBLE_DEVICES": "0,1", "GLOG_v": "4", "FLAGS_selected_gpus": "0", "NCCL_DEBUG": "INFO"}
    assert list(shown_variables(env, home="/home/u")) == [
        "CUDA_VISIBLE_DEVICES", "FLAGS_selected_gpus", "GLOG_v", "NCCL_DEBUG", "PADDLE_TRAINER_ID"]
    assert proxy_variables({"HTTP_PROXY": "http://p:1"})["http_proxy"] is True


@pytest.mark.parametrize("text, expected", [
    ("python train.py --api-key abc123 --lr 0.1", "python train.py --api-key *** --lr 0.1"),
    ("HF_TOKEN=hf_abc python x.py", "HF_TOKEN=*** python x.py"),
    ("socks5://bob:pw@host:1080", "socks5://bob:***@host:1080"),
    ("/home/u/venv/bin/python", "~/venv/bin/python"),
    ("python -m paddle.distributed.launch --nproc_per_node 2 eval.py",
     "python -m paddle.distributed.launch --nproc_per_node 2 eval.py"),
])
def test_redact_text(text, expected):
    assert redact_text(text, home="/home/u") == expected
