"""``paddle-doctor lint PATH...``: parse, call :func:`paddle_doctor.lint.lint_paths`, render, exit code.

Exit codes (ruff's): 0 no findings, 1 findings, 2 usage error or internal error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c.strip().upper() for v in values for c in v.split(",") if c.strip())


@click.command("lint")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif"]), default="text", show_default=True)
@click.option("--select", multiple=True, help="Codes or prefixes to run (PDL1, PDL401, ALL); comma-separated.")
@click.option("--ignore", multiple=True, help="Codes or prefixes to skip; comma-separated.")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (a file is never left unparsable).")
@click.option("--unsafe-fixes", is_flag=True, help="With --fix, also apply fixes that change behaviour.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the results cache (.paddle_doctor_cache).")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
def command(paths, fmt, select, ignore, fix, unsafe_fixes, no_cache, color) -> None:
    """Find Paddle distributed-evaluation bugs in Python sources before they run."""
    from .. import __version__
    from ..lint.config import ConfigError, load_config
    from ..lint.engine import lint_paths
    from ..lint.files import CACHE_DIR, LintInputError
    from ..lint.rules import ALL_RULES, BY_CODE

    try:
        config = load_config(Path(paths[0])).with_cli(_codes(select) or None, _codes(ignore))
        cache = None if no_cache else str(Path(config.root or ".") / CACHE_DIR)  # beside pyproject.toml, as ruff's
        result = lint_paths(list(paths), config, fix=fix, unsafe_fixes=unsafe_fixes, cache_dir=cache)
    except (ConfigError, LintInputError) as exc:
        click.echo(f"paddle-doctor lint: error: {exc}", err=True)
        sys.exit(2)
    for line in result.warnings:  # a file not checked is a PDL900 finding in every format, not a stderr line
        click.echo(f"paddle-doctor lint: warning: {line}", err=True)
    for line in result.errors:
        click.echo(f"paddle-doctor lint: error: {line}", err=True)
    if fmt == "json":
        from ..render.lint_json import render
        out = render(result.findings, BY_CODE)
    elif fmt == "sarif":
        from ..render.sarif import render
        out = render(result.findings, ALL_RULES, version=__version__, source_line=_source_lines())
    else:
        from ..render.lint_text import render
        from ..term import use_color

        colored = use_color(sys.stdout, color)  # the one colour decision (term.py): NO_COLOR, FORCE_COLOR too
        out = render(result.findings, color=colored, fixed=result.fixed, unsafe_fixes=unsafe_fixes)
    click.echo(out, nl=False, color=fmt == "text" and colored)  # click strips ANSI into a pipe unless told
    sys.exit(2 if result.errors else 1 if result.findings else 0)


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
