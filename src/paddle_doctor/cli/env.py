"""``paddle-doctor env [--format text|json] [--import-paddle]`` and ``env --compare A.json B.json ...``.

Exit 0 when nothing is wrong, 1 when a finding (or a difference) of severity error is found,
2 on unusable input.
"""

from __future__ import annotations

import sys

import click


@click.command("env")
@click.argument("reports", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--compare", is_flag=True, help="Compare two or more reports written by `env --format json`.")
@click.option("--import-paddle", is_flag=True,
              help="Also import paddle (in a child process) for the GPU count Paddle sees and its CUDA init; slow.")
def command(reports: tuple[str, ...], fmt: str, compare: bool, import_paddle: bool) -> None:
    """Report this machine's environment for a bug report (Python, OS, Paddle and what it was compiled
    with vs what it runs with, GPUs, /dev/shm, limits, ports, leftover processes and variables), with
    findings linked to causes. Secret-looking variables are masked. Paste the text into the issue."""
    from ..envcheck.compare import compare_reports
    from ..envcheck.report import collect_env
    from ..render import json_out
    from ..render.env_text import render_compare, render_env

    if compare:
        loaded = _load_reports(reports)
        try:
            findings = compare_reports(loaded)
        except Exception as exc:  # validated input; a bug of ours must still not be read as "a difference"
            click.echo(f"paddle-doctor env: internal error: {type(exc).__name__}: {exc} (please report it)", err=True)
            sys.exit(2)
        if fmt == "json":
            click.echo(json_out.dumps({"compared": [label for label, _ in loaded],
                                       "differences": [f.to_dict() for f in findings]}))
        else:
            click.echo(render_compare([label for label, _ in loaded], findings), nl=False)
        sys.exit(1 if any(f.severity.value == "error" for f in findings) else 0)
    if reports:
        _fail("REPORTS are only read with --compare")
    try:
        report = collect_env(import_paddle=import_paddle)
    except Exception as exc:  # a bug of ours must not end in a traceback on the user's screen
        click.echo(f"paddle-doctor env: internal error: {type(exc).__name__}: {exc} (please report it)", err=True)
        sys.exit(2)
    click.echo(json_out.dumps(report) if fmt == "json" else render_env(report), nl=fmt == "json")
    sys.exit(1 if any(f["severity"] == "error" for f in report["findings"]) else 0)


def _load_reports(paths: tuple[str, ...]) -> list[tuple[str, dict]]:
    from ..envcheck.compare import label_nodes
    from ..envcheck.schema import ReportError, load_report

    if len(paths) < 2:
        _fail("--compare needs at least two reports (written by `paddle-doctor env --format json > FILE`)")
    reports = []
    for path in paths:
        try:
            reports.append((path, load_report(path)))
        except ReportError as exc:
            _fail(str(exc))
    return label_nodes(reports)


def _fail(message: str) -> None:
    click.echo(f"paddle-doctor env: error: {message}", err=True)
    sys.exit(2)
