#!/usr/bin/env python3
"""Benchmark: every signature row's regex alone, and the line cleaner, on hostile 100 000-character lines (issue 29).

usage: .venv/bin/python bench/bench_row_hostile.py [--bound 0.05]

diagnose reads rows on windows around their trigger literals (``read/scan.py``), so a row that backtracks badly on a long
line does not slow diagnose itself (``bench/bench_hostile.py`` measures that); but the same rows read an error record's
whole message (``errors.records``) and any future caller. Each row's ``pattern.search`` is timed on each line below,
and so are ``read.markdown.plain`` (the wrappers taken off every scanned line before any row reads it) and the error
readers' compiled patterns (``diagnose/anatomy``: frames' source lines, messages, wordings; these only ever see the
scanner's lines, at most 1 200 characters, and are timed on the hostile lines cut to that); one over
``--bound`` seconds on one of them is listed, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import sys
import time

# Runs that a row's name group, a lazy span or a repeated literal could each start a new attempt in.
HOSTILE = ("a" * 100_000, "x " * 50_000, "{" * 100_000, "[F " * 30_000, "line 1, in " * 9_000,
           "x" * 100_000 + "IndexError: ", "undefined reference to `" * 4_000, "LNK1181 " * 12_000,
           "Attribute (" * 9_000, "cannot find -l" * 7_000, "No module named 'paddle.fluid" * 3_000, "E/" * 50_000,
           "06-18 18:42:06.401  1 " * 4_000, "  4 " * 25_000, "paddleocr: error: argument " + "command" * 14_000,
           "[F kernels/arm/a.cc:1 f]" + " " * 100_000, "When parsing line , error happened with msg:" * 2_200,
           "\\nException: " * 8_000, " " * 100_000, "`" + " a" * 50_000 + "`x`", "**a" + " " * 100_000 + "x",
           "dlopen(" * 14_000, "E" * 100_000, "[Hint: Expected " * 6_250, "endpoints[" + "rank" * 25_000, "[" * 100_000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bound", type=float, default=0.05, help="seconds a row may take on one line")
    args = parser.parse_args(argv)
    from paddle_doctor.diagnose.signatures.table import SIGNATURES

    from paddle_doctor.diagnose.read.markdown import plain

    slow = []
    checks = [(sig.name, sig.pattern.search) for sig in SIGNATURES] + [("read.markdown.plain", plain)] + _anatomy()
    for name, search in checks:
        worst = max((_timed(search, line) for line in HOSTILE), key=lambda r: r[0])
        if worst[0] > args.bound:
            slow.append((name, *worst))
    print(f"{len(SIGNATURES)} rows, the line cleaner and {len(checks) - len(SIGNATURES) - 1} patterns of the error "
          f"readers (lines cut to the scanner's 1 200 characters) x {len(HOSTILE)} hostile lines of up to 100 000 "
          f"characters; bound {args.bound} s")
    for name, seconds, line in slow:
        print(f"  over the bound: {name} {seconds:.3f} s on {line!r}")
    print("every row within the bound" if not slow else f"{len(slow)} row(s) over the bound")
    return 1 if slow else 0


def _anatomy() -> list:
    """The compiled patterns of the error readers (``diagnose/anatomy``: a frame's source, the message, the words)."""
    import importlib
    import pkgutil
    import re

    from paddle_doctor.diagnose import anatomy
    from paddle_doctor.lazy import LazyPattern

    found = []
    for info in pkgutil.iter_modules(anatomy.__path__):
        module = importlib.import_module(f"{anatomy.__name__}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, (re.Pattern, LazyPattern)):
                found.append((f"anatomy.{info.name}.{name}", _capped(value.search)))
    from paddle_doctor.diagnose.anatomy.wording import _COMPILED, _TYPES_COMPILED
    found += [(f"anatomy.wording.{w.name}", _capped(p.search)) for w, p in (*_COMPILED, *_TYPES_COMPILED)]
    return found


def _capped(search):
    """The readers see only the scanner's lines, cut to 2 x WINDOW_BYTES around their trigger (``read/scan.py``): a
    pattern is timed on the hostile line cut to that length, where its worst case can happen."""
    from paddle_doctor.diagnose.read.scan import WINDOW_BYTES

    return lambda line: search(line[:2 * WINDOW_BYTES])


def _timed(search, line: str) -> tuple[float, str]:
    start = time.perf_counter()
    search(line)
    return time.perf_counter() - start, line[:24]


if __name__ == "__main__":
    sys.exit(main())
