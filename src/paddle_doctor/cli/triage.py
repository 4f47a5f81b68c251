"""``paddle-doctor triage -- CMD...``: exit 0 when the triage ran (whatever it found), 2 on bad input."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("triage", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--timeout", type=click.FloatRange(min=1), default=120.0, show_default=True,
              help="Seconds for each rerun before it is stopped.")
@click.option("--no-checkpoint", "checkpoint", is_flag=True,
              help="Also rerun without loading a checkpoint (paddle.load returns nothing: random weights).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where each rerun's output and logs go (default ./paddle-doctor-triage).")
@click.argument("cmd", nargs=-1, required=True, type=click.UNPROCESSED)
def command(timeout, checkpoint, out_dir, cmd) -> None:
    """Rerun a failing command (e.g. python -m paddle.distributed.launch ... eval.py) as is, with
    DataLoader workers forced to 0, with one process, on CPU, and (--no-checkpoint) with random
    weights; say which variations pass and what that points to."""
    from ..process.workers_python import GuardsUnreachable
    from ..triage import triage

    cmd = list(cmd[1:] if cmd and cmd[0] == "--" else cmd)
    if not cmd:
        click.echo("paddle-doctor triage: error: no command given (paddle-doctor triage -- python eval.py)", err=True)
        sys.exit(2)
    out = (out_dir or Path.cwd() / "paddle-doctor-triage").absolute()
    from ..render import text
    from ..render.checks import check_table
    from ..term import Ticker
    from ..process.bounded_run import StopRequested

    # Live: the header now, each row as its rerun ends, a spinner with the time on a terminal.
    text.echo([text.Line("paddle-doctor triage: each variation reruns the command (logs under "
                         f"{out}/<variation>/)", "head")])
    sys.stdout.flush()

    def row(finding) -> None:
        text.echo(check_table([finding]))
        sys.stdout.flush()

    try:
        result = triage(cmd, out_dir=out, timeout=timeout, checkpoint=checkpoint, on_row=row,
                        running=lambda name: Ticker(f"running {name}", timeout))
    except StopRequested as stop:
        click.echo(f"paddle-doctor triage: {stop}; the rerun running then, its ranks and their helpers were "
                   "ended; no conclusion", err=True)
        sys.exit(stop.exit_code)
    except OSError as exc:
        click.echo(f"paddle-doctor triage: error: cannot run {cmd[0]}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    except GuardsUnreachable as exc:  # its variations would silently not apply: no verdict at all
        click.echo(f"paddle-doctor triage: error: {exc}", err=True)
        sys.exit(2)
    _render(result, out)


def _render(result, out: Path) -> None:
    from ..render import text

    c = result.conclusion
    lines = []  # the header and the rows were printed as they came
    lines.append(text.Line(f"VERDICT  {c.message} [{c.confidence.value} confidence]",
                           "ok" if c.cause == "unknown" else "verdict"))
    if c.why:
        lines.append(text.Line(f"  why  {c.why}"))
    lines += [text.Line(f"  evidence  {e.path}:{e.line}  {e.text[:160]}", "dim") for e in c.evidence]
    if c.cause != "unknown":
        lines.append(text.Line(f"  more: paddle-doctor explain {c.cause}", "dim"))
    text.echo(lines)
