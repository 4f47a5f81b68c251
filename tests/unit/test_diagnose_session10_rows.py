"""Issue 29, tenth session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "RuntimeError: CUDA error: out of memory",
    "cupy.cuda.driver.CUDADriverError: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
    "OSError: (External) CUDNN error(2), CUDNN_STATUS_ALLOC_FAILED.",
])
def test_cuda_stack_out_of_memory_statuses_are_gpu_memory_not_a_generic_cuda_error(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.code, rc.why)


def test_the_1x_loaders_warning_that_it_cannot_find_a_cuda_library_names_the_failure_after_it(tmp_path):
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  1234 dynamic_loader.cc:118] Can not find library: libcudnn.so. The "
                             "process maybe hang. Please try to add the lib path to LD_LIBRARY_PATH.\n"
                             "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                             "    exe.run(startup)\npaddle.fluid.core_avx.EnforceNotMet: Invoke operator conv2d error.\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and "(libcudnn.so)" in rc.message, (rc.cause, rc.message)


@pytest.mark.parametrize("path, installed", [
    ("/home/u/PaddleDetection/ppdet/modeling/heads/yolo_head.py", False),
    ("C:\\\\work\\\\PaddleOCR-release\\\\ppocr\\\\modeling\\\\heads\\\\det_db_head.py", False),
    ("/usr/lib/python3.9/site-packages/paddlenlp/transformers/model_utils.py", True),
])
def test_a_suites_own_call_that_does_not_fit_its_callee_is_another_release_of_what_it_calls(tmp_path, path, installed):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"tools/train.py\", line 3, in <module>\n"
                             f"    main()\n  File \"{path}\", line 330, in get_prediction\n    out = op(x, scale=s)\n"
                             "TypeError: yolo_box() got an unexpected keyword argument 'scale'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert ("installed" in rc.why) == installed, rc.why


def test_the_same_keyword_misfit_in_the_users_own_file_is_not_read_as_a_suites(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/home/u/proj/ppdet_tools/run.py\", line 3, in "
                             "<module>\n    helper(x, scale=s)\nTypeError: helper() got an unexpected keyword argument "
                             "'scale'\n")
    assert rc.code != "call", (rc.cause, rc.code, rc.why)


def test_a_fluid_optimizer_without_parameters_under_dynamic_graphs_is_1x_code_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: parameter_list argument given to the Optimizer should not be None in "
                             "dygraph mode.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("part", ["text", "vision"])
def test_fastdeploy_built_without_a_part_is_its_build_option(tmp_path, part):
    rc = _diagnose(tmp_path, f"AttributeError: module 'fastdeploy.c_lib_wrap' has no attribute '{part}'\n")
    assert rc.cause == CauseId.config_error and rc.code == "fastdeploy_part_not_built", (rc.cause, rc.code)


def test_fastdeploy_lacking_another_name_is_not_read_as_a_missing_part(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: module 'fastdeploy.c_lib_wrap' has no attribute 'RuntimeOption'\n")
    assert rc is None or rc.code != "fastdeploy_part_not_built"


def test_the_static_feeders_reshape_failure_is_data_the_program_input_does_not_take(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/py/site-packages/paddle/fluid/data_feeder.py\", "
                             "line 206, in done\n    arr = arr.reshape(self.shape)\nValueError: cannot reshape array of "
                             "size 150528 into shape (3,300,300)\n")
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)


def test_the_same_reshape_failure_in_the_users_code_stays_the_users(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"prep.py\", line 6, in <module>\n"
                             "    a = a.reshape((3, 4))\nValueError: cannot reshape array of size 10 into shape (3,4)\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


@pytest.mark.parametrize("cls", ["Tensor", "Variable", "VarBase", "Value"])
def test_a_paddle_tensor_lacking_an_attribute_is_code_of_another_version_at_medium(tmp_path, cls):
    rc = _diagnose(tmp_path, f"AttributeError: '{cls}' object has no attribute 'numpy'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_a_fastdeploy_backend_without_the_models_input_type_is_a_release_that_does_not_fit(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/runtime/backends/ort/utils.cc(30)::GetOrtDtype\tUnrecognized fastdeply "
                             "data type:FDDataType::UINT8.\nRuntimeError: tensor type 0 is not supported\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)
