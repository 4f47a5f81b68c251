"""``paddle-doctor run [options] -- CMD...``: run a launch unchanged, with the guards in every worker.

Output passes through byte for byte; one summary line follows on stderr, and on failure the
diagnosis of the log dir. The exit code is the command's (a signal death as 128+N), and non-zero
when an old launcher printed ``ABORT!!!`` but exited 0, or a worker left an error record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import click

from ..runtime.launch import launchenv

TAIL_BYTES = 1 << 20  # what is kept of the output for a diagnosis when there is no log dir


class _Tee:
    """Copy the child's stdout and stderr to ours unchanged, and watch for the ABORT line."""

    def __init__(self, proc: subprocess.Popen):
        self.abort_seen = False
        self.tail = bytearray()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._copy, args=(s, fd), daemon=True)
                         for s, fd in ((proc.stdout, 1), (proc.stderr, 2))]
        for t in self._threads:
            t.start()

    def _copy(self, stream, fd: int) -> None:
        carry, out_ok = b"", True
        while chunk := os.read(stream.fileno(), 65536):
            if out_ok:
                try:
                    os.write(fd, chunk)
                except OSError:  # our own output was closed (| head): keep draining the child
                    out_ok = False
            window = carry + chunk
            with self._lock:
                self.abort_seen = self.abort_seen or launchenv.ABORT_MARKER in window
                self.tail += chunk
                del self.tail[:-TAIL_BYTES]
            carry = window[-len(launchenv.ABORT_MARKER):]

    def join(self) -> None:
        for t in self._threads:
            t.join(timeout=5)


def _wait(proc: subprocess.Popen) -> int:
    """Wait for the child; SIGTERM to us goes to it. Ctrl-C reaches it from the terminal (same
    process group), so we only keep waiting for it to end."""
    previous = signal.signal(signal.SIGTERM, lambda *_: proc.send_signal(signal.SIGTERM))
    try:
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                continue
    finally:
        signal.signal(signal.SIGTERM, previous)


def _diagnose(plan: launchenv.RunPlan, tail: bytes) -> None:
    from ..diagnose import DiagnoseInputError, diagnose_paths
    from ..render import text

    has_logs = plan.log_dir.is_dir() and any(p.name.startswith("workerlog") for p in plan.log_dir.iterdir())
    try:
        if has_logs:
            diagnosis = diagnose_paths([str(plan.log_dir)])
        else:
            diagnosis = diagnose_paths(["-"], stdin=bytes(tail))
    except DiagnoseInputError as exc:
        click.echo(f"paddle-doctor run: no diagnosis: {exc}", err=True)
        return
    except Exception as exc:  # a bug of ours must not hide the command's own exit code
        click.echo(f"paddle-doctor run: diagnosis failed: {type(exc).__name__}: {exc}", err=True)
        return
    text.echo(text.render_diagnosis(diagnosis), stream=sys.stderr)
    if has_logs:  # the timeline page beside the logs
        from ..render.html import REPORT_NAME, write_report

        try:
            page = write_report(diagnosis, [str(plan.log_dir)], plan.log_dir / REPORT_NAME)
            click.echo(f"paddle-doctor run: timeline page {page}", err=True)
        except OSError as exc:
            click.echo(f"paddle-doctor run: no timeline page: {exc}", err=True)


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
@click.argument("cmd", nargs=-1, required=True, type=click.UNPROCESSED)
def command(cmd, trace, check_collectives, debug_logs, single, watchdog_timeout, no_watchdog, log_dir) -> None:
    """Run CMD (e.g. python -m paddle.distributed.launch --nproc_per_node 2 eval.py) unchanged, with
    error records and a watchdog in every worker; on failure, print the diagnosis."""
    cmd = list(cmd[1:] if cmd and cmd[0] == "--" else cmd)
    if not cmd:
        raise click.UsageError("no command given (paddle-doctor run -- python -m paddle.distributed.launch ...)")
    if single and launchenv.is_launcher(cmd):
        raise click.UsageError("--single is for one-process commands, not for a launcher")
    plan = launchenv.plan_run(cmd, trace=trace, check=check_collectives, debug_logs=debug_logs, single=single,
                              watchdog=not no_watchdog, watchdog_timeout=watchdog_timeout, log_dir=log_dir)
    for path in launchenv.stale_files(plan.log_dir):
        path.unlink(missing_ok=True)
    start = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, env=plan.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as exc:
        click.echo(f"paddle-doctor run: error: cannot run {cmd[0]}: {exc.strerror or exc}", err=True)
        sys.exit(127 if isinstance(exc, FileNotFoundError) else 126)
    tee = _Tee(proc)
    code = launchenv.shell_code(_wait(proc))
    tee.join()
    for path in launchenv.empty_dumps(plan.log_dir):
        path.unlink(missing_ok=True)
    sys.exit(_report(plan, code, tee, time.monotonic() - start))


def _report(plan: launchenv.RunPlan, code: int, tee: _Tee, elapsed: float) -> int:
    records = [p for p in launchenv.stale_files(plan.log_dir) if p.suffix == ".json"]
    cleaned = f"; removed leftover {', '.join(plan.removed)}" if plan.removed else ""
    if code == 0 and not tee.abort_seen and not records:
        click.echo(f"paddle-doctor run: exit 0 in {elapsed:.1f} s{cleaned}", err=True)
        return 0
    why = ("the launcher printed ABORT!!! but exited 0" if code == 0 and tee.abort_seen
           else "a worker wrote an error record but the command exited 0" if code == 0 else f"exit {code}")
    code = code or 1
    click.echo(f"paddle-doctor run: failed ({why}) in {elapsed:.1f} s{cleaned}; exit code {code}. Diagnosis:",
               err=True)
    _diagnose(plan, bytes(tee.tail))
    return code
