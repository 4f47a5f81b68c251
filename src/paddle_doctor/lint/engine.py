"""The lint run: read each file once, prefilter, parse once, run the selected rule families.

A file that no selected rule could report on (:func:`.rules.plan`) is only checked for syntax errors
(PDL900) by CPython's parser without building its tree (``symtable``), not at all when PDL900 is
ignored. Its whole-program facts (:mod:`.index`) are computed only if a pending finding names a
word of its text: only such a file can hold the fact that decides it (the second pass below).

Never raises for bad input: a file that cannot be read, decoded or parsed, that is too large or
is not a regular file, is reported as a PDL900 finding (with the reason; the run exits 1, never
"All checks passed!"); a bug in a rule becomes an *error* entry (the CLI exits 2) instead of a
traceback. A malformed ``# noqa`` is a *warning* (stderr) and suppresses nothing. Many files are
linted in worker processes.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import os
import symtable
from dataclasses import dataclass, field

from ..findings import Finding, Location
from . import noqa
from .codes import UNCHECKED
from .config import LintConfig, discover
from .context import FileContext, collected
from .files import (Kept, NotChecked, Runner, cache_key, cache_load, cache_secret, cache_store, decode,
                    pack_load, pack_name, pack_store, read_regular, unchanged_key)
from .fixes import applicable, apply_edits
from .index import Summary, plain_metric_classes, resolve, summarize
from .rules import BY_CODE, plan

_MARKERS = (b"paddle", b"Paddle")


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    skipped: str | None = None  # why the file was not linted (also a PDL900 finding)
    error: str | None = None  # a rule failed on this file
    warnings: list[str] = field(default_factory=list)  # malformed noqa comments
    summary: Summary = field(default_factory=Summary)  # this file's whole-program facts
    fixed: int = 0
    parsed: bool = False
    fixed_codes: list[str] = field(default_factory=list)  # the findings a fix removed (--show-fixes)
    diff: tuple[str, str] | None = None  # (before, after) when fixing in DIFF mode
    deferred: bool = False  # syntax-checked only: its summary is computed if a pending finding needs it


@dataclass
class LintResult:
    findings: list[Finding]
    skipped: list[str]  # "path: reason" (each one is also a PDL900 finding; none when PDL900 is ignored)
    errors: list[str]  # "path: internal error ..."
    files: int  # files read
    parsed: int  # files that passed the prefilter and were parsed
    fixed: int = 0
    warnings: list[str] = field(default_factory=list)  # "path:line: invalid noqa ..."
    fixes: list[tuple[str, str]] = field(default_factory=list)  # (path, code) of each finding fixed
    diffs: list[tuple[str, str, str]] = field(default_factory=list)  # (path, before, after) in DIFF mode


DIFF = "diff"  # ``fix=DIFF``: compute the fixes, write nothing (``--diff``)


def lint_paths(paths: list[str], config: LintConfig | None = None, *, fix: bool | str = False,
               unsafe_fixes: bool = False, jobs: int | None = None, cache_dir: str | None = None) -> LintResult:
    """Lint files and folders. With ``cache_dir``, unchanged files are read back from the cache (not with ``fix``)."""
    config = config or LintConfig()
    files = discover(paths, config.exclude, config.root)
    enabled = config.enabled()
    secret, cache_warning = cache_secret(cache_dir) if cache_dir is not None and not fix else (None, None)
    cache = cache_dir if secret is not None else None
    args = [(path, enabled, config.max_file_size, fix, unsafe_fixes, cache, secret) for path in files]
    kept = Kept()  # the bytes of deferred files read here, for the second pass
    cached = _read_cache(files, enabled, config.max_file_size, cache, secret, kept) if cache else [(None, 0)] * len(args)
    todo = [a for a, (hit, _) in zip(args, cached) if hit is None]
    workers = jobs if jobs is not None else min(os.cpu_count() or 1, 8)
    with Runner(workers, len(todo)) as run:
        fresh = iter(run(_worker, todo, lambda result: _keep_deferred(result, kept, config.max_file_size)))
        results = [hit if hit is not None else next(fresh) for hit, _ in cached]
        names = {f.fact("name") for r in results for f in r.findings if f.fact("pending")}
        if cache and not all(record is not None for _, record in cached):  # the next run reads one pack
            pack_store(cache, files, enabled, config.max_file_size, secret, names)
        _summarize_deferred(results, run, enabled, config.max_file_size, cache, secret, kept, names)
    package = Summary()
    for r in results:
        package.merge(r.summary)
    findings = config.without_ignored(resolve([f for r in results for f in r.findings], package))
    findings.sort(key=lambda f: (f.location.path or "", f.location.line or 0, f.location.column or 0, f.code))
    return LintResult(findings=findings, skipped=[f"{r.path}: {r.skipped}" for r in results if r.skipped],
                      errors=[f"{r.path}: {r.error}" for r in results if r.error], files=len(results),
                      parsed=sum(r.parsed for r in results), fixed=sum(r.fixed for r in results),
                      warnings=[w for r in results for w in r.warnings] + ([cache_warning] if cache_warning else []),
                      fixes=[(r.path, c) for r in results for c in r.fixed_codes],
                      diffs=[(r.path, *r.diff) for r in results if r.diff])


def lint_source(text: str, path: str, config: LintConfig | None = None) -> LintResult:
    """Lint one file's text under the name ``path`` (``lint - --stdin-filename PATH``): the
    configuration's selection and per-file-ignores apply as if the file were at ``path``."""
    config = config or LintConfig()
    warnings: list[str] = []
    findings, skipped, error, parsed = lint_text(text, path, config.enabled(), warnings)
    return LintResult(findings=config.without_ignored(findings), skipped=[f"{path}: {skipped}"] if skipped else [],
                      errors=[f"{path}: {error}"] if error else [], files=1, parsed=int(parsed),
                      warnings=[f"{path}:{w}" for w in warnings])


def _worker(args) -> FileResult:
    gc.disable()  # in a worker process (inherited when forked; not under spawn or forkserver)
    return lint_file(*args)


def _keep_deferred(result: FileResult, kept: Kept, max_size: int) -> FileResult:
    """Reads a deferred file's bytes while the workers go on: the second pass looks for pending names in them."""
    if result.deferred:
        with contextlib.suppress(NotChecked):
            kept.keep(result.path, read_regular(result.path, max_size))
    return result


def _summarize_deferred(results: list[FileResult], run, enabled: frozenset[str], max_size: int,
                        cache: str | None, secret: bytes | None, kept: dict[str, bytes], pending: set[str]) -> None:
    """The second pass: a pending finding is decided by facts about a function or class name (:func:`.index.resolve`),
    which only a file whose text holds that name can give; each syntax-checked one that does is linted in full now.
    A file whose bytes were not kept here is read by the worker, which returns None if it holds no such name."""
    names = {name.encode() for name in pending}
    todo = [(i, (r.path, enabled, max_size, cache, secret, None if r.path in kept else names))
            for i, r in enumerate(results) if names and r.deferred
            and (r.path not in kept or _mentions(r.path, max_size, names, kept[r.path]))]
    for (i, _), full in zip(todo, run(_full_worker, [a for _, a in todo])):
        results[i] = results[i] if full is None else full


def _mentions(path: str, max_size: int, names: set[bytes], data) -> bool:
    """``data``: the file's bytes, a :class:`.files.KnownMentions` (unchanged since the pack), or None."""
    try:
        data = read_regular(path, max_size) if data is None else data
        return any(name in data for name in names)
    except KeyError:  # a name the pack did not check this unchanged file for: read it
        return _mentions(path, max_size, names, None)
    except NotChecked:
        return True  # changed since the first pass: the second one reports what it finds


def _full_worker(args) -> FileResult | None:
    """A deferred file, linted with its summary (cached under its own key); None if given ``names`` it holds none of."""
    gc.disable()
    path, enabled, max_size, cache_dir, secret, names = args
    try:
        data = read_regular(path, max_size)
    except NotChecked as exc:  # changed since the first pass: the second one reports what it finds
        return _not_checked(FileResult(path), str(exc), enabled)
    if names is not None and not any(name in data for name in names):
        return None
    if cache_dir is None or secret is None:
        return collected(_summarized(path, data, enabled, False, False), len(data))
    key = cache_key(path, data, enabled, variant="summary")
    cached = cache_load(cache_dir, key, secret)
    result = _from_record(cached, path) if cached is not None else None
    if result is None:
        result = collected(_summarized(path, data, enabled, False, False), len(data))
        if result.error is None:
            cache_store(cache_dir, key, _record(result), secret)
    return result


def _record(result: FileResult) -> tuple:
    """A FileResult as JSON-able data, for the results cache."""
    return (result.path, [f.to_dict() for f in result.findings], result.skipped, result.error, result.warnings,
            result.fixed, result.parsed, result.summary.to_tuple(), result.deferred)


def _from_record(data, path: str) -> FileResult | None:
    """The FileResult of an authenticated record; None (check afresh) if anything in it is off."""
    try:
        rpath, findings, skipped, error, warnings, fixed, parsed, summary, deferred = data
        result = FileResult(rpath, [Finding.from_dict(f) for f in findings], skipped=skipped, error=error,
                            warnings=list(warnings), fixed=int(fixed), parsed=bool(parsed),
                            summary=Summary.from_tuple(summary), deferred=deferred is True)
    except Exception:  # any doubt about a record costs one fresh check, never a result
        return None
    return result if rpath == path and error is None and all(isinstance(w, str) for w in warnings) else None


def lint_file(path: str, enabled: frozenset[str], max_size: int, fix: bool = False,
              unsafe_fixes: bool = False, cache_dir: str | None = None, secret: bytes | None = None) -> FileResult:
    try:
        data = read_regular(path, max_size)
    except NotChecked as exc:
        return _not_checked(FileResult(path), str(exc), enabled)
    if cache_dir is None or secret is None or fix:
        return collected(_lint_data(path, data, enabled, fix, unsafe_fixes), len(data))
    key = cache_key(path, data, enabled)
    cached = cache_load(cache_dir, key, secret)
    result = _from_record(cached, path) if cached is not None else None
    if result is not None:
        return result
    result = collected(_lint_data(path, data, enabled, fix, unsafe_fixes), len(data))
    if result.error is None:  # a rule bug is reported again on the next run, not remembered
        cache_store(cache_dir, key, _record(result), secret)
    return result


def _read_cache(files: list[str], enabled: frozenset[str], max_size: int, cache_dir: str, secret: bytes,
                kept: Kept) -> list[tuple[FileResult | None, object]]:
    """Each file's (cached result or None, its pack record or None). Here: 4 threads took twice as long."""
    pack = pack_load(cache_dir, pack_name(files, enabled), secret)
    read = [_cached(path, enabled, max_size, cache_dir, secret, pack) for path in files]
    for path, (result, data, _) in zip(files, read):
        if result is not None and result.deferred:
            kept.keep(path, data)  # (a KnownMentions counts no bytes)
    return [(result, packed) for result, _, packed in read]


def _cached(path: str, enabled: frozenset[str], max_size: int, cache_dir: str, secret: bytes, pack: dict):
    """(its authenticated cached result as it is now, or None: lint it; its bytes, or what the pack knows
    of them if its stat was the pack's; its record if the pack's stat gave it, else None: write the pack)."""
    known, mentions = unchanged_key(pack, path, max_size)
    try:
        data = read_regular(path, max_size) if known is None else mentions
    except NotChecked:
        return None, None, True  # reported by lint_file
    key = known or cache_key(path, data, enabled)
    record = pack["records"].get(key) or cache_load(cache_dir, key, secret)
    result = _from_record(record, path) if record is not None else None
    return result, data, (record if result is not None and known else None)


def _lint_data(path: str, data: bytes, enabled: frozenset[str], fix: bool, unsafe_fixes: bool) -> FileResult:
    """The first pass: a file that no selected rule could report on is only syntax-checked (deferred)."""
    if fix:
        return _summarized(path, data, enabled, fix, unsafe_fixes)
    if not any(marker in data for marker in _MARKERS):
        return _syntax_only(path, data, enabled, deferred=True)
    text, why = decode(data)
    if text is None:
        return _not_checked(FileResult(path), why, enabled)
    families, parse = plan(text, enabled)
    if parse or UNCHECKED in enabled and not _parses(text, path):  # ast.parse then says why, exactly as before
        return _lint_decoded(FileResult(path), text, enabled, fix, unsafe_fixes, families)
    return FileResult(path, deferred=True)  # with PDL900 ignored, not even syntax-checked


def _parses(text: str, path: str) -> bool:
    """Python's parser accepts ``text``, asked without building its tree as Python objects (symtable:
    the C parser and symbol table, about 0.6x the time of ast.parse). False also for what only the
    symbol table refuses (``nonlocal`` at module level): the caller asks ast.parse then."""
    try:
        symtable.symtable(text, path, "exec")
    except Exception:  # SyntaxError, ValueError (NUL bytes), RecursionError, MemoryError
        return False
    return True


def _summarized(path: str, data: bytes, enabled: frozenset[str], fix: bool, unsafe_fixes: bool) -> FileResult:
    """A file linted with its whole-program summary: parsed when it mentions paddle."""
    if not any(marker in data for marker in _MARKERS):
        return _syntax_only(path, data, enabled)  # never mentions paddle: no rule could report, but PDL900 can
    text, why = decode(data)
    if text is None:
        return _not_checked(FileResult(path), why, enabled)
    return _lint_decoded(FileResult(path), text, enabled, fix, unsafe_fixes)


def _lint_decoded(result: FileResult, text: str, enabled: frozenset[str], fix: bool, unsafe_fixes: bool,
                  families: list | None = None) -> FileResult:
    path = result.path
    warnings: list[str] = []
    result.findings, result.skipped, result.error, result.parsed = lint_text(text, path, enabled, warnings,
                                                                             result.summary, families)
    result.warnings = [f"{path}:{w}" for w in warnings]
    if fix and result.findings:
        _fix(result, text, enabled, unsafe_fixes, fix)
    return result


# A file that never mentions paddle is parsed only up to this size: Python's parser holds the whole
# tree (a 50 MB file of `x = 1` lines took 13 GB and the kernel's OOM killer ended the suite's
# worker), and no rule could report on such a file anyway; only PDL900 is lost past it.
SYNTAX_ONLY_MAX_BYTES = 2 * 1024 * 1024


def _syntax_only(path: str, data: bytes, enabled: frozenset[str], deferred: bool = False) -> FileResult:
    """A file no rule could report on is still parsed (up to SYNTAX_ONLY_MAX_BYTES): one that
    Python cannot read is PDL900. ``deferred``: only checked, its metric classes left for later."""
    result = FileResult(path)
    if UNCHECKED not in enabled and "PDL402" not in enabled or len(data) > SYNTAX_ONLY_MAX_BYTES:
        return result
    text, why = decode(data)
    if text is None:
        return _not_checked(result, why, enabled)
    if deferred and (UNCHECKED not in enabled or _parses(text, path)):
        result.deferred = b"update" in data  # the only fact it can give: a metric class
        return result
    try:
        tree = ast.parse(text, filename=path)
        if b"update" in data:
            result.summary.metrics = plain_metric_classes(tree)
    except SyntaxError as exc:
        why = f"syntax error at line {exc.lineno}: {exc.msg}"
        result.skipped = f"not checked: {why}"
        result.findings = [unchecked(path, why, exc.lineno or 1, exc.offset or 1)] if UNCHECKED in enabled else []
    except (ValueError, RecursionError, MemoryError) as exc:
        why = f"cannot parse: {_parse_error(exc)}"
        result.skipped, result.findings = f"not checked: {why}", [unchecked(path, why)] if UNCHECKED in enabled else []
    return result


def _not_checked(result: FileResult, why: str, enabled: frozenset[str]) -> FileResult:
    result.skipped = f"not checked: {why}"
    if UNCHECKED in enabled:
        result.findings = [unchecked(result.path, why)]
    return result


def unchecked(path: str, why: str, line: int = 1, column: int = 1) -> Finding:
    """PDL900: the file was not checked, and why (a finding, so the run does not pass silently)."""
    rule = BY_CODE[UNCHECKED]
    return Finding(code=UNCHECKED, cause=rule.cause, message=f"file not checked: {why}", severity=rule.severity,
                   locations=(Location(path=path, line=line, column=column),), fix=rule.fix, why=why)


def lint_text(text: str, path: str = "<string>", enabled: frozenset[str] | None = None,
              warnings: list[str] | None = None, summary: Summary | None = None, families: list | None = None):
    """(findings, not-checked reason, internal error, parsed) for one file's text; invalid noqa
    comments are appended to ``warnings``. With a ``summary`` to fill, findings that depend on other
    files stay pending (:mod:`.index`, resolved by :func:`lint_paths`); without, this file decides.
    ``families``: the ones to run, if the caller already asked :func:`.rules.plan`."""
    enabled = enabled if enabled is not None else frozenset(BY_CODE)
    families = plan(text, enabled)[0] if families is None else families  # the same as a run's
    try:  # parsed even when no family runs: a syntax error is worth a message
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        why = f"syntax error at line {exc.lineno}: {exc.msg}"
        found = [unchecked(path, why, exc.lineno or 1, exc.offset or 1)] if UNCHECKED in enabled else []
        return found, f"not checked: {why}", None, False
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes: ValueError before 3.12
        why = f"cannot parse: {_parse_error(exc)}"
        return [unchecked(path, why)] if UNCHECKED in enabled else [], f"not checked: {why}", None, False
    with FileContext.build(path, text, tree) as ctx:  # its tree is freed as soon as it is dropped
        error, facts = _check(ctx, families), summarize(ctx)
    found = ctx.findings if summary is not None else resolve(ctx.findings, facts)
    if summary is not None:
        summary.merge(facts)
    suppress = noqa.parse(text, warnings=warnings)
    kept = [f for f in found if f.code in enabled
            and not suppress.suppresses(f.code, f.location.line or 0, f.location.end_line or 0)]
    kept.sort(key=lambda f: (f.location.line or 0, f.location.column or 0, f.code))
    return _dedup(kept), None, error, True


def _check(ctx: FileContext, families: list) -> str | None:
    """Runs each family on the file; the last internal error, if a family failed."""
    error = None
    for _codes, family in families:
        try:
            family.check(ctx)
        except Exception as exc:  # a rule bug must not hide the other rules' findings
            error = f"internal error in {family.__name__}: {type(exc).__name__}: {exc}"
    return error


def _parse_error(exc: Exception) -> str:
    if isinstance(exc, ValueError) and "null" in str(exc).lower():
        return "the file holds NUL bytes"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _dedup(findings: list[Finding]) -> list[Finding]:
    """The first finding of each (code, line, column), in order."""
    first: dict[tuple, Finding] = {}
    for f in findings:
        first.setdefault((f.code, f.location.line, f.location.column), f)
    return list(first.values())


def _fix(result: FileResult, text: str, enabled: frozenset[str], unsafe: bool, mode: bool | str) -> None:
    """Apply the fixes in place, or with ``mode == "diff"`` keep (old, new) text and write nothing."""
    fixing = [f for f in result.findings if applicable(f, unsafe)]
    edits = [e for f in fixing for e in f.edits]
    if not edits:
        return
    fixed = apply_edits(text, edits)
    if fixed is None:
        result.error = "a fix would leave the file unparsable; the file was not changed"
        return
    new_text, count = fixed
    result.fixed_codes = [f.code for f in fixing]
    if mode == DIFF:
        result.diff = (text, new_text)
    else:
        with open(result.path, "w", encoding="utf-8", newline="") as handle:
            handle.write(new_text)
    result.findings, result.skipped, result.error, result.parsed = lint_text(new_text, result.path, enabled)
    result.fixed = count
