"""``paddle-doctor lint``: Paddle-aware static checks (rules in :mod:`.codes`, families in ``rules/``).

Imports nothing heavy and never imports paddle.
"""

from __future__ import annotations

from ..lazy import lazy_exports

__all__ = ["RULES", "ConfigError", "LintConfig", "LintInputError", "LintResult", "Rule", "get_rule",
           "lint_file", "lint_paths", "lint_text", "load_config"]
__getattr__ = lazy_exports(__name__, {
    "RULES": ".codes", "Rule": ".codes", "get_rule": ".codes",
    "ConfigError": ".config", "LintConfig": ".config", "load_config": ".config",
    "LintResult": ".engine", "lint_file": ".engine", "lint_paths": ".engine", "lint_text": ".engine",
    "LintInputError": ".files",
})
