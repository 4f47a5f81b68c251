"""Issue 29, eighth session: readings added after the first look at batches 52 and 53. Every line follows the
emitting code's template cited in the signatures (Paddle-TRT, TensorRT, FastDeploy, onnx, paddle2onnx, pip, bash,
CPython, Paddle 1.x); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of
_TB = 'Traceback (most recent call last):\n  File "infer.py", line 12, in <module>\n    predictor = create_predictor(config)\n'


@pytest.mark.parametrize("line", [
    "ValueError: (InvalidArgument) some trt inputs dynamic shape info not set, check the INFO log above for more "
    "details.",
    "ValueError: (InvalidArgument) The input [conv2d_3.tmp_1] shape of trt subgraph is [-1,64,-1,-1], please enable "
    "trt dynamic_shape mode by SetTRTDynamicShapeInfo.",
    "InvalidArgumentError: TRT runtime input shape of x is invalid. Expect runtime input shape to be within min/max "
    "input shape configured in SetTRTDynamicShapeInfo(),but got runtime input shape = [1, 3, 960, 1600], min input "
    "shape = [1, 3, 32, 32], max input shape = [1, 3, 960, 960].",
])
def test_paddle_trts_dynamic_shape_checks_are_the_predictors_config(tmp_path, line):
    rc = _diagnose(tmp_path, _TB + line + "\n")
    assert rc.cause == CauseId.config_error and rc.confidence == "high", (rc.cause, rc.confidence, rc.why)


def test_a_tensorrt_engine_cache_from_another_release_is_a_library_version_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "[E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization "
                             "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does "
                             "not match. Note: Current Version: 236, Serialized Engine Version: 213)\n"
                             "[E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine "
                             "deserialization failed.)\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_fastdeploy_without_a_backend_for_the_device_is_the_runtime_options_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/fastdeploy_model.cc(250)::CreateGpuBackend\tFound no valid backend "
                             "for model: PPYOLOE\n[ERROR] fastdeploy/vision/detection/ppdet/base.cc(40)::Initialize\t"
                             "Failed to initialize fastdeploy backend.\n")
    assert rc.cause == CauseId.config_error and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_onnxs_checker_older_than_the_model_is_a_dependency_version(tmp_path):
    rc = _diagnose(tmp_path, _TB + "onnx.onnx_cpp2py_export.checker.ValidationError: Your model ir_version 9 is "
                                   "higher than the checker's (8).\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_paddle2onnx_missing_an_ops_attribute_is_a_version_misfit_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Start to parsing Paddle model...\n[ERROR] Cannot found attribute "
                             "data_format in op: pool2d\nAborted (core dumped)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_pips_failed_source_build_is_a_version_without_a_wheel_not_the_missing_build_tool(tmp_path):
    rc = _diagnose(tmp_path, "  Running setup.py install for lap ... error\n  error: command 'gcc' failed: No such "
                             "file or directory\n  ERROR: Failed building wheel for lap\nerror: legacy-install-failure\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_an_extension_built_for_another_python_is_a_dependency_version(tmp_path):
    for sym in ("PyCMethod_New", "_PyThreadState_UncheckedGet"):
        rc = _diagnose(tmp_path, _TB + f"ImportError: /opt/lib/paddlelite/lite.so: undefined symbol: {sym}\n")
        assert rc.cause == CauseId.dependency_version_mismatch, (sym, rc.cause, rc.why)


@pytest.mark.parametrize("line", ["./run.sh：行 12:  4242 段错误               ./demo model.nb",
                                  "提示：非法指令 (核心已转储)"])
def test_a_retyped_chinese_shell_crash_report_is_still_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, "python housing.py\n" + line + "\n")
    assert rc is not None and rc.cause == CauseId.segfault, (line, rc)


def test_an_error_quoted_inside_a_chinese_sentence_is_read_as_that_error(tmp_path):
    rc = _diagnose(tmp_path, "你好，我在运行predict时，出现ModuleNotFoundError: No module named 'paddle.fluid'，请问怎么办\n")
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, rc
    assert "No module named 'paddle.fluid'" in rc.evidence[0].text


def test_a_sentence_naming_an_error_without_quoting_it_is_not_an_error(tmp_path):
    rc = _diagnose(tmp_path, "我想问一下ValueError这个问题怎么解决\n")
    assert rc is None or rc.cause != CauseId.python_exception, rc


def test_a_paddle_hint_alone_on_its_line_is_a_failed_check(tmp_path):
    rc = _diagnose(tmp_path, "训练时报错\n[Hint: Expected labels_dims[axis] == 1UL, but received labels_dims[axis]:3 "
                             "!= 1UL:1.]\n")
    assert rc is not None and rc.cause == CauseId.python_exception, rc


def test_fluids_gpu_pool_larger_than_the_free_memory_is_gpu_oom(tmp_path):
    rc = _diagnose(tmp_path, "C++ Callstacks: \nEnforce failed. Expected allocating <= available, but received "
                             "allocating:11177147796 > available:996212480.\nInsufficient GPU memory to allocation. at "
                             "[/paddle/paddle/fluid/platform/gpu_info.cc:216]\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


def test_an_optimizer_accumulator_of_another_shape_is_a_checkpoint_of_another_model(tmp_path):
    rc = _diagnose(tmp_path, "C++ Callstacks: \nEnforce failed. Expected param_dim == ctx->GetInputDim(\"Velocity\"), "
                             "but received param_dim:1000 != ctx->GetInputDim(\"Velocity\"):10.\nParam and Velocity "
                             "of MomentumOp should have the same dimension. at [/paddle/paddle/fluid/operators/"
                             "optimizers/momentum_op.h:65]\n")
    assert rc.cause == CauseId.state_dict_shape_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_a_library_that_is_not_cudas_missing_is_a_missing_file_and_cudas_its_own_cause(tmp_path):
    rc = _diagnose(tmp_path, "Failed to load the nnadapter device HAL library for 'kunlunxin_xtcl' from "
                             "libkunlunxin_xtcl.so, libxpuapi.so: cannot open shared object file: No such file or "
                             "directory\n")
    assert rc.confidence == "medium" and rc.cause == CauseId.file_not_found, (rc.cause, rc.confidence)
    cuda = _diagnose(tmp_path, "Failed to load the nnadapter device HAL library for 'nvidia_tensorrt' from "
                               "libnvidia_tensorrt.so, libnvinfer.so.8: cannot open shared object file\n")
    assert cuda.cause == CauseId.cuda_cudnn_mismatch and cuda.confidence == "high", (cuda.cause, cuda.confidence)


def test_a_name_the_code_does_not_know_may_be_another_releases(tmp_path):
    """Raised from a source tree, not an installed package: a configured value, with another release as the
    first alternative."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/work/PaddleOCR/tools/program.py", line 43, '
                             'in parse\n    raise ValueError(f"Unknown argument: {name}")\nValueError: Unknown argument: '
                             "use_gpu\n")
    assert rc.cause == CauseId.config_error and rc.alternatives[0].cause == CauseId.paddle_api_mismatch, (
        rc.cause, rc.alternatives)


def test_a_cause_line_the_process_went_on_past_is_medium_when_it_died_importing(tmp_path):
    """A notebook's failed `cd` (IPython prints errno's text), then the script dies importing a package that
    is not installed: the missing directory does not explain the import."""
    text = ("[Errno 2] No such file or directory: 'applications/'\n/root/work\nTraceback (most recent call last):\n"
            '  File "tools/run.py", line 18, in <module>\n    from ppgan.apps import Predictor\n'
            "ModuleNotFoundError: No module named 'ppgan'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.python_exception


def test_a_cause_line_explained_by_the_later_exception_keeps_its_confidence(tmp_path):
    """The DataLoader's worker died of a bus error; the main process's queue.Empty follows from it."""
    text = ("ERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient shared "
            "memory (shm), please check whether use_shared_memory is set and storage space in /dev/shm is enough\n"
            "Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n    for data in loader:\n"
            "_queue.Empty\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.shm_too_small and rc.confidence == "high", (rc.cause, rc.confidence)


def test_a_module_python_cannot_find_keeps_a_missing_package_as_the_first_alternative(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "run.py", line 19, in <module>\n'
                             "    from ppfleetx.distributed import dp\nModuleNotFoundError: No module named 'ppfleetx'\n")
    assert rc.cause == CauseId.python_exception and rc.alternatives[0].cause == CauseId.dependency_version_mismatch


# --- after the first look at batches 54 and 55 ------------------------------------------------------------------


def test_a_gpu_kernels_own_assertion_is_a_cuda_failure_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "Error: /paddle/paddle/phi/kernels/funcs/gather.cu.h:68 Assertion `index_value >= 0 && "
                             "index_value < input_dims[j]` failed. The index is out of bounds, please check whether the "
                             "dimensions of index and input meet the requirements.\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_fluids_failed_cuda_call_with_its_runtime_docs_link_is_a_cuda_error(tmp_path):
    rc = _diagnose(tmp_path, "Error: cudaMemcpy failed in paddle::platform::GpuMemcpySync (0x7f00 -> 0x7f01, length: "
                             "4) error code : 700, Please see detail in https://docs.nvidia.com/cuda/cuda-runtime-api/"
                             "group__CUDART__TYPES.html: an illegal memory access was encountered at (/paddle/paddle/"
                             "fluid/platform/gpu_info.cc:280)\n")
    assert rc.cause == CauseId.cuda_error_other, (rc.cause, rc.why)


def test_the_v2_trainers_gpu_allocator_failing_is_gpu_oom(tmp_path):
    rc = _diagnose(tmp_path, "F0101 10:00:00.000000  4242 Allocator.h:89] Check failed: ptr Fail to allocate GPU "
                             "memory 1048576 bytes\n*** Check failure stack trace: ***\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


def test_an_ascend_device_the_runtime_cannot_open_is_no_device_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "Call aclrtSetDevice(device->id) failed : 107001 at file /work/PaddleCustomDevice/backends/"
                             "npu/runtime/runtime.cc line 430\n")
    assert rc.cause == CauseId.device_not_found and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_paddle_lites_opt_given_a_file_without_a_program_is_the_wrong_input(tmp_path):
    rc = _diagnose(tmp_path, "[F  1/ 2  3: 4: 5.678 .../lite/core/model/general/program_desc.cc:51 GetBlock] Check "
                             "failed: (idx < static_cast<int32_t>(BlocksSize())): 0!<0 idx >= blocks.size()\n")
    assert rc.cause == CauseId.config_error and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_an_option_the_shell_ran_as_a_command_is_a_broken_line_continuation(tmp_path):
    rc = _diagnose(tmp_path, "train.py: error: the following arguments are required: --data_dir\n"
                             "run.sh: line 4: --data_dir=./data: No such file or directory\n")
    assert rc.cause == CauseId.config_error and rc.code == "shell_option_run_as_command", (rc.cause, rc.code)


def test_a_path_that_prints_as_none_is_a_setting_never_given(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "tools/infer.py", line 20, in <module>\n'
                             '    files = get_image_file_list(args.image_dir)\n  File "ppocr/utils/utility.py", line 80, '
                             'in get_image_file_list\n    raise Exception("not found any img file in {}".format(img_file))'
                             "\nException: not found any img file in None\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_a_decoders_index_past_its_character_list_is_a_dictionary_that_does_not_fit(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/work/PaddleOCR/ppocr/postprocess/'
                             'rec_postprocess.py", line 89, in decode\n    idx])])\nIndexError: list index out of range\n')
    assert rc.cause == CauseId.config_error and rc.confidence == "medium", (rc.cause, rc.confidence)
    other = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
                                "    x = batch[3]\nIndexError: list index out of range\n")
    assert other.cause == CauseId.python_exception, other.cause


def test_ipython8_frames_show_which_installed_library_imports_what_another_lacks(tmp_path):
    rc = _diagnose(tmp_path, "File ~/external-libraries/ppdiffusers/utils/download_utils.py:34\n     33 import os\n"
                             "---> 34 from huggingface_hub.file_download import _chmod_and_replace\n\nImportError: cannot "
                             "import name '_chmod_and_replace' from 'huggingface_hub.file_download' (/home/aistudio/"
                             "external-libraries/huggingface_hub/file_download.py)\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_a_version_warning_does_not_explain_a_pure_python_error(tmp_path):
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  42 gpu_resources.cc:164] device: 0, cuDNN Version: 8.1.\n"
                             "W0101 10:00:00.000000  42 gpu_resources.cc:196] WARNING: device: 0. The installed Paddle "
                             "is compiled with CUDNN 8.2, but CUDNN version in your machine is 8.1, which may cause "
                             "serious incompatible bug. Please recompile or reinstall Paddle with compatible CUDNN "
                             "version.\nTraceback (most recent call last):\n  File \"demo.py\", line 9, in <module>\n"
                             "    out = F.interpolate(x, 512)\nTypeError: 'int' object is not iterable\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


# --- after the first look at batches 56 and 57 ------------------------------------------------------------------


@pytest.mark.parametrize("line", ["ModuleNotFoundError: No module named 'skimage'",
                                  "ModuleNotFoundError: No module named 'PyQt5.QtWidgets'",
                                  "qtpy.QtBindingsNotFoundError: No Qt bindings could be found"])
def test_a_third_party_package_not_installed_is_a_dependency_at_medium(tmp_path, line):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "PPOCRLabel.py", line 20, in <module>\n'
                             f"    import x\n{line}\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence == "medium", (line, rc.cause)


def test_a_users_own_module_not_found_stays_the_generic_exception(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
                             "    from mytools.infer import run\nModuleNotFoundError: No module named 'mytools'\n")
    assert rc.cause == CauseId.python_exception, rc.cause


def test_a_launch_failure_alone_is_a_cuda_failure_at_medium(tmp_path):
    """CUDA error 719: a kernel trapped; a device-side assertion on data ends the same way (codes.toml [unsure])."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 80, in <module>\n'
                             "    loss.backward()\nOSError: (External) CUDA error(719), unspecified launch failure.\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_an_installed_suites_registry_lacking_a_name_is_another_release_at_medium(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "uie.py", line 4, in <module>\n'
                             "    ie = Taskflow('information_extraction', schema=schema)\n  File \"/usr/lib/python3.8/"
                             "site-packages/paddlenlp/taskflow/taskflow.py\", line 410, in __init__\n    assert task in "
                             "TASKS, \"The task name:{} is not in Taskflow list, please check your task name.\".format("
                             "task)\nAssertionError: The task name:information_extraction is not in Taskflow list, please "
                             "check your task name.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.why)


def test_the_legacy_paddle2onnx_listing_ops_it_cannot_convert_is_the_converters_release(tmp_path):
    rc = _diagnose(tmp_path, "NotImplementedError: \nThere's 2 ops are not supported yet\n=========== pad3d ===========\n"
                             "=========== roll ===========\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.why)


def test_an_installed_packages_argument_check_is_another_release_even_without_the_callers_frame(tmp_path):
    rc = _diagnose(tmp_path, 'File "/opt/py/lib/python3.11/site-packages/paddleocr/_common_args.py", line 43, in '
                             'parse_common_args\n    raise ValueError(f"Unknown argument: {name}")\nValueError: Unknown '
                             "argument: use_angle_cls\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_a_warning_that_an_optional_package_is_missing_does_not_outrank_the_error(tmp_path):
    rc = _diagnose(tmp_path, "2020-09-08 17:05:49,662-WARNING: If you want to use MOT, please pip install lap first. "
                             "Now states: No module named 'lap'\nTraceback (most recent call last):\n  File \"train.py\", "
                             "line 9, in <module>\n    x = cfg['TrainReader']\nKeyError: 'TrainReader'\n")
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause", [
    # "paddle.v2" from its first part: no paddle found at all (Paddle not installed for this interpreter)
    ("ImportError: No module named paddle.v2", CauseId.python_exception),
    ("ImportError: No module named fluid.executor", CauseId.paddle_api_mismatch),
    ("ImportError: No module named cv2", CauseId.dependency_version_mismatch),
    ("ImportError: No module named mytools", CauseId.python_exception)])
def test_python2s_unquoted_module_names_are_read_like_python3s(tmp_path, line, cause):
    """Python 2.7's ImportError names the module unquoted, from its first missing part (Python/import.c)."""
    rc = _diagnose(tmp_path, f'Traceback (most recent call last):\n  File "train.py", line 2, in <module>\n    import x\n{line}\n')
    assert rc.cause == cause, (line, rc.cause)


def test_a_weights_file_that_is_not_hdf5_is_a_damaged_checkpoint_at_medium(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "convert.py", line 5, in <module>\n'
                             "    model = load_model('weights.h5')\nOSError: Unable to open file (file signature not found)\n")
    assert rc.cause == CauseId.checkpoint_corrupt and rc.confidence == "medium", (rc.cause, rc.confidence)



def test_a_users_file_shadowing_a_package_is_not_a_package_to_install(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\n    from '
                             "datasets.arrow_dataset import Dataset\nModuleNotFoundError: No module named "
                             "'datasets.arrow_dataset'; 'datasets' is not a package\n")
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)
