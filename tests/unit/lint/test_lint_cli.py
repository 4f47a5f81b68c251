"""``paddle-doctor lint``: exit codes, formats, selection, suppression, configuration, fixes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from paddle_doctor.lint import LintConfig, lint_text
from paddle_doctor.lint.rules import ALL_RULES as RULES
from paddle_doctor.lint.config import ConfigError, load_config, resolve
from paddle_doctor.lint.fixes import apply_edits
from paddle_doctor.findings import Edit

SOURCE = """\
import paddle
import paddle.distributed as dist
from paddle.io import DistributedBatchSampler

eval_sampler = DistributedBatchSampler(eval_ds, batch_size=8, drop_last=True)
if dist.get_rank() == 0:
    dist.barrier()
"""


def run(*args, cwd=None):
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "lint", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "eval.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def test_text_format_exit_1_and_footer(script):
    proc = run(script)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"{script}:5:73: PDL401 this evaluation DistributedBatchSampler has drop_last=True: the "
                        "samples of the last, short batch are never evaluated and the metric covers a subset")
    assert lines[1].startswith(f"{script}:7:5: PDL101 `barrier` is called only on the ranks where")
    assert lines[2] == "Found 2 issues."
    assert "--unsafe-fixes" in lines[3]
    assert "\x1b[" not in proc.stdout  # not a terminal: no colour


def test_clean_file_exit_0(tmp_path):
    (tmp_path / "ok.py").write_text("import paddle\nprint(paddle.__version__)\n")
    proc = run(tmp_path)
    assert proc.returncode == 0 and proc.stdout == "All checks passed!\n"


def test_usage_errors_exit_2_with_one_line(tmp_path, script):
    for args in ([tmp_path / "missing.py"], ["--select", "PDL8", script], ["--format", "xml", script]):
        proc = run(*args)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr


def test_json_contract(script):
    proc = run("--format", "json", "--color", "always", script)
    assert proc.returncode == 1 and "\x1b[" not in proc.stdout
    records = json.loads(proc.stdout)
    assert [r["code"] for r in records] == ["PDL401", "PDL101"]
    first = records[0]
    assert first["cause"] == "eval_samples_dropped" and first["filename"] == str(script)
    assert first["location"] == {"row": 5, "column": 73} and first["end_location"] == {"row": 5, "column": 77}
    assert first["fix"]["applicability"] == "unsafe"
    assert first["fix"]["edits"] == [{"content": "False", "location": {"row": 5, "column": 73},
                                      "end_location": {"row": 5, "column": 77}}]
    assert first["url"].endswith("#pdl401-eval-sampler-drop-last")
    assert records[1]["fix"] is None and records[1]["cause"] == "rank_divergent_collective"


def test_sarif_output(script):
    proc = run("--format", "sarif", script)
    sarif = json.loads(proc.stdout)
    assert sarif["version"] == "2.1.0"
    run_ = sarif["runs"][0]
    assert {r["id"] for r in run_["tool"]["driver"]["rules"]} == {r.code for r in RULES}
    results = run_["results"]
    assert [r["ruleId"] for r in results] == ["PDL401", "PDL101"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 5 and region["startColumn"] == 73
    fingerprints = [r["partialFingerprints"]["pdlHash/v1"] for r in results]
    assert len(set(fingerprints)) == 2
    # a line inserted above keeps the fingerprints (they hash the line's text, not its number)
    script.write_text("# moved\n" + SOURCE, encoding="utf-8")
    moved = json.loads(run("--format", "sarif", script).stdout)["runs"][0]["results"]
    assert [r["partialFingerprints"]["pdlHash/v1"] for r in moved] == fingerprints


def test_select_and_ignore_prefixes(script):
    assert [r["code"] for r in json.loads(run("--format", "json", "--select", "PDL1", script).stdout)] == ["PDL101"]
    assert [r["code"] for r in json.loads(run("--format", "json", "--ignore", "PDL4", script).stdout)] == ["PDL101"]
    proc = run("--select", "PDL1,PDL4", "--ignore", "PDL101,PDL401", script)
    assert proc.returncode == 0


def test_more_specific_prefix_wins():
    assert resolve(("PDL4",), ("PDL",)) == {r.code for r in RULES if r.code.startswith("PDL4")}
    assert "PDL401" not in resolve(("ALL",), ("PDL40",))
    assert "PDL401" in resolve(("PDL401",), ("PDL4",))
    with pytest.raises(ConfigError):
        resolve(("XYZ",), ())


def test_pyproject_configuration(tmp_path, script):
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nignore = ["PDL401"]\n', encoding="utf-8")
    assert load_config(script).ignore == ("PDL401",)
    records = json.loads(run("--format", "json", script, cwd=tmp_path).stdout)
    assert [r["code"] for r in records] == ["PDL101"]
    # the command line's --select replaces the configured select; the configured ignore still applies
    assert run("--select", "PDL4", script).returncode == 0
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nselct = ["PDL1"]\n', encoding="utf-8")
    proc = run(script)
    assert proc.returncode == 2 and "selct" in proc.stderr


def test_exclude_patterns(tmp_path, script):
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nexclude = ["eval.py"]\n', encoding="utf-8")
    assert run(tmp_path).returncode == 0  # a folder walk honours exclude


def _codes(text, **kw):
    return [f.code for f in lint_text(text, "x.py", **kw)[0]]


def test_noqa_forms():
    line = "    dist.barrier()"
    assert _codes(SOURCE) == ["PDL401", "PDL101"]
    assert _codes(SOURCE.replace(line, line + "  # noqa")) == ["PDL401"]
    assert _codes(SOURCE.replace(line, line + "  # noqa: PDL101")) == ["PDL401"]
    assert _codes(SOURCE.replace(line, line + "  # NOQA:PDL1")) == ["PDL401"]  # a prefix, any case
    assert _codes(SOURCE.replace(line, line + "  # noqa: PDL401")) == ["PDL401", "PDL101"]  # another code
    assert _codes("# paddle-doctor: noqa\n" + SOURCE) == []
    assert _codes("# paddle-doctor: noqa: PDL4\n" + SOURCE) == ["PDL101"]
    assert _codes(SOURCE + "x = 1  # paddle-doctor: noqa\n") == ["PDL401", "PDL101"]  # not on its own line


def test_enabled_set_filters_rules():
    assert _codes(SOURCE, enabled=LintConfig(select=("PDL4",)).enabled()) == ["PDL401"]


def test_fix_applies_safe_only_unless_unsafe(tmp_path):
    path = tmp_path / "t.py"
    text = SOURCE + ("from paddle.distributed import fleet\nmodel = fleet.distributed_model(net)\n"
                     "if dist.get_rank() == 0:\n    paddle.save(model.state_dict(), 'm')\n")
    path.write_text(text, encoding="utf-8")
    proc = run("--fix", path)
    fixed = path.read_text(encoding="utf-8")
    assert "model._layers.state_dict()" in fixed and "drop_last=True" in fixed  # PDL302 safe, PDL401 unsafe
    assert "Fixed 1 issue." in proc.stdout and proc.returncode == 1
    proc = run("--fix", "--unsafe-fixes", path)
    assert "drop_last=False" in path.read_text(encoding="utf-8")
    assert [ln.split(" ")[1] for ln in proc.stdout.splitlines() if ln.startswith(str(path))] == ["PDL101"]


def test_a_fix_that_breaks_the_file_is_not_written():
    text = "x = (1,\n     2)\n"
    assert apply_edits(text, [Edit("t.py", 1, 4, 1, 5, "")]) is None  # would leave `x = 1,\n 2)`
    assert apply_edits(text, [Edit("t.py", 1, 0, 1, 1, "y")]) == ("y = (1,\n     2)\n", 1)


def test_lint_never_imports_paddle(script):
    code = ("import sys\nfrom paddle_doctor.cli.main import main\n"
            f"rc = main(['lint', '--format', 'json', {str(script)!r}])\n"
            "assert 'paddle' not in sys.modules, 'paddle imported'\nprint('RC', rc)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "RC 1" in proc.stdout, proc.stderr


def test_exclude_globs_are_relative_to_the_project_root(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nexclude = ["third_party/*"]\n',
                                             encoding="utf-8")
    (tmp_path / "third_party" / "lib").mkdir(parents=True)
    (tmp_path / "third_party" / "lib" / "eval.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "mine.py").write_text(SOURCE, encoding="utf-8")
    for args, cwd in (([".", "--format", "json"], tmp_path), ([tmp_path, "--format", "json"], None),
                      (["third_party/..", "--format", "json"], tmp_path)):
        files = {os.path.basename(r["filename"]) for r in json.loads(run(*args, cwd=cwd).stdout)}
        assert files == {"mine.py"}, (args, files)


def test_select_all_as_a_string(tmp_path, script):
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nselect = "ALL"\nignore = "PDL401"\n',
                                             encoding="utf-8")
    config = load_config(script)
    assert config.select == ("ALL",) and config.ignore == ("PDL401",)
    proc = run("--format", "json", script, cwd=tmp_path)
    assert proc.returncode == 1 and [r["code"] for r in json.loads(proc.stdout)] == ["PDL101"]
    (tmp_path / "pyproject.toml").write_text('[tool.paddle-doctor.lint]\nselect = 3\n', encoding="utf-8")
    proc = run(script, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "select" in proc.stderr


def test_a_malformed_noqa_code_warns_and_suppresses_nothing(tmp_path):
    line = "    dist.barrier()"
    warnings: list[str] = []
    findings = lint_text(SOURCE.replace(line, line + "  # noqa: PDL-101"), "x.py", warnings=warnings)[0]
    assert [f.code for f in findings] == ["PDL401", "PDL101"]
    assert len(warnings) == 1 and "7:" in warnings[0] and "PDL-101" in warnings[0]
    for bad in ("# noqa:", "# noqa: 101", "# noqa:,"):
        assert _codes(SOURCE.replace(line, f"{line}  {bad}")) == ["PDL401", "PDL101"], bad
    assert _codes(SOURCE.replace(line, line + "  # noqa: PDL101 rank 0 waits here on purpose")) == ["PDL401"]
    assert _codes(SOURCE.replace(line, line + "  # noqa: PDL401,PDL101")) == ["PDL401"]  # a list
    warnings.clear()
    lint_text(SOURCE.replace(line, line + "  # noqa: PDL999, E501, PDL1"), "x.py", warnings=warnings)
    assert len(warnings) == 1 and "PDL999" in warnings[0]
    path = tmp_path / "typo.py"
    path.write_text(SOURCE.replace(line, line + "  # noqa: PDL-101"), encoding="utf-8")
    proc = run(path)
    assert proc.returncode == 1 and "PDL101" in proc.stdout and "warning" in proc.stderr and "PDL-101" in proc.stderr


def test_noqa_inside_a_string_or_docstring_suppresses_nothing():
    doc = '"""Usage:\n\n    # paddle-doctor: noqa\n"""\n'
    assert _codes(doc + SOURCE) == ["PDL401", "PDL101"]
    line = "    dist.barrier()"
    assert _codes(SOURCE.replace(line, line + '; s = "# noqa"')) == ["PDL401", "PDL101"]
    assert _codes(SOURCE.replace(line, line + '; s = "# noqa"  # noqa: PDL101')) == ["PDL401"]


def test_sarif_uris_are_percent_encoded():
    from paddle_doctor.render.sarif import to_uri
    assert to_uri("my dir/a#b%c.py") == "my%20dir/a%23b%25c.py"
    assert to_uri("src\\pkg\\é.py") == "src/pkg/%C3%A9.py"
    assert to_uri("a:b.py") == "a%3Ab.py"  # not read as a URI scheme


def test_opt_in_rules_run_only_when_named(monkeypatch):
    """Every rule is on by default since issue 32 (PDL301 and PDL405 joined); the opt-in mechanism
    (ruff's preview rules) stays for the next new rule: shown with PDL405 made opt-in."""
    import dataclasses
    from paddle_doctor.lint import config

    assert all(r.default for r in RULES)
    assert {"PDL301", "PDL405"} <= resolve(("ALL",), ())
    monkeypatch.setattr(config, "ALL_RULES", tuple(dataclasses.replace(r, default=r.code != "PDL405") for r in RULES))
    assert "PDL405" not in resolve(("ALL",), ()) and "PDL405" not in resolve(("PDL",), ())
    assert "PDL405" in resolve(("PDL405",), ()) and "PDL405" in resolve(("ALL", "PDL4"), ())
    assert "PDL900" in resolve(("PDL401",), ())
