#!/usr/bin/env python3
"""Calibration and per-rule precision of ``paddle-doctor diagnose`` on every labelled set.

usage: .venv/bin/python bench/rules_precision.py [EXTRA_SET_DIR ...]

Scores the shared sets (``../shared/corpus/real-dev*``, or ``$PADDLE_DOCTOR_CORPUS``'s siblings), every
folder under ``tests/fixtures`` that holds a ``labels.jsonl`` (the gathered batches), and any folder
given: per set, top-1 and top-3, the calibration (right/total for each confidence diagnose gave), and
for each reasoning rule of ``diagnose.rules`` how often it decided and how often it was right (a rule
that defers to a log signature, or to a part of the error tables, is broken down by that signature).
The same lines as ``tests/unit/test_diagnose_corpus.py`` prints (both use ``tests/corpus_score.py``),
then the totals over all sets.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from conftest import CORPORA, CORPUS  # noqa: E402
from corpus_score import CONFIDENCES, Score, labelled_sets, report, score  # noqa: E402


def main(extra: list[str]) -> None:
    sets = labelled_sets([*CORPORA, CORPUS.parent / "real-dev3", *map(Path, extra)])
    total = Score("all sets")
    for corpus in sets:
        s = score(corpus)
        print("\n".join(report(s)))
        total.rows += s.rows
    n, top1 = len(total.rows), sum(r.hit1 for r in total.rows)
    print(f"all {len(sets)} sets: top-1 {top1}/{n}")
    print("  calibration: " + ", ".join(f"{level} {r}/{t} ({r / t:.0%})" for level in CONFIDENCES
                                     if (rt := total.calibration().get(level)) for r, t in [rt]))
    for code, (right, fired) in total.per_rule().items():
        print(f"  rule {code:<28} right {right}/{fired}")


if __name__ == "__main__":
    main(sys.argv[1:])
