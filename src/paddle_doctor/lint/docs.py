"""The rule table as text: ``paddle-doctor explain PDLxxx`` and ``docs/lint.md``.

Regenerate the page with ``python -m paddle_doctor.lint.docs > docs/lint.md`` (a test keeps it in step).
"""

from __future__ import annotations

import textwrap

from .codes import RULES, Rule

_POLICY = __import__("paddle_doctor.lint.codes", fromlist=["x"]).__doc__.split("\n\n")[1]


def rule_text(rule: Rule) -> str:
    fix = {None: "no automatic fix", "safe": "`--fix`", "unsafe": "`--fix --unsafe-fixes` (changes behaviour)"}[
        rule.fixable.value if rule.fixable else None]
    return (f"{rule.code} {rule.name}: {rule.summary}\n\n"
            f"Cause: {rule.cause} (paddle-doctor explain {rule.cause})\n"
            f"Severity: {rule.severity.value}; fix: {fix.replace('`', '')}\n\n"
            f"Wrong\n{textwrap.indent(rule.wrong, '    ')}\n\nRight\n{textwrap.indent(rule.right, '    ')}\n"
            f"\nSuppress with `# noqa: {rule.code}` on the line, or `ignore = [\"{rule.code}\"]` in "
            "[tool.paddle-doctor.lint].\n")


def render_markdown() -> str:
    out = ["# `paddle-doctor lint` rules", "",
           "<!-- generated: python -m paddle_doctor.lint.docs > docs/lint.md (do not edit by hand) -->", "",
           "Usage, suppression and configuration: see the `paddle-doctor lint` section of the README.", "",
           "## Code ranges", "", "```", textwrap.dedent(_POLICY).strip("\n"), "```", "",
           "| code | name | cause | fix | summary |", "|---|---|---|---|---|"]
    for rule in RULES:
        anchor = f"{rule.code.lower()}-{rule.name}"
        fix = rule.fixable.value if rule.fixable else ""
        out.append(f"| [{rule.code}](#{anchor}) | `{rule.name}` | [`{rule.cause}`](causes.md#{rule.cause}) | {fix} "
                   f"| {rule.summary} |")
    for rule in RULES:
        out += ["", f"## {rule.code} {rule.name}", "", rule.summary, "",
                f"Cause: [`{rule.cause}`](causes.md#{rule.cause}). Severity: {rule.severity.value}."
                + (f" Fix: {rule.fixable.value} (`--fix`{' --unsafe-fixes' if rule.fixable.value == 'unsafe' else ''})."
                   if rule.fixable else ""),
                "", "Wrong:", "", "```python", rule.wrong, "```", "", "Right:", "", "```python", rule.right, "```"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render_markdown(), end="")
