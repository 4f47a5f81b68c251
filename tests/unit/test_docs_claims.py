"""Issue 22: the places where README and docs/ were wrong, each pinned by a test (the code fixed
where the code was wrong, the text where the text was)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()
DOCS = {p.name: p.read_text() for p in sorted((REPO / "docs").glob("*.md"))}


RECORDED_EXIT = REPO / "tests" / "fixtures" / "smoke" / "exit_rank1"  # smoke --inject-fault exit:1, recorded


def test_a_rank_log_that_was_read_is_not_called_not_given(tmp_path, monkeypatch):
    """The launcher names rank 1 by the absolute path it had (/tmp/smk/o_exit/log/workerlog.1); the
    log given here, relative or absolute, is the same rank's, so it was given."""
    from paddle_doctor.diagnose import diagnose_paths

    shutil.copytree(RECORDED_EXIT, tmp_path / "o_exit")
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "o_exit" / "log"
    for given in (["o_exit/log", "o_exit/terminal.out"], [str(log), str(log.parent / "terminal.out")]):
        cause = diagnose_paths(given).root_cause
        assert "not given" not in cause.message, (given, cause.message)
        assert cause.ranks == (1,) and "exit code 3" in cause.message and "workerlog.1" in cause.message
        assert any("(the log ends here)" in e.text and "evaluate_parity" in e.text for e in cause.evidence)
    # Only the terminal: then the rank's log really was not given, and the verdict says where it is.
    cause = diagnose_paths(["o_exit/terminal.out"]).root_cause
    assert "/tmp/smk/o_exit/log/workerlog.1, which was not given" in cause.message


def test_readme_metrics_import_costs_no_paddle():
    """The README's `from paddle_doctor.runtime.metrics import ...` runs as a marked example
    (test_docs_examples); importing the package itself must not import paddle."""
    assert "are in `paddle_doctor.runtime.metrics`" in README
    code = ("import sys, paddle_doctor, paddle_doctor.runtime.metrics as m\n"
            "assert 'paddle' not in sys.modules, 'importing the package imported paddle'\n"
            "assert sorted(m.__all__) == ['DetectionMetric', 'SegmentationMetric']\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_guards_doc_lists_the_keys_a_schema_2_record_has(tmp_path, monkeypatch):
    from paddle_doctor.runtime.guards import record as rec

    monkeypatch.setenv("PADDLE_DOCTOR_LOG_DIR", str(tmp_path))
    fields = DOCS["guards.md"].split("Fields: ", 1)[1].split("\n\n", 1)[0]
    keys = set(rec.build("exception")) | {"later"}  # `later` is added when a second event is merged
    named = set(re.findall(r"`([a-z_]+)`", fields))
    assert keys <= named, keys - named
    # `hint` was schema 1's; the doc may name it only as that.
    assert "hint" not in keys
    assert all("schema 1" in fields[max(0, m.start() - 30):m.start()] for m in re.finditer("`hint`", fields))


def test_triage_takes_a_str_out_dir(tmp_path, monkeypatch):
    from paddle_doctor.triage import triage

    monkeypatch.chdir(tmp_path)
    assert 'out_dir="paddle-doctor-triage"' in DOCS["triage.md"]
    result = triage([sys.executable, "-c", "pass"], out_dir="tri", timeout=60, accelerator=False)
    assert [f.code for f in result.findings] == ["triage.baseline"], result.findings
    assert result.outcomes[0].log_dir == tmp_path / "tri" / "baseline" / "log"
    assert (tmp_path / "tri" / "baseline" / "terminal.out").is_file()
    result = triage([sys.executable, "-c", "pass"], out_dir=tmp_path / "tri2", cwd=str(tmp_path), timeout=60,
                    accelerator=False)
    assert (tmp_path / "tri2" / "baseline" / "terminal.out").is_file()


# Docs of this area (the others' docs are checked by their owners): they cite only what a reader
# can open, and say what the two guides are wherever they name one.
CITING_DOCS = ["README.md", "docs/smoke.md", "docs/triage.md", "docs/report.md"]


@pytest.mark.parametrize("name", CITING_DOCS)
def test_docs_cite_what_a_reader_can_open(name):
    text = (REPO / name).read_text()
    assert not re.search(r"DESIGN(\.md)? section|DESIGN\.md", text), "DESIGN.md is not in the repository"
    for paragraph in text.split("\n\n"):
        if re.search(r"[Gg]uide 00[01]", paragraph):
            assert "causes.md" in paragraph or "not part of this repository" in paragraph, paragraph


def test_causes_doc_and_explain_say_what_the_guides_are():
    from paddle_doctor.catalog import get_cause
    from paddle_doctor.catalog.ids import CauseId
    from paddle_doctor.render.causes import GUIDE_TITLES, render_cause_text

    header = DOCS["causes.md"].split("## Index", 1)[0]
    for number, title in GUIDE_TITLES.items():
        assert f"guide {number}, “{title}”" in header
    assert "not part of this repository" in header
    text = render_cause_text(get_cause(CauseId.gpu_oom))
    seed_line = next(line for line in text.splitlines() if line.startswith("Seed"))
    assert "troubleshooting guides" in seed_line and "not in this repository" in seed_line
    assert get_cause(CauseId.gpu_oom).seed in seed_line


def test_the_pre_commit_snippet_pins_nothing_the_repository_lacks():
    hooks = (REPO / ".pre-commit-hooks.yaml").read_text()
    snippets = [block for block in re.findall(r"```yaml\n(.*?)```", README, flags=re.DOTALL) if "rev:" in block]
    assert snippets, "the README's pre-commit snippet is gone"
    assert all("entry: paddle-doctor lint" in block for block in snippets)
    assert "entry: paddle-doctor lint" in hooks
    docs = [(REPO / "docs" / "lint.md").read_text(encoding="utf-8"), README]
    tags = _git_tags()
    for block in (b for text in docs for b in re.findall(r"```yaml\n(.*?)```", text, flags=re.DOTALL) if "rev:" in b):
        for rev in re.findall(r"^\s*rev:\s*(\S+)", block, flags=re.MULTILINE):
            assert re.fullmatch(r"[0-9a-f]{40}", rev) or (tags is not None and rev in tags), (
                f"rev: {rev} is neither a commit sha nor a tag of this repository")
        hook_ids = set(re.findall(r"id:\s*(\S+)", block))
        assert hook_ids <= set(re.findall(r"^- id:\s*(\S+)", hooks, flags=re.MULTILINE)), hook_ids


def _git_tags() -> set[str] | None:
    try:
        proc = subprocess.run(["git", "-C", str(REPO), "tag", "--list"], capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    return set(proc.stdout.split()) if proc.returncode == 0 else None
