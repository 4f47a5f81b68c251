#!/usr/bin/env python3
"""Calibration of each signature at first look: how often a verdict was right the first time diagnose saw a log.

usage: .venv/bin/python bench/first_look_calibration.py [--from N] [--to N] [--confidence high]

For every gathered batch in the first-look table of ``bench/RESULTS.md`` (issue 29) numbered between ``--from``
and ``--to``, the batch is scored again with the code of the commit its row names (``bench/score_corpus.py``'s
``run_at_commit``: that commit's ``src/`` first on ``sys.path`` of a child process), so each verdict is the one
the batch's first look gave, before any change made for it. Printed: the verdict code (the signature or rule
that decided), its cause and confidence, right/total, and the ids it was wrong on with the labelled cause.

The corpus test measures rules after they were tuned on the logs; this measures them on logs they had not seen,
which is what ``high`` has to be calibrated against.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from score_corpus import exported_src  # noqa: E402  (bench/ is not a package)

ROW = re.compile(r"^\| batch(?P<n>\d+)\b.*?code at (?P<commit>[0-9a-f]{7,40})", re.M)

# Run in the child, with the first look's paddle_doctor importable: one tab-separated line per log.
CHILD = """
import json, sys
from pathlib import Path
from paddle_doctor.diagnose import diagnose_paths
for folder in map(Path, sys.argv[1:]):
    for line in filter(str.strip, (folder / "labels.jsonl").read_text().splitlines()):
        label = json.loads(line)
        rc = diagnose_paths([str(folder / f"{label['id']}.log")]).root_cause
        got = str(getattr(rc.cause, "value", rc.cause)) if rc else "-"
        print(label["id"], label["root_cause"], got, rc.confidence.value if rc else "-",
              getattr(rc, "code", None) or "-", sep="\\t", flush=True)
"""


def batches(lo: int, hi: int) -> list[tuple[int, str, Path]]:
    """(number, first-look commit, folder) of each batch of the first-look table."""
    found = []
    for m in ROW.finditer((REPO / "bench" / "RESULTS.md").read_text()):
        n = int(m["n"])
        folder = next((d for d in (REPO / "tests/fixtures/gathered" / f"batch{n}", REPO / "tests/gathered-partial" /
                                   f"batch{n}") if (d / "labels.jsonl").exists()), None)
        if lo <= n <= hi and folder is not None:
            found.append((n, m["commit"], folder))
    return found


def first_look(commit: str, folder: Path, child: str = CHILD) -> list[list[str]]:
    """The rows ``child`` prints (five tab-separated fields a log) for ``folder``, run with the code of ``commit``."""
    with exported_src(commit) as src:
        out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(src)!r}); " + child,
                              str(folder)], capture_output=True, text=True, check=False, cwd=src).stdout
    return [line.split("\t") for line in out.splitlines() if line.count("\t") == 4]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="lo", type=int, default=52)
    parser.add_argument("--to", dest="hi", type=int, default=10**6)
    parser.add_argument("--confidence", default="high", help="the confidence to break down (high, medium, low)")
    args = parser.parse_args(argv)
    by_code: dict[tuple[str, str], list] = defaultdict(lambda: [0, 0, []])
    per_conf: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    logs = right = 0
    for n, commit, folder in batches(args.lo, args.hi):
        rows = first_look(commit, folder)
        print(f"batch{n}: {len(rows)} logs, code of {commit}", file=sys.stderr, flush=True)
        for log_id, want, got, confidence, code in rows:
            logs += 1
            right += want == got
            per_conf[confidence][0] += want == got
            per_conf[confidence][1] += 1
            if confidence == args.confidence:
                entry = by_code[(code, got)]
                entry[0] += want == got
                entry[1] += 1
                if want != got:
                    entry[2].append(f"{log_id}:{want}")
    print(f"first looks of batches {args.lo}-{args.hi if args.hi < 10**6 else 'last'}: top-1 {right}/{logs}; "
          + ", ".join(f"{c} {k}/{t}" for c, (k, t) in sorted(per_conf.items())))
    print(f"\n{args.confidence} verdicts by code (right/total, the misses with their labels):")
    for (code, cause), (k, t, misses) in sorted(by_code.items(), key=lambda kv: (-kv[1][1], kv[0])):
        print(f"  {code} -> {cause}: {k}/{t}" + (f"  [{' '.join(misses)}]" if misses else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
