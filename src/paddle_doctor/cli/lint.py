"""``paddle-doctor lint [PATH...]``: parse, call :func:`paddle_doctor.lint.lint_paths`, render, exit code.

Exit codes (ruff's): 0 no findings (or ``--exit-zero``), 1 findings (with ``--diff``: fixes to
apply), 2 usage or internal error. No PATH means ``.``; ``-`` reads the source from stdin (name it
with ``--stdin-filename``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

FORMATS = ["text", "concise", "json", "sarif", "github", "gitlab", "junit"]


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


@click.command("lint")
@click.argument("paths", nargs=-1)
@click.option("--format", "--output-format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("-o", "--output-file", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to this file instead of stdout.")
@click.option("--select", multiple=True, help="Codes or prefixes to run (PDL1, PDL401, ALL); comma-separated.")
@click.option("--extend-select", multiple=True, help="Codes or prefixes to run in addition to the selection.")
@click.option("--ignore", multiple=True, help="Codes or prefixes to skip; comma-separated.")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (a file is never left unparsable).")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix or --diff, also apply fixes that change behaviour.")
@click.option("--diff", is_flag=True, help="Print the changes --fix would make as a unified diff; change nothing.")
@click.option("--show-fixes", is_flag=True, help="List the fixes applied (with --fix) or available.")
@click.option("--statistics", is_flag=True, help="Print the number of findings per rule instead of the findings.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option("--stdin-filename", help="The name of the file read from stdin (PATH `-`).")
@click.option("--no-cache", is_flag=True, help="Do not read or write the results cache (.paddle_doctor_cache).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def command(paths, fmt, output_file, select, extend_select, ignore, fix, unsafe_fixes, diff, show_fixes,
            statistics, exit_zero, stdin_filename, no_cache, color) -> None:
    """Find Paddle distributed-evaluation bugs in Python sources before they run (PATH: default `.`)."""
    from ..lint.config import ConfigError
    from ..lint.config import LintInputError

    paths = list(paths) or ["."]
    try:
        result = _run(paths, select, extend_select, ignore, fix, unsafe_fixes, diff, stdin_filename, no_cache)
    except (ConfigError, LintInputError, click.UsageError) as exc:
        click.echo(f"paddle-doctor lint: error: {exc.format_message() if isinstance(exc, click.UsageError) else exc}",
                   err=True)
        sys.exit(2)
    for line in result.warnings:  # a file not checked is a PDL900 finding in every format, not a stderr line
        click.echo(f"paddle-doctor lint: warning: {line}", err=True)
    for line in result.errors:
        click.echo(f"paddle-doctor lint: error: {line}", err=True)
    from ..term import use_color

    # the one colour decision (term.py: --color, NO_COLOR, FORCE_COLOR, a terminal); never into a file
    colored = output_file is None and fmt == "text" and use_color(sys.stdout, color)
    out = _report(result, fmt, diff, statistics, show_fixes, unsafe_fixes, colored)
    if output_file:
        try:
            Path(output_file).write_text(out, encoding="utf-8")
        except OSError as exc:
            click.echo(f"paddle-doctor lint: error: cannot write {output_file}: {exc.strerror or exc}", err=True)
            sys.exit(2)
    else:
        click.echo(out, nl=False, color=colored)  # click strips ANSI into a pipe unless told
    if diff:  # the diff itself stays a clean patch
        n = len(result.diffs)
        click.echo(f"Would fix {n} file{'s' if n != 1 else ''}." if n else "No fixes available.", err=True)
    if result.errors:
        sys.exit(2)
    failing = bool(result.diffs) if diff else bool(result.findings)
    sys.exit(0 if exit_zero or not failing else 1)


def _run(paths, select, extend_select, ignore, fix, unsafe_fixes, diff, stdin_filename, no_cache):
    from ..lint.config import load_config
    from ..lint.engine import lint_paths, lint_source
    from ..lint.engine import DIFF
    from ..lint.files import CACHE_DIR

    if "-" in paths:
        if len(paths) > 1 or fix or diff:
            raise click.UsageError("`-` (stdin) is linted alone and without --fix/--diff")
        name = stdin_filename or "-"
        config = load_config(Path(name).parent if stdin_filename else Path(".")).with_cli(
            _codes(select) or None, _codes(ignore), _codes(extend_select))
        return lint_source(sys.stdin.read(), name, config)
    config = load_config(Path(paths[0])).with_cli(_codes(select) or None, _codes(ignore), _codes(extend_select))
    cache = None if no_cache else str(Path(config.root or ".") / CACHE_DIR)  # beside pyproject.toml, as ruff's
    return lint_paths(paths, config, fix=DIFF if diff else fix, unsafe_fixes=unsafe_fixes, cache_dir=cache)


def _report(result, fmt: str, diff: bool, statistics: bool, show_fixes: bool, unsafe_fixes: bool,
            use_color: bool) -> str:
    from ..lint.rules import BY_CODE
    from ..render import lint_json

    if diff:
        return _unified_diffs(result.diffs)
    if statistics:
        return lint_json.render_statistics(result.findings, BY_CODE)
    if fmt == "text":
        from ..render.lint_text import render
        out = render(result.findings, color=use_color, fixed=result.fixed, unsafe_fixes=unsafe_fixes)
        return out + (_fixes_list(result) if show_fixes else "")
    return _machine(result.findings, fmt, BY_CODE)


def _machine(findings, fmt: str, rules: dict) -> str:
    from .. import __version__
    from ..lint.rules import ALL_RULES
    from ..render import lint_json

    if fmt == "json":
        return lint_json.render(findings, rules)
    if fmt == "sarif":
        from ..render.sarif import render
        return render(findings, ALL_RULES, version=__version__, source_line=_source_lines())
    if fmt == "gitlab":
        return lint_json.render_gitlab(findings, _relative)
    return {"concise": lint_json.render_concise, "github": lint_json.render_github,
            "junit": lint_json.render_junit}[fmt](findings)


def _relative(path: str) -> str:
    """GitLab wants paths relative to the repository root (the working folder in CI)."""
    import os
    absolute = os.path.abspath(path)
    here = os.getcwd()
    return os.path.relpath(absolute, here).replace(os.sep, "/") if absolute.startswith(here + os.sep) else path


def _fixes_list(result) -> str:
    """``--show-fixes``: what was fixed (``--fix``), else which findings a fix is available for."""
    if result.fixes:
        lines = [f"Fixed {len(result.fixes)} issue{'s' if len(result.fixes) != 1 else ''}:"]
        lines += [f"- {path}: {code}" for path, code in result.fixes]
    else:
        fixable = [f for f in result.findings if f.edits and f.fixable is not None]
        lines = [f"{len(fixable)} fix{'es' if len(fixable) != 1 else ''} available:"]
        lines += [f"- {f.location.path}:{f.location.line}: {f.code} ({f.fixable.value})" for f in fixable]
    return "\n".join(lines) + "\n"


def _unified_diffs(diffs) -> str:
    import difflib

    out = []
    for path, before, after in diffs:
        out.extend(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"a/{path}", tofile=f"b/{path}"))
    return "".join(out)


def _source_lines():
    cache: dict[str, list[str]] = {}

    def line(path: str, number: int) -> str:
        if path not in cache:
            try:
                cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                cache[path] = []
        lines = cache[path]
        return lines[number - 1] if 0 < number <= len(lines) else ""

    return line
