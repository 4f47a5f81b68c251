"""``paddle-doctor diagnose PATH...``: exit 0 when the analysis ran, 2 on unusable input."""

from __future__ import annotations

import sys

import click

from ..diagnose import DiagnoseInputError, diagnose_paths
from ..render import json_out, text


@click.command("diagnose")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def command(paths: tuple[str, ...], fmt: str) -> None:
    """Read a launcher log dir (several for several nodes), a file of pasted terminal output, a single
    worker log, or - for stdin, and name the root cause, the failing rank, and the fix."""
    stdin = sys.stdin.buffer.read() if "-" in paths else None
    try:
        diagnosis = diagnose_paths(list(paths), stdin=stdin)
    except DiagnoseInputError as exc:
        click.echo(f"paddle-doctor diagnose: error: {exc}", err=True)
        sys.exit(2)
    except Exception as exc:  # a bug of ours must still not end in a traceback on the user's screen
        click.echo(f"paddle-doctor diagnose: internal error: {type(exc).__name__}: {exc} "
                   "(please report it with the logs)", err=True)
        sys.exit(2)
    if fmt == "json":
        click.echo(json_out.dumps(json_out.diagnosis_dict(diagnosis)))
    else:
        text.echo(text.render_diagnosis(diagnosis))
