"""Read every source into events, in input order; unreadable ones are reported, not fatal.

Measured on 1024 logs of 512 KiB (2 cores, bench/bench_diagnose.py --scale): a fork pool of 2
workers was slower (1.33 s) than one process (0.95 s), so the files are read here, one by one.
"""

from __future__ import annotations

import datetime as dt

from .launches import LAST, LaunchChoice
from .parse import BinaryFileError, FileEvents, NoSuchLaunch, read_events
from .sources import SourceFile

SKIP_ROLES = ("env", "aux", "record")


def read_all(sources: list[SourceFile], skipped: list[str],
             choice: LaunchChoice = LAST) -> tuple[list[FileEvents], list[str]]:
    """Events of every readable source (of the launch ``choice`` names, when several appended to
    one file), and ``skipped`` extended with "path: skipped, reason"."""
    year = dt.date.today().year
    files = []
    for source in sources:
        if source.role in SKIP_ROLES:
            continue
        try:
            files.append(read_events(source, year, choice))
            skipped += [f"{source.path}: {note}" for note in files[-1].notes]
        except (BinaryFileError, NoSuchLaunch) as exc:
            skipped.append(f"{source.path}: skipped, {exc}")
        except OSError as exc:
            skipped.append(f"{source.path}: skipped, {exc.strerror or exc}")
    return files, skipped
