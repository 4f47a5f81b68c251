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
tests/unit/test_message_coverage.py checks that each is still classified so. ``--generic`` writes every
other template with the reason it names no specific cause (one of ``GENERIC_REASONS``: the review of
issue 29, so that no row of the table is left unreviewed), and ``--counts`` the number of templates
per era and family; the test checks that the two files together hold every template of the table.
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


def coverage(era: str, root: Path) -> tuple[dict, list[tuple[str, ...]], list[tuple[str, ...]]]:
    table, mapped, generic = defaultdict(Counter), [], []
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
        else:
            generic.append((era, family, str(cause), generic_reason(family, line), source, line))
    return table, mapped, generic


# Why a template names no specific cause, first match wins (matched against "family|Type: message").
# A "gap:" reason would be a template that names a cause of the catalog which no signature reads yet (the
# review of issue 29 listed 217; signatures now read them, diagnose/signatures/rows/checks.py): a new one is
# added here with its cause until a signature maps it.
GENERIC_REASONS: tuple[tuple[str, str, str], ...] = (
    ("flag_help", r"^so:memory\|.*(?:The maximum gpu memory limit that the process can allocate|The retry time "
     r"\(milliseconds\) when allocator fails|Whether to free idle chunks when no cache hit|It is a mistake that the "
     r"values of the memory allocated by BuddyAllocator)", "the help text of a FLAGS_ setting kept in the core "
     "library (FLAGS_gpu_memory_limit_mb, FLAGS_gpu_allocator_retry_time, FLAGS_free_idle_chunk, "
     "FLAGS_init_allocated_mem): never printed as an error"),
    ("trace_or_fallback", r"^so:\w+\|.*(?:Allocation failed because of timeout when allocating|Still allocation failed "
     r"after release memory|UVA\(unified virtual addressing\) failed allocate|Remote endpoint resolution failed|failed "
     r"to allocate \d+ bytes for stream \d+, retrying|Failed to allocate Lapack workspace with the optimal)",
     "a VLOG trace, or a warning after which the call retries or falls back (retry_allocator, the stream-safe CUDA "
     "allocator, a tensor's UVA, the libuv TCP store's getpeername, CUB's caching-allocator debug log, the LAPACK "
     "workspace of eigh): the error that follows, if any, is the one diagnose reads"),
    ("bundled_library", r"^so:\w+\|.*(?:Error allocating space to file|AllocateAligned fail to allocate huge TLB "
     r"pages|Fail to allocate (?:new client stream|resources for RDMA|stream_id))", "a message of a library bundled "
     "for parameter-server mode (RocksDB's mmap file and arena, brpc's HTTP/2 streams and RDMA): not a collective "
     "job's failure"),
    ("child_signal_without_cause", r"^py:launcher\|.*terminated with signal", "a spawned child ended by a signal to "
     "which the catalog's signal table gives no cause (SIGHUP, SIGTERM, SIGINT: the user or a victim); the signals "
     "that name one (SIGKILL, SIGSEGV, SIGBUS, ...) are read by the spawn_child_* signatures"),
    ("wait_timeout_line", r"^so:distributed\|.*Application timeout caused pair", "gloo closed a pair that waited out "
     "its timeout: a waiting rank's line (signature gloo_application_timeout, role real_timeout, as gloo's "
     "unbound_buffer TIMEOUT); which rank stalled is read across the ranks' logs, not from this line alone"),
    ("checkpoint_keys", r"^py:checkpoint\|.*(?:in model file|not in program variable list|structured name in "
     r"saved model|Variable .* in the Scope)", "a variable the program needs is not in the checkpoint (or the "
     "reverse): the checkpoint is another model's, or its names differ (state_dict_prefix_mismatch when by a "
     "prefix); the frame that raised names the loader"),
    ("child_exit", r"^py:launcher\|.*terminated with exit code", "a spawned child exited non-zero: its own "
     "error, printed above, is the cause (python_exception)"),
    ("call_order", r"first to initialize|has not been inited|not (?:been )?initialized|[Nn]ot initialized|"
     r"has not set yet|[Pp]lease make sure run startup|before|not iterable|cannot be called when",
     "an API called before the step that sets it up (init_parallel_env, a startup program, a data source): "
     "the user's own call order, named by the frame"),
    ("mode_misuse", r"dygraph|[Dd]ynamic graph|static graph|[Ss]tatic mode|imperative mode|under static|"
     r"in_dygraph_mode|eager mode", "an API called in an execution mode (dygraph or static) it does not serve: "
     "the user's own call, named by the frame that raised"),
    ("role_misuse", r"(?:invoked|called|used) (?:by|with) (?:trainer|server|pserver|heter|worker)|TRAINING_ROLE|"
     r"PSERVER|[Hh]eter|[Pp]arameter ?[Ss]erver|pserver|geo|Downpour|sparse_accessor|[Aa]ccessor",
     "parameter-server mode (roles, heter workers, sparse tables): not a collective job's failure; the user's "
     "setup, named by the frame"),
    ("not_implemented", r"NotImplementedError|not (?:yet )?implemented|[Ii]mplement this method",
     "an abstract method or an unimplemented variant: the user's call chose it"),
    ("device_api_check", r"^so:device\|", "a check inside the device runtime (CUDA graph capture, streams, "
     "events, contexts, places, custom devices, fetched tensors across devices): read with its operator and C++ "
     "file by diagnose's error tables; nothing in the template names a cause of its own"),
    ("memory_api_check", r"^so:memory\|", "a check inside an allocator or a memory map (sizes, alignment, "
     "external memory, pinned memory): an invariant of the call, not a shortage"),
    ("argument_check", r"^py:.*(?:should|must|expect|only|support|[Ii]nvalid|receiv|but got|got |cannot|can not|"
     r"can't|greater|less|equal|range|one of|duplicate|empty|positive|negative|type|dtype|shape|not a |valid|"
     r"need|require|exist|match|allowed|specified|None|[Uu]nknown|[Uu]nsupported|[Ww]rong|same|differ|sized|"
     r"not callable|[Ff]ound|[Pp]lease give|INF|NaN)|^so:distributed\|.*(?:[Ii]nvalid|[Mm]ust be)",
     "an argument check of the user's own call (types, values, shapes, paths): python_exception with the "
     "frame that raised is the answer"),
    ("internal_check", r"^(?:py|so):", "an internal consistency check of Paddle's own state (queues, sections, "
     "indices): python_exception with the frame that raised is the answer"),
)


def generic_reason(family: str, line: str) -> str:
    """The id of the first reason of ``GENERIC_REASONS`` that fits the template (every one does: the last
    is the catch-all for what the review judged an internal check)."""
    text = f"{family}|{line}"
    return next(rid for rid, pattern, _ in GENERIC_REASONS if re.search(pattern, text))


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
    ap.add_argument("--generic", help="write the other templates, each with its reason, here (TSV)")
    ap.add_argument("--counts", help="write the number of templates per era and family here (TSV)")
    args = ap.parse_args()
    rows, mapped, generic = {}, [], []
    for spec in args.eras:
        era, _, path = spec.partition("=")
        rows[era], found, other = coverage(era, Path(path))
        mapped += found
        generic += other
    print(markdown(rows))
    print("\n" + reasons_markdown(generic))
    for path, records in ((args.fixture, mapped), (args.generic, generic),
                          (args.counts, [(era, fam, str(sum(c.values()))) for era, t in rows.items()
                                         for fam, c in sorted(t.items())])):
        if path:
            Path(path).write_text("".join("\t".join(r) + "\n" for r in records))
            print(f"{len(records)} rows written to {path}")


def reasons_markdown(generic: list[tuple[str, ...]]) -> str:
    """How many templates each reason holds, per era."""
    eras = list(dict.fromkeys(g[0] for g in generic))
    counts = Counter((g[0], g[3]) for g in generic)
    out = ["| reason | " + " | ".join(eras) + " |", "|---|" + "---|" * len(eras)]
    for rid, _, _ in GENERIC_REASONS:
        out.append(f"| {rid} | " + " | ".join(str(counts[(era, rid)]) for era in eras) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
