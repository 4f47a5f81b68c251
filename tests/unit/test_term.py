"""Colour and quiet (issue 30): ``--color auto|always|never`` on every command, ``NO_COLOR`` and
``FORCE_COLOR`` honoured by every command through one decision (``paddle_doctor.term``), colour
kept when piped with ``always``, machine formats never coloured, ``--quiet`` the verdict line only."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor import term
from paddle_doctor.cli.main import COMMANDS

REPO = Path(__file__).resolve().parents[2]
RUN_LOG = str(REPO / "tests" / "fixtures" / "run_records" / "log")
LINT_FILE = str(REPO / "tests" / "unit" / "lint" / "fixtures" / "checker" / "seed_001_s5_multicard_eval.py")
ESC = "\x1b["


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", *args], capture_output=True, text=True,
                          timeout=60, env={**base, **env})


@pytest.mark.parametrize("env, mode, tty, want", [
    ({}, "auto", True, True), ({}, "auto", False, False),
    ({"NO_COLOR": "1"}, "auto", True, False), ({"FORCE_COLOR": "1"}, "auto", False, True),
    ({"FORCE_COLOR": "0"}, "auto", False, False), ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, "auto", False, False),
    ({"NO_COLOR": "1"}, "always", False, True), ({"FORCE_COLOR": "1"}, "never", True, False)])
def test_one_decision_for_colour(monkeypatch, env, mode, tty, want):
    for key in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert term.use_color(_Tty() if tty else io.StringIO(), mode) is want


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_takes_color(name):
    out = _cli(name, "--help").stdout
    assert "--color [auto|always|never]" in out, out


def test_every_ckpt_subcommand_takes_color():
    for sub in ("inspect", "strip", "check", "diff"):
        assert "--color" in _cli("ckpt", sub, "--help").stdout


def test_lint_color_always_survives_a_pipe_and_no_color_wins_over_auto():
    assert ESC in _cli("lint", "--color", "always", LINT_FILE).stdout
    assert ESC not in _cli("lint", LINT_FILE, NO_COLOR="1", FORCE_COLOR="1").stdout
    assert ESC in _cli("lint", LINT_FILE, FORCE_COLOR="1").stdout


def test_diagnose_force_color_colours_a_pipe_and_no_color_drops_bold_too():
    assert ESC in _cli("diagnose", RUN_LOG, FORCE_COLOR="1").stdout
    assert ESC in _cli("diagnose", "--color", "always", RUN_LOG).stdout
    assert ESC not in _cli("diagnose", RUN_LOG, NO_COLOR="1", FORCE_COLOR="1").stdout  # no bold either


def test_machine_formats_never_carry_ansi():
    for fmt in ("json", "github", "markdown"):
        assert ESC not in _cli("diagnose", "--color", "always", "--format", fmt, RUN_LOG).stdout
    assert ESC not in _cli("lint", "--color", "always", "--format", "json", LINT_FILE).stdout


def test_quiet_prints_the_verdict_line_once():
    lines = _cli("diagnose", "--quiet", RUN_LOG).stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("VERDICT  rank 1 failed first")


def test_full_quotes_the_whole_error_and_the_default_cuts_it():
    def quoted_error(*flags: str) -> str:
        out = _cli("diagnose", *flags, RUN_LOG).stdout.splitlines()
        return next(line for line in out if line.lstrip().startswith("ValueError:"))

    whole = "known capacity of 'shape' is 4."
    assert not quoted_error().endswith(whole) and quoted_error().endswith("…")  # a pipe: 160 characters
    for flag in ("--full", "-v"):
        assert quoted_error(flag).endswith(whole)


def test_on_a_terminal_quoted_lines_fit_its_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    term.set_full(False)
    assert term.quoted_width(_Tty()) == 185 and term.quoted_width(io.StringIO()) == term.PIPE_WIDTH
    monkeypatch.setenv("COLUMNS", "60")
    assert term.quoted_width(_Tty()) == 60  # never narrower than a readable line
    term.set_full(True)
    try:
        assert term.quoted_width(_Tty()) is None
    finally:
        term.set_full(False)
