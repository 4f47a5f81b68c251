"""The floor under lint's cold run (issue 32): CPython's own parser over every ``*.py`` of a tree.

PDL900 reports every file CPython's parser refuses, so a cold run parses every file at least once.
This times that parse alone three ways, best of three, in this interpreter:

- ``symtable``: the parser and the symbol table, no Python tree (what lint uses for files no rule reads);
- ``ast``: ``compile(..., ast.PyCF_ONLY_AST)``, the tree lint's rules walk;
- ``bytecode``: a full ``compile``.

    python bench/parse_floor.py TREE          # e.g. PaddleSeg's head; run it under each Python to compare
"""

from __future__ import annotations

import _symtable
import ast
import sys
import time
import warnings
from pathlib import Path


def sources(tree: str) -> list[tuple[str, bytes]]:
    return [(str(p), p.read_bytes()) for p in sorted(Path(tree).rglob("*.py"))]


def best_of_three(files: list[tuple[str, bytes]], parse) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for path, data in files:
            try:
                parse(data, path)
            except (SyntaxError, ValueError):
                pass
        best = min(best, time.perf_counter() - start)
    return best


def main(tree: str) -> int:
    warnings.simplefilter("ignore")  # SyntaxWarnings of the suites' sources
    files = sources(tree)
    print(f"{len(files)} files, {sum(len(d) for _, d in files) / 1e6:.1f} MB, Python {sys.version.split()[0]}")
    for name, parse in (("symtable", lambda d, p: _symtable.symtable(d, p, "exec")),
                        ("ast", lambda d, p: compile(d, p, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)),
                        ("bytecode", lambda d, p: compile(d, p, "exec", dont_inherit=True))):
        print(f"{name:9s} {best_of_three(files, parse):.3f} s")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python bench/parse_floor.py TREE")
    sys.exit(main(sys.argv[1]))
