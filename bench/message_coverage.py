"""Message-space coverage of diagnose (issue 23): which of Paddle's own error messages it classifies.

From each era's installed package (an extracted wheel or a site-packages ``paddle/``), extract
- the Python ``raise`` and ``assert`` sites of the distributed, launcher, device, DataLoader and
  checkpoint code (their message templates, read with ``ast``), and
- the enforce/throw templates in the core libraries' ``strings`` whose words belong to those families;
fill each template's placeholders, write it as the line Paddle prints (``Type: message``), and let
``diagnose`` read that line alone. Prints a table per family and era: how many templates name a
specific cause, how many fall back to ``python_exception`` or ``unknown``, how many get no verdict.

    python bench/message_coverage.py 3.3.1=/path/site-packages/paddle 2.4.2=/tmp/p24/paddle \
        [--fixture tests/fixtures/templates/mapped.tsv]

``--fixture`` writes the templates that name a specific cause (era, family, cause, file, line); the test
tests/unit/test_message_coverage.py checks that each is still classified so.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from paddle_doctor.diagnose import diagnose_paths  # noqa: E402

PY_FAMILIES = {
    "distributed": ("distributed/collective.py", "distributed/parallel.py", "distributed/communication/**/*.py",
                    "fluid/dygraph/parallel.py", "distributed/fleet/base/*.py", "fluid/incubate/fleet/base/*.py",
                    "incubate/distributed/fleet/role_maker.py"),
    "launcher": ("distributed/launch/**/*.py", "distributed/fleet/launch*.py", "distributed/utils.py",
                 "distributed/utils/launch_utils.py", "distributed/launch.py", "distributed/spawn.py"),
    "device": ("device/**/*.py", "cuda_env.py", "fluid/install_check.py", "utils/install_check.py"),
    "dataloader": ("io/dataloader/**/*.py", "fluid/dataloader/**/*.py", "fluid/reader.py", "base/reader.py",
                   "io/reader.py", "fluid/multiprocess_utils.py", "base/multiprocess_utils.py"),
    "checkpoint": ("framework/io.py", "framework/io_utils.py", "fluid/io.py", "static/io.py", "base/io.py"),
}
SO_FAMILIES = {
    "distributed": r"NCCL|nccl|gloo|ProcessGroup|TCPStore|rendezvous|[Cc]ollective|endpoint",
    "memory": r"[Oo]ut of memory|[Aa]llocat|shared memory|[Mm]emory map|mmap",
    "device": r"CUDA|[Cc]uda|cuDNN|CUDNN|[Cc]ublas|CUBLAS|GPU|[Dd]evice",
    "dataloader": r"DataLoader|Blocking queue|data reader",
}
GENERIC = ("python_exception", "unknown")
ERROR_WORDS = re.compile(r"[Ff]ail|[Ee]rror|cannot|can't|can not|[Ii]nvalid|[Uu]nexpected|killed|[Tt]ime ?out|refused|"
                         r"[Oo]ut of memory|exceed|not found|not compiled|[Uu]nable|insufficient|mismatch")


PRINTF = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?(?:l|ll|z|h)?[dsifuxgp]")


def fill(template: str) -> str:
    """Placeholders -> plausible values: printf (%d %s %ld %zu %f) in a printf template (its braces
    are literal), else {} / {name} / f-string holes."""
    if PRINTF.search(template):
        return PRINTF.sub("1", template)
    return re.sub(r"\{[^{}]*\}", "1", template)


def _string_of(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add)):
        left, right = _string_of(node.left), _string_of(node.right)
        return (left or "") + ("" if isinstance(node.op, ast.Mod) else (right or "{}")) if left else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _string_of(node.func.value)
    return None


def python_sites(root: Path, patterns) -> list[tuple[str, str, str]]:
    """(file, exception type, message template) of each raise/assert with a string message."""
    out = []
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            try:
                tree = ast.parse(path.read_text(errors="replace"))
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                site = _site(node)
                if site is not None:
                    out.append((str(path.relative_to(root)), *site))
    return out


def _site(node) -> tuple[str, str] | None:
    if isinstance(node, ast.Assert) and node.msg is not None:
        msg = _string_of(node.msg)
        return ("AssertionError", msg) if msg else None
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        msg = _string_of(node.exc.args[0])
        return (name, msg) if name and msg else None
    return None


def so_templates(root: Path) -> dict[str, list[str]]:
    libs = [p for p in root.rglob("*.so") if re.search(r"core_(?:avx|noavx)|libpaddle|phi|common", p.name)]
    strings = set()
    for lib in libs:
        proc = subprocess.run(["strings", "-n", "24", str(lib)], capture_output=True, text=True)
        strings.update(s.strip() for s in proc.stdout.splitlines())
    for saved in root.rglob("*.strings"):  # `strings -n 24 libpaddle.so` saved beside an extracted wheel
        strings.update(s.strip() for s in saved.read_text(errors="replace").splitlines())
    out = defaultdict(list)
    for s in sorted(strings):
        if len(s.split()) < 5 or not re.match(r"[A-Z(\[]", s) or re.search(r"[;{}]\s*$|\bstd::|::\w+\(|\.(?:cc|h):", s):
            continue
        if not ERROR_WORDS.search(s):  # flag help texts and progress logs are not errors
            continue
        for family, words in SO_FAMILIES.items():
            if re.search(words, s):
                out[family].append(s)
                break
    return out


SITE = "/usr/local/lib/python3.8/site-packages/paddle/"


def as_log(family: str, source: str, line: str) -> str:
    """The text a user would paste: a Python site's message under a frame of its own file."""
    if family.startswith("py:"):
        return f'Traceback (most recent call last):\n  File "{SITE}{source}", line 1, in check\n{line}\n'
    return line + "\n"


def classify_text(text: str) -> str | None:
    rc = diagnose_paths(["-"], stdin=text.encode()).root_cause
    return rc.cause if rc is not None else None


def coverage(era: str, root: Path) -> tuple[dict, list[tuple[str, ...]]]:
    table, mapped = defaultdict(Counter), []
    lines = [(f"py:{fam}", src, f"{exc}: {fill(msg)}") for fam, pats in PY_FAMILIES.items()
             for src, exc, msg in python_sites(root, pats)]
    lines += [(f"so:{fam}", "", f"RuntimeError: {fill(s)}") for fam, found in so_templates(root).items() for s in found]
    for family, source, line in dict.fromkeys(lines):
        line = " ".join(line.split())[:400]
        cause = classify_text(as_log(family, source, line))
        kind = "none" if cause is None else cause if cause in GENERIC else "specific"
        table[family][kind] += 1
        if kind == "specific":
            mapped.append((era, family, cause, source, line))
    return table, mapped


def markdown(rows: dict[str, dict]) -> str:
    out = ["| era | family | templates | specific cause | python_exception | unknown | no verdict |",
           "|---|---|---|---|---|---|---|"]
    for era, table in rows.items():
        for family in sorted(table):
            c = table[family]
            n = sum(c.values())
            out.append(f"| {era} | {family} | {n} | {c['specific']} ({c['specific'] / n:.0%}) | "
                       f"{c['python_exception']} | {c['unknown']} | {c['none']} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("eras", nargs="+", help="ERA=PATH of a paddle package directory")
    ap.add_argument("--fixture", help="write the templates that name a specific cause here (TSV)")
    args = ap.parse_args()
    rows, mapped = {}, []
    for spec in args.eras:
        era, _, path = spec.partition("=")
        rows[era], found = coverage(era, Path(path))
        mapped += found
    print(markdown(rows))
    if args.fixture:
        Path(args.fixture).write_text("".join("\t".join(m) + "\n" for m in mapped))
        print(f"\n{len(mapped)} mapped templates written to {args.fixture}")


if __name__ == "__main__":
    main()
