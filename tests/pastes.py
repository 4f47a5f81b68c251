"""One pasted log, diagnosed as a user hands it over: the text written to a file, then read by
diagnose like any log (the shared helper of the tests that hold a signature or a reading to a line)."""

from __future__ import annotations

from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths


def root_cause_of(tmp_path: Path, text: str, name: str = "paste.log"):
    """diagnose's root cause for ``text`` written to ``tmp_path/name`` (None: no failure found)."""
    log = tmp_path / name
    log.write_text(text, encoding="utf-8")
    return diagnose_paths([str(log)]).root_cause


# A traceback down to the frame that raised (format it with path, line, func and code, then add the exception
# line): the shape of the pasted tracebacks the tests of single readings build their lines into.
FRAMES = ("Traceback (most recent call last):\n"
          '  File "tools/train.py", line 172, in <module>\n'
          "    main()\n"
          '  File "{path}", line {line}, in {func}\n'
          "    {code}\n")


def verdict_of(tmp_path: Path, text: str):
    """diagnose's root cause for ``text``, which must find a failure."""
    finding = root_cause_of(tmp_path, text)
    assert finding is not None, "no verdict"
    return finding
