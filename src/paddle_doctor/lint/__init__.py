"""``paddle-doctor lint``: Paddle-aware static checks (the rule record in :mod:`.codes`; each rule declared beside its check in ``rules/``).

Imports nothing heavy and never imports paddle.
"""

from __future__ import annotations

from ..lazy import lazy_exports

__all__ = ["RULES", "ConfigError", "LintConfig", "LintInputError", "LintResult", "Rule", "get_rule",
           "lint_file", "lint_paths", "lint_source", "lint_text", "load_config"]
__getattr__ = lazy_exports(__name__, {
    "RULES": ".rules", "Rule": ".codes", "get_rule": ".rules",
    "ConfigError": ".config", "LintConfig": ".config", "load_config": ".config",
    "LintResult": ".engine", "lint_file": ".engine", "lint_paths": ".engine", "lint_source": ".engine",
    "lint_text": ".engine",
    "LintInputError": ".config",
})
