"""Issue 29, gathered batch 14: Paddle's load-time shape checks, a library's FileNotFoundError subclass,
and the GPU build's no-GPU warnings (init.cc's, framework.py's CPU fallback) against the CUDA status of
the failed device query, CUDA's initialisation error near a version mismatch (each case is a wording of
Paddle or of a suite; the threads they came from are named beside each)."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    # fluid 1.x io.load_vars (PaddleSpeech#450), with Python 2's long-int shapes
    "RuntimeError: Shape not matching: the Program requires a parameter with a shape of ((4096L, 1133L)), while the "
    "loaded parameter (namely [ layer_5_fc_weight ]) has a shape of  ((4096, 5304)).",
    # 1.8-3.x static io.load_vars
    "RuntimeError: Variable's shape does not match, the Program requires a parameter with the shape of ((4299,)), "
    "while the loaded parameter (namely [ layer_5_fc_bias ]) has a shape of  ((4334,)).",
    # 2.x-3.x static io.set_program_state / load
    "RuntimeError: Shape mismatch, program needs a parameter with shape ((10, 2)), but the loaded parameter "
    "('fc_0.w_0') has a shape of ((10, 5)).",
    # dygraph Tensor.set_value under set_state_dict (yeyupiaoling/PPASR#30)
    "AssertionError: Variable Shape not match, Variable [ linear_0.w_0_moment1_0 ] need tensor with shape "
    "(1024, 5451) but load set tensor with shape (1024, 6436)",
])
def test_a_loaders_shape_check_alone_names_the_checkpoint_mismatch(tmp_path, line):
    """Only the functions that copy saved tensors into parameters raise these: no frame is needed."""
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.state_dict_shape_mismatch


def test_a_feed_shape_check_is_not_a_checkpoint_mismatch(tmp_path):
    """data_feeder's "Shape not match. What is defined in data layer is ..." is about fed data."""
    rc = _diagnose(tmp_path, "ValueError: Shape not match. What is defined in data layer is [-1, 1], but receive "
                   "[402]\n")
    assert rc.cause != CauseId.state_dict_shape_mismatch


def test_a_library_exception_named_after_filenotfounderror_is_a_missing_file(tmp_path):
    """PaddleX 3.x's dataset check raises DatasetFileNotFoundError, the path on the next line
    (PaddleX#2820)."""
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n"
                   '  File "/home/aistudio/PaddleX/paddlex/modules/base/dataset_checker/dataset_checker.py", line 82, '
                   "in check\n    attrs = self.check_dataset(dataset_dir)\n"
                   "paddlex.utils.errors.dataset_checker.DatasetFileNotFoundError: Check dataset failed. We "
                   "encountered the following error:\n  /home/aistudio/data/images/..\\0\\a.jpg does not exist.\n")
    assert rc.cause == CauseId.file_not_found


def test_paddles_own_notfound_error_is_not_a_missing_file(tmp_path):
    """Paddle's NotFoundError (an operator or variable it cannot find) is not named after FileNotFoundError."""
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n"
                   '  File "train.py", line 3, in <module>\n    main()\n'
                   "NotFoundError: (NotFound) Operator (fused_op) is not registered.\n")
    assert rc.cause != CauseId.file_not_found


def test_no_gpu_found_does_not_explain_the_cuda_status_of_the_failed_device_query(tmp_path):
    """init.cc prints the warning in the catch of the device query; the status printed after it says
    why (error 999: the driver in a bad state, PaddleSeg#964)."""
    rc = _diagnose(tmp_path, "W0903 14:54:33.872156 29663 init.cc:141] Compiled with WITH_GPU, but no GPU found in "
                   "runtime.\nWARNING:root:You are using GPU version PaddlePaddle, but there is no GPU detected on "
                   "your machine. Maybe CUDA devices is not set properly.\n Original Error is (External)  Cuda "
                   "error(999), unknown error.\n")
    assert rc.cause == CauseId.cuda_error_other


def test_no_gpu_found_still_explains_a_later_python_error(tmp_path):
    """Without a CUDA status of its own, the later error is what no usable GPU leads to."""
    rc = _diagnose(tmp_path, "W0903 14:54:33.872156 29663 init.cc:141] Compiled with WITH_GPU, but no GPU found in "
                   "runtime.\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                   "    main()\nRuntimeError: the model could not be placed\n")
    assert rc.cause == CauseId.device_not_found


@pytest.mark.parametrize("warning", [
    # 2.0-3.x framework.py _current_expected_place (PaddleX#952, PaddleSeg#964)
    r"F:\PaddleX\paddle\fluid\framework.py:301: UserWarning: You are using GPU version Paddle, but your CUDA device "
    "is not set properly. CPU device will be used by default.",
    # 1.8-2.4 fluid/install_check.py
    "WARNING:root:You are using GPU version Paddle Fluid, But Your CUDA Device is not set properly",
])
def test_the_gpu_builds_cpu_fallback_warning_explains_a_later_python_error(tmp_path, warning):
    """Paddle warns so when its GPU build counts no CUDA device (or the count raised) and falls back to
    the CPU: the same no usable GPU as init.cc's warning."""
    rc = _diagnose(tmp_path, warning + "\nTraceback (most recent call last):\n  File \"train.py\", line 3, in "
                   "<module>\n    main()\nRuntimeError: the model could not be placed\n")
    assert rc.cause == CauseId.device_not_found


def test_the_cpu_fallback_warning_does_not_explain_the_cuda_status_after_it(tmp_path):
    """The status printed after it (999: the driver in a bad state, PaddleSeg#964) says why the count failed."""
    rc = _diagnose(tmp_path, "/home/u/venv3/lib/python3.6/site-packages/paddle/fluid/framework.py:301: UserWarning: "
                   "You are using GPU version Paddle, but your CUDA device is not set properly. CPU device will be "
                   "used by default.\nOSError: (External) Cuda error(999), unknown error.\n  [Advise: An unknown "
                   "internal error has occurred. ] (at /paddle/paddle/fluid/platform/gpu_info.cc:99)\n")
    assert rc.cause == CauseId.cuda_error_other


@pytest.mark.parametrize("line", [
    # PaddleX#1428 (the GUI needs CUDA >= 11 / cuDNN >= 8): the hint line alone
    r"[Hint: 'cudaErrorInitializationError'. The API call failed because the CUDA driver and runtime could not be "
    r"initialized. ] (at ..\paddle\fluid\platform\gpu_info.cc:99)",
    "OSError: (External)  Cuda error(3), initialization error.",
])
def test_cudas_initialisation_error_is_near_a_version_mismatch(tmp_path, line):
    """CUDA's error 3 is printed for a driver or CUDA/cuDNN that does not match the build as for a fork:
    the verdict is medium and the mismatch comes first among the alternatives."""
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.cuda_error_other, "medium")
    assert rc.alternatives[0].cause == CauseId.cuda_cudnn_mismatch and rc.alternatives[0].confirm


def test_an_illegal_memory_access_is_not_near_a_version_mismatch(tmp_path):
    rc = _diagnose(tmp_path, "OSError: (External)  Cuda error(700), an illegal memory access was encountered.\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.cuda_error_other, "high")
