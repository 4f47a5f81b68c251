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


@pytest.mark.parametrize("line", [
    "Unhandled exception at 0x00007FFB037684F6 (opencv_world440.dll) in ocr_system.exe: 0xC0000005: Access violation "
    "reading location 0x0000000000000000.",
    "0x00007FFB037684F6 (opencv_world440.dll) (demo.exe 中)处有未经处理的异常: 0xC0000005: 读取位置 0x0000000000000000 "
    "时发生访问冲突。",
])
def test_visual_studios_report_of_an_unhandled_native_fault_is_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault and rc.code == "msvc_debugger_fault", (rc.cause, rc.code)
    assert rc.confidence.value == "high", rc.confidence


@pytest.mark.parametrize("line", [
    "Exception thrown at 0x00007FF6A1B2C3D4 (paddle_inference.dll) in demo.exe: 0xC00000FD: Stack overflow "
    "(parameters: 0x0000000000000001, 0x000000C1A5E03FF8).",
    "0x000007FEAECC3391 (paddle_inference.dll)处(位于 demo.exe 中)引发的异常: 0xC0000091: Floating-point overflow",
])
def test_a_first_chance_fault_alone_is_a_native_crash_at_low(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault and rc.code == "msvc_debugger_first_chance", (rc.cause, rc.code)
    assert rc.confidence.value == "low", rc.confidence


def test_a_first_chance_fault_does_not_outweigh_the_python_error_after_it(tmp_path):
    text = ("Exception thrown at 0x00007FFB1A2B3C4D (nvcuda64.dll) in demo.exe: 0xC0000005: Access violation reading "
            'location 0x10.\nTraceback (most recent call last):\n  File "train.py", line 3, in <module>\n    x = d["a"]\n'
            "KeyError: 'a'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.code != "msvc_debugger_first_chance", (rc.cause, rc.code)


def test_a_thrown_cpp_exception_under_the_debugger_is_not_a_crash(tmp_path):
    # 0xE06D7363 is any C++ throw, first chance: it may be caught
    rc = _diagnose(tmp_path, "Exception thrown at 0x00007FFB83E4D759 (KernelBase.dll) in demo.exe: Microsoft C++ "
                             "exception: cv::Exception at memory location 0x000000F9276FE930.\n")
    assert rc is None or rc.code != "msvc_debugger_fault", (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "ImportError: DLL load failed while importing paddle2onnx_cpp2py_export: The specified procedure could not be found.",
    "ImportError: DLL load failed while importing fastdeploy_main: 找不到指定的程序。",
])
def test_an_extension_whose_dll_lacks_a_procedure_is_a_dll_of_another_version(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "extension_dll_entry_missing", (rc.cause, rc.code)
    assert rc.confidence.value == "medium", rc.confidence


def test_paddles_core_lacking_a_procedure_stays_the_core_reading(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: DLL load failed while importing libpaddle: The specified procedure could not "
                             "be found.\n")
    assert rc.code != "extension_dll_entry_missing" and rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "AttributeError: module 'paddle.fluid.core_avx.ops' has no attribute 'sync_batch_norm'",
    "AttributeError: module 'paddle._C_ops' has no attribute 'sync_batch_norm_'",
    "RuntimeError: (NotFound) The kernel with key (CPU, NCHW, float32) of kernel `sync_batch_norm` is not registered. "
    "Selected wrong Backend `CPU`. Paddle support following Backends: GPU.",
])
def test_synchronized_batch_norm_without_a_gpu_kernel_is_the_config(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "sync_batch_norm_without_gpu", (rc.cause, rc.code)


def test_another_op_missing_from_the_core_stays_another_release(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: module 'paddle._C_ops' has no attribute 'fused_rotary_position_embedding'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)


def test_a_version_check_asking_for_a_pre_release_is_read(tmp_path):
    rc = _diagnose(tmp_path, "Exception: PaddlePaddle version 2.0.0-rc0 or higher is required, or a suitable develop "
                             "version is satisfied as well. \n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "paddle_version_required", (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "Exception: There's no attribute PPYOLOv2 in paddlex.cv.models",
    "Your running script needs PaddleX<2.0.0, please refer to https://github.com/PaddlePaddle/PaddleX to solve this issue.",
])
def test_a_paddlex_model_or_script_of_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "paddlex_release_mismatch", (rc.cause, rc.code)


def test_paddles_own_module_importing_its_own_missing_module_is_an_incomplete_paddle(tmp_path):
    text = ('Traceback (most recent call last):\n  File "./train.py", line 3, in <module>\n    import paddle.v2 as paddle\n'
            '  File "/src/Paddle/build/python/paddle/v2/__init__.py", line 15, in <module>\n    import optimizer\n'
            '  File "/src/Paddle/build/python/paddle/proto/__init__.py", line 15, in <module>\n'
            "    from paddle.proto.TrainerConfig_pb2 import OptimizationConfig, TrainerConfig\n"
            "ImportError: No module named TrainerConfig_pb2\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception and "build" in rc.why, (rc.cause, rc.code, rc.why)


def test_the_users_import_of_a_name_paddle_lacks_stays_another_release(tmp_path):
    text = ('Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
            "    from paddle.distributed import fleet_v9\nImportError: cannot import name 'fleet_v9' from "
            "'paddle.distributed' (/usr/lib/python3.10/site-packages/paddle/distributed/__init__.py)\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ('/paddle/paddle/fluid/platform/nccl_test.cu(92): error: no instance of function template '
     '"paddle::platform::dynload::DynLoad__ncclGroupStart::operator()" matches the argument list',
     CauseId.nccl_version_mismatch),
    ('/src/paddle/phi/kernels/gpu/conv_kernel.cu(40): error: no instance of function template '
     '"phi::dynload::DynLoad__cudnnGetConvolutionForwardAlgorithm::operator()" matches the argument list',
     CauseId.cuda_cudnn_mismatch),
    ("CMake Error at cmake/generic.cmake:120 (target_link_libraries):\n  Error evaluating generator expression:\n\n"
     "    $<FILTER:,EXCLUDE,/Zc:inline>\n\n  Expression did not evaluate to a known generator expression",
     CauseId.dependency_version_mismatch),
])
def test_a_build_against_another_library_or_cmake_release(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


_TRT_WARNING = ("You are using Paddle compiled with TensorRT, but TensorRT dynamic library is not found. Ignore this if "
                "TensorRT is not needed.\n")


def test_an_optional_librarys_warning_does_not_explain_an_unrelated_error(tmp_path):
    rc = _diagnose(tmp_path, _TRT_WARNING + 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
                             "    main()\nValueError: Command line options config format error! Please check it: ['\\\\']\n")
    assert rc.cause == CauseId.config_error and rc.code != "tensorrt_lib_missing", (rc.cause, rc.code)


def test_an_optional_librarys_warning_still_explains_an_error_of_that_library(tmp_path):
    rc = _diagnose(tmp_path, _TRT_WARNING + "RuntimeError: (PreconditionNotMet) TensorRT engine creation failed\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)


def test_an_abort_after_a_python_exception_is_that_exceptions_end(tmp_path):
    text = ('Traceback (most recent call last):\n  File "/app/eiseg/controller.py", line 214, in addClick\n'
            "    pred = self.predictor.get_prediction(self.clicker)\nIndexError: list index out of range\n\n"
            "FatalError: `Process abort signal` is detected by the operating system.\n"
            "  [SignalInfo: *** SIGABRT (@0x3e8000007b3) received by PID 1971 (TID 0x7f24333f8740) from PID 1971 ***]\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception and rc.confidence.value == "medium", (rc.cause, rc.code, rc.confidence)
    assert "IndexError" in rc.message, rc.message


def test_an_abort_alone_is_a_native_crash_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "  [SignalInfo: *** SIGABRT (@0x3e8000007b3) received by PID 1971 (TID 0x7f2433) from PID "
                             "1971 ***]\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("path, source", [
    ("/app/eiseg/inference/predictor/base.py", "self.input_handle_2 = self.net.get_input_handle(input_names[1])"),
    ("C:\\PaddleOCR\\tools\\infer\\predict_det.py", "outs_dict['f_score'] = outputs[1]"),
])
def test_a_model_with_fewer_inputs_or_outputs_than_the_code_reads_is_the_wrong_model(tmp_path, path, source):
    text = (f'Traceback (most recent call last):\n  File "{path}", line 146, in _get_prediction\n    {source}\n'
            "IndexError: list index out of range\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error, (rc.cause, rc.code)


def test_an_index_past_a_training_scripts_outputs_stays_the_programs(tmp_path):
    text = ('Traceback (most recent call last):\n  File "/work/finetune/classifier.py", line 259, in evaluate\n'
            '    ret["learning_rate"] = float(outputs[4][0])\nIndexError: list index out of range\n')
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


def test_an_annotation_class_name_the_label_list_lacks_is_the_config(tmp_path):
    text = ('Traceback (most recent call last):\n  File "/work/PaddleDetection/ppdet/data/source/voc.py", line 154, in '
            "load_roidb_and_cname2cid\n    gt_class.append([cname2cid[cname]])\nKeyError: 'Light_delivery_box'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause, code", [
    ("TypeError: setValue(self, int): argument 1 has unexpected type 'float'", CauseId.dependency_version_mismatch,
     "pyqt_float_for_int"),
    ("Exception: The op DepthwiseConvolution in model is not supported yet.", CauseId.paddle_api_mismatch,
     "x2paddle_op_unsupported_named"),
    ("[F  8/27  2:35:29.277 ...-Lite/lite/core/model/general/op_desc.cc:63 Output] Check failed: it != outputs_.end(): ",
     CauseId.paddle_api_mismatch, "lite_op_slot_missing"),
    ("[F  9/25 15:28:58.946 ...odel_parser/naive_buffer/naive_buffer.cc:30 Consume] Check failed: bytes <= free_size(): "
     "8!<=7 No free memory of 8, should Require the memory first", CauseId.paddle_api_mismatch, "lite_naive_buffer_overrun"),
    ("'paddlelite.lite.Tensor' object has no attribute 'from_numpy'", CauseId.paddle_api_mismatch,
     "tensor_attribute_missing"),
    ("ValueError: Command line options config format error! Please check it: ['--x']", CauseId.config_error, None),
])
def test_batch80s_readings(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and (code is None or rc.code == code), (rc.cause, rc.code)


def test_a_traceback_pasted_without_its_indentation_keeps_its_frames_source_lines(tmp_path):
    text = ("Traceback (most recent call last):\n"
            'File "/app/eiseg/inference/predictor/base.py", line 147, in _get_prediction\n'
            "self.input_handle_2 = self.net.get_input_handle(input_names[1])\n"
            "IndexError: list index out of range\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error, (rc.cause, rc.code)


def test_an_unindented_frame_without_source_leaves_the_exception_line_alone(tmp_path):
    text = ("Traceback (most recent call last):\n"
            'File "<frozen importlib._bootstrap>", line 219, in _call_with_frames_removed\n'
            "ModuleNotFoundError: No module named 'shapely'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "[2025/02/17 16:17:47] ppocr ERROR: error in layout recovery image:/data/a.pdf, err msg: list index out of range",
    "[2023-01-01 10:00:00] [ERROR] - predict failed: unsupported operand type(s) for +: 'NoneType' and 'int'",
])
def test_a_logged_python_builtin_message_is_the_programs_own_error_at_low(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.python_exception and rc.confidence.value == "low", (rc.cause, rc.code, rc.confidence)


@pytest.mark.parametrize("line, cause, code", [
    ("(Unimplemented) ConvertPirAttribute2RuntimeAttribute not support", CauseId.python_exception, "enforce_class_line"),
    ("  ╰─▶ Because there is no version of paddlepaddle{platform_system == 'Linux'}==3.0.0b1 and magic-pdf==0.10.6 "
     "depends on paddlepaddle{platform_system == 'Linux'}==3.0.0b1, we can", CauseId.dependency_version_mismatch,
     "uv_no_version"),
    ("/paddle/paddle/fluid/platform/device_tracer.cc:414: error: function dynload::cuptiEnableCallback( 1, subscriber_, "
     "CUPTI_CB_DOMAIN_RUNTIME_API, cbid) failed with error CUPTI_ERROR_INVALID_PARAMETER.", CauseId.cuda_cudnn_mismatch,
     "cupti_call_failed"),
    ("[I 05:07:30.348 NotebookApp] KernelRestarter: restarting kernel (1/5)", CauseId.segfault, "jupyter_kernel_died"),
])
def test_batch81s_readings(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code == code, (rc.cause, rc.code)


def test_a_dead_notebook_kernel_offers_the_oom_killer_first(tmp_path):
    rc = _diagnose(tmp_path, "[I 05:07:30.348 NotebookApp] KernelRestarter: restarting kernel (1/5)\n")
    assert rc.alternatives[0].cause == CauseId.host_oom_killed, rc.alternatives


def test_cudnns_bad_param_is_at_most_medium_with_the_ops_inputs_next(tmp_path):
    rc = _diagnose(tmp_path, "OSError: (External) CUDNN error(3), CUDNN_STATUS_BAD_PARAM. \n  [Hint: 'CUDNN_STATUS_BAD_PARAM'."
                             "  An incorrect value or parameter was passed to the function.  ] (at /paddle/paddle/fluid/"
                             "platform/cudnn_helper.h:293)\n  [operator < rnn > error]\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.python_exception, rc.alternatives


@pytest.mark.parametrize("path", ["/usr/local/lib/python3.10/dist-packages/paddlenlp/ops/ext_utils.py", "/work/my_train.py"])
def test_a_module_of_a_dropped_stdlib_package_is_a_python_the_code_predates(tmp_path, path):
    text = (f'Traceback (most recent call last):\n  File "{path}", line 21, in <module>\n'
            "    from distutils.dep_util import newer_group\nModuleNotFoundError: No module named 'distutils.dep_util'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


# --- the review of the twelfth session's rows: what they must not read -----------------------------------------------

@pytest.mark.parametrize("line", ["Bus error (core dumped)", "Fatal Python error: Bus error",
                                  "Thread 1 \"python\" received signal SIGBUS, Bus error."])
def test_every_bus_error_by_its_name_alone_offers_shared_memory_first(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault and rc.alternatives[0].cause == CauseId.shm_too_small, (rc.cause, rc.alternatives)


def test_an_object_of_the_users_lacking_sync_batch_norm_is_not_the_gpu_kernel(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: 'Namespace' object has no attribute 'sync_batch_norm'\n")
    assert rc.code != "sync_batch_norm_without_gpu", (rc.cause, rc.code)
    rc = _diagnose(tmp_path, "AttributeError: module 'paddle.nn.functional' has no attribute 'sync_batch_norm'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code != "sync_batch_norm_without_gpu", (rc.cause, rc.code)


def test_user_code_mounted_at_slash_paddle_is_not_paddles_own(tmp_path):
    text = ('Traceback (most recent call last):\n  File "/paddle/trainer/train.py", line 3, in <module>\n'
            "    import my_utils\nModuleNotFoundError: No module named 'my_utils'\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


def test_a_numpy_index_error_in_an_infer_script_is_not_the_models_outputs(tmp_path):
    text = ('Traceback (most recent call last):\n  File "deploy/python/infer.py", line 90, in predict\n'
            "    boxes = outputs[0][0]\nIndexError: index 0 is out of bounds for axis 0 with size 0\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


def test_cmakes_generator_expression_header_alone_is_low(tmp_path):
    rc = _diagnose(tmp_path, "CMake Error at CMakeLists.txt:10 (add_custom_command):\n  Error evaluating generator "
                             "expression:\n\n    $<TARGET_FILE:paddle_inference_shared>\n\n  No target "
                             "\"paddle_inference_shared\"\n")
    assert rc.confidence.value == "low", (rc.cause, rc.code, rc.confidence)


def test_a_float_for_a_qt_str_parameter_is_not_pythons_int_conversion(tmp_path):
    rc = _diagnose(tmp_path, "TypeError: setText(self, str): argument 1 has unexpected type 'float'\n")
    assert rc.code != "pyqt_float_for_int", (rc.cause, rc.code)


def test_an_unindented_frame_without_source_keeps_a_lowercase_module_exception(tmp_path):
    text = ('Traceback (most recent call last):\nFile "<stdin>", line 1, in <module>\ncv2.error: OpenCV(4.5.1) '
            "(-215:Assertion failed) !_src.empty() in function 'cvtColor'\n")
    from paddle_doctor.diagnose.anatomy.parts import parse_block
    parts = parse_block(text.splitlines())
    assert parts.exc_type == "error" and "OpenCV" in parts.message, (parts.exc_type, parts.message)


@pytest.mark.parametrize("line", ["已放弃 (核心已转储)", "总线错误 (核心已转储)",
                                  "run.sh: 行 12:  2557 已放弃               python train.py"])
def test_the_shells_abort_and_bus_error_in_zh_cn_are_a_native_crash_at_medium(tmp_path, line):
    rc = _diagnose(tmp_path, "python train.py\n" + line + "\n")
    assert rc.cause == CauseId.segfault and rc.code == "shell_abort_bus_translated", (rc.cause, rc.code)
    assert rc.confidence.value != "high", rc.confidence


def test_the_same_chinese_words_in_prose_are_not_a_crash(tmp_path):
    rc = _diagnose(tmp_path, "我已放弃了这个方案，总线错误的说法也不对\n")
    assert rc is None or rc.code != "shell_abort_bus_translated", (rc.cause, rc.code)


def test_a_zh_cn_abort_after_a_python_exception_is_that_exceptions_end(tmp_path):
    text = ('Traceback (most recent call last):\n  File "app.py", line 9, in scroll\n    bar.setValue(x)\n'
            "KeyError: 'x'\n已放弃 (核心已转储)\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ("OSError: [WinError 127] 找不到指定的程序。", CauseId.dependency_version_mismatch),
    ("OSError: [WinError 193] %1 is not a valid Win32 application", CauseId.dependency_version_mismatch),
    ("'python' is not recognized as an internal or external command,", CauseId.launcher_python_not_found),
    ("'python' 不是内部或外部命令，也不是可运行的程序", CauseId.launcher_python_not_found),
    ('OSError: [WinError 127] The specified procedure could not be found. Error loading "C:\\py\\nvidia\\cudnn\\bin\\'
     'cudnn_ops64_9.dll" or one of its dependencies.', CauseId.cuda_cudnn_mismatch),
])
def test_windows_loader_errors_and_cmds_unknown_python(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


def test_a_third_party_packages_own_dll_not_found_is_that_packages_install(tmp_path):
    text = ('Traceback (most recent call last):\n  File "D:\\env\\lib\\site-packages\\shapely\\geos.py", line 154, in '
            "<module>\n    _lgeos = CDLL(os.path.join(sys.prefix, 'Library', 'bin', 'geos_c.dll'))\n"
            '  File "D:\\env\\lib\\ctypes\\__init__.py", line 364, in __init__\n    self._handle = _dlopen(self._name, '
            "mode)\nOSError: [WinError 126] 找不到指定的模块。\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


def test_the_users_own_dll_not_found_stays_a_missing_file(tmp_path):
    text = ('Traceback (most recent call last):\n  File "D:\\work\\ocr_app.py", line 10, in <module>\n'
            "    lib = CDLL('ocr_engine.dll')\n"
            '  File "D:\\env\\lib\\ctypes\\__init__.py", line 364, in __init__\n    self._handle = _dlopen(self._name, '
            "mode)\nOSError: [WinError 126] The specified module could not be found\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


def test_an_operator_without_kernels_in_this_build_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: (NotFound) There are no kernels which are registered in the einsum operator.\n"
                             "  [Hint: Expected kernels_iter != all_op_kernels.end(), but received kernels_iter == "
                             "all_op_kernels.end().] (at /paddle/paddle/fluid/framework/operator.cc:1326)\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)
