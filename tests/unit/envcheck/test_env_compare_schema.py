"""Issue 17, item 5: `env --compare` checks each report's shape first; a bad report is exit 2 with
one line naming the field (never a traceback, never exit 1, which means "a difference")."""

from __future__ import annotations

import copy
import json

import pytest

from paddle_doctor.envcheck import collect_env
from paddle_doctor.envcheck.schema import ReportError, validate


@pytest.fixture(scope="module")
def report():
    return json.loads(json.dumps(collect_env(run=lambda argv, timeout: None)))


def _write(path, data) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def _changed(report, dotted: str, value):
    other = copy.deepcopy(report)
    *parents, last = dotted.split(".")
    target = other
    for part in parents:
        target = target.setdefault(part, {})
    target[last] = value
    return other


BAD = [("paddle.version", [3, 3]), ("paddle", "3.3.1"), ("paddle.compiled_with", ["cuda"]),
       ("libraries.nccl", "2.18"), ("libraries.nccl.version", {"major": 2}), ("gpu.gpus", "A100"),
       ("gpu.driver_version", [535]), ("system.python.version", 3.11), ("variables.NCCL_DEBUG", {"x": 1}),
       ("variables", ["NCCL_DEBUG"]), ("network.hostname", 7)]


@pytest.mark.parametrize("field,value", BAD, ids=[f for f, _ in BAD])
def test_a_report_with_a_wrong_type_is_exit_2_with_one_line(report, tmp_path, run_cli, field, value):
    good = _write(tmp_path / "a.json", report)
    bad = _write(tmp_path / "b.json", _changed(report, field, value))
    proc = run_cli("env", "--compare", good, bad)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "b.json is not a valid env report" in err and field.split(".")[-1] in err, err


@pytest.mark.parametrize("depth", [40, 100_000])
def test_deeply_nested_json_is_exit_2(report, tmp_path, run_cli, depth):
    good = _write(tmp_path / "a.json", report)
    nested = json.dumps(report)[:-1] + ', "extra": ' + "[" * depth + "]" * depth + "}"
    proc = run_cli("env", "--compare", good, _write(tmp_path / "deep.json", nested))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "nested" in err and "Traceback" not in err, err


def test_good_reports_still_compare(report, tmp_path, run_cli):
    a = _write(tmp_path / "a.json", report)
    same = run_cli("env", "--compare", a, _write(tmp_path / "b.json", _changed(report, "network.hostname", "node-b")))
    assert same.returncode == 0, same.stderr
    other = _changed(_changed(report, "network.hostname", "node-b"), "paddle.version", "3.2.0")
    diff = run_cli("env", "--compare", a, _write(tmp_path / "c.json", other))
    assert diff.returncode == 1 and b"paddle.version differs" in diff.stdout, diff.stdout


def test_missing_sections_are_allowed_and_extra_keys_too(report):
    slim = {"schema": report["schema"], "paddle": {"version": "3.3.1"}, "future_section": {"a": [1, 2]}}
    validate(slim, "slim.json")
    with pytest.raises(ReportError, match="not a report"):
        validate({"schema": "other/1"}, "x.json")


def test_a_secret_in_a_variable_of_a_report_is_masked_when_compared(report, tmp_path, run_cli):
    a = _changed(report, "variables.NCCL_SOCKET_IFNAME", "eth0")
    b = _changed(_changed(report, "network.hostname", "node-b"), "variables.NCCL_SOCKET_IFNAME",
                 "https://u:Plant3dSecret@h/x")
    proc = run_cli("env", "--compare", _write(tmp_path / "a.json", a), _write(tmp_path / "b.json", b), "--format", "json")
    assert b"Plant3dSecret" not in proc.stdout and proc.returncode in (0, 1), proc.stdout


def test_a_commit_hash_difference_is_shown_not_masked(report):
    from paddle_doctor.envcheck import compare_reports

    a = _changed(report, "paddle.commit", "7688495538f4d6c1893f084dd238a402e8f68ab6")
    b = _changed(_changed(report, "network.hostname", "node-b"), "paddle.commit", "3f9a1c7e5b2d8f4a6c0e1b3d5f7a9c2e01234567")
    found = {f.code: f for f in compare_reports([("a", a), ("node-b", b)])}
    assert "7688495538f4d6c1893f084dd238a402e8f68ab6" in found["compare.paddle.commit"].message
