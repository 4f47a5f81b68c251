"""``python -m paddle_doctor.lab CASE_DIR [--work DIR]``: replay one case by hand.

Why: to look at a failure mode the way a user meets it, then at where its outputs are.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from paddle_doctor.lab.runner import LabError, exit_matches, missing_markers, run_case


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m paddle_doctor.lab", description=__doc__)
    parser.add_argument("case_dir", type=Path, help="a folder of cases/, e.g. cases/01_exception_rank1")
    parser.add_argument("--work", type=Path, default=None, help="work dir (default: a new temp dir)")
    parser.add_argument("--timeout", type=float, default=None, help="override the case's timeout_s")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix=f"lab-{args.case_dir.resolve().name}-"))
    try:
        run = run_case(args.case_dir, work, timeout=args.timeout)
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    missing = missing_markers(run)
    print(f"case       {run.case.name}  (cause {run.case.cause}, rank {run.case.rank})")
    print(f"exit       {run.returncode}  timed_out={run.timed_out}  wall {run.wall_s:.1f} s"
          f"  expected {run.case.expect_exit}: {'ok' if exit_matches(run) else 'MISMATCH'}")
    print(f"work dir   {run.work_dir}")
    for t in run.terminals:
        print(f"terminal   {t}")
    for d in run.log_dirs:
        print(f"logs       {d}")
    shown = [m if isinstance(m, str) else " | ".join(m) for m in missing]  # a tuple: alternatives
    print(f"markers    {'all found' if not missing else 'MISSING: ' + '; '.join(shown)}")
    return 0 if exit_matches(run) and not missing else 1


if __name__ == "__main__":
    sys.exit(main())
