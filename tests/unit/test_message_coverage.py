"""Every Paddle message template that the coverage table maps to a specific cause (extracted from the
1.8.5, 2.0.2, 2.2.2, 2.4.2, 2.6.2 GPU wheels and the 3.3.1 CPU wheel by bench/message_coverage.py into
tests/fixtures/templates/mapped.tsv)
is still classified so: a change to the signatures or the error tables that loses one fails here."""

from pathlib import Path

import pytest

from paddle_doctor.catalog import cause_ids
from paddle_doctor.diagnose import diagnose_paths

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "templates" / "mapped.tsv"
ROWS = [line.split("\t") for line in FIXTURE.read_text().splitlines() if line.strip()]
SITE = "/usr/local/lib/python3.8/site-packages/paddle/"


def _as_log(family: str, source: str, line: str) -> str:
    """As bench/message_coverage.py writes it: a Python site's message under a frame of its own file."""
    if family.startswith("py:"):
        return f'Traceback (most recent call last):\n  File "{SITE}{source}", line 1, in check\n{line}\n'
    return line + "\n"


def test_the_fixture_spans_eras_and_families():
    assert {r[0] for r in ROWS} >= {"1.8.5", "2.0.2", "2.2.2", "2.4.2", "2.6.2", "3.3.1"}
    assert len({r[1] for r in ROWS}) >= 6 and {r[2] for r in ROWS} <= set(cause_ids())


@pytest.mark.parametrize("era, family, cause, source, line", ROWS, ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)])
def test_mapped_template_keeps_its_cause(era, family, cause, source, line):
    rc = diagnose_paths(["-"], stdin=_as_log(family, source, line).encode()).root_cause
    assert rc is not None and rc.cause == cause, line
