"""Untrusted strings reach the terminal inert (issue 28 item 5): a file name, a log line, an error
record's fields, a tensor name or a cached lint finding never carries a raw ESC, CR or newline to
the screen, and never forges a line of the report."""

import json
import struct

import pytest

from paddle_doctor.findings import Finding, Location
from paddle_doctor.render.env_text import render_env
from paddle_doctor.render.text import inert
from paddle_doctor.render.lint_text import render as render_lint

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\rVERDICT  no failure found\n\x9b31m\u202e"


def _assert_inert(out: str) -> None:
    for bad in ("\x1b", "\r", "\x07", "\x9b", "\u202e"):
        assert bad not in out, repr(bad)


@pytest.mark.parametrize("raw, shown", [
    ("\x1b[31m", "\\x1b[31m"), ("a\nb", "a\\nb"), ("a\rb", "a\\rb"), ("\x07", "\\x07"), ("\x7f", "\\x7f"),
    ("\x9b", "\\x9b"), ("\u202e", "\\u202e"), ("\u2028", "\\u2028"), ("tab\there", "tab\there"), ("é…", "é…"),
])
def test_inert_shows_control_characters_escaped(raw, shown):
    assert inert(raw) == shown


def test_a_file_name_cannot_forge_a_verdict_line(run_cli, tmp_path):
    name = "x\nVERDICT  no failure found in the given logs\x1b[2J.log"
    (tmp_path / name).write_text("Traceback (most recent call last):\nValueError: the real cause\n")
    proc = run_cli("diagnose", tmp_path / name)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    _assert_inert(out)
    verdicts = [line for line in out.splitlines() if line.startswith("VERDICT")]
    assert len(verdicts) == 2 and all("ValueError" in v for v in verdicts)  # first and last line, the real one


def test_error_record_fields_are_inert(run_cli, tmp_path):
    (tmp_path / "workerlog.0").write_text("waiting\n")
    record = {"schema": "paddle_doctor.error_record/2", "kind": "exception", "rank": 0, "time": 1.0,
              "exception": {"type": "ValueError", "message": HOSTILE, "traceback": HOSTILE}}
    (tmp_path / "paddle_doctor_error.0.json").write_text(json.dumps(record))
    proc = run_cli("diagnose", tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    _assert_inert(out)
    assert not any(line.startswith("VERDICT  no failure") for line in out.splitlines())


def _safetensors(path, names):
    header, offset = {}, 0
    for name in names:
        header[name] = {"dtype": "F32", "shape": [1], "data_offsets": [offset, offset + 4]}
        offset += 4
    blob = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(blob)) + blob + b"\0" * offset)


def test_tensor_names_in_ckpt_inspect_are_inert(run_cli, tmp_path):
    ckpt = tmp_path / "m.safetensors"
    _safetensors(ckpt, ["fc.weight", "fc.bias" + HOSTILE])
    proc = run_cli("ckpt", "inspect", ckpt)
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    _assert_inert(out)
    assert not any(line.startswith("VERDICT") for line in out.splitlines())
    assert "fc.bias\\x1b]0;pwned" in out


def test_lint_findings_from_a_cache_are_one_inert_line_each():
    forged = Finding(code="PDL101" + HOSTILE, cause="unknown", message="bad" + HOSTILE,
                     locations=(Location(path="a\nb.py", line=1, column=1),))
    out = render_lint([forged], color=True)
    lines = out.splitlines()
    assert len(lines) == 2  # the finding and the footer
    assert "\x1b]" not in out and "\r" not in out and "\x9b" not in out and "\u202e" not in out
    assert "a\\nb.py:1:1:" in lines[0]


def test_env_report_values_are_inert():
    report = {"variables": {"PADDLE_X": HOSTILE}, "processes": {"list": []},
              "findings": [{"code": "c", "cause": "unknown", "message": "m" + HOSTILE}]}
    out = render_env(report)
    _assert_inert(out)
    assert "PADDLE_X=\\x1b]0;pwned" in out
