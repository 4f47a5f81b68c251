"""Issue 29, after gathered batch 31: Paddle-Lite's two checks when it builds an op's kernel from the
kernel type opt wrote into the model (lite/core/program.cc RuntimeProgram: no kernel of the op at the
model's place, or kernels there but none with the model's alias), and the v1 parameter server's warning
for a port that got no parameter block (ParameterServer2::setParameter). Every line follows the emitting
code's template (cited in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

GLOG_PREFIX = "WARNING: Logging before InitGoogleLogging() is written to STDERR\n"
VERSION_WARNING = ("W0305 17:39:47.355120 13085 model_parser.cc:955] \nwarning: the version of opt that transformed "
                   "this model is not consistent with current Paddle-Lite version.\n      version of opt:v2.9\n"
                   "      version of current Paddle-Lite:v2.10\n")


@pytest.mark.parametrize("check", [
    "F0305 17:39:47.359110 13085 program.cc:361] Check failed: it != kernels.end(): ",
    "[F  3/ 5 17:39:47.359 /work/Paddle-Lite/lite/core/program.cc RuntimeProgram:214] Check failed: it != "
    "kernels.end(): ",
])
def test_a_kernel_alias_the_library_lacks_is_a_model_from_another_lite_build(tmp_path, check):
    rc = root_cause_of(tmp_path, GLOG_PREFIX + VERSION_WARNING + check + "\n*** Check failure stack trace: ***\n"
                                                                           "Aborted (core dumped)\n")
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence == "medium", rc.confidence


def test_the_crash_after_a_missing_kernel_alias_is_what_the_alias_led_to(tmp_path):
    """The runtime's fatal check, then the process's SIGSEGV: the check says why, the crash does not."""
    rc = root_cause_of(tmp_path, "[F  3/ 5 17:39:47.359 /work/Paddle-Lite/lite/core/program.cc RuntimeProgram:214] "
                                 "Check failed: it != kernels.end(): \nA/libc: Fatal signal 11 (SIGSEGV), code 1 "
                                 "(SEGV_MAPERR), fault addr 0x6e72656b203520 in tid 13085 (Predictor Worke), pid "
                                 "13026 (e.lite.demo.ocr)\n")
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)


_NO_KERNEL = ("F0305 17:39:47.360001 13085 program.cc:346] Check failed: kernels.size() > 0 (0 vs. 0) \nError: This "
              "model is not supported, because kernel for 'depthwise_conv2d' is not supported by Paddle-Lite.\n"
              "*** Check failure stack trace: ***\nAborted\n")


def test_no_kernel_of_the_op_for_the_models_target_is_how_the_model_was_converted(tmp_path):
    """No kernel at all at the model's place, with no word of another opt release: the conversion's targets."""
    rc = root_cause_of(tmp_path, GLOG_PREFIX + _NO_KERNEL)
    assert rc is not None and rc.cause == CauseId.config_error, (rc and rc.cause, rc and rc.why)
    assert rc.confidence == "medium", rc.confidence


def test_no_kernel_after_the_warning_of_another_opt_release_is_the_two_releases(tmp_path):
    """The loader warned that another opt release made the model (batch53's 5343, batch72's 7210): the library
    and the opt do not fit, unless the library also said it has no OpenCL for an OpenCL model (batch17's 1713)."""
    rc = root_cause_of(tmp_path, GLOG_PREFIX + VERSION_WARNING + _NO_KERNEL)
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence == "medium" and rc.alternatives[0].cause == CauseId.config_error, rc.alternatives
    rc = root_cause_of(tmp_path, "is_opencl_backend_valid:0\nUnsupport opencl nb model.\n" + GLOG_PREFIX
                       + VERSION_WARNING + _NO_KERNEL)
    assert rc is not None and rc.cause == CauseId.config_error, (rc and rc.cause, rc and rc.why)


def test_another_failed_check_of_paddle_lites_program_is_not_a_kernel_alias(tmp_path):
    rc = root_cause_of(tmp_path, GLOG_PREFIX + "F0305 17:39:47.359110 13085 op_lite.cc:42] Check failed: it != "
                                              "outputs_.end(): \nAborted\n")
    assert rc is None or rc.code != "lite_kernel_alias_missing", (rc.cause, rc.why)


def test_a_pserver_port_without_parameters_is_the_launchs_port_count(tmp_path):
    """The v1 pserver's only sign before the job hangs: a warning, so never high."""
    rc = root_cause_of(tmp_path, "I0522 12:00:01.120000 35864 ParameterServer2.cpp:92] pserver listening on 7164\n"
                                 "W0522 12:00:09.495564 35864 ParameterServer2.cpp:269] --ports_num or "
                                 "--ports_num_for_sparse might be too large, or total dense parameter size or sparse "
                                 "parameters size might be too small, this psever doesn't store any parameter.\n")
    assert rc is not None and rc.cause == CauseId.config_error, (rc and rc.cause, rc and rc.why)
    assert rc.confidence == "low", rc.confidence
