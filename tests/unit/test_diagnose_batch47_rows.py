"""Issue 29, after gathered batch 47: the exit code the new launcher reports for its pod (the first failed
container's) read as a fatal signal (-N) or a Windows crash status (codes.toml's [ntstatus]) when nothing else
given names a cause, PaddleSeg's AUC-ROC metric refusing labels it cannot score, and the alternative of a
Paddle library's missing name. Every line follows the emitting code's template cited in the rows; none is a
corpus log."""

from paddle_doctor.catalog.codes import exit_status_of
from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of

# paddle/distributed/launch/controllers/controller.py: "Pod failed", "Container failed !!!\n{}", "Exit code {}".
_POD = ("LAUNCH INFO 2025-01-02 10:00:00,100 Pod failed\n"
        "LAUNCH ERROR 2025-01-02 10:00:00,101 Container failed !!!\n"
        "LAUNCH INFO 2025-01-02 10:00:00,110 Exit code {code}\n")


def test_the_pods_windows_crash_status_is_a_native_crash(tmp_path):
    """0xC0000005 (STATUS_ACCESS_VIOLATION) as Popen.returncode gives it on Windows."""
    rc = _diagnose(tmp_path, _POD.format(code=3221225477))
    assert rc.cause == CauseId.segfault and rc.code == "pod_exit_status", (rc.cause, rc.code, rc.why)
    assert rc.confidence.value == "medium"


def test_the_pods_fatal_signal_is_read_as_the_signal_table_says(tmp_path):
    rc = _diagnose(tmp_path, _POD.format(code=-11))
    assert rc.cause == CauseId.segfault and rc.code == "pod_exit_status", (rc.cause, rc.code, rc.why)


def test_the_pods_ordinary_exit_code_still_asks_for_the_workers_log(tmp_path):
    rc = _diagnose(tmp_path, _POD.format(code=1))
    assert rc.cause == CauseId.unknown and rc.code == "cause_not_given", (rc.cause, rc.code)


def test_exit_status_reads_signals_and_windows_statuses_signed_or_not():
    assert exit_status_of(-9).name == "SIGKILL"
    assert exit_status_of(3221226505).name == "STATUS_STACK_BUFFER_OVERRUN"
    assert exit_status_of(-1073741819).name == "STATUS_ACCESS_VIOLATION"  # printed signed by some consoles
    assert exit_status_of(3221225786).cause is None  # Ctrl-C: no cause
    assert exit_status_of(1) is None and exit_status_of(2) is None


def test_paddlesegs_auc_metric_refusing_the_labels_is_a_config_error(tmp_path):
    """PaddleSeg paddleseg/utils/metrics.py auc_roc: raise RuntimeError('labels with ignore_index is not supported yet.')."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "val.py", line 9, in <module>\n'
                             "    auc = metrics.auc_roc(logits, label, num_classes=2)\n"
                             "RuntimeError: labels with ignore_index is not supported yet.\n")
    assert rc.cause == CauseId.config_error and rc.code == "seg_auc_labels_unsupported", (rc.cause, rc.why)
    assert rc.confidence.value == "medium"


def test_a_paddle_librarys_missing_name_offers_the_librarys_own_release(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "web_service.py", line 3, in <module>\n'
                             "    from paddlehub.module import Module\n"
                             "ImportError: cannot import name 'Module' from 'paddlehub.module'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)
    assert CauseId.dependency_version_mismatch in [a.cause for a in rc.alternatives], rc.alternatives
