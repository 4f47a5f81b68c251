"""``paddle-doctor``: the console script.

Subcommands are imported only when they run, so ``--help``, ``diagnose`` and ``explain`` start fast
and never import paddle.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys

import click

from .. import __version__
from ..term import add_output_options

# The commands that end in a verdict line (``--quiet`` prints only that line).
VERDICT_COMMANDS = ("diagnose", "run", "triage", "smoke", "demo")

# name -> (module, short help). The module defines ``command`` (a click.Command).
COMMANDS = {
    "diagnose": ("paddle_doctor.cli.diagnose", "Name the root cause of a failed distributed run from its logs."),
    "lint": ("paddle_doctor.cli.lint", "Find Paddle distributed-evaluation bugs in Python sources before they run."),
    "explain": ("paddle_doctor.cli.explain", "Explain a cause id: why it kills every process, how to confirm, the fix."),
    "demo": ("paddle_doctor.cli.demo", "Run a real 2-process evaluation that fails, then diagnose it."),
    "ckpt": ("paddle_doctor.cli.ckpt", "Inspect, check, diff and strip checkpoints safely (no code from the file runs)."),
    "run": ("paddle_doctor.cli.run", "Run a launch unchanged with error records and a watchdog; diagnose failures."),
    "env": ("paddle_doctor.cli.env", "Report the environment for a bug report, with checks (shm, versions, ports, leftovers)."),
    "triage": ("paddle_doctor.cli.triage", "Rerun a failing launch with workers=0, one process, CPU: which part fails."),
    "smoke": ("paddle_doctor.cli.smoke", "A tiny real distributed train step and evaluation, as a CI check."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        command = importlib.import_module(COMMANDS[name][0]).command
        add_output_options(command, with_quiet=name in VERDICT_COMMANDS)  # --color everywhere (term.py)
        return command

    def format_commands(self, ctx, formatter):
        rows = [(name, help_text) for name, (_, help_text) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="paddle-doctor")
def cli():
    """Find the real root cause of failed PaddlePaddle distributed runs, and stop them failing."""


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return cli.main(args=argv, prog_name="paddle-doctor", standalone_mode=True) or 0
        finally:
            sys.stdout.flush()  # a full disk fails here or in the command: either way, one line below
    except SystemExit as exc:  # click exits; keep the code for callers of main()
        return exc.code if isinstance(exc.code, int) else 1
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # `| head`: the reader left; nothing to say
            _mute_stdout()
            return 0
        sys.stderr.write(f"paddle-doctor: error: cannot write the output: {exc.strerror or exc}\n")
        _mute_stdout()
        return 2


def _mute_stdout() -> None:
    """The interpreter flushes stdout once more at exit; a full disk would fail there again, with
    a traceback. Point it at /dev/null first."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
