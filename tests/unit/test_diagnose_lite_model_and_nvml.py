"""Issue 29, after gathered batch 17: Paddle-Lite's own wording for a program file it cannot open
(model_parser.cc LoadModelPb: CHECK(fin.is_open()) << "Cannot open file: " << file), and NVML's failure to
initialise beside CUDA's "driver version is insufficient": no driver is reachable (a container started
without --gpus), not a driver older than the runtime. Every line follows the emitting code's template (cited
in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

GLOG_PREFIX = "WARNING: Logging before InitGoogleLogging() is written to STDERR\n"
INSUFFICIENT = ("W0412 10:02:11.120031 211 pinned_memory_manager.cc:236] Unable to allocate pinned system memory, "
                "pinned memory pool will not be available: CUDA driver version is insufficient for CUDA runtime "
                "version\n")


_diagnose = root_cause_of


@pytest.mark.parametrize("path", ["./mobilenet_v1/__model__", "/data/local/tmp/models/det/model"])
def test_a_program_file_paddle_lite_cannot_open_is_a_missing_file(tmp_path, path):
    rc = _diagnose(tmp_path, GLOG_PREFIX + f"F0302 09:11:40.120553  7731 model_parser.cc:137] Check failed: "
                                           f"fin.is_open() Cannot open file: {path}\n"
                                           "*** Check failure stack trace: ***\nAborted\n")
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)


def test_another_failed_check_of_paddle_lite_is_not_read_as_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, GLOG_PREFIX + "F0302 09:11:40.120553  7731 op_lite.cc:42] Check failed: it != "
                                           "outputs_.end(): \nAborted\n")
    assert rc is None or rc.cause != CauseId.file_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("nvml", ["Error: Failed to initialize NVML", "Failed to initialize NVML: Unknown Error"])
def test_nvml_that_cannot_start_beside_error_35_means_no_driver_is_reachable(tmp_path, nvml):
    rc = _diagnose(tmp_path, nvml + "\nW0412 10:02:11.119887 211 metrics.cc:221] DCGM unable to start: DCGM "
                                    "initialization error\n" + INSUFFICIENT)
    assert rc is not None and rc.cause == CauseId.device_not_found, (rc and rc.cause, rc and rc.why)


def test_error_35_alone_stays_a_driver_older_than_the_runtime(tmp_path):
    rc = _diagnose(tmp_path, INSUFFICIENT)
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch, (rc and rc.cause, rc and rc.why)


def test_nvmls_driver_library_mismatch_is_not_read_as_no_driver(tmp_path):
    """nvidia-smi's "Driver/library version mismatch" is a driver updated but not reloaded: a driver is there."""
    rc = _diagnose(tmp_path, "Failed to initialize NVML: Driver/library version mismatch\n" + INSUFFICIENT)
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch, (rc and rc.cause, rc and rc.why)


def test_paddle_lites_unread_parameter_version_is_the_models_options_with_a_wrong_path_near(tmp_path):
    """Paddle-Lite's LoadModel reads each parameter through an ifstream it never checks it opened. Of the corpus's
    three such logs, two gave a combined model with --model_dir (the maintainers' answers), one a wrong path."""
    rc = _diagnose(tmp_path, GLOG_PREFIX + "I0302 09:11:40.101233  7731 cxx_api.cc:251] Load model from file.\n"
                                           "F0302 09:11:40.120553  7731 model_parser.cc:63] Check failed: version "
                                           "== 0U (21845 vs. 0) Only version 0 is supported\n"
                                           "*** Check failure stack trace: ***\nAborted\n")
    assert rc is not None and rc.cause == CauseId.config_error, (rc and rc.cause, rc and rc.why)
    assert rc.confidence == "medium" and rc.alternatives[0].cause == CauseId.file_not_found, rc.alternatives


def test_fluids_tensor_version_check_is_not_read_as_paddle_lites_missing_file(tmp_path):
    """fluid's load op checks that it opened the file first: its version check is not Paddle-Lite's row."""
    rc = _diagnose(tmp_path, "paddle.fluid.core.EnforceNotMet: Only version 0 is supported at "
                             "[/paddle/paddle/fluid/framework/lod_tensor.cc:246]\n")
    assert rc is None or rc.code != "lite_param_unopened", rc.code
