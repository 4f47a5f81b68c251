"""Diagnose each one-line (or few-line) message of a probe set and count the verdicts that name the
cause the probe expects.

    python bench/probe_messages.py                       # the code of the working tree
    python bench/probe_messages.py --commit 1d37446      # the code of a commit (the probe before a change)
    python bench/probe_messages.py --misses              # list what each miss got

The probe (``tests/fixtures/probe/messages.jsonl``: ``{"cause", "text"}`` per line) holds messages written from
the sources of Paddle, CPython, the CUDA stack, shells, docker, Kubernetes and the suites' libraries, in the
forms users paste them (a bare exception line, a native ``[ERROR]`` line, a wrapper's report), each with the cause
expected before diagnose ran on it (issue 29, fifth session). It is a development set, not a first look: the
wordings and rows of that session were written against it. Some expectations are one reading of an ambiguous
line (a missing libcuda as a device or an installation problem); the misses list says which.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_corpus import run_at_commit  # noqa: E402  (the same child run with another commit's code)

PROBE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "probe" / "messages.jsonl"


def probe(misses: bool) -> int:
    from paddle_doctor.diagnose import diagnose_paths

    rows = [json.loads(line) for line in PROBE.read_text(encoding="utf-8").splitlines() if line.strip()]
    right, per_cause = 0, Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for i, row in enumerate(rows):
            path = Path(tmp) / f"probe{i}.log"
            path.write_text(row["text"] + "\n", encoding="utf-8")
            root = diagnose_paths([str(path)]).root_cause
            got = root.cause.value if root is not None else "no verdict"
            per_cause[(row["cause"], got == row["cause"])] += 1
            right += got == row["cause"]
            if misses and got != row["cause"]:
                print(f"  MISS want {row['cause']}, got {got}: {row['text'][:90]!r}")
    causes = sorted({c for c, _ in per_cause})
    print(f"probe: {right}/{len(rows)} name the expected cause")
    print("  " + ", ".join(f"{c} {per_cause[(c, True)]}/{per_cause[(c, True)] + per_cause[(c, False)]}"
                           for c in causes))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="diagnose with the code of this commit (src/ from git archive)")
    parser.add_argument("--misses", action="store_true", help="list each miss")
    args = parser.parse_args(argv)
    if args.commit:
        return run_at_commit(args.commit, ["--misses"] if args.misses else [], script=__file__)
    return probe(args.misses)


if __name__ == "__main__":
    sys.exit(main())
