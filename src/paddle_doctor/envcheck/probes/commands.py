"""Running the few external commands a probe needs (``nvidia-smi``, ``ip``), bounded by a timeout.

Probes take a ``CommandRunner`` instead of calling :mod:`subprocess` themselves, so tests (and
anyone simulating another machine) can hand in recorded outputs: :class:`RecordedCommands`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CommandOutput:
    """What one command printed. ``returncode`` is None when it timed out (``error`` says so)."""

    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0


# A runner returns None when the program is not installed at all.
CommandRunner = Callable[[Sequence[str], float], "CommandOutput | None"]


def run_command(argv: Sequence[str], timeout: float) -> CommandOutput | None:
    """Run ``argv`` without a shell; None if the program is absent."""
    argv = tuple(argv)
    if shutil.which(argv[0]) is None:
        return None
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, errors="replace")
    except subprocess.TimeoutExpired:
        return CommandOutput(argv, None, "", f"timed out after {timeout:g} s")
    except OSError as exc:
        return CommandOutput(argv, None, "", f"could not run: {exc}")
    return CommandOutput(argv, proc.returncode, proc.stdout, proc.stderr.strip()[:500])


class RecordedCommands:
    """A runner that answers from recorded outputs: ``{("nvidia-smi", "-L"): "GPU 0: ..."}``.

    A value may be a string (exit 0) or a ``(returncode, stdout)`` pair. A command whose program
    (``argv[0]``) appears in no key is absent (None); a known program with other arguments exits 2,
    as ``nvidia-smi`` does for an unknown option.
    """

    def __init__(self, outputs: Mapping[tuple[str, ...], str | tuple[int, str]]):
        self.outputs = {tuple(k): v for k, v in outputs.items()}
        self.calls: list[tuple[str, ...]] = []

    def __call__(self, argv: Sequence[str], timeout: float) -> CommandOutput | None:
        argv = tuple(argv)
        self.calls.append(argv)
        if argv in self.outputs:
            value = self.outputs[argv]
            code, out = (0, value) if isinstance(value, str) else value
            return CommandOutput(argv, code, out)
        if any(key[0] == argv[0] for key in self.outputs):
            return CommandOutput(argv, 2, "", "not recorded")
        return None
