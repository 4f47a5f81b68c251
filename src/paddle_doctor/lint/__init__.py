"""``paddle-doctor lint``: Paddle-aware static checks (rules in :mod:`.codes`, families in ``rules/``).

Imports nothing heavy and never imports paddle.
"""

from __future__ import annotations

from .codes import RULES, Rule, get_rule
from .config import ConfigError, LintConfig, load_config
from .engine import LintResult, lint_file, lint_paths, lint_text
from .files import LintInputError

__all__ = ["RULES", "ConfigError", "LintConfig", "LintInputError", "LintResult", "Rule", "get_rule",
           "lint_file", "lint_paths", "lint_text", "load_config"]
