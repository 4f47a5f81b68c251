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


def test_packages_are_read_without_importing_them(tmp_path, monkeypatch):
    """A package whose import would fail (or hang) is reported from its metadata alone."""
    import subprocess
    import sys

    site = tmp_path / "site"
    (site / "paddlenlp").mkdir(parents=True)
    (site / "paddlenlp" / "__init__.py").write_text("raise SystemExit('imported!')\n")
    meta = site / "paddlenlp-2.8.1.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: paddlenlp\nVersion: 2.8.1\n")
    code = ("import json, sys; from paddle_doctor.envcheck import collect_env; "
            "r = collect_env(run=lambda argv, timeout: None); "
            "print(json.dumps(r['packages'])); print('paddlenlp' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**__import__("os").environ, "PYTHONPATH": str(site)})
    packages, imported = proc.stdout.splitlines()[-2:]
    assert json.loads(packages)["paddlenlp"] == "2.8.1" and json.loads(packages)["numpy"]
    assert imported == "False"


def test_package_differences_are_flagged(report):
    a = node_b(report, packages={"numpy": "1.26.4", "paddlenlp": "2.8.1"})
    b = node_b(report, packages={"numpy": "2.4.6"})
    found = {f.code: f for f in compare_reports([("a", a), ("b", b)])}
    assert set(found) == {"compare.packages.numpy", "compare.packages.paddlenlp"}
    assert "a: 2.8.1, b: not installed" in found["compare.packages.paddlenlp"].message
    assert found["compare.packages.numpy"].cause == "paddle_version_mismatch"
    assert found["compare.packages.numpy"].severity.value == "warning"
    # reports written before the packages probe compare as before
    old = copy.deepcopy(report)
    old.pop("packages", None)
    assert compare_reports([("a", old), ("b", copy.deepcopy(old))]) == []


def test_variable_differences_say_to_set_the_variable_not_to_rebuild(report):
    a = node_b(report, variables__NCCL_SOCKET_IFNAME="eth0")
    b = node_b(report, variables__NCCL_SOCKET_IFNAME="eth1")
    (found,) = compare_reports([("a", a), ("b", b)])
    assert "NCCL_SOCKET_IFNAME" in found.fix and "image" not in found.fix


def test_nodes_with_one_host_name_are_labelled_alike(tmp_path, run_cli, report):
    from paddle_doctor.envcheck import label_nodes

    vm, other = node_b(report), node_b(report)
    vm["network"]["hostname"] = other["network"]["hostname"] = "vm"
    third = node_b(report)  # node-b
    labels = [label for label, _ in label_nodes([("d/e1.json", vm), ("d/e2.json", other), ("d/e3.json", third)])]
    assert labels == ["vm (e1.json)", "vm (e2.json)", "node-b"]
    labels = [label for label, _ in label_nodes([("x/e.json", vm), ("y/e.json", other)])]
    assert labels == ["vm (x/e.json)", "vm (y/e.json)"]
    nameless = node_b(report)
    nameless["network"]["hostname"] = None
    assert [lb for lb, _ in label_nodes([("d/n.json", nameless), ("d/e3.json", third)])] == ["n.json", "node-b"]
    # the command line: the row-23 walk (two reports of one machine, one variable changed)
    e1, e2 = tmp_path / "e1.json", tmp_path / "e2.json"
    e1.write_text(json.dumps(vm))
    changed = node_b(other, variables__NCCL_SOCKET_IFNAME="eth1")
    changed["network"]["hostname"] = "vm"
    e2.write_text(json.dumps(changed))
    proc = run_cli("env", "--compare", "--format", "json", e1, e2)
    assert json.loads(proc.stdout)["compared"] == ["vm (e1.json)", "vm (e2.json)"], proc.stdout


def test_the_text_report_lists_the_packages(report):
    from paddle_doctor.render.env_text import render_env

    text = render_env({**report, "packages": {"numpy": "2.4.6", "opencv-python-headless": "4.10.0.84"}})
    assert "- **Packages**: numpy 2.4.6, opencv-python-headless 4.10.0.84" in text
    # once: one line names them (the docs walk found a second, "Python packages", from a merge)
    assert text.count("numpy 2.4.6") == 1, text
