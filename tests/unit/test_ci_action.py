"""CI (issue 30): ``diagnose --format github|markdown``, ``--exit-code``, JUnit XML, and the composite
action. The action's steps run scripts in ``action/``; these tests run those very scripts, with
this checkout's ``paddle-doctor`` on PATH, on recorded logs (``tests/fixtures/run_records``: what
``paddle-doctor run`` left after case 01) and check the annotations, the summary and the SARIF."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

from paddle_doctor.findings import Diagnosis, EvidenceLine, Finding
from paddle_doctor.render.ci.github import annotations
from paddle_doctor.render.ci.junit import junit_xml
from paddle_doctor.render.ci.markdown import summary
from paddle_doctor.smoke.results import check_findings

REPO = Path(__file__).resolve().parents[2]
RUN_LOG = REPO / "tests" / "fixtures" / "run_records" / "log"
RERUNS_LOG = REPO / "tests" / "fixtures" / "reruns" / "log"
LINT_FILE = REPO / "tests" / "unit" / "lint" / "fixtures" / "checker" / "seed_001_s5_multicard_eval.py"
# A workflow command: ::name key=value,key=value::message, with values and message escaped.
COMMAND = re.compile(r"^::(?P<kind>error|warning|notice)(?: (?P<props>[a-z]+=[^,:\n]*(?:,[a-z]+=[^,:\n]*)*))?::"
                     r"(?P<message>[^\n\r]+)$")
TOOL_BIN = str(Path(sys.executable).parent)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PADDLE_"))}
    env["PATH"] = TOOL_BIN + os.pathsep + env.get("PATH", "")
    return {**env, **extra}


def _workspace(tmp_path: Path) -> Path:
    """The recorded run, as if the job ran in ``tmp_path/ws`` (its traceback paths moved there)."""
    ws = tmp_path / "ws"
    shutil.copytree(RUN_LOG, ws / "log")
    for path in (ws / "log").iterdir():
        path.write_text(path.read_text().replace("/tmp/run/", f"{ws}/"))
    shutil.copy(REPO / "cases" / "01_exception_rank1" / "eval.py", ws / "eval.py")
    return ws


def _props(line: str) -> dict[str, str]:
    m = COMMAND.match(line)
    assert m is not None, line
    return dict(p.split("=", 1) for p in (m["props"] or "").split(",") if p)


def test_every_step_of_the_action_is_a_script_that_exists():
    text = (REPO / "action.yml").read_text()
    scripts = re.findall(r'run: bash "\$GITHUB_ACTION_PATH/(action/[\w.-]+)"', text)
    assert sorted(scripts) == ["action/diagnose.sh", "action/lint.sh"]
    assert all((REPO / s).is_file() for s in scripts)
    assert "using: composite" in text and "actions/upload-artifact" in text and "upload-sarif" in text
    assert '-m pip install --quiet "$GITHUB_ACTION_PATH"' in text  # installs what exists: this repository


def test_the_diagnose_step_annotates_the_culprit_line_and_writes_summary_and_page(tmp_path):
    ws = _workspace(tmp_path)
    summary_file, page = tmp_path / "summary.md", tmp_path / "report.html"
    proc = subprocess.run(["bash", str(REPO / "action" / "diagnose.sh")], cwd=ws, capture_output=True, text=True,
                          timeout=60, env=_env(PD_LOG_DIRS="log", PD_REPORT=str(page), GITHUB_WORKSPACE=str(ws),
                                               GITHUB_STEP_SUMMARY=str(summary_file)))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1 and COMMAND.match(lines[0])["kind"] == "error"
    props = _props(lines[0])
    assert props["file"] == "eval.py" and props["line"] == "49"  # the user's frame, in the workspace
    source = (ws / "eval.py").read_text().splitlines()
    assert "scores = paddle.reshape(scores" in source[int(props["line"]) - 1]  # the line that raised
    assert "python_exception on rank 1" in props["title"].replace("%3A", ":")
    text = summary_file.read_text()
    assert text.startswith("## :x: paddle-doctor diagnosis") and "| cause | `python_exception` |" in text
    for row in (ln for ln in text.splitlines() if ln.startswith("|")):
        cells = re.split(r"(?<!\\)\|", row)[1:-1]
        assert len(cells) in (2, 4), row  # the root-cause table has 2 columns, the ranks table 4
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_outside_the_workspace_the_annotation_is_the_evidence_line_in_the_log(tmp_path):
    shutil.copytree(RUN_LOG, tmp_path / "log")
    out = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "diagnose", "--format", "github", "log"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60, env=_env()).stdout
    props = _props(out.strip())
    line = (tmp_path / props["file"]).read_text().splitlines()[int(props["line"]) - 1]
    assert 'eval.py", line 49, in hits_at_1' in line


def test_a_log_line_cannot_add_a_command_of_its_own():
    evil = "ValueError: x\n::error file=.github/workflows/ci.yml,line=1::pwned %0A"
    root = Finding(code="c", cause="python_exception", message=evil, ranks=(1,), fix="fix it",
                   evidence=(EvidenceLine("log/workerlog.1", 3, evil),))
    out = annotations(Diagnosis("failure", root, (), 1), evil, "/nonexistent")
    # the runner reads a command only at a line's start: the log's "::error" stays inside the message
    assert len(out) == 1 and "\n" not in out[0] and "\r" not in out[0] and "%0A::error" in out[0]
    assert "%250A" in out[0]  # a literal %0A in the log stays text
    md = summary(Diagnosis("failure", root, (), 1), "a | b <script>")
    assert "<script>" not in md and "a \\| b" in md


def test_exit_code_is_1_on_a_failure_and_0_when_none_is_found():
    def run(path: Path) -> int:
        return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "diagnose", "--exit-code", str(path)],
                              capture_output=True, timeout=60, env=_env()).returncode
    assert run(RUN_LOG) == 1
    assert run(RERUNS_LOG) == 0  # the last launch there passed


def test_the_lint_step_writes_valid_sarif(tmp_path):
    shutil.copy(LINT_FILE, tmp_path / "eval.py")
    sarif = tmp_path / "out.sarif"
    proc = subprocess.run(["bash", str(REPO / "action" / "lint.sh")], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env=_env(PD_LINT_PATHS="eval.py", PD_SARIF=str(sarif)))
    assert proc.returncode == 0, proc.stderr  # findings are results, not a failed step
    log = json.loads(sarif.read_text())
    assert log["version"] == "2.1.0" and "sarif-2.1.0" in log["$schema"]
    run = log["runs"][0]
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert run["results"], "the fixture has findings"
    for result in run["results"]:
        assert result["ruleId"] in rules and result["level"] in ("error", "warning", "note")
        where = result["locations"][0]["physicalLocation"]
        assert (tmp_path / where["artifactLocation"]["uri"]).is_file() and where["region"]["startLine"] >= 1


def test_junit_xml_of_smoke_checks_counts_failures():
    results = REPO / "tests" / "fixtures" / "smoke" / "exit_rank1"
    findings, _ = check_findings(results / "results", 2, None)
    root = ET.fromstring(junit_xml(findings, "paddle-doctor smoke", 1.5))
    cases = root.findall("testcase")
    assert root.tag == "testsuite" and int(root.get("tests")) == len(cases) == len(findings) > 0
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(root.get("failures")) == len(failed) and failed
