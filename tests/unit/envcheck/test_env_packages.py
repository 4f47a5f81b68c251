"""``env`` lists the versions of the Python packages that matter (as ``collect_env`` does for torch),
and ``--compare`` names a package difference with the nodes labelled consistently (issue 30). The
comparison's own rules: test_env_compare.py."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata

from paddle_doctor.envcheck.probes.packages import probe_packages


def _env_json(tmp_path, name: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--format", "json"],
                         capture_output=True, text=True, timeout=120).stdout  # exit 1: findings
    (tmp_path / name).write_text(out)
    return json.loads(out)


def test_the_report_holds_the_installed_versions_read_from_metadata(tmp_path):
    report = _env_json(tmp_path, "a.json")
    assert report["packages"]["numpy"] == metadata.version("numpy")
    assert probe_packages(("numpy", "surely-not-installed-pkg")) == {"numpy": metadata.version("numpy")}


def test_nodes_with_one_host_name_are_all_labelled_alike_by_host_and_file(tmp_path):
    report = _env_json(tmp_path, "e1.json")
    report["packages"]["numpy"] = "0.0.1"
    (tmp_path / "e2.json").write_text(json.dumps(report))
    out = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--compare", "e1.json", "e2.json"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60).stdout
    host = report["network"]["hostname"]
    assert f"of 2 reports: {host} (e1.json), {host} (e2.json)" in out.splitlines()[0]
    assert f"packages.numpy differs between nodes ({host} (e1.json):" in out
