"""``paddle-doctor diagnose PATH...``: exit 0 when the analysis ran, 2 on unusable input."""

from __future__ import annotations

import sys

import click

from ..diagnose.paths import diagnose_paths
from ..diagnose.read.sources import DiagnoseInputError


@click.command("diagnose")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "markdown"]), default="text",
              show_default=True, help="github: workflow annotations (::error file=...,line=...::); markdown: a "
              "summary for $GITHUB_STEP_SUMMARY.")
@click.option("--exit-code", "exit_code", is_flag=True,
              help="Exit 1 when a failure is found (default: 0 whenever the analysis ran).")
@click.option("--launch", "launch", type=click.IntRange(min=1), default=None, metavar="K",
              help="Where several launches appended to the same logs: diagnose the K-th (default: the last).")
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write a self-contained HTML page (timeline per rank) to FILE; - for stdout (the report "
                   "then goes to stderr).")
def command(paths: tuple[str, ...], fmt: str, exit_code: bool, launch: int | None, html_path: str | None) -> None:
    """Read a launcher log dir (several for several nodes), a file of pasted terminal output, a single
    worker log, or - for stdin, and name the root cause, the failing rank, and the fix."""
    from ..diagnose.read.opener import MAX_STDIN_BYTES

    # One byte over the budget tells the reader that standard input was cut (it says so).
    stdin = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1) if "-" in paths else None
    try:
        from ..diagnose.read.launches import LaunchChoice

        diagnosis = diagnose_paths(list(paths), stdin=stdin, launch=LaunchChoice(index=launch))
    except DiagnoseInputError as exc:
        from ..render.text import inert  # a path in the message may hold escape codes

        click.echo(f"paddle-doctor diagnose: error: {inert(exc)}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug of ours must still not end in a traceback on the user's screen
        from ..render.text import inert

        click.echo(f"paddle-doctor diagnose: internal error: {type(exc).__name__}: {inert(exc)} "
                   "(please report it with the logs)", err=True)
        sys.exit(2)
    if html_path == "-":  # the page is the output; the report goes to stderr
        from ..render.html import render_page

        click.echo(render_page(diagnosis, title=f"paddle-doctor: {', '.join(paths)}"), nl=False)
        _render(diagnosis, fmt, err=True)
    else:
        if html_path:
            _write_page(diagnosis, paths, html_path)
        # Only the renderer asked for is imported (the text one, with textwrap, is ~5 ms of start-up).
        _render(diagnosis, fmt)
    if exit_code and diagnosis.verdict == "failure":
        sys.exit(1)


def _write_page(diagnosis, paths, html_path: str) -> None:
    """The page at ``html_path`` (in place for a device, FIFO or symlink: ``outfile``); one line on error."""
    from ..render.html import write_report

    try:
        write_report(diagnosis, list(paths), html_path)
    except OSError as exc:
        click.echo(f"paddle-doctor diagnose: error: cannot write {html_path}: {exc.strerror or exc}", err=True)
        sys.exit(2)


def _render(diagnosis, fmt: str, err: bool = False) -> None:
    if fmt == "json":
        from ..render import json_out

        click.echo(json_out.dumps(json_out.diagnosis_dict(diagnosis)), err=err)
        return
    from ..render import text

    if fmt == "text":
        text.echo(text.render_diagnosis(diagnosis), stream=sys.stderr if err else None)
        return
    verdict = text.render_diagnosis(diagnosis)[0].text.removeprefix("VERDICT").strip()
    if fmt == "github":
        import os

        from ..render.ci.github import annotations

        click.echo("\n".join(annotations(diagnosis, verdict, os.environ.get("GITHUB_WORKSPACE") or os.getcwd())),
                   err=err)
    else:
        from ..render.ci.markdown import summary

        click.echo(summary(diagnosis, verdict), nl=False, err=err)
