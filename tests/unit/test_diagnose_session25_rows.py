"""Readings added in issue 29's twenty-fifth session, and the near texts each must leave alone: PaddleX 3.x's two
other refusals of the check whose first one (a part its config left off) batch137 brought."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _cause(tmp_path, text: str):
    rc = _diagnose(tmp_path, text)
    return (rc.cause, rc.confidence.value, rc.code) if rc else None


@pytest.mark.parametrize("text", [
    # PaddleX's log line (a colour code and its logger's prefix), and the bare message of another pipeline's part
    "\x1b[31m2025-09-02 08:11:40,012 [ERROR] Set use_ocr_model=False, but no OCR results were found.\x1b[0m",
    "The OCR models have already been initialized, please set use_ocr_model=False",
    "Set use_table_recognition=False, but no table recognition results were found.",
])
def test_a_pipeline_call_whose_inputs_and_parts_disagree_is_a_config_error(tmp_path, text):
    assert _cause(tmp_path, text + "\n") == (CauseId.config_error, "high", "paddlex_pipeline_part_inputs_conflict")


@pytest.mark.parametrize("text", [
    # the words without the check's form: a user's own message, a progress note
    "INFO: no OCR results were found on page 3, skipping\n",
    "The OCR models have already been initialized, reusing them\n",
])
def test_words_near_the_pipeline_checks_are_not_them(tmp_path, text):
    got = _cause(tmp_path, text)
    assert got is None or got[2] != "paddlex_pipeline_part_inputs_conflict"


@pytest.mark.parametrize("text, cause, level", [
    # a signal's report in a zh_CN locale, inside the sentence (its rows read it at a line's start only)
    ("运行训练时出现段错误 (核心已转储)，请问怎么解决", CauseId.segfault, "high"),
    ("import paddle后直接非法指令（核心已转储）", CauseId.segfault, "high"),
    # zsh's report after the reporter's words
    ("运行后提示 zsh: killed     python tools/train.py", CauseId.host_oom_killed, "high"),
    # the ASCII report with the sentence going on after it, in Chinese or English prose
    ("训练时报Aborted (core dumped) 请问怎么办", CauseId.segfault, "low"),
    ("After a few steps it crashes with Aborted (core dumped) and nothing else", CauseId.segfault, "low"),
    ("When I start training I get Illegal instruction (core dumped) right away", CauseId.segfault, "high"),
    ("It dies with zsh: segmentation fault  python infer.py", CauseId.segfault, "high"),
])
def test_a_signal_report_inside_a_sentence_is_read(tmp_path, text, cause, level):
    got = _cause(tmp_path, text + "\n")
    assert got is not None and got[:2] == (cause, level)


@pytest.mark.parametrize("text", [
    # a log record of a quiet level that names a crash it recovered from, a question about the words
    "2024-01-01 10:00:00 INFO: the child crashed with Aborted (core dumped), restarting it",
    "What does Aborted (core dumped) mean in general?",
])
def test_a_signal_named_but_not_reported_is_not_the_error(tmp_path, text):
    got = _cause(tmp_path, text + "\n")
    assert got is None or got[0] != CauseId.segfault


@pytest.mark.parametrize("text", [
    # Paddle 2.x-3.x collective_helper.h: a collective op with no communicator for its ring (built4 29965: a script
    # run with plain python after init_parallel_env's "not a parallel execution environment" warning)
    "ValueError: (InvalidArgument) Communicator of ring id 0 has not been initialized.",
    "  [Hint: Expected comm_ctx != nullptr] Communicator of ring id 3 has not been initialized. (at "
    "/paddle/paddle/fluid/platform/collective_helper.h:141)",
])
def test_a_collective_with_no_communicator_is_a_missing_parallel_environment(tmp_path, text):
    got = _cause(tmp_path, text + "\n")
    assert got[:2] == (CauseId.missing_dist_env, "medium") and got[2] == "comm_ring_uninitialized"


def test_words_near_the_communicator_check_are_not_it(tmp_path):
    got = _cause(tmp_path, "INFO: the communicator of ring id 0 has been initialized\n")
    assert got is None or got[2] != "comm_ring_uninitialized"
