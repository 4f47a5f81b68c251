"""``paddle-doctor run [options] -- CMD...``: run a launch unchanged, with the guards in every worker.

Output passes through byte for byte; one summary line follows on stderr, and on failure the
diagnosis of the log dir. The exit code is the command's (a signal death as 128+N), and non-zero
when an old launcher printed ``ABORT!!!`` but exited 0, or a worker left an error record. The
supervisor is ``paddle_doctor.process.supervisor``; this module parses and renders.
"""

from __future__ import annotations

import sys

import click


def _diagnose(log_dir, tail: bytes, before: dict[str, int]) -> None:
    """Diagnose what this launch wrote (``before``: the sizes of the log dir's files before it)."""
    from ..diagnose.read.sources import DiagnoseInputError
    from ..process.after_launch import diagnose_launch, has_worker_logs
    from ..render import text

    try:
        diagnosis = diagnose_launch(log_dir, tail, before)
    except DiagnoseInputError as exc:  # its message may name files: made inert as every text line
        click.echo(f"paddle-doctor run: no diagnosis: {text.inert(exc)}", err=True)
        _set_aside_earlier_page(log_dir)
        return
    except Exception as exc:  # a bug of ours must not hide the command's own exit code
        click.echo(f"paddle-doctor run: diagnosis failed: {type(exc).__name__}: {text.inert(exc)}", err=True)
        return
    text.echo(text.render_diagnosis(diagnosis), stream=sys.stderr)
    if has_worker_logs(log_dir, before):  # the timeline page beside the logs
        from ..render.html import REPORT_NAME, write_report

        try:
            page = write_report(diagnosis, [str(log_dir)], log_dir / REPORT_NAME)
            click.echo(f"paddle-doctor run: timeline page {page}", err=True)
        except OSError as exc:
            click.echo(f"paddle-doctor run: no timeline page: {exc}", err=True)


def _set_aside_earlier_page(log_dir) -> None:
    """A passing run leaves no page of its own: an earlier failure's page beside the fresh logs would
    describe logs that are gone. It is kept (renamed), not deleted."""
    from ..render.html import REPORT_NAME

    page = log_dir / REPORT_NAME
    if not page.is_file():
        return
    earlier = page.with_name(f"{page.stem}.earlier{page.suffix}")
    try:
        page.replace(earlier)
    except OSError as exc:
        click.echo(f"paddle-doctor run: note: {page} is an earlier failure's page ({exc})", err=True)
        return
    click.echo(f"paddle-doctor run: an earlier failure's timeline page was moved to {earlier}", err=True)


@click.command("run", context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.option("--trace", is_flag=True, help="Record every collective (op, sequence, shapes, call site) per rank.")
@click.option("--check-collectives", is_flag=True,
              help="Compare each collective across ranks before it runs (implies --trace).")
@click.option("--debug-logs", is_flag=True, help="GLOG_v=4, NCCL_DEBUG=INFO, one NCCL_DEBUG_FILE per rank.")
@click.option("--single", is_flag=True, help="A one-process run: drop leftover PADDLE_* / FLAGS_selected_* first.")
@click.option("--watchdog-timeout", type=float, default=None, metavar="S",
              help="Seconds without a heartbeat before a peer counts as stuck (default 10).")
@click.option("--no-watchdog", is_flag=True, help="No heartbeats: error records (and trace) only.")
@click.option("--log-dir", default=None, help="Where records go when CMD has no --log_dir (default ./log).")
@click.option("--rendezvous-timeout", type=click.FloatRange(min=1), default=None, metavar="S",
              help="A multi-node launcher still waiting for its nodes after S s: say which registered, end it.")
@click.argument("cmd", nargs=-1, required=True, type=click.UNPROCESSED)
def command(cmd, trace, check_collectives, debug_logs, single, watchdog_timeout, no_watchdog, log_dir,
            rendezvous_timeout) -> None:
    """Run CMD (e.g. python -m paddle.distributed.launch --nproc_per_node 2 eval.py) unchanged, with
    error records and a watchdog in every worker; on failure, print the diagnosis."""
    from ..process import launchenv, supervisor

    cmd = list(cmd[1:] if cmd and cmd[0] == "--" else cmd)
    if not cmd:
        raise click.UsageError("no command given (paddle-doctor run -- python -m paddle.distributed.launch ...)")
    if single and launchenv.is_launcher(cmd):
        raise click.UsageError("--single is for one-process commands, not for a launcher")
    if launchenv.is_launcher(cmd):
        from ..process.masterport import held_master_port

        held = held_master_port(cmd)
        if held is not None:
            click.echo(f"paddle-doctor run: {held.cause}: {held.message}. {held.fix}. Nothing was run.", err=True)
            sys.exit(2)
    plan = launchenv.plan_run(cmd, trace=trace, check=check_collectives, debug_logs=debug_logs, single=single,
                              watchdog=not no_watchdog, watchdog_timeout=watchdog_timeout, log_dir=log_dir,
                              rendezvous_timeout=rendezvous_timeout)
    from ..process.after_launch import sizes_before
    from ..process.workers_python import GuardsUnreachable, ensure_guards

    try:
        note = ensure_guards(plan.cmd, plan.env)
    except GuardsUnreachable as exc:
        click.echo(f"paddle-doctor run: error: {exc}", err=True)
        sys.exit(2)
    if note:
        click.echo(f"paddle-doctor run: note: {note}", err=True)
    before = sizes_before(plan.log_dir)
    try:
        outcome = supervisor.supervise(plan)
    except supervisor.StartError as exc:
        click.echo(f"paddle-doctor run: error: {exc}", err=True)
        sys.exit(exc.code)
    cleaned = f"; removed leftover {', '.join(plan.removed)}" if plan.removed else ""
    if not outcome.failed:
        click.echo(f"paddle-doctor run: exit 0 in {outcome.elapsed:.1f} s{cleaned}", err=True)
        _set_aside_earlier_page(plan.log_dir)
        sys.exit(0)
    if outcome.stopped_by and outcome.command_code != 0:
        # The user (or a CI timeout) asked for the stop: what the ranks left says where they were,
        # not why the job failed; it is not diagnosed as a failure.
        click.echo(f"paddle-doctor run: stopped by {outcome.stopped_by} sent to paddle-doctor run (a stop asked for, "
                   f"passed on to the command) after {outcome.elapsed:.1f} s{cleaned}; exit code {outcome.code}. "
                   f"Where each rank was: paddle-doctor diagnose {plan.log_dir}", err=True)
        sys.exit(outcome.code)
    click.echo(f"paddle-doctor run: failed ({outcome.why}) in {outcome.elapsed:.1f} s{cleaned}; exit code "
               f"{outcome.code}. Diagnosis:", err=True)
    _diagnose(plan.log_dir, outcome.tail, before)
    sys.exit(outcome.code)
