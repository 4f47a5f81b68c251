"""Replay the failure cases and record their outputs as test fixtures.

    python cases/record.py                 # every case
    python cases/record.py 01_exception_rank1 08_rank1_sigkill_oom

Why: diagnose's fast unit tests need real launcher output, and a real run takes seconds to
minutes. This script runs each case with the lab runner and copies what the user would have
(``terminal.out``, ``log/`` or ``node0/`` + ``node1/``) into ``tests/fixtures/cases/<case>/``.

The launchers write this machine's whole environment into ``envlog.N``, ``backup_env.N.json`` and
the first line of the pod log (``<job>.<pod>.log``). Those are reduced to their ``PADDLE_*`` keys
(diagnose needs them to map a node's local ranks to global ranks); nothing else of the
environment is kept. Machine paths are replaced by stable placeholders (the work dir by
``/tmp/run``, the venv by ``/opt/venv``, the base Python by ``/usr/local``), and a final check
refuses to keep a fixture that still holds any other environment value.
``tests/fixtures/cases/INDEX.json`` lists each recording with its expected cause and exit.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "cases"
FIXTURES = ROOT / "tests" / "fixtures" / "cases"
WORK_PLACEHOLDER = "/tmp/run"

try:
    from paddle_doctor.lab import exit_matches, missing_markers, run_case
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(ROOT / "src"))
    from paddle_doctor.lab import exit_matches, missing_markers, run_case


def case_dirs(names: list[str]) -> list[Path]:
    found = sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file())
    if not names:
        return found
    chosen = [p for p in found if p.name in names]
    unknown = set(names) - {p.name for p in chosen}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
    return chosen


# -- scrubbing ------------------------------------------------------------------------------


def path_replacements(work_dir: Path) -> list[tuple[str, str]]:
    """(machine path, placeholder), most specific first."""
    pairs = [(str(work_dir), WORK_PLACEHOLDER)]
    if sys.prefix != sys.base_prefix:
        pairs.append((sys.prefix, "/opt/venv"))
    if sys.base_prefix not in ("/", "/usr", "/usr/local"):
        pairs.append((sys.base_prefix, "/usr/local"))
    pairs.append((str(ROOT), "/src/paddle-doctor"))
    return pairs


def scrub_text(text: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def _paddle_only(env: dict) -> dict:
    return {k: v for k, v in sorted(env.items()) if k.startswith("PADDLE_")}


def reduce_backup_env(text: str) -> str:
    return json.dumps(_paddle_only(json.loads(text)), indent=4, sort_keys=True) + "\n"


def reduce_envlog(text: str) -> str:
    return "".join(line + "\n" for line in text.splitlines() if line.startswith("PADDLE_"))


def reduce_pod_log(text: str) -> str:
    """The pod log's first line is ``environ({...})``: the launcher's whole environment."""
    first, _, rest = text.partition("\n")
    if first.startswith("environ(") and first.endswith(")"):
        first = f"environ({_paddle_only(ast.literal_eval(first[len('environ('):-1]))!r})"
    return first + "\n" + rest


def reduce_file(path: Path, text: str) -> str:
    name = path.name
    if name.startswith("backup_env.") and name.endswith(".json"):
        return reduce_backup_env(text)
    if name.startswith("envlog."):
        return reduce_envlog(text)
    if name.endswith(".log") and text.startswith("environ("):
        return reduce_pod_log(text)
    return text


def env_leaks(text: str) -> list[str]:
    """Names of non-PADDLE environment variables whose (non-trivial) value appears in text."""
    leaks = []
    for key, value in os.environ.items():
        if key.startswith("PADDLE_") or len(value) < 8 or value in ("/tmp", "C.UTF-8"):
            continue
        if value in text:
            leaks.append(key)
    return leaks


# -- recording ------------------------------------------------------------------------------


def copy_outputs(run, dest: Path) -> None:
    pairs = path_replacements(run.work_dir)
    for src in run.output_files():
        rel = src.relative_to(run.work_dir)
        text = src.read_text(encoding="utf-8", errors="replace")
        text = scrub_text(reduce_file(src, text), pairs)
        leaks = env_leaks(text)
        if leaks:
            raise SystemExit(f"{run.case.name}: {rel} would leak environment values of {leaks}")
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(text, encoding="utf-8")


def record(case_dir: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="paddle-doctor-record-") as tmp:
        run = run_case(case_dir, Path(tmp) / "run")
        problems = [] if exit_matches(run) else [f"exit {run.returncode} (timed_out={run.timed_out})"]
        problems += [f"marker missing: {m}" for m in missing_markers(run)]
        dest = FIXTURES / case_dir.name
        shutil.rmtree(dest, ignore_errors=True)
        if not problems:
            copy_outputs(run, dest)
    case = run.case
    return {"cause": case.cause, "rank": case.rank, "launcher": case.launcher,
            "expect_exit": case.expect_exit, "returncode": run.returncode,
            "timed_out": run.timed_out, "wall_s": run.wall_s, "problems": problems}


def update_index(results: dict[str, dict]) -> None:
    index_path = FIXTURES / "INDEX.json"
    index = json.loads(index_path.read_text()) if index_path.exists() else {}
    today = datetime.date.today().isoformat()
    for name, res in results.items():
        if not res["problems"]:
            index[name] = {k: v for k, v in res.items() if k != "problems"} | {"recorded": today}
    index = {k: index[k] for k in sorted(index) if (FIXTURES / k).is_dir()}
    index_path.write_text(json.dumps(index, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="case folder names (default: all)")
    args = parser.parse_args(argv)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    results = {}
    for case_dir in case_dirs(args.cases):
        res = results[case_dir.name] = record(case_dir)
        status = "ok" if not res["problems"] else "NOT RECORDED: " + "; ".join(res["problems"])
        print(f"{case_dir.name:40s} rc={res['returncode']!s:5s} {res['wall_s']:6.1f}s  {status}", flush=True)
    update_index(results)
    return 0 if all(not r["problems"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
