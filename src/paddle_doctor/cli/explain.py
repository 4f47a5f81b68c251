"""``paddle-doctor explain ID`` and ``explain --list``."""

from __future__ import annotations

import difflib
import sys

import click

from ..catalog import UnknownCauseError, cause_ids, get_cause
from ..render.causes import render_cause_text, render_list_text


@click.command("explain")
@click.argument("cause_id", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every cause id with its title, then every lint rule (PDLxxx).")
@click.option("--rules", "list_rules", is_flag=True,
              help="List diagnose's reasoning rules (the `code` of a verdict) with what each decides.")
def command(cause_id: str | None, list_all: bool, list_rules: bool) -> None:
    """Explain a cause id from the catalog (the ids diagnose, lint and env report), a lint rule (PDL101),
    or a reasoning rule of diagnose (the `code` of its JSON verdict: silent_death, real_timeout, ...)."""
    if list_rules:
        from ..diagnose.rules import RULES
        from ..render.causes import render_rules_list_text

        click.echo(render_rules_list_text(RULES), nl=False)
        return
    if list_all or not cause_id:
        from ..lint.docs import rules_list_text

        click.echo(render_list_text() + rules_list_text(), nl=False)
        return
    if cause_id.upper().startswith("PDL"):
        _explain_rule(cause_id)
        return
    try:
        cause = get_cause(cause_id)
    except UnknownCauseError:
        if _explain_reasoning_rule(cause_id):
            return
        from ..diagnose.rules import BY_CODE

        close = difflib.get_close_matches(cause_id, [*cause_ids(), *BY_CODE], n=3)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        click.echo(f"paddle-doctor explain: error: unknown cause id '{cause_id}'.{hint} "
                   "See `paddle-doctor explain --list`.", err=True)
        sys.exit(2)
    click.echo(render_cause_text(cause), nl=False)


def _explain_rule(code: str) -> None:
    from ..lint.rules import BY_CODE
    from ..lint.docs import rule_text

    rule = BY_CODE.get(code.upper())
    if rule is None:
        click.echo(f"paddle-doctor explain: error: unknown lint rule '{code}' (rules: {', '.join(BY_CODE)}).",
                   err=True)
        sys.exit(2)
    click.echo(rule_text(rule), nl=False)


def _explain_reasoning_rule(code: str) -> bool:
    """Show diagnose's reasoning rule ``code`` (imported only now: the rules cost start-up time)."""
    from ..diagnose.rules import BY_CODE
    from ..render.causes import render_rule_text

    rule = BY_CODE.get(code)
    if rule is not None:
        click.echo(render_rule_text(rule), nl=False)
    return rule is not None
