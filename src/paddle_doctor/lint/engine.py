"""The lint run: read each file once, prefilter, parse once, run the selected rule families.

Never raises for bad input: a file that cannot be read, decoded or parsed, or that is too large,
is *skipped* with a one-line reason; a bug in a rule becomes an *error* entry (the CLI exits 2)
instead of a traceback. Many files are linted in worker processes.
"""

from __future__ import annotations

import ast
import io
import os
import tokenize
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..findings import Finding
from . import noqa
from .codes import BY_CODE
from .config import LintConfig
from .context import FileContext
from .files import discover
from .fixes import applicable, apply_edits
from .rules import FAMILIES

PARALLEL_MIN_FILES = 48  # below this, starting worker processes costs more than it saves
_MARKERS = (b"paddle", b"Paddle")


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    skipped: str | None = None  # why the file was not linted
    error: str | None = None  # a rule failed on this file
    fixed: int = 0
    parsed: bool = False


@dataclass
class LintResult:
    findings: list[Finding]
    skipped: list[str]  # "path: reason"
    errors: list[str]  # "path: internal error ..."
    files: int  # files read
    parsed: int  # files that passed the prefilter and were parsed
    fixed: int = 0


def lint_paths(paths: list[str], config: LintConfig | None = None, *, fix: bool = False,
               unsafe_fixes: bool = False, jobs: int | None = None) -> LintResult:
    config = config or LintConfig()
    files = discover(paths, config.exclude)
    enabled = config.enabled()
    args = [(path, enabled, config.max_file_size, fix, unsafe_fixes) for path in files]
    workers = jobs if jobs is not None else min(os.cpu_count() or 1, 8)
    if workers > 1 and len(files) >= PARALLEL_MIN_FILES:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = [_from_worker(r) for r in pool.map(_worker, args, chunksize=16)]
    else:
        results = [lint_file(*a) for a in args]
    findings = [f for r in results for f in r.findings]
    findings.sort(key=lambda f: (f.location.path or "", f.location.line or 0, f.location.column or 0, f.code))
    return LintResult(findings=findings, skipped=[f"{r.path}: {r.skipped}" for r in results if r.skipped],
                      errors=[f"{r.path}: {r.error}" for r in results if r.error], files=len(results),
                      parsed=sum(r.parsed for r in results), fixed=sum(r.fixed for r in results))


def _worker(args) -> tuple:
    result = lint_file(*args)
    return (result.path, [f.to_dict() for f in result.findings], result.skipped, result.error, result.fixed,
            result.parsed)  # Finding.facts is a read-only mapping proxy, which does not pickle


def _from_worker(data: tuple) -> FileResult:
    path, findings, skipped, error, fixed, parsed = data
    return FileResult(path, [Finding.from_dict(f) for f in findings], skipped, error, fixed, parsed)


def lint_file(path: str, enabled: frozenset[str], max_size: int, fix: bool = False,
              unsafe_fixes: bool = False) -> FileResult:
    result = FileResult(path)
    try:
        size = os.path.getsize(path)
        if size > max_size:
            result.skipped = f"skipped: {size / 1e6:.1f} MB is over the {max_size / 1e6:.0f} MB limit (max-file-size-mb)"
            return result
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        result.skipped = f"skipped: cannot read: {exc.strerror or exc}"
        return result
    if not any(marker in data for marker in _MARKERS):
        return result  # never mentions paddle: nothing any rule could report
    text, why = decode(data)
    if text is None:
        result.skipped = f"skipped: {why}"
        return result
    result.findings, result.skipped, result.error, result.parsed = lint_text(text, path, enabled)
    if fix and result.findings:
        _fix(result, text, enabled, unsafe_fixes)
    return result


def decode(data: bytes) -> tuple[str | None, str]:
    """The source text (PEP 263 coding cookie and BOM honoured), or None and why."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding), ""
    except (SyntaxError, LookupError) as exc:
        return None, f"cannot decode: {exc}"
    except UnicodeDecodeError as exc:
        return None, f"not valid {exc.encoding} at byte {exc.start} (declare the encoding or convert the file)"


def lint_text(text: str, path: str = "<string>", enabled: frozenset[str] | None = None):
    """(findings, skipped reason, internal error, parsed) for one file's text."""
    enabled = enabled if enabled is not None else frozenset(BY_CODE)
    families = [(codes, fam) for codes, fam in FAMILIES
                if enabled.intersection(codes) and any(t in text for t in fam.TRIGGERS)]
    try:  # parsed even when no family runs: a syntax error is worth a message
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        return [], f"skipped: syntax error at line {exc.lineno}: {exc.msg}", None, False
    except (ValueError, RecursionError, MemoryError) as exc:
        return [], f"skipped: cannot parse: {type(exc).__name__}: {exc}", None, False
    ctx = FileContext.build(path, text, tree)
    error = None
    for _codes, family in families:
        try:
            family.check(ctx)
        except Exception as exc:  # a rule bug must not hide the other rules' findings
            error = f"internal error in {family.__name__}: {type(exc).__name__}: {exc}"
    suppress = noqa.parse(text)
    kept = [f for f in ctx.findings if f.code in enabled
            and not suppress.suppresses(f.code, f.location.line or 0, f.location.end_line or 0)]
    kept.sort(key=lambda f: (f.location.line or 0, f.location.column or 0, f.code))
    return _dedup(kept), None, error, True


def _dedup(findings: list[Finding]) -> list[Finding]:
    seen, out = set(), []
    for f in findings:
        key = (f.code, f.location.line, f.location.column)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _fix(result: FileResult, text: str, enabled: frozenset[str], unsafe: bool) -> None:
    edits = [e for f in result.findings if applicable(f, unsafe) for e in f.edits]
    if not edits:
        return
    fixed = apply_edits(text, edits)
    if fixed is None:
        result.error = "a fix would leave the file unparsable; the file was not changed"
        return
    new_text, count = fixed
    with open(result.path, "w", encoding="utf-8", newline="") as handle:
        handle.write(new_text)
    result.findings, result.skipped, result.error, result.parsed = lint_text(new_text, result.path, enabled)
    result.fixed = count
