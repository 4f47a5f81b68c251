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


# --- no unreviewed row (issue 29): every template of every family and era is mapped or generic with its reason

TEMPLATES = FIXTURE.parent
GENERIC_ROWS = [line.split("\t") for line in (TEMPLATES / "generic.tsv").read_text().splitlines() if line.strip()]
COUNTS = {(era, family): int(n) for era, family, n in
          (line.split("\t") for line in (TEMPLATES / "counts.tsv").read_text().splitlines() if line.strip())}


def _coverage_module():
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "bench" / "message_coverage.py"
    spec = importlib.util.spec_from_file_location("message_coverage", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_template_of_the_table_is_mapped_or_generic():
    """The two fixtures together hold every template the table counts, per era and family."""
    held: dict[tuple[str, str], int] = {}
    for row in ROWS + GENERIC_ROWS:
        held[(row[0], row[1])] = held.get((row[0], row[1]), 0) + 1
    assert held == COUNTS
    assert {era for era, _ in COUNTS} >= {"1.8.5", "2.0.2", "2.2.2", "2.4.2", "2.6.2", "3.3.1"}


def test_every_generic_template_has_its_reviewed_reason():
    """Each generic row carries a declared reason, the one the review's rules give it (no row is left
    without one; a "gap:" reason names the cause a signature should read)."""
    coverage = _coverage_module()
    reasons = {rid for rid, _, _ in coverage.GENERIC_REASONS}
    for era, family, verdict, reason, source, line in GENERIC_ROWS:
        assert reason in reasons, (era, line)
        assert coverage.generic_reason(family, line) == reason, (era, line)
        assert verdict in ("python_exception", "unknown", "None"), (era, line)
    gaps = {r.split(":", 1)[1] for r in reasons if r.startswith("gap:")} - {"allocation_failed",
                                                                            "spawned_child_signal"}
    assert gaps <= set(cause_ids()), gaps


def test_the_reasons_are_told_apart():
    """The review's rules are not one catch-all: each reason holds rows, and the catch-all few."""
    found = {row[3] for row in GENERIC_ROWS}
    coverage = _coverage_module()
    assert len(found) >= 10
    catch_all = sum(row[3] == coverage.GENERIC_REASONS[-1][0] for row in GENERIC_ROWS)
    assert catch_all <= 0.05 * len(GENERIC_ROWS)
