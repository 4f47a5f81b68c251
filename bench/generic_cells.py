"""Could the structure of an error, its innermost frame's owner and its type, beat the generic verdict at first look?

    python bench/generic_cells.py [--splits 80 90 100 105] [--least 5 8 12] [--to 114]

At first look about two verdicts in five are ``python_exception``, and about half of those are right: the
rest are labelled ``paddle_api_mismatch``, ``config_error``, ``dependency_version_mismatch``... The question
measured here is whether a plain structural rule could name those: put each generic first-look verdict in a
cell by the innermost frame of the error's traceback (``paddle``'s own Python, a suite's package or clone, an
installed ``library``, the ``user``'s file, or no frame) and the exception's type (``KeyError``...), and let
the labels of earlier batches name each cell's cause (its most frequent label, for cells of at least
``--least`` logs). Applied forward, to the batches from each split on, it says how many generic verdicts such
a rule would have made right or wrong. The frame and type are read with diagnose's own block parser
(``anatomy.parts.parse_block``); the first looks are re-run with each batch's first-look commit
(``bench/word_model.py``'s ``first_looks``). Figures and the decision: ``bench/results/29-generic.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "src"))
from word_model import first_looks  # noqa: E402

from paddle_doctor.diagnose.anatomy.parts import parse_block  # noqa: E402

BLOCK = 60  # lines above the error line read for its traceback (a deep one fits)


def frame_owner(parts) -> str:
    frame = parts.innermost
    if frame is None:
        return "no frame"
    if frame.suite or frame.in_suite_clone:
        return "suite"
    return frame.owner


def cell(path: Path, line: int | None) -> tuple[str, str]:
    """(innermost frame's owner, exception type) of the error at ``line`` (1-based) of ``path``."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    at = len(lines) if line is None else min(line, len(lines))
    parts = parse_block(lines[max(0, at - BLOCK):at])
    return frame_owner(parts), parts.exc_type or "(none)"


def generic_looks(last: int) -> list[tuple[int, tuple[str, str], str]]:
    """(batch, cell, labelled cause) of every first-look verdict that was ``python_exception``."""
    out = []
    for n, folder, (log_id, want, got, _code, at) in first_looks(52, last):
        if got == "python_exception":
            out.append((n, cell(folder / f"{log_id}.log", int(at) if at else None), want))
    return out


def table(looks) -> None:
    cells: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for _n, key, want in looks:
        cells[key][want] += 1
    print(f"generic first-look verdicts: {len(looks)}, right {sum(w == 'python_exception' for *_, w in looks)}")
    for key, labels in sorted(cells.items(), key=lambda kv: -sum(kv[1].values())):
        if sum(labels.values()) >= 5:
            print(f"  {key[0]:9} {key[1]:24} {sum(labels.values()):3}  " +
                  " ".join(f"{c}:{k}" for c, k in labels.most_common(4)))


def forward(looks, splits: list[int], least: list[int]) -> None:
    for split in splits:
        for minimum in least:
            train: dict[tuple[str, str], Counter] = defaultdict(Counter)
            for n, key, want in looks:
                if n < split:
                    train[key][want] += 1
            rule = {key: labels.most_common(1)[0][0] for key, labels in train.items()
                    if sum(labels.values()) >= minimum}
            test = [(key, want) for n, key, want in looks if n >= split]
            before = sum(want == "python_exception" for _key, want in test)
            after = sum(want == rule.get(key, "python_exception") for key, want in test)
            moved = sorted(f"{k[0]}/{k[1]}->{c}" for k, c in rule.items() if c != "python_exception")
            print(f"split {split}, cells of >= {minimum}: batches {split}-: {before}/{len(test)} -> "
                  f"{after}/{len(test)} ({after - before:+d}); cells moved: {', '.join(moved) or 'none'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, nargs="+", default=[80, 90, 100, 105])
    parser.add_argument("--least", type=int, nargs="+", default=[5, 8, 12], help="the fewest logs a cell needs")
    parser.add_argument("--to", type=int, default=10**6, help="the last batch scored (29-generic.md: 114)")
    args = parser.parse_args(argv)
    looks = generic_looks(args.to)
    table(looks)
    forward(looks, args.splits, args.least)
    return 0


if __name__ == "__main__":
    sys.exit(main())
