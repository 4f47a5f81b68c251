"""Dump ``paddle-doctor diagnose --format json`` for every fixture path and corpus log, one file each,
so that a refactor that must not change diagnose's output can be checked with ``diff -r``.

    .venv/bin/python bench/diagnose_dump.py OUT_DIR [CORPUS_DIR ...]

The paths: every file and folder under ``tests/fixtures`` (the fixture tests diagnose files and
folders alike), and every entry of each CORPUS_DIR (default: ``../shared/corpus/real-dev*``). Each
output file holds the exit code on its first line, then what the command wrote. The command runs in
this process (click's runner), once per path: about 40 s for the ~450 paths on a quiet core.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from click.testing import CliRunner

from paddle_doctor.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SHARED_CORPUS = ROOT.parent.parent / "shared" / "corpus"


def fixture_paths() -> list[Path]:
    return sorted(p for p in (ROOT / "tests" / "fixtures").rglob("*") if p.is_file() or p.is_dir())


def corpus_paths(dirs: list[Path]) -> list[Path]:
    return sorted(p for d in dirs for p in d.iterdir())


def dump_name(path: Path) -> str:
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return re.sub(r"[^A-Za-z0-9._-]", "_", str(shown)) + ".out"


def dump(paths: list[Path], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    runner = CliRunner()
    for path in paths:
        result = runner.invoke(cli, ["diagnose", "--format", "json", str(path)])
        (out_dir / dump_name(path)).write_text(f"exit {result.exit_code}\n{result.output}", encoding="utf-8")


if __name__ == "__main__":
    if not sys.argv[1:]:
        sys.exit(__doc__)
    corpora = [Path(d) for d in sys.argv[2:]] or sorted(SHARED_CORPUS.glob("real-dev*"))
    chosen = fixture_paths() + corpus_paths(corpora)
    dump(chosen, Path(sys.argv[1]))
    print(f"{len(chosen)} paths dumped to {sys.argv[1]}")
