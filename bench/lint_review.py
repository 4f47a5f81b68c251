#!/usr/bin/env python3
"""Precision review of ``paddle-doctor lint`` on real suites from PyPI (issue 18).

Downloads the wheels (``pip download --no-deps``) into a scratch folder outside the repository,
unzips them, lints each suite's package with the default selection (and, with ``--all``, the
opt-in rules too), and writes every finding with the code around it to ``SCRATCH/findings.md``
for hand review. Verdicts judged by hand live in ``bench/lint_review_verdicts.json``
(``{"path:line:code": "true" | "false" | "arguable"}``, the path relative to the scratch suites
folder); the script prints precision per rule from them and lists findings that have no verdict.

    PYTHONPATH=src .venv/bin/python bench/lint_review.py --scratch /work/wt/suites --heads --no-wheels [--new] [--all]

``--heads`` also lints the suites' GitHub heads (their ``tools/`` and ``contrib/`` scripts, which the
wheels do not ship), copied beforehand into ``SCRATCH/heads/<Repo>``; ``--new`` lints
``SCRATCH/new/<Repo>`` (suites never reviewed before: their figure is a first look). A head is
copied out of a bare snapshot (the search tool's ``fetch``) with ``git --git-dir=REPO ls-tree -r
HEAD`` and ``git cat-file --batch`` for the ``*.py`` files (``git archive`` stops at the first blob
the snapshot lacks). ``--no-wheels`` skips the PyPI wheels. Precision is printed per tree set.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

SUITES = {"paddleseg": "paddleseg", "paddledet": "ppdet", "paddleclas": "paddleclas", "paddlenlp": "paddlenlp"}
VERDICTS = Path(__file__).with_name("lint_review_verdicts.json")
CONTEXT = 4  # lines shown above and below a finding


def fetch(scratch: Path) -> dict[str, Path]:
    wheels, suites = scratch / "wheels", scratch / "suites"
    wheels.mkdir(parents=True, exist_ok=True)
    if not all(any(wheels.glob(f"{name}-*.whl")) for name in SUITES):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels), *SUITES],
                       check=True)
    out = {}
    for name, package in SUITES.items():
        wheel = sorted(wheels.glob(f"{name}-*.whl"))[-1]
        target = suites / wheel.stem
        if not target.exists():
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(target)
        out[wheel.stem] = target / package
    return out


def review(trees: dict[str, Path], root: Path, everything: bool) -> list[dict]:
    from paddle_doctor.lint import LintConfig, lint_paths

    config = LintConfig(select=("ALL", *_opt_in())) if everything else LintConfig()
    rows = []
    for label, tree in trees.items():
        result = lint_paths([str(tree)], config)
        for f in result.findings:
            path = Path(f.location.path)
            rows.append({"key": f"{path.relative_to(root)}:{f.location.line}:{f.code}", "suite": label,
                         "code": f.code, "path": str(path), "line": f.location.line, "message": f.message})
    return rows


def _opt_in() -> tuple[str, ...]:
    from paddle_doctor.lint.rules import RULES
    return tuple(r.code for r in RULES if not r.default)


def write_report(rows: list[dict], out: Path, verdicts: dict[str, str]) -> None:
    parts = [f"# {len(rows)} findings for hand review\n"]
    for row in rows:
        lines = Path(row["path"]).read_text(encoding="utf-8", errors="replace").splitlines()
        start = max(row["line"] - 1 - CONTEXT, 0)
        snippet = "\n".join(f"{n + 1:5d}{'>' if n + 1 == row['line'] else ' '} {lines[n]}"
                            for n in range(start, min(row["line"] + CONTEXT, len(lines))))
        parts.append(f"## {row['key']}  [{verdicts.get(row['key'], 'no verdict')}]\n\n{row['message']}\n\n"
                     f"```\n{snippet}\n```\n")
    out.write_text("\n".join(parts), encoding="utf-8")


def precision(rows: list[dict], verdicts: dict[str, str]) -> dict[str, Counter]:
    table: dict[str, Counter] = {}
    for row in rows:
        table.setdefault(row["code"], Counter())[verdicts.get(row["key"], "unjudged")] += 1
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", type=Path, default=Path("/work/scratch/lint"))
    parser.add_argument("--all", action="store_true", help="also run the opt-in rules")
    parser.add_argument("--heads", action="store_true", help="also lint SCRATCH/heads/* (GitHub checkouts)")
    parser.add_argument("--new", action="store_true", help="also lint SCRATCH/new/* (suites not reviewed before)")
    parser.add_argument("--no-wheels", action="store_true", help="do not download and lint the PyPI wheels")
    args = parser.parse_args()
    trees = {} if args.no_wheels else fetch(args.scratch)
    for flag, folder in ((args.heads, "heads"), (args.new, "new")):
        if flag:
            trees.update({f"{folder}/{p.name}": p for p in sorted((args.scratch / folder).iterdir()) if p.is_dir()})
    root = args.scratch
    rows = review(trees, root, args.all)
    verdicts = json.loads(VERDICTS.read_text(encoding="utf-8")) if VERDICTS.exists() else {}
    write_report(rows, args.scratch / "findings.md", verdicts)
    (args.scratch / "findings.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(f"{len(rows)} findings in {', '.join(trees)}; report: {args.scratch / 'findings.md'}")
    for group in sorted({row["suite"].split("/", 1)[0] if "/" in row["suite"] else "wheels" for row in rows}):
        mine = [r for r in rows if (r["suite"].split("/", 1)[0] if "/" in r["suite"] else "wheels") == group]
        print(f"--- {group} ({len({r['suite'] for r in mine})} suites)")
        print_precision(mine, verdicts)
        print_recall(mine, verdicts, group)
    return 0


def print_recall(rows: list[dict], verdicts: dict[str, str], group: str) -> None:
    """Places judged true (by any earlier run, e.g. PDL301 when it was opt-in) that are still reported."""
    reported = {row["key"] for row in rows}
    for code in sorted({k.rsplit(":", 1)[1] for k in verdicts if k.startswith(group + "/")}):
        true = [k for k, v in verdicts.items() if v == "true" and k.startswith(group + "/") and k.endswith(":" + code)]
        lost = sorted(set(true) - reported)
        if lost:
            print(f"{code}: {len(true) - len(lost)} of {len(true)} places judged true still reported; "
                  f"no longer: {', '.join(lost)}")


def print_precision(rows: list[dict], verdicts: dict[str, str]) -> None:
    total = Counter()
    for code, counts in sorted(precision(rows, verdicts).items()):
        total.update(counts)
        judged = counts["true"] + counts["false"] + counts["arguable"]
        share = f"{100 * counts['true'] / judged:.1f} %" if judged else "-"
        print(f"{code}: {sum(counts.values())} findings, {dict(counts)}, strictly true {share}")
    judged = total["true"] + total["false"] + total["arguable"]
    print(f"overall: {dict(total)}, strictly true {100 * total['true'] / judged:.1f} %" if judged else "no verdicts")


if __name__ == "__main__":
    sys.exit(main())
