"""Issue 29, eleventh session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of

_GLOG_SIGBUS = ("W0101 10:00:00.000000  4711 init.cc:234] *** SIGBUS (@0x7f00c0de000a) received by PID 4711 (TID "
                "0x7f00deadbeef) from PID 0; stack trace: ***\n")
_PADDLE_SIGBUS = ("FatalError: `Access to an undefined portion of a memory object` is detected by the operating "
                  "system.\n  [SignalInfo: *** SIGBUS (@0x7f00c0de000a) received by PID 4711 (TID 0x7f00deadbeef) "
                  "from PID 0 ***]\n")


@pytest.mark.parametrize("text", [_GLOG_SIGBUS, _PADDLE_SIGBUS])
def test_a_bus_error_without_the_dataloaders_lines_is_a_native_crash_at_medium_with_shared_memory_next(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium", (rc.cause, rc.code, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.shm_too_small, rc.alternatives


def test_glogs_other_fatal_signals_keep_the_native_stack_reading(tmp_path):
    rc = _diagnose(tmp_path, _GLOG_SIGBUS.replace("SIGBUS", "SIGSEGV"))
    assert rc.cause == CauseId.segfault and rc.code == "native_stack", (rc.cause, rc.code)
    assert all(a.cause != CauseId.shm_too_small for a in rc.alternatives), rc.alternatives


def test_a_bus_error_in_the_dataloaders_workers_stays_shared_memory(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: DataLoader worker (pid 3002) is killed by signal: Bus error. It is "
                             "possible that dataloader's workers are out of shared memory. Please try to raise your "
                             "shared memory limit.\n")
    assert rc.cause == CauseId.shm_too_small, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ("paddlex.utils.errors.others.ClassNotFoundException: `PP-OCRv9_server_det` is not registered on BasePredictor.",
     CauseId.paddle_api_mismatch),
    ("paddlex.utils.errors.others.KeyNotFoundError: `Global` not found in config.", CauseId.config_error),
    ("paddlex.utils.errors.others.UnsupportedDeviceError: The device `mlu` is not supported! The supported device "
     "types are: [cpu, gpu].", CauseId.config_error),
    ("Exception: The pipeline (OCRv9) does not exist! Please use a pipeline name or a config file path!",
     CauseId.file_not_found),
])
def test_paddlex_own_checks_name_their_cause(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code.startswith("paddlex_"), (rc.cause, rc.code)


def test_a_name_paddlex_does_not_register_is_another_release_at_medium_with_a_misspelling_next(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"run.py\", line 3, in <module>\n"
                             "    model = create_model('PP-Foo')\npaddlex.utils.errors.others.ClassNotFoundException: "
                             "`PP-Foo` is not registered on BasePredictor.\n")
    assert rc.confidence.value == "medium" and rc.alternatives[0].cause == CauseId.config_error, rc.alternatives


def _traceback(last: str) -> str:
    return ("Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    model.fit(data)\n"
            f"{last}\n")


@pytest.mark.parametrize("last", ["AttributeError: 'Trainer' object has no attribute 'fit_loop'",
                                  "TypeError: fit() missing 1 required positional argument: 'epochs'",
                                  "ImportError: cannot import name 'Fit' from 'trainlib'"])
def test_an_unresolved_name_or_call_has_another_release_as_its_first_alternative(tmp_path, last):
    rc = _diagnose(tmp_path, _traceback(last))
    assert rc.cause == CauseId.python_exception and rc.confidence.value == "medium", (rc.cause, rc.code)
    assert rc.alternatives[0].cause == CauseId.paddle_api_mismatch, rc.alternatives


def test_a_refused_keyword_is_another_release_first_and_the_users_slip_next(tmp_path):
    """Session 15: the gathered logs' refused keywords at a user's call were all another release (5 of 5)."""
    rc = _diagnose(tmp_path, _traceback("TypeError: fit() got an unexpected keyword argument 'epochs'"))
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.code)
    assert rc.alternatives[0].cause == CauseId.python_exception, rc.alternatives


@pytest.mark.parametrize("last", ["KeyError: 'num_classes'", "ValueError: invalid literal for int() with base 10: 'a'"])
def test_a_value_or_key_error_has_a_config_value_as_its_first_alternative(tmp_path, last):
    rc = _diagnose(tmp_path, _traceback(last))
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)
    assert [a.cause for a in rc.alternatives] == [CauseId.config_error, CauseId.paddle_api_mismatch], rc.alternatives


@pytest.mark.parametrize("line", [
    "  Building wheel for faiss-cpu (setup.py) ... error",
    "  × python setup.py bdist_wheel did not run successfully.",
    "  × Building wheel for PyMuPDF (pyproject.toml) did not run successfully.",
])
def test_pips_failed_source_build_in_its_newer_wordings_is_a_package_without_a_wheel_here(tmp_path, line):
    rc = _diagnose(tmp_path, "Building wheels for collected packages: faiss-cpu\n" + line + "\n  │ exit code: 1\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code.startswith("pip_"), (rc.cause, rc.code)


def test_the_unrelated_pypi_paddle_projects_build_is_not_read_as_any_packages(tmp_path):
    rc = _diagnose(tmp_path, "  Building wheel for paddle (setup.py) ... error\n")
    assert rc is None or rc.code != "pip_source_build_failed", rc.code


def test_a_package_that_requires_another_python_names_both(tmp_path):
    rc = _diagnose(tmp_path, "ERROR: Package 'scikit-image' requires a different Python: 3.6.9 not in '>=3.8'\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "3.6.9" in rc.message, (rc.cause, rc.message)


@pytest.mark.parametrize("line", ["ERROR: Could not find a version that satisfies the requirement lanms==1.0.2 (from "
                                  "versions: none)", "No matching distribution found for opencv-python==4.2.0.32"])
def test_pip_finding_no_release_of_any_package_is_that_package_not_installable_here(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence.value == "medium", (rc.cause, rc.code)


def test_paddles_own_code_missing_its_own_module_is_a_broken_installation_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
                             "  File \"/opt/py/lib/python3.8/site-packages/paddle/__init__.py\", line 30, in <module>\n"
                             "    from .framework import monkey_patch\n"
                             "  File \"/opt/py/lib/python3.8/site-packages/paddle/framework/patch.py\", line 12, in "
                             "monkey_patch\n    methods = paddle.tensor.tensor_method_func\n"
                             "AttributeError: module 'paddle' has no attribute 'tensor'\n")
    assert rc.cause == CauseId.python_exception and "installation" in rc.why, (rc.cause, rc.code, rc.why)


def test_the_users_own_call_of_a_paddle_module_it_lacks_stays_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                             "    y = paddle.tensor.foo(x)\nAttributeError: module 'paddle.tensor' has no attribute 'foo'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("module", ["zmq", "GPUtil", "pypinyin", "fitz", "osgeo"])
def test_a_library_the_suites_require_missing_is_a_dependency(tmp_path, module):
    rc = _diagnose(tmp_path, f"ModuleNotFoundError: No module named '{module}'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


def test_a_plugin_the_code_says_is_not_available_asks_for_its_installation(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/opt/lib/python3.11/site-packages/pkg/deps.py\", "
                             "line 9, in require_plugin\n    raise RuntimeError(msg)\nRuntimeError: The serving plugins are "
                             "not available. Please install it properly.\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["=========3 Ops are not supported yet======", "========= 3 OPs are not supported yet ==========="])
def test_x2paddles_unsupported_ops_in_both_eras_wordings(tmp_path, line):
    rc = _diagnose(tmp_path, f"Converting node 12 ...    {line}\n========== Ceil ==========\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "x2paddle_ops_unsupported", (rc.cause, rc.code)


def test_paddle_lites_host_allocation_failing_is_host_memory(tmp_path):
    rc = _diagnose(tmp_path, "[F  1/ 2  3: 4: 5.678 ...lite/backends/host/target_wrapper.cc:29 Malloc] Check failed: p: "
                             "Error occurred in TargetWrapper::Malloc period: no enough for mallocing 1048576 bytes.\n")
    assert rc.cause == CauseId.host_out_of_memory and "1048576" in rc.message, (rc.cause, rc.message)


def test_paddle_mobiles_enforce_detail_of_a_file_it_cannot_open_is_that_file(tmp_path):
    rc = _diagnose(tmp_path, "A/libc: abort_message: assertion \"terminating with uncaught exception of type "
                             "paddle_mobile::PaddleMobileException: paddle mobile C++ Exception: \n    | [in file] : "
                             "src/io/loader.cpp\n    | [on line] : 26\n    | [detail]  :  /sdcard/m/params open failed !\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


@pytest.mark.parametrize("text", [
    "System.DllNotFoundException: Dll was not found.\n   at Wrapper.Engine.Initialize(String model)\n",
    "Exception in thread \"main\" java.lang.UnsatisfiedLinkError: no ocr_jni in java.library.path\n",
    "java.lang.ExceptionInInitializerError: unable to load from [paddle_inference.dll]\n",
])
def test_a_wrappers_native_library_that_does_not_load_is_a_missing_file(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


@pytest.mark.parametrize("text", [
    "java.lang.UnsatisfiedLinkError: dlopen failed: cannot locate symbol \"__emutls_get_address\" referenced by "
    "\"libpaddle_lite_jni.so\"\n",
    "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    pred = create_predictor(cfg)\n"
    "RuntimeError: Failed to load libcuda.so.1\n",
])
def test_a_symbol_missing_or_the_drivers_library_is_not_read_as_a_missing_file(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause != CauseId.file_not_found, (rc.cause, rc.code)


def test_a_cuda_library_a_wrapper_cannot_load_is_the_cuda_installation(tmp_path):
    rc = _diagnose(tmp_path, "java.lang.ExceptionInInitializerError: unable to load from [cudnn64_8.dll]\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)


def test_a_compiler_or_linker_failing_in_an_extension_the_code_builds_is_its_build(tmp_path):
    rc = _diagnose(tmp_path, "error: command '/usr/bin/g++' failed with exit code 1\n")
    assert rc.cause == CauseId.python_exception and rc.code == "native_build_command_failed", (rc.cause, rc.code)


def test_calling_what_a_paddle_api_returned_when_it_is_not_callable_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 50, in <lambda>\n"
                             "    reader = paddle.dataset.mnist.train(size)()\nTypeError: 'generator' object is not "
                             "callable\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.code)


@pytest.mark.parametrize("source", ["loss = total(3)", "h = paddle.shape(img)(2)"])
def test_calling_a_value_that_is_not_callable_stays_the_users_exception(tmp_path, source):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 50, in <module>\n"
                             f"    {source}\nTypeError: 'Tensor' object is not callable\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


def test_an_unsupported_operand_keeps_a_config_value_as_the_first_alternative(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 5, in <module>\n"
                             "    n = a + b\nTypeError: unsupported operand type(s) for +: 'int' and 'str'\n")
    assert rc.alternatives[0].cause == CauseId.config_error, rc.alternatives


def test_a_name_missing_from_a_pyinstaller_bundle_is_the_bundle_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: cannot import name 'draw_ocr' from 'paddleocr' (C:\\Users\\u\\AppData\\Local\\"
                             "Temp\\_MEI120394\\paddleocr.pyc)\n")
    assert rc.cause == CauseId.python_exception and "PyInstaller" in rc.why, (rc.cause, rc.code, rc.why)


def test_a_failed_cuda_call_in_1xs_glog_fatal_line_is_read_by_its_error_number(tmp_path):
    rc = _diagnose(tmp_path, "F0101 10:00:00.000000  4711 device_context.cc:337] cudaGetLastError  out of memory "
                             "errno:2\n*** Check failure stack trace: ***\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [("No module named 'ppdet'", CauseId.python_exception),
                                         ("No module named 'ppocr.utils'", CauseId.python_exception),
                                         ("No module named 'cv2'", CauseId.python_exception),
                                         ("No module named 'paddle.fluid'", CauseId.paddle_api_mismatch)])
def test_pythons_missing_module_message_pasted_without_its_type(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)
    if cause == CauseId.python_exception:
        assert rc.alternatives[0].cause == CauseId.dependency_version_mismatch, rc.alternatives


def test_a_bare_missing_module_line_printed_before_a_traceback_does_not_outrank_its_exception(tmp_path):
    rc = _diagnose(tmp_path, "No module named 'lap'\nTraceback (most recent call last):\n  File \"train.py\", line 3, in "
                             "<module>\n    cfg['TrainReader']\nKeyError: 'TrainReader'\n")
    # the exception decides (its config lookup read as such), not the import line printed before it
    assert rc.evidence[0].text.startswith("KeyError"), (rc.cause, rc.code, rc.evidence)


@pytest.mark.parametrize("line", [
    "KeyError: \"Foo does not exist in availabel transforms:['Compose', 'Resize']\"",
])
def test_a_component_the_suites_registry_lacks_is_the_config(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "config_component_unregistered", (rc.cause, rc.code)


def test_a_module_ppdets_registry_lacks_is_another_release_with_the_config_next(tmp_path):
    # ppdet's workspace (both its assert and its ports' ValueError): in the labelled logs a config of another release
    # than the installed ppdet (twenty-third session; tests/unit/test_diagnose_session23_rows.py)
    rc = _diagnose(tmp_path, "ValueError: The module FooHead is not registered\n")
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "ppdet_module_unregistered"), (rc.cause, rc.code)
    assert rc.alternatives[0].cause == CauseId.config_error


@pytest.mark.parametrize("line, cause", [("RuntimeError: mklml.dll not found.", CauseId.file_not_found),
                                         ("RuntimeError: cudnn64_7.dll not found.", CauseId.cuda_cudnn_mismatch),
                                         ("ValueError: not find model.pdmodel or inference.pdmodel",
                                          CauseId.file_not_found)])
def test_a_library_or_model_file_said_not_found_in_plain_words(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


def test_an_exception_after_a_loggers_error_prefix_is_read_as_the_exception(tmp_path):
    rc = _diagnose(tmp_path, "error:   UnicodeDecodeError: 'gbk' codec can't decode byte 0x99 in position 996: illegal "
                             "multibyte sequence\n")
    assert rc.cause == CauseId.python_exception and "UnicodeDecodeError" in rc.message, (rc.cause, rc.message)


@pytest.mark.parametrize("text", [
    "AttributeError: 'paddle.fluid.core_avx.AnalysisConfig' object has no attribute 'set_mkldnn_cache_capacity'\n",
    "AttributeError: 'paddle.base.libpaddle.AnalysisConfig' object has\n",
])
def test_a_paddle_class_lacking_a_method_the_code_calls_is_another_release_or_build(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.code)


def test_a_users_own_class_lacking_an_attribute_stays_the_users_exception(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: 'mypkg.Trainer' object has no attribute 'fit_loop'\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["OSError: ctypes.util.find_library() did not manage to locate a library called "
                                  "`sndfile`", "OSError: sndfile library not found"])
def test_a_system_library_a_python_binding_loads_is_a_dependency_with_a_missing_file_next(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.alternatives[0].cause == CauseId.file_not_found, \
        (rc.cause, rc.alternatives)


def test_paddles_own_import_of_a_module_the_environment_lacks_is_a_dependency(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
                             "  File \"/usr/local/lib/python2.7/dist-packages/paddle/fluid/incubate/fleet/base/"
                             "fleet_base.py\", line 18, in <module>\n    from enum import Enum\n"
                             "ImportError: No module named enum\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code, rc.why)


def test_paddles_own_relative_import_of_its_core_is_not_read_as_a_dependency(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/usr/lib/python3.8/site-packages/paddle/fluid/"
                             "core.py\", line 210, in <module>\n    from . import core_avx\n"
                             "ImportError: No module named 'core_avx'\n")
    assert "depends on" not in rc.why, (rc.cause, rc.code, rc.why)


def test_pips_nameless_build_report_after_the_unrelated_paddle_projects_download_is_that_project(tmp_path):
    rc = _diagnose(tmp_path, "Collecting paddle\n  Downloading paddle-1.0.2.tar.gz (579 kB)\n  Building wheel for paddle "
                             "(setup.py) ... error\n  × python setup.py bdist_wheel did not run successfully.\n")
    assert rc.code == "pip_unrelated_paddle_project", (rc.cause, rc.code)


def test_the_event_logs_fail_fast_status_after_a_failed_check_leaves_the_check_first(tmp_path):
    rc = _diagnose(tmp_path, "F0101 10:00:00.000000  4711 analysis_predictor.cc:12] Check failed: model_file.size() > 0 "
                             "(0 vs. 0) model file not set\nFaulting application name: demo.exe\nException code: "
                             "0xc0000409\n")
    assert rc.code == "glog_check_failed", (rc.cause, rc.code)


def test_a_sigbus_header_with_glogs_stack_frames_after_it_stays_medium(tmp_path):
    frames = "".join(f"W0101 10:00:00.000000  4711 init.cc:234]     @     0x7f00c0de{i:04x} func{i}\n" for i in range(3))
    rc = _diagnose(tmp_path, _GLOG_SIGBUS + frames + "Bus error (core dumped)\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium", (rc.code, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.shm_too_small, rc.alternatives


def test_no_gpu_in_plain_words_stays_the_device_though_it_asks_for_an_installation(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: GPU is not available, please install paddlepaddle-gpu\n")
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.code)


def test_an_attribute_paddle_lacks_inside_a_pyinstaller_bundle_stays_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"C:\\\\Temp\\\\_MEI43122\\\\tools\\\\infer.py\", line 3, "
                             "in <module>\n    import paddle.fluid as fluid\nAttributeError: module 'paddle' has no "
                             "attribute 'fluid'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code, rc.why)


def test_pips_own_crash_header_does_not_hide_the_exception_under_it(tmp_path):
    rc = _diagnose(tmp_path, "ERROR: Exception:\nTraceback (most recent call last):\n  File \"/usr/lib/python3/dist-packages/"
                             "pip/_internal/utils/misc.py\", line 20, in <module>\n    from pip._vendor.six import PY2\n"
                             "ImportError: cannot import name 'PY2' from 'pip._vendor.six'\n")
    assert "PY2" in rc.message, (rc.code, rc.message)


def test_paddles_own_import_of_a_module_newer_pythons_removed_says_so(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/usr/lib/python3.12/site-packages/paddle/utils/"
                             "cpp_extension/extension_utils.py\", line 30, in <module>\n    from distutils import log\n"
                             "ModuleNotFoundError: No module named 'distutils'\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "removed in 3.12/3.13" in rc.why, rc.why


@pytest.mark.parametrize("line", [
    "[F  1/ 1  1: 1: 1.000 ...lite/model_parser/model_parser.cc:764 LoadModelNaiveFromFile] Paddle-Lite v2.7 has upgraded "
    "the naive-buffer model format. Please use the OPT to generate a new model. Thanks!",
    "[F  1/ 1  1: 1: 1.000 ...lite/model_parser/model_parser.cc:898 LoadModelNaiveFromFile] Unspported model meta_version 3",
    "[F  1/ 1  1: 1: 1.000 ...lite/model_parser/pb/tensor_io.cc:99 ReadTensor] Tiny-publish mode is not supported to read "
    "the 0 version model.",
])
def test_paddle_lites_loaders_refusing_a_model_of_another_format_are_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "lite_model_format_version", (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ("[F  1/ 1  1: 1: 1.000 ...naive_buffer/naive_buffer.cc:75 LoadFromFile] Read file error: ./m.nb",
     CauseId.checkpoint_corrupt),
    ("[F  1/ 1  1: 1: 1.000 ...nnadapter/src/utility/utility.cc:613 ReadFile] Open file: [/data/m.om] failed.",
     CauseId.file_not_found),
])
def test_paddle_lites_file_readers(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["F0101 10:00:00.000000  4711 executor.cc:12] the program failed to find block 3",
                                  "[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] Unknown supported target: X"])
def test_a_fatal_log_line_without_a_failed_check_is_read_as_an_error(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is not None and rc.cause == CauseId.python_exception, (rc and rc.cause, rc and rc.code)


@pytest.mark.parametrize("line", ["[Paddle2ONNX] Cannot open file ./inference.pdiparams to read.",
                                  "[Paddle2ONNX] Unexcepted situation happend while reading parameters of PaddlePaddle "
                                  "model."])
def test_paddle2onnx_reading_no_parameters_file_it_can_use(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.file_not_found and rc.code == "p2o_params_unread", (rc.cause, rc.code)
