"""The HTML page of a 1024-rank failure: size (goal: under 2 MB), lanes, and time to build.

Generates 1024 worker logs (rank 517 raises, 1012 see the peer close, 11 get SIGTERM) into a
temporary dir, then times diagnose + timeline + page, side by side with diagnose alone (the
page's own cost is the difference), alternating, median of --reps.

    .venv/bin/python bench/bench_report.py --reps 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # conftest.CORPORA, which the test module reads

from benchmachine import machine  # noqa: E402
from test_html_report import _thousand_rank_logs  # noqa: E402  (the same logs the test uses)

from paddle_doctor.diagnose import diagnose_paths  # noqa: E402
from paddle_doctor.render.html import render_page  # noqa: E402
from paddle_doctor.render.lanes import timeline_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=3)
    reps = parser.parse_args().reps
    with tempfile.TemporaryDirectory() as tmp:
        log = _thousand_rank_logs(Path(tmp))
        alone, full, page, lanes = [], [], "", 0
        for _ in range(reps):
            t = time.perf_counter()
            diagnose_paths([str(log)])
            alone.append(time.perf_counter() - t)
            t = time.perf_counter()
            d = diagnose_paths([str(log)])
            tl = timeline_of(d)
            page = render_page(d, tl)
            full.append(time.perf_counter() - t)
            lanes = len(tl.lanes)
    print(machine())
    print(f"1024 ranks: {lanes} lanes, page {len(page.encode())} bytes (goal < 2097152)")
    print(f"diagnose alone median {statistics.median(alone):.2f} s; diagnose + timeline + page median "
          f"{statistics.median(full):.2f} s; runs {[round(x, 2) for x in full]}")


if __name__ == "__main__":
    main()
