"""Readings added in issue 29's twenty-first session (batches 120-121's misses, each from its emitter's source)."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def test_sequence_unpads_length_check_is_code_of_paddle_1_5(tmp_path):
    for text in ("Error: The shape of Input(Length) should be [batch_size].\n  [Hint: Expected len_dims.size() == 1, but "
                 "received len_dims.size():2 != 1:1.] at (/paddle/paddle/fluid/operators/sequence_ops/sequence_unpad_op.cc:41)\n",
                 "InvalidArgumentError: The shape of Input(Length) should be [batch_size]. But received (2) \n",
                 "ValueError: (InvalidArgument) The rank of SequenceUnpadOp Input(Length) should be 1. But the rank we "
                 "received is 2\n"):
        rc = _diagnose(tmp_path, text)
        assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium")


def test_the_hint_of_a_file_that_did_not_open_is_a_missing_file(tmp_path):
    text = ("[Hint: Expected static_cast<bool>(fin.is_open()) == true, but received static_cast<bool>(fin.is_open()):0 "
            "!= true:1.] (at C:\\home\\workspace\\Paddle_release\\paddle\\fluid\\inference\\api\\analysis_predictor.cc:1116)\n")
    rc = _diagnose(tmp_path, text)
    # the hint does not name the file: sure it did not open, not which one
    assert (rc.cause, rc.confidence.value) == (CauseId.file_not_found, "medium")
    # another check's hint is no file that did not open
    other = text.replace("fin.is_open()", "x.dims().size()")
    assert _diagnose(tmp_path, other).cause == CauseId.python_exception


def _predictor_traceback(user: str, message: str) -> str:
    site = f"C:\\Users\\{user}\\AppData\\Local\\Programs\\Python\\Python310\\lib\\site-packages\\paddleocr\\tools\\infer"
    return ("Traceback (most recent call last):\n"
            f'  File "{site}\\utility.py", line 285, in create_predictor\n'
            "    predictor = inference.create_predictor(config)\n"
            f"RuntimeError: {message}\n")


def test_a_bare_notfound_from_a_predictor_under_a_non_ascii_windows_path_is_the_path(tmp_path):
    assert _diagnose(tmp_path, _predictor_traceback("解甲归田", "(NotFound)")).cause == CauseId.file_not_found
    # the same under an ASCII path says nothing of the path
    assert _diagnose(tmp_path, _predictor_traceback("alice", "(NotFound)")).cause != CauseId.file_not_found
    # another error class is no file not found
    assert _diagnose(tmp_path, _predictor_traceback("解甲归田", "(InvalidArgument)")).cause != CauseId.file_not_found
    # a NotFound of something else (a variable, a kernel) is no file the loader could not open
    for other in ("(NotFound) The variable X is not in the scope.",
                  "(NotFound) The kernel with key (GPU, Undefined(AnyLayout), float32) of kernel `fused_multi_transformer` "
                  "is not registered."):
        assert _diagnose(tmp_path, _predictor_traceback("解甲归田", other)).cause != CauseId.file_not_found


@pytest.mark.parametrize("line", [
    "Unhandled exception at 0x00007FF8A2714F99 in ocr_system.exe: Microsoft C++ exception: std::length_error at memory "
    "location 0x0000008A026FF130.",
    "0x00007FF8A2714F99 处(位于 ocr_system.exe 中)有未经处理的异常: Microsoft C++ 异常: std::length_error，位于内存位置 "
    "0x0000008A026FF130 处。"])
def test_the_debuggers_unhandled_cpp_exception_is_read_as_cpp_terminate_is(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.segfault, "low")
    assert "std::length_error" in rc.message


def test_a_first_chance_cpp_exception_or_paddles_own_is_not_that_crash(tmp_path):
    # thrown and maybe caught: no verdict of a crash
    first = ("Exception thrown at 0x00007FF8A2714F99 in ocr_system.exe: Microsoft C++ exception: std::length_error at "
             "memory location 0x0000008A026FF130.\n")
    rc = _diagnose(tmp_path, first)
    assert rc is None or rc.cause != CauseId.segfault
    # an uncaught Paddle enforce: a check whose message is elsewhere, no crash
    paddle = ("0x00007FFB356A4FD9 处(位于 QtWeld.exe 中)有未经处理的异常: Microsoft C++ 异常: phi::enforce::EnforceNotMet，"
              "位于内存位置 0x0000003230B5D7A0 处。\n")
    rc = _diagnose(tmp_path, paddle)
    assert rc is None or rc.cause != CauseId.segfault
    # Paddle 3.x's enforce and its IR's check live in other namespaces: the same uncaught Paddle check
    for kind in ("common::enforce::EnforceNotMet", "pir::IrNotMetException", "common::CommonNotMetException"):
        rc = _diagnose(tmp_path, f"Unhandled exception at 0x00007FFB356A4FD9 in app.exe: Microsoft C++ exception: {kind} at "
                                 "memory location 0x0000003230B5D7A0.\n")
        assert rc is None or rc.cause != CauseId.segfault


@pytest.mark.parametrize("line", [
    "We only support 'to_tensor()' in dynamic graph mode, please call 'paddle.disable_static()' to enter dynamic graph mode.",
    "Tensor holds the wrong type, it holds double, but desires to be float"])
def test_paddles_messages_pasted_without_their_type_are_the_exception(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.python_exception, "medium")
    # inside a sentence of a healthy log's prose it is no line of its own
    assert _diagnose(tmp_path, f"note: the docs say {line}\n") is None


def _cv2_import(path: str) -> str:
    site = "/venv/lib/python3.9/site-packages"
    return ("Traceback (most recent call last):\n"
            f'  File "{site}/paddleocr/paddleocr.py", line 25, in <module>\n    import cv2\n'
            f'  File "{site}/cv2/__init__.py", line 9, in <module>\n    from .cv2 import _registerMatType\n'
            f"ImportError: cannot import name '_registerMatType' from 'cv2.cv2' ({path})\n")


def test_a_librarys_code_lacking_a_name_of_its_own_compiled_module_is_two_installs_of_it(tmp_path):
    rc = _diagnose(tmp_path, _cv2_import("/venv/lib/python3.9/site-packages/cv2/cv2.cpython-39-x86_64-linux-gnu.so"))
    assert rc.cause == CauseId.dependency_version_mismatch
    # a Python module of its own (not the compiled one) may be the library's own bug: not read so
    rc = _diagnose(tmp_path, _cv2_import("/venv/lib/python3.9/site-packages/cv2/cv2.py"))
    assert rc.cause != CauseId.dependency_version_mismatch


def test_a_missing_part_of_numpy_is_a_numpy_release_without_it(tmp_path):
    assert _diagnose(tmp_path, "ModuleNotFoundError: No module named 'numpy.typing'\n").cause == \
        CauseId.dependency_version_mismatch
    # its C extension missing, raised from numpy's own files, is a broken install of it, not a release
    broken = ("Traceback (most recent call last):\n"
              '  File "/venv/lib/python3.9/site-packages/numpy/core/__init__.py", line 22, in <module>\n'
              "    from . import multiarray\n"
              "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'\n")
    assert _diagnose(tmp_path, broken).cause == CauseId.python_exception
    # numpy itself missing is another story (another interpreter, Paddle's own dependency)
    assert _diagnose(tmp_path, "ModuleNotFoundError: No module named 'numpy'\n").cause == CauseId.python_exception


def test_a_tensorrt_engine_without_a_network_is_tensorrt_asked_of_a_build_that_cannot(tmp_path):
    text = ("ValueError: (InvalidArgument) The TRT network should be initialized first.\n  [Hint: Expected network() != "
            "nullptr == true, but received network() != nullptr:0 != true:1.] (at /paddle/paddle/fluid/inference/tensorrt/"
            "engine.cc:250)\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")


def test_fluids_early_feeder_batch_dimension_check_is_code_of_a_newer_fluid(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/u/anaconda3/lib/python3.7/site-packages/paddle/fluid/data_feeder.py", line 161, in __init__\n'
            "    each_var.name)\n"
            "ValueError: ('Variable {0} must has a batch size dimension', 'items')\n")
    assert _diagnose(tmp_path, text).cause == CauseId.paddle_api_mismatch


def _swig_traceback(call: str, name: str) -> str:
    swig = "/usr/local/lib/python2.7/dist-packages/py_paddle/swig_paddle.py"
    return ("Traceback (most recent call last):\n"
            '  File "gan_trainer.py", line 69, in copy_shared_parameters\n'
            f"    {call}\n"
            f'  File "{swig}", line 708, in <lambda>\n'
            "    __getattr__ = lambda self, name: _swig_getattr(self, Vector, name)\n"
            f'  File "{swig}", line 57, in _swig_getattr\n'
            "    raise AttributeError(name)\n"
            f"AttributeError: {name}\n")


def test_paddles_swig_api_lacking_what_the_code_calls_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, _swig_traceback("dst_value.copyFrom(src_value)", "copyFrom"))
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium")
    # a name the caller's line does not ask for is no call of the code's own (swig looked it up for itself)
    assert _diagnose(tmp_path, _swig_traceback("dst_value.copyFrom(src_value)", "this")).cause == \
        CauseId.python_exception


def test_an_executor_refusing_a_program_of_its_own_name_is_another_paddle(tmp_path):
    text = ("TypeError: Executor requires Program as its Parameter. But you passed in "
            "<class 'paddle.fluid.framework.Program'>\n")
    assert _diagnose(tmp_path, text).cause == CauseId.paddle_api_mismatch
    # anything else passed is the code's own slip
    other = text.replace("paddle.fluid.framework.Program", "NoneType")
    assert _diagnose(tmp_path, other).cause == CauseId.python_exception


# --- batch123: building and linking against the inference libraries, the Lite demos, the container toolkit ---

@pytest.mark.parametrize("line, cause", [
    ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: could not apply "
     "required modification to OCI specification: error modifying OCI spec: failed to locate NVIDIA Container Runtime "
     "Hook: pattern nvidia-container-runtime-hook not found: unknown.", CauseId.device_not_found),
    ("[F  8/ 5 16:17:51.482 ...rkspace/Paddle-Lite/lite/core/program.cc:185 RuntimeProgram] Check failed: op: no Op "
     "found for feed", CauseId.config_error),
    ("[F 10/15 20:31:47. 20 .../Paddle-Lite/lite/core/program.cc:141 Build] Check failed: op: no Op found for "
     "depthwise_conv2d_transpose", CauseId.paddle_api_mismatch),
    ("[F  1/ 6 17:15:49.431 ...optimizer/mir/static_kernel_pick_pass.cc:126 Apply] Check failed: one_adj_instruct."
     "op_info()->HasInputScale(out_node_name): ", CauseId.paddle_api_mismatch),
    ("paddle_inference_api.h:84: warning: defaulted and deleted functions only available with -std=c++0x or "
     "-std=gnu++0x", CauseId.config_error),
    ("/usr/include/c++/4.8/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library support for "
     "the ISO C++ 2011 standard. This support is currently experimental, and must be enabled with the -std=c++11 or "
     "-std=gnu++11 compiler options.", CauseId.config_error),
    ("third_libs/install/paddlelite/lib/libpaddle_full_api_shared.so: file not recognized: File format not recognized",
     CauseId.config_error),
    ("error LNK2038: mismatch detected for 'RuntimeLibrary': value 'MT_StaticRelease' doesn't match value "
     "'MD_DynamicRelease' in test_seg.obj", CauseId.config_error),
    ("libpaddle_fluid.lib(tensor.obj) : error LNK2038: 检测到“_ITERATOR_DEBUG_LEVEL”的不匹配项: 值“0”不匹配值“2”(clipper.obj 中)",
     CauseId.config_error),
    ("In node -1 (importRange): UNSUPPORTED_NODE: Assertion failed: inputs.at(0).isInt32() && \"For range operator "
     "with dynamic inputs, this version of TensorRT only supports INT32!\"", CauseId.dependency_version_mismatch),
    ("ld: symbol(s) not found for architecture arm64", CauseId.dependency_version_mismatch),
    ("Check failed: input_names_.size() > offset: The network has 1 inputs, the offset should be less than this.",
     CauseId.python_exception),
])
def test_build_link_and_deploy_messages_name_their_cause(tmp_path, line, cause):
    assert _diagnose(tmp_path, line + "\n").cause == cause


def test_a_check_failed_inside_prose_is_no_check(tmp_path):
    assert _diagnose(tmp_path, "the docs say a Check failed: line means nothing here\n") is None


def _normalize_traceback(where: str, func: str) -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "/opt/conda/lib/python3.7/site-packages/{where}", line 565, in {func}\n'
            "    img = (img - mean) / std\n"
            "ValueError: operands could not be broadcast together with shapes (1444,1444,3) (3,1,1) \n")


def test_normalize_that_cannot_broadcast_is_the_images_layout_against_data_format(tmp_path):
    rc = _diagnose(tmp_path, _normalize_traceback("paddle/vision/transforms/functional_cv2.py", "normalize"))
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")
    # the same numpy error in a suite's own transform is not Normalize's setting
    rc = _diagnose(tmp_path, _normalize_traceback("ppocr/data/imaug/fce_targets.py", "generate_center_region_mask"))
    assert rc.cause == CauseId.python_exception


@pytest.mark.parametrize("kind", ["common::enforce::EnforceNotMet", "pir::IrNotMetException"])
def test_paddle_3s_own_uncaught_errors_are_no_crash_of_cpp_terminate(tmp_path, kind):
    rc = _diagnose(tmp_path, f"terminate called after throwing an instance of '{kind}'\n")
    assert rc is None or rc.cause != CauseId.segfault


# --- the second review's negatives ---

def test_a_cxx11_warning_alone_is_no_failure_and_does_not_take_a_link_error(tmp_path):
    ok = "main.cc:10: warning: rvalue references only available with -std=c++0x or -std=gnu++0x\n[100%] Built target demo\n"
    rc = _diagnose(tmp_path, ok)
    assert rc is None or rc.confidence.value == "low"
    link = ("foo.h:10:5: warning: extended initializer lists only available with -std=c++11 or -std=gnu++11 [enabled by "
            "default]\nmain.cc:(.text+0x1a): undefined reference to `paddle::CreatePaddlePredictor(int)'\n")
    assert _diagnose(tmp_path, link).cause == CauseId.dependency_version_mismatch


def test_lnk2038_of_another_visual_studio_is_not_the_runtime_setting(tmp_path):
    line = "error LNK2038: mismatch detected for '_MSC_VER': value '1900' doesn't match value '1800' in main.obj\n"
    rc = _diagnose(tmp_path, line)
    assert rc is None or rc.cause != CauseId.config_error


def test_normalize_given_another_channel_count_is_not_the_layout(tmp_path):
    text = _normalize_traceback("paddle/vision/transforms/functional_cv2.py", "normalize").replace(
        "(1444,1444,3) (3,1,1)", "(224,224,4) (1,1,3)")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception
    # the HWC mean on a CHW image is the layout too, and a paste that cut the second shape still says which axis
    chw = _normalize_traceback("paddle/vision/transforms/functional_cv2.py", "normalize").replace(
        "(1444,1444,3) (3,1,1)", "(3,224,224) (1,1,3)")
    assert _diagnose(tmp_path, chw).cause == CauseId.config_error
    cut = _normalize_traceback("paddle/vision/transforms/functional_cv2.py", "normalize").replace("(3,1,1) ", "(3,1")
    assert _diagnose(tmp_path, cut).cause == CauseId.config_error


def test_swig_3s_worded_attribute_error_and_a_name_the_line_does_not_call(tmp_path):
    worded = _swig_traceback("dst_value.copyFrom(src_value)", "'Vector' object has no attribute 'copyFrom'")
    assert _diagnose(tmp_path, worded).cause == CauseId.paddle_api_mismatch
    # a prefix of a name the line calls is not that name
    assert _diagnose(tmp_path, _swig_traceback("m.copy(x)", "cop")).cause == CauseId.python_exception


def test_tensorrt_8_6s_node_format_and_a_missing_plugin(tmp_path):
    new = ("In node 12 with name: /Range and operator: Range (importRange): UNSUPPORTED_NODE: Assertion failed: "
           "inputs.at(0).isInt32()\n")
    assert _diagnose(tmp_path, new).cause == CauseId.dependency_version_mismatch
    plugin = ("In node 3 (importFallbackPluginImporter): UNSUPPORTED_NODE: Assertion failed: creator && \"Plugin not "
              "found, are the plugin name, version, and namespace correct?\"\n")
    rc = _diagnose(tmp_path, plugin)
    assert rc is None or rc.cause != CauseId.dependency_version_mismatch


def test_a_program_class_of_another_package_is_no_other_paddle(tmp_path):
    text = ("TypeError: Executor requires Program as its Parameter. But you passed in "
            "<class 'myproj.framework.Program'>\n")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


def test_warnings_that_name_a_lite_op_or_the_container_hook_are_no_failure(tmp_path):
    lite = "W1206 10:00:00.000 123 program.cc:185] no Op found for feed, fall back\n[100%] done\n"
    rc = _diagnose(tmp_path, lite)
    assert rc is None or rc.cause != CauseId.config_error
    hook = "WARN[0000] failed to locate NVIDIA Container Runtime Hook, falling back\nepoch 1 loss 0.5\n"
    rc = _diagnose(tmp_path, hook)
    assert rc is None or rc.cause != CauseId.device_not_found
    # Lite's quantized-scale check pasted without its header is still that check
    bare = "Check failed: one_adj_instruct.op_info()->HasInputScale(out_node_name): \n"
    assert _diagnose(tmp_path, bare).cause == CauseId.paddle_api_mismatch


def test_logcat_lines_among_a_messages_indented_continuations_keep_their_prefix(tmp_path):
    app = "2022-02-18 16:38:17.958 13106-13149/com.baidu.paddle.lite.demo.object_detection"
    text = (f"{app} W/Paddle-Lite: [W  2/18 16:38:17.804 ...lite/model_parser/model_parser.cc:1 f] \n"
            "    warning: the version of opt that transformed this model is not consistent with current Paddle-Lite.\n"
            "          version of opt:v2.10\n"
            "          version of current Paddle-Lite:v2.10-rc\n"
            f"{app} I/Predictor: Word label size: 6\n"
            f"{app} A/Paddle-Lite: [F  2/18 16:38:17.958 ...lite/core/program.cc:692 Run] Check failed: op_->CheckShape(): \n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception and "CheckShape" in rc.message
