"""Score ``diagnose`` on labelled sets of real logs: top-1, top-3, failing rank, calibration.

    python bench/score_corpus.py                       # the working tree, every set
    python bench/score_corpus.py --commit abc123       # the code of a commit (a first look)
    python bench/score_corpus.py --set tests/fixtures/gathered/batch1 --misses

A set is a folder with ``NNN.log`` files (or ``NNN/`` folders: a job's ``terminal.out`` and ``log/workerlog.N``)
and a ``labels.jsonl`` (keys as in the shared sets: ``id``, ``root_cause``, ``failing_rank``, ``confidence``, ...). By default the sets are the shared
ones beside the checkout (``../shared/corpus/real-dev*``) and ``tests/fixtures/gathered/*``.

``--commit`` scores the sets (read from the working tree) with the code of another commit: its
``src/`` is exported to a temporary folder with ``git archive`` and put first on ``sys.path`` of a
child process, so a batch's first look can be reproduced after the rules have moved on.

Figures per set: top-1 (the verdict names the labelled cause), top-3 (the label is the verdict or
one of its first two alternatives), failing rank (of the labels that name a rank, how many the
verdict names), calibration (right/total per confidence level the verdict claims), and the number
of logs given no verdict at all.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def default_sets() -> list[Path]:
    shared = next((d for d in (REPO.parent / "shared", REPO.parent.parent / "shared") if d.is_dir()), None)
    found = sorted(shared.glob("corpus/real-dev*")) if shared else []
    found += sorted((REPO / "tests" / "fixtures" / "gathered").glob("batch*"))
    return [d for d in found if (d / "labels.jsonl").exists()]


def labels(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "labels.jsonl").read_text().splitlines() if line.strip()]


def case_path(folder: Path, case_id: str) -> Path:
    """A case's log: ``ID.log`` (one pasted log) or the folder ``ID/`` (a job's outputs, every rank's log)."""
    log = folder / f"{case_id}.log"
    return log if log.exists() else folder / case_id


def score(folder: Path) -> dict:
    """The figures of one set with the ``paddle_doctor`` importable now."""
    from paddle_doctor.diagnose import diagnose_paths

    rows = []
    for label in labels(folder):
        rc = diagnose_paths([str(case_path(folder, label["id"]))]).root_cause
        got = rc.cause if rc else None
        top3 = ([got] + [a.cause for a in rc.alternatives])[:3] if rc else []
        rows.append({"id": label["id"], "want": label["root_cause"], "got": got,
                     "top1": got == label["root_cause"], "top3": label["root_cause"] in top3,
                     "want_rank": label.get("failing_rank"), "got_rank": rc.ranks[0] if rc and rc.ranks else None,
                     "confidence": rc.confidence.value if rc else None})
    return summarise(folder.name, rows)


def summarise(name: str, rows: list[dict]) -> dict:
    calibration: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if r["confidence"] is not None:
            calibration[r["confidence"]][0] += r["top1"]
            calibration[r["confidence"]][1] += 1
    ranked = [r for r in rows if r["want_rank"] is not None]
    return {"set": name, "n": len(rows), "top1": sum(r["top1"] for r in rows), "top3": sum(r["top3"] for r in rows),
            "rank_right": sum(r["want_rank"] == r["got_rank"] for r in ranked), "rank_n": len(ranked),
            "no_verdict": sum(r["got"] is None for r in rows), "calibration": dict(calibration),
            "misses": [r for r in rows if not r["top1"]]}


def line(s: dict) -> str:
    pct = lambda k, n: f"{k}/{n} ({k / n:.0%})" if n else "0/0"  # noqa: E731
    cal = ", ".join(f"{c} {k}/{n}" for c, (k, n) in sorted(s["calibration"].items()))
    return (f"{s['set']}: top-1 {pct(s['top1'], s['n'])}, top-3 {pct(s['top3'], s['n'])}, "
            f"failing rank {pct(s['rank_right'], s['rank_n'])}, no verdict {s['no_verdict']}; calibration: {cal}")


@contextlib.contextmanager
def exported_src(commit: str):
    """The ``src/`` folder of ``commit`` (``git archive``), in a temporary folder while the block runs."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        yield Path(tmp) / "src"


def run_at_commit(commit: str, argv: list[str], script: str = __file__) -> int:
    """Re-run ``script`` (this one by default) in a child whose ``paddle_doctor`` is the one of ``commit``."""
    with exported_src(commit) as src:
        code = ("import sys; sys.path.insert(0, sys.argv[1]); sys.argv = sys.argv[2:]; "
                "import runpy; runpy.run_path(sys.argv[0], run_name='__main__')")
        child = [sys.executable, "-c", code, str(src), str(Path(script).resolve()), *argv]
        print(f"# code of commit {commit}", flush=True)
        return subprocess.run(child, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="score with the code of this commit (src/ from git archive)")
    parser.add_argument("--set", action="append", type=Path, help="a set folder (repeatable); default: all")
    parser.add_argument("--misses", action="store_true", help="list each miss")
    args = parser.parse_args(argv)
    if args.commit:
        rest = [a for s in (args.set or []) for a in ("--set", str(s.resolve()))] + (["--misses"] if args.misses else [])
        return run_at_commit(args.commit, rest)
    import paddle_doctor

    print(f"# paddle_doctor from {Path(paddle_doctor.__file__).parent}")
    for folder in args.set or default_sets():
        s = score(folder)
        print(line(s))
        for m in s["misses"] if args.misses else []:
            print(f"  MISS {m['id']}: want {m['want']}, got {m['got']} ({m['confidence']})"
                  f"{' (in top 3)' if m['top3'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
