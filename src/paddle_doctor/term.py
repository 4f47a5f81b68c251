"""The one place that decides how paddle-doctor writes to a terminal: colour and quiet.

Colour, in this order (the https://no-color.org and https://force-color.org conventions, with the
command line first, as ruff and rich do): ``--color always|never``; then ``NO_COLOR`` (set and not
empty: no colour, no bold either); then ``FORCE_COLOR`` (set, not empty, not ``0``: colour even into
a pipe); else colour only on a terminal. Machine formats (JSON, SARIF, GitHub, Markdown) never
carry ANSI whatever this says. ``--quiet`` leaves the verdict line alone.

Quoted log lines are cut to the terminal's width (``--full`` / ``-v``: never cut).

Every command gets ``--color`` (and the verdict-giving ones ``--quiet``, ``--full``) from
:func:`add_output_options`, which ``cli/main.py`` applies as it loads a command.
"""

from __future__ import annotations

import os
from typing import TextIO

MODES = ("auto", "always", "never")
_state = {"mode": "auto", "quiet": False, "full": False}
PIPE_WIDTH = 160  # quoted lines into a pipe or a file: long enough for most errors, --full for all


def set_mode(mode: str | None) -> None:
    _state["mode"] = mode if mode in MODES else "auto"


def set_quiet(quiet: bool) -> None:
    _state["quiet"] = bool(quiet)


def quiet() -> bool:
    return bool(_state["quiet"])


def set_full(full: bool) -> None:
    _state["full"] = bool(full)


def quoted_width(stream: TextIO | None = None) -> int | None:
    """How many characters of a quoted log line to show: all of them with --full (None); on a
    terminal, what fits its width (``COLUMNS`` first, as ``shutil`` reads it); else PIPE_WIDTH."""
    import shutil
    import sys

    if _state["full"]:
        return None
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    if isatty and isatty():
        return max(60, shutil.get_terminal_size((PIPE_WIDTH + 15, 24)).columns - 15)
    return PIPE_WIDTH


def use_color(stream: TextIO, mode: str | None = None) -> bool:
    """Whether to colour what goes to ``stream``."""
    mode = mode or str(_state["mode"])
    if mode in ("always", "never"):
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    forced = os.environ.get("FORCE_COLOR")
    if forced and forced != "0":
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def add_output_options(command, *, with_quiet: bool = False) -> None:
    """Give a click command (and each subcommand of a group) ``--color`` and, if asked, ``--quiet``.
    A command that declares its own ``--color`` keeps it (and decides through :func:`use_color`)."""
    import click

    for sub in getattr(command, "commands", {}).values():
        add_output_options(sub, with_quiet=with_quiet)
    names = {p.name for p in command.params}
    if "color" not in names and "output_color" not in names:
        command.params.append(click.Option(
            ["--color", "output_color"], type=click.Choice(MODES), default="auto", show_default=True,
            expose_value=False, is_eager=True, callback=lambda _ctx, _param, value: set_mode(value),
            help="Colour: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always, never."))
    if with_quiet and "quiet" not in names:
        command.params.append(click.Option(
            ["--quiet"], is_flag=True, expose_value=False, is_eager=True,
            callback=lambda _ctx, _param, value: set_quiet(value), help="Print the verdict line only."))
    if with_quiet and "full_output" not in names:
        command.params.append(click.Option(
            ["--full", "-v", "full_output"], is_flag=True, expose_value=False, is_eager=True,
            callback=lambda _ctx, _param, value: set_full(value),
            help="Quote whole error lines (default: cut to the terminal's width, 160 characters into a pipe)."))


class Ticker:
    """On a terminal, a spinner line "LABEL: 12 s of 120 s" while a long step runs (``triage``'s
    reruns, ``smoke``'s launch); nothing otherwise (a log file gets the rows only)."""

    def __init__(self, label: str, timeout: float | None = None, stream: TextIO | None = None) -> None:
        import sys

        self.label, self.timeout = label, timeout
        self.stream = stream or sys.stdout
        self._status = None
        self._stop = None

    def __enter__(self) -> "Ticker":
        isatty = getattr(self.stream, "isatty", None)
        if quiet() or not (isatty and isatty()):
            return self
        import threading
        import time

        from rich.console import Console

        console = Console(file=self.stream, no_color=not use_color(self.stream))
        start = time.monotonic()
        self._status = console.status(self._text(0.0))
        self._status.start()
        self._stop = threading.Event()

        def tick() -> None:
            while not self._stop.wait(0.5):
                self._status.update(self._text(time.monotonic() - start))

        threading.Thread(target=tick, daemon=True).start()
        return self

    def _text(self, elapsed: float) -> str:
        limit = f" of {self.timeout:g} s" if self.timeout else ""
        return f"{self.label}: {elapsed:.0f} s{limit}"

    def __exit__(self, *exc) -> None:
        if self._status is not None:
            self._stop.set()
            self._status.stop()
