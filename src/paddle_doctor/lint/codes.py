"""The lint rule record, the code ranges and the linter's own codes.

Range policy (a code never changes meaning once published; retired codes are not reused):

    PDL1xx  collectives and deadlocks: a collective some ranks never reach, or reach out of step
    PDL2xx  DataLoader and processes: worker processes, start methods, main guards
    PDL3xx  checkpoints and state dicts: who writes, what is loaded, which keys
    PDL4xx  evaluation correctness: samples dropped or counted twice, rank-local metrics, eval mode
    PDL5xx  device and environment: variables read by Paddle at import time
    PDL9xx  reserved for the linter itself (never a rule about user code)

Each rule names one catalog cause (``paddle-doctor explain CAUSE``) and is declared in the module of
its family, beside the check that reports it (``rules/collectives.py`` holds PDL101-PDL104 and
their ``check``), as ruff keeps each rule's docs beside its code; ``rules/__init__.py`` collects
them into ``RULES`` and ``BY_CODE``, and the catalog's ``lint_rules`` back-links are derived from
``RULES``. A :class:`Rule` is a rule of the shared protocol (:mod:`paddle_doctor.rules`): ``wrong``
and ``right`` are its docs, the examples ``paddle-doctor explain PDLxxx`` and ``docs/lint.md`` show
(the golden fixtures hold many more). This module holds the record type and the linter's own
codes; it imports nothing of paddle_doctor but the record's enums and the rule protocol.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalog.ids import CauseId
from ..findings import Fixable, Severity
from ..rules import Docs

DOCS_URL = "https://github.com/paddle-doctor/paddle-doctor/blob/main/docs/lint.md"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case symbol (pylint style); stable like the code
    cause: CauseId  # the catalog cause it points at
    summary: str  # one line
    wrong: str  # a minimal example the rule reports
    right: str  # the same code, fixed
    fixable: Fixable | None = None  # what --fix can do (None: nothing automatic)
    severity: Severity = Severity.ERROR
    fix: str = ""  # the remedy in one line (the Finding's ``fix``; the catalog holds the long one)
    default: bool = True  # in the default selection; False: opt-in (``--select`` its code or a prefix such as PDL3; ``ALL`` does not)
    check: str = ""  # the function that reports it, "module:function" (the family's ``check``)

    @property
    def url(self) -> str:
        return f"{DOCS_URL}#{self.code.lower()}-{self.name}"

    # --- the rule protocol (paddle_doctor.rules.Rule) ---
    @property
    def message(self) -> str:
        return self.summary

    @property
    def docs(self) -> Docs:
        return Docs(wrong=self.wrong, right=self.right)


# The linter's own codes (PDL9xx): a file it could not check is reported like any finding, so a run
# never says "All checks passed!" about a file it did not read.
UNCHECKED = "PDL900"
LINTER_RULES: tuple[Rule, ...] = (
    Rule(
        UNCHECKED, "file-not-checked", CauseId.python_exception,  # not a back-link: the file's own error
        "A file could not be checked (syntax error, undecodable bytes, NUL bytes, over the size limit, not a regular file): no rule ran on it.",
        fix="Make the file parse (Python would raise the same SyntaxError on import), or exclude it in [tool.paddle-doctor.lint].",
        wrong="""\
def evaluate(model:             # a syntax error: no rule can read this file
    pass""",
        right="""\
def evaluate(model):
    pass""",
        check="paddle_doctor.lint.engine:unchecked",
    ),
)
