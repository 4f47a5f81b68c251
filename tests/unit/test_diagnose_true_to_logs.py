"""Output true to the logs (issue 30, item 4), on what ``paddle-doctor run`` really left after case 01
(``tests/fixtures/run_records/record.py``): the rank the watchdog ended is not "stopped by
SIGTERM"; the evidence is the user's frame in the worker log, as plain ``diagnose`` shows it; and
the HTML page never shows Paddle's "No stack trace in paddle" boilerplate as a rank's last progress."""

from __future__ import annotations

import shutil
from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.html import render_page
from paddle_doctor.render.json_out import diagnosis_dict

REPO = Path(__file__).resolve().parents[2]
RUN_LOG = REPO / "tests" / "fixtures" / "run_records" / "log"
CASE22 = REPO / "tests" / "fixtures" / "cases" / "22_rank_breaks_early"
USER_FRAME = 'eval.py", line 49, in hits_at_1'


def test_the_rank_the_watchdog_ended_is_said_to_be_ended_by_the_watchdog():
    rows = {r["rank"]: r for r in diagnosis_dict(diagnose_paths([str(RUN_LOG)]))["ranks"]}
    assert rows[0]["end_kind"] == "watchdog"
    assert "SIGTERM" not in rows[0]["why"] and "watchdog" in rows[0]["why"]


def test_under_run_the_evidence_is_the_users_frame_in_the_worker_log():
    rc = diagnose_paths([str(RUN_LOG)]).root_cause
    assert rc is not None and rc.ranks == (1,)
    first = rc.evidence[0]
    assert first.path.endswith("workerlog.1") and USER_FRAME in first.text
    lines = (RUN_LOG / "workerlog.1").read_text().splitlines()
    assert USER_FRAME in lines[first.line - 1]


def test_a_record_without_its_worker_log_still_quotes_the_users_frame(tmp_path):
    for name in ("paddle_doctor_error.0.json", "paddle_doctor_error.1.json", "workerlog.0"):
        shutil.copy(RUN_LOG / name, tmp_path / name)
    rc = diagnose_paths([str(tmp_path)]).root_cause
    assert rc is not None and rc.ranks == (1,)
    assert any(USER_FRAME in e.text for e in rc.evidence), rc.evidence


def test_the_page_never_shows_paddles_no_stack_trace_boilerplate_as_progress():
    paths = [str(CASE22 / "log"), str(CASE22 / "terminal.out")]
    diagnosis = diagnose_paths(paths)
    rows = {r.rank: r for r in diagnosis.rows}
    said = [line for line in (CASE22 / "log" / "workerlog.1").read_text().splitlines() if line.startswith("rank 1:")]
    assert rows[1].last_progress == said[-1]  # the last line rank 1 itself printed
    page = render_page(diagnosis).split("<h2>Log tails</h2>")[0]  # the tails quote the log as it is
    assert "No stack trace in paddle" not in page and said[-1] in page


def test_the_page_has_the_differential_and_each_victims_why_as_the_text_does():
    from paddle_doctor.render.text import render_diagnosis

    d = diagnose_paths([str(REPO / "tests" / "fixtures" / "cases" / "01_exception_rank1")])
    page, text = render_page(d), "\n".join(line.text for line in render_diagnosis(d))
    assert "ALSO POSSIBLE" in text and 'id=also-possible' in page
    for alt in d.root_cause.alternatives:
        assert f"<code>{alt.cause}</code>" in page
    assert "CONFIRM" in text and "id=confirm" in page
    victim = next(r for r in d.rows if r.status.value == "victim")
    assert victim.why and victim.why in page and "<th>why</th>" in page


def test_the_pages_verdict_is_the_texts_word_for_word():
    from paddle_doctor.render.text import render_diagnosis

    for paths in ([str(CASE22 / "log"), str(CASE22 / "terminal.out")], [str(RUN_LOG)]):
        d = diagnose_paths(paths)
        said = render_diagnosis(d)[0].text.removeprefix("VERDICT").strip()
        page = render_page(d)
        assert said.replace("'", "&#x27;") in page, said
        assert "failed first: rank " not in page  # no "rank 1 failed first: rank 1 left ..."
