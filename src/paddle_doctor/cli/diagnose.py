"""``paddle-doctor diagnose PATH...``: exit 0 when the analysis ran, 2 on unusable input."""

from __future__ import annotations

import sys

import click

from ..diagnose import DiagnoseInputError, diagnose_paths


@click.command("diagnose")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--html", "html_path", default=None, metavar="FILE",
              help="Also write a self-contained HTML page (timeline per rank) to FILE.")
def command(paths: tuple[str, ...], fmt: str, html_path: str | None) -> None:
    """Read a launcher log dir (several for several nodes), a file of pasted terminal output, a single
    worker log, or - for stdin, and name the root cause, the failing rank, and the fix."""
    from ..diagnose.read.opener import MAX_STDIN_BYTES

    # One byte over the budget tells the reader that standard input was cut (it says so).
    stdin = sys.stdin.buffer.read(MAX_STDIN_BYTES + 1) if "-" in paths else None
    try:
        diagnosis = diagnose_paths(list(paths), stdin=stdin)
    except DiagnoseInputError as exc:
        from ..render.text import inert  # a path in the message may hold escape codes

        click.echo(f"paddle-doctor diagnose: error: {inert(exc)}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug of ours must still not end in a traceback on the user's screen
        from ..render.text import inert

        click.echo(f"paddle-doctor diagnose: internal error: {type(exc).__name__}: {inert(exc)} "
                   "(please report it with the logs)", err=True)
        sys.exit(2)
    if html_path:
        from ..render.html import write_report

        try:
            write_report(diagnosis, list(paths), html_path)
        except OSError as exc:
            click.echo(f"paddle-doctor diagnose: error: cannot write {html_path}: {exc.strerror or exc}", err=True)
            sys.exit(2)
    # Only the renderer asked for is imported (the text one, with textwrap, is ~5 ms of start-up).
    if fmt == "json":
        from ..render import json_out

        click.echo(json_out.dumps(json_out.diagnosis_dict(diagnosis)))
    else:
        from ..render import text

        text.echo(text.render_diagnosis(diagnosis))
