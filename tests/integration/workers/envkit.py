"""What ``paddle-doctor env`` shows of another process, on a planted /proc: one leftover worker
(rank 1) running a given command line, and env's text and JSON reports over it. Shared by the
redaction tests (tests/unit/test_redact_shapes.py, test_redact_corpus.py), which plant secrets in
the variables and the command line and check that neither report shows them."""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.envcheck.report import collect_env
from paddle_doctor.render import json_out
from paddle_doctor.render.env_text import render_env


def fake_proc(root: Path, cmdline: list[str]) -> Path:
    """A /proc with one leftover worker (rank 1, another user's) running ``cmdline``."""
    pid = root / "4242"
    pid.mkdir(parents=True)
    (pid / "stat").write_text("4242 (python) S 1 4242 4242 0 -1 4194560 " + "0 " * 11 + "1 0 100 1000 100\n")
    (pid / "cmdline").write_bytes(b"\0".join(arg.encode() for arg in cmdline) + b"\0")
    (pid / "environ").write_bytes(b"PADDLE_TRAINER_ID=1\0")
    (root / "uptime").write_text("1000.0 100.0\n")
    return root


def env_outputs(tmp_path: Path, variables: dict[str, str], cmdline: list[str]) -> dict[str, str]:
    """env's report (no commands run, the planted /proc) as ``{"text": ..., "json": ...}``."""
    report = collect_env(variables, run=lambda argv, timeout: None, proc_root=fake_proc(tmp_path / "proc", cmdline))
    return {"text": render_env(report), "json": json_out.dumps(report)}
