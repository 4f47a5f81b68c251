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
