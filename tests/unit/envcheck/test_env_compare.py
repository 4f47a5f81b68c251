"""`env --compare`: the differences between nodes that matter, from two real reports of this
machine with one node's Paddle and NCCL changed."""

import copy
import json

import pytest

from paddle_doctor.envcheck import collect_env, compare_reports


@pytest.fixture(scope="module")
def report():
    return json.loads(json.dumps(collect_env(run=lambda argv, timeout: None)))  # as read back from a file


def node_b(report, **changes):
    other = copy.deepcopy(report)
    other["network"]["hostname"] = "node-b"
    for path, value in changes.items():
        target = other
        *parents, last = path.split("__")
        for part in parents:
            target = target.setdefault(part, {})
        target[last] = value
    return other


def test_identical_nodes_have_no_difference(report):
    assert compare_reports([("a", report), ("b", copy.deepcopy(report))]) == []


@pytest.mark.needs_paddle
def test_paddle_and_nccl_version_differences_are_flagged(report):
    other = node_b(report, paddle__version="3.2.0", libraries__nccl={"version": "2.18.3", "found": True})
    found = {f.code: f for f in compare_reports([("node-a", report), ("node-b", other)])}
    assert set(found) == {"compare.paddle.version", "compare.libraries.nccl"}
    assert found["compare.paddle.version"].cause == "paddle_version_mismatch"
    assert found["compare.libraries.nccl"].cause == "nccl_version_mismatch"
    assert "node-a: 3.3.1" in found["compare.paddle.version"].message
    assert "node-b: 2.18.3" in found["compare.libraries.nccl"].message
    assert all(f.severity.value == "error" for f in found.values())


def test_nccl_settings_that_differ_are_flagged(report):
    a = node_b(report, variables__NCCL_SOCKET_IFNAME="eth0")
    b = node_b(report, variables__NCCL_SOCKET_IFNAME="ib0", variables__PADDLE_TRAINER_ID="1")
    found = compare_reports([("a", a), ("b", b)])
    assert [(f.code, f.cause) for f in found] == [("compare.variables.NCCL_SOCKET_IFNAME", "nccl_network_interface")]


@pytest.mark.needs_paddle
def test_cli_compare(tmp_path, run_cli, report):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(report))
    b.write_text(json.dumps(node_b(report, paddle__compiled_with={**report["paddle"]["compiled_with"], "nccl": "2.21.5"})))
    proc = run_cli("env", "--compare", a, b)
    assert proc.returncode == 1, proc.stderr
    assert b"paddle.compiled_with.nccl differs between nodes" in proc.stdout
    assert b"paddle-doctor explain nccl_version_mismatch" in proc.stdout
    proc = run_cli("env", "--compare", "--format", "json", a, a)
    assert proc.returncode == 0 and json.loads(proc.stdout)["differences"] == []


@pytest.mark.parametrize("content", [None, "not json", '{"schema": "something else"}', "[1, 2]"])
def test_cli_compare_bad_input_exits_2(tmp_path, run_cli, report, content):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(report))
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    proc = run_cli("env", "--compare", good, bad)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.startswith(b"paddle-doctor env: error:") and b"Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_cli_compare_needs_two(tmp_path, run_cli, report):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(report))
    proc = run_cli("env", "--compare", one)
    assert proc.returncode == 2 and b"at least two" in proc.stderr


def test_every_cause_compare_names_is_in_the_catalog(report):
    from paddle_doctor.catalog import cause_ids
    from paddle_doctor.envcheck.compare import FIELDS

    assert {cause for _, _, cause, _ in FIELDS} <= set(cause_ids())
    gpus = [{"index": 0, "name": "NVIDIA A100"}]
    a = node_b(report, gpu__gpus=gpus, variables__NCCL_IB_HCA="mlx5_0", variables__NCCL_DEBUG="INFO",
               variables__FLAGS_eager_delete_tensor_gb="0")
    b = node_b(report, gpu__gpus=gpus * 2, variables__NCCL_IB_HCA="mlx5_1")
    b["gpu"]["gpus"][1] = {"index": 1, "name": "Tesla V100"}
    found = compare_reports([("a", a), ("b", b)])
    assert {f.cause for f in found} == {"cuda_visible_devices_misconfig", "cuda_arch_unsupported",
                                        "nccl_network_interface", "nccl_error", "config_error"}
    assert {f.cause for f in found} <= set(cause_ids())
