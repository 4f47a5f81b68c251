"""Issue 29, twelfth session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "Can't find module ernie_tiny_cls",
    "[2021-03-01 10:00:00,000] [ ERROR] - Can't find module ernie_tiny_cls, please check your spelling.",
    "paddlehub.module.manager.HubModuleNotFoundError: No HubModule named chinese_ocr_db_crnn_big was found",
])
def test_a_hub_module_name_the_server_does_not_know_is_the_command(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "hub_module_name_unknown", (rc.cause, rc.code)
    assert rc.confidence.value == "medium", rc.confidence


def test_a_hub_module_known_for_another_release_stays_the_version_table(tmp_path):
    rc = _diagnose(tmp_path, "paddlehub.module.manager.HubModuleNotFoundError: No HubModule named lac was found\n"
                             "|   lac    |  2.2.0  |  >=2.1.0(Mismatch)  |  >=2.1.0  |\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)


def test_a_config_error_offers_another_release_before_the_hosts(tmp_path):
    rc = _diagnose(tmp_path, "Can't find module ernie_tiny_cls\n")
    assert rc.alternatives and rc.alternatives[0].cause == CauseId.paddle_api_mismatch, rc.alternatives


@pytest.mark.parametrize("text", [
    "LAUNCH INFO 2024-01-01 10:00:00,000 Exit code -7\n",
    "Exception: \n\n-- Process 1 terminated with the following error:\nException: Process 1 terminated with signal "
    "SIGBUS.\n",
])
def test_a_bus_error_by_status_alone_is_a_native_crash_with_shared_memory_next(tmp_path, text):
    # as glog's SIGBUS line (eleventh session): without the DataLoader's lines, the signal says how, not why
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium", (rc.cause, rc.code, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.shm_too_small, rc.alternatives
