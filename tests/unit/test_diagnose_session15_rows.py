"""Readings added in issue 29's fifteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def _diagnose(tmp_path, text):
    return root_cause_of(tmp_path, text)


# --- a glog line glued to a print that did not end its line ------------------------------------------------------

_GLUED = ("get_startup_program() is deprecated, call get_pserver_programs() to get pserver main and startup in a single "
          "call.{sep}F1114 03:19:54.470163    96 listen_and_serv_op.cc:73] run sub program:9 error Input rows index "
          "should less than height at [/Paddle/Paddle/paddle/fluid/operators/sgd_op.h:113]\n")


def test_a_glog_fatal_line_glued_after_a_print_is_read_as_the_error(tmp_path):
    rc = _diagnose(tmp_path, _GLUED.format(sep=""))
    assert rc.cause == CauseId.python_exception and "Input rows index" in rc.message, (rc.cause, rc.code, rc.message)
    assert not rc.message.startswith("get_startup_program"), rc.message


def test_the_same_glued_line_without_the_header_is_no_error(tmp_path):
    rc = _diagnose(tmp_path, _GLUED.format(sep="").replace("F1114 03:19:54.470163    96 listen_and_serv_op.cc:73] ", ""))
    assert rc is None or "Input rows index" not in rc.message or rc.cause != CauseId.python_exception or \
        rc.code != "fatal_log_line", (rc and rc.code)


def test_a_glued_glog_check_is_read_as_the_check(tmp_path):
    rc = _diagnose(tmp_path, "Start training...F0627 17:52:19.446719 22211 PythonUtil.h:211] Check failed: "
                             "PySequence_Check(seq_)\n")
    assert rc.code == "v1_data_provider_check" or rc.code == "glog_check_failed", (rc.code, rc.why)


def test_a_word_ending_in_f_and_digits_is_not_a_glued_header(tmp_path):
    # "0xF1114" and "REF1114" run into the digits of a word: no punctuation before the F, so no header
    rc = _diagnose(tmp_path, "value REF1114 03:19:54.470163    96 x.cc:73] all good\n")
    assert rc is None or rc.code != "fatal_log_line", (rc.code, rc.why)


# --- an assertion that quotes an API call, not a value --------------------------------------------------------

def test_only_support_a_quoted_call_in_a_mode_is_not_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "AssertionError: We only support 'to_tensor()' in dynamic graph mode, please call "
                             "'paddle.disable_static()' to enter dynamic graph mode.\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_only_support_a_quoted_value_is_still_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: We only support ['resnet50', 'mobilenet'] as the backbone, got vgg\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


# --- converters ---------------------------------------------------------------------------------------------

def test_anakins_factory_without_the_op_is_the_converted_models_release(tmp_path):
    rc = _diagnose(tmp_path, "   0| 16:01:55.00997| 0.221s| main_thread| input.cpp:19]  |-- shape [3]: 227\n"
                             "FTL| 16:01:55.00997| 0.221s| main_thread| factory.h:37] LRN has not been registered!\n"
                             "***  fatal error: stack trace: ***\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "anakin_op_unregistered", (rc.cause, rc.code)
    assert "LRN" in rc.message and rc.confidence.value == "medium", rc.message


def test_anakins_alias_of_an_unregistered_op_names_the_alias(tmp_path):
    rc = _diagnose(tmp_path, "FTL| 16:01:55.00997| 0.221s| main_thread| factory.h:51] Pooling 's original Pool has "
                             "not been registered!\n")
    assert rc.code == "anakin_op_unregistered" and "Pooling" in rc.message, (rc.code, rc.message)


# --- the interpreter, the suites' downloads -------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Could not find platform independent libraries <prefix>\nCould not find platform dependent libraries <exec_prefix>\n"
    "Consider setting $PYTHONHOME to <prefix>[:<exec_prefix>]\nImportError: No module named site\n",
    "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding\nPython runtime "
    "state: core initialized\nModuleNotFoundError: No module named 'encodings'\n",
    "Fatal Python error: initfsencoding: unable to load the file system codec\nModuleNotFoundError: No module named "
    "'encodings'\n",
])
def test_an_interpreter_without_its_standard_library_is_its_home_setting(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error and rc.code == "python_home_unfound", (rc.cause, rc.code)
    assert "PYTHONHOME" in rc.message


def test_a_missing_module_named_site_alone_is_not_read_as_the_home(tmp_path):
    rc = _diagnose(tmp_path, "ModuleNotFoundError: No module named 'site_packages_helper'\n")
    assert rc.code != "python_home_unfound", rc.code


@pytest.mark.parametrize("url", [
    "https://paddlenlp.bj.bcebos.com/models/transformers/community/rocketqa-zh-dureader-query-encoder/"
    "model_state.pdparams",
    "https://bj.bcebos.com/paddlenlp/models/community/junnyu/tiny-bert/model_config.json",
])
def test_a_paddlenlp_community_404_is_a_model_this_release_does_not_know(tmp_path, url):
    rc = _diagnose(tmp_path, f"RuntimeError: Downloading from {url} failed with code 404!\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "paddlenlp_community_model_unknown", rc.code
    assert rc.confidence.value == "medium"


def test_another_download_failure_is_not_the_community_row(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: Downloading from https://paddlenlp.bj.bcebos.com/models/transformers/ernie/"
                             "ernie_v1_chn_base.pdparams failed with code 503!\n")
    assert rc.code != "paddlenlp_community_model_unknown", rc.code


# --- a library bound to None by a quiet failed import ----------------------------------------------------------

def _none_call(source: str, attr: str = "imdecode") -> str:
    return ("Traceback (most recent call last):\n  File \"/usr/local/lib/python2.7/dist-packages/paddle/v2/image.py\", "
            f"line 131, in load_image_bytes\n    {source}\nAttributeError: 'NoneType' object has no attribute '{attr}'\n")


def test_a_call_on_a_library_name_that_is_none_is_its_failed_import(tmp_path):
    rc = _diagnose(tmp_path, _none_call("img = cv2.imdecode(file_bytes, flag)"))
    assert rc.cause == CauseId.dependency_version_mismatch and "cv2" in rc.why, (rc.cause, rc.why)


@pytest.mark.parametrize("source,attr", [("img = reader.imdecode(file_bytes)", "imdecode"),
                                         ("rows = datasets.map(fn)", "map"),
                                         ("img = cv2.imread(path)", "shape")])
def test_none_of_a_variable_or_another_attribute_is_not_a_failed_import(tmp_path, source, attr):
    rc = _diagnose(tmp_path, _none_call(source, attr))
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)


# --- a model under a Windows path Paddle cannot open ------------------------------------------------------------

def _predictor(user: str, exc: str = "RuntimeError: Unknown exception",
               source: str = "predictor = create_paddle_predictor(config)") -> str:
    return ("Traceback (most recent call last):\n  File \"ocr.py\", line 3, in <module>\n"
            "    ocr = hub.Module(name=\"chinese_ocr_db_crnn_mobile\")\n"
            f"  File \"C:\\Users\\{user}\\.paddlehub\\modules\\chinese_ocr_db_crnn_mobile\\module.py\", line 84, in "
            f"_set_config\n    {source}\n{exc}\n")


def test_a_predictor_under_a_non_ascii_windows_path_is_the_path(tmp_path):
    rc = _diagnose(tmp_path, _predictor("华康"))
    assert rc.cause == CauseId.file_not_found and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert "ASCII" in rc.why


@pytest.mark.parametrize("kwargs", [{"user": "hua"}, {"user": "华康", "source": "result = model.predict(img)"},
                                    {"user": "华康", "exc": "TypeError: an integer is required"}])
def test_an_ascii_path_another_call_or_another_error_is_not_read_so(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _predictor(**kwargs))
    assert not (rc.cause == CauseId.file_not_found and "ASCII" in rc.why), (rc.cause, rc.why)


# --- batch 94: inline code, the linkers and loaders, Lite's targets, 0.x's launcher script, a refused keyword ------

def test_an_exception_line_quoted_as_inline_code_is_read(tmp_path):
    rc = _diagnose(tmp_path, "不引入，执行\n`fetch_map = client.predict(feed={\"x\": np.array(data)}, fetch=[\"price\"])`\n报错\n"
                             "`NameError: name 'np' is not defined`\n")
    assert rc.cause == CauseId.python_exception and "NameError" in rc.message, (rc.cause, rc.message)


def test_a_line_with_inline_code_inside_it_is_left_as_it_is(tmp_path):
    # backticks inside the line (not around all of it) are the line's own text
    rc = _diagnose(tmp_path, "ValueError: `x` must be positive, got `-1`\n")
    assert "`x`" in rc.message, rc.message


def test_an_undefined_reference_of_another_library_is_its_version(tmp_path):
    rc = _diagnose(tmp_path, "../libpaddle_math.a(MathFunctions.cpp.o): In function `int paddle::getrf<float>()':\n"
                             "/root/paddle/paddle/math/MathFunctions.cpp:91: undefined reference to `LAPACKE_sgetrf'\n"
                             "collect2: error: ld returned 1 exit status\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "linker_symbol_undefined", (rc.cause, rc.code)
    assert "LAPACKE_sgetrf" in rc.message and rc.confidence.value == "medium"


def test_an_undefined_reference_of_paddles_c_api_stays_the_c_api_row(tmp_path):
    rc = _diagnose(tmp_path, "main.c:(.text+0x1a): undefined reference to `PD_NewAnalysisConfig'\n")
    assert rc.code == "c_api_symbol_missing", rc.code


def test_a_symbol_version_not_defined_is_another_build_of_the_library(tmp_path):
    rc = _diagnose(tmp_path, "paddle/fluid/../libs/libmklml_intel.so: symbol __kmpc_omp_task_with_deps, version VERSION "
                             "not defined in file libiomp5.so with link time reference\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "symbol_version_undefined", rc.code
    assert "libiomp5.so" in rc.message


def test_macos_dyld_without_a_symbol_is_a_build_for_another_macos(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: dlopen(/u/lib/python3.9/site-packages/paddle/fluid/libpaddle.so, 2): Symbol not "
                             "found: __ZNSt3__113basic_filebufIcNS_11char_traitsIcEEE5closeEv\n  Referenced from: /u/lib/"
                             "python3.9/site-packages/paddle/fluid/libpaddle.so (which was built for Mac OS X 13.0)\n"
                             "  Expected in: /usr/lib/libc++.1.dylib\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "macos_symbol_not_found", rc.code


@pytest.mark.parametrize("target,cause", [("nnadapter", CauseId.config_error), ("opencl", CauseId.config_error),
                                          ("arm", CauseId.paddle_api_mismatch), ("x86", CauseId.paddle_api_mismatch)])
def test_lite_opt_without_a_cpu_target_is_the_targets_given(tmp_path, target, cause):
    rc = _diagnose(tmp_path, f"Error: This model is not supported, because 1 ops are not supported on '{target}'. These "
                             "unsupported ops are: 'rnn'.\n")
    assert rc.cause == cause, (target, rc.cause, rc.code)


def test_paddle_0x_launcher_script_failing_is_the_launcher(tmp_path):
    rc = _diagnose(tmp_path, "/usr/local/bin/paddle: line 82: [: 1.0.2: binary operator expected\n  File \"<stdin>\", "
                             "line 3\n    if LooseVersion(\"1.0.2\n                         ^\nSyntaxError: EOL while "
                             "scanning string literal\n")
    assert rc.cause == CauseId.launcher_bug and rc.code == "v1_paddle_script_error", (rc.cause, rc.code)


def test_a_start_scripts_bash_error_is_not_paddles_launcher_but_what_it_says(tmp_path):
    rc = _diagnose(tmp_path, "./run.sh: line 12: python3: command not found\n")
    assert rc.cause == CauseId.launcher_python_not_found and rc.code == "shell_python_not_found", (rc.cause, rc.code)


def _keyword(source: str, path: str = "tools/train.py", message: str = "__init__() got an unexpected keyword "
             "argument 'output'") -> str:
    return (f"Traceback (most recent call last):\n  File \"{path}\", line 165, in main\n    {source}\n"
            f"TypeError: {message}\n")


def test_a_keyword_the_callee_refuses_at_the_users_call_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, _keyword("logger = Logger(output=args.save_dir)"))
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert any(a.cause == CauseId.python_exception for a in rc.alternatives) or "misspel" in rc.why, rc.why


@pytest.mark.parametrize("kwargs", [
    {"message": "main() missing 1 required positional argument: 'args'", "source": "main()"},
    {"path": "/usr/lib/python3.8/site-packages/somelib/core.py", "source": "fn(x, mode=1)"},
])
def test_other_type_errors_or_a_librarys_own_call_are_not_read_so(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _keyword(**kwargs))
    assert f"the call `{kwargs['source']}` passes a keyword" not in rc.why, rc.why


@pytest.mark.parametrize("what", ["image and label path, so the space cannot be in the image or label path",
                                  "source and target image path, so the space cannot be in the source image or target "
                                  "image path"])
def test_paddlex_file_list_with_a_space_in_a_path_is_the_data_given(tmp_path, what):
    rc = _diagnose(tmp_path, f"Exception: A space is defined as the delimiter to separate the {what}, but the "
                             "line[JPEGImages\\1007 (2).jpg Annotations\\1007 (2).png\n] of\n")
    assert rc.cause == CauseId.config_error and rc.code == "paddlex_file_list_space", (rc.cause, rc.code)


# --- batch 95 -------------------------------------------------------------------------------------------------------

def test_a_version_part_evaluated_as_a_name_is_a_pre_release_paddle(tmp_path):
    rc = _diagnose(tmp_path, "  File \"E:\\env\\Lib\\site-packages\\paddleclas\\deploy\\utils\\predictor.py\", line 60, in "
                             "create_paddle_predictor\n    pd_version = 10 * pd_version + eval(v)\n  File \"<string>\", "
                             "line 1, in <module>\nNameError: name 'beta2' is not defined\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "paddle_version_part_evaluated", (rc.cause, rc.code)


def test_another_undefined_name_is_not_a_version_part(tmp_path):
    rc = _diagnose(tmp_path, "NameError: name 'betas' is not defined\n")
    assert rc.code != "paddle_version_part_evaluated", rc.code


def test_a_cut_symbol_lookup_error_is_a_library_of_another_build(tmp_path):
    rc = _diagnose(tmp_path, "/env/site-packages/paddle_serving_server/serving-cpu-avx-mkl-0.9.0/serving: symbol lookup "
                             "error: /env/site-packages/paddle_serving_server\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "native_symbol_lookup_error", rc.code


@pytest.mark.parametrize("lib,sym,cause", [
    ("/home/u/proj/ops/nms_impl.so", "_Z16nms_cuda_forwardRKN6paddle12experimental6TensorES3_fl",
     CauseId.python_exception),
    ("/home/u/proj/ops/nms_impl.so", "_ZN6paddle12experimental6Tensor5shapeEv", CauseId.dependency_version_mismatch),
    ("/usr/lib/python3.8/site-packages/fastdeploy/libs/libx.so", "_Z9my_kernelv", CauseId.dependency_version_mismatch),
])
def test_an_undefined_symbol_of_a_library_built_here_is_its_own_only_when_unscoped(tmp_path, lib, sym, cause):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
                             f"ImportError: {lib}: undefined symbol: {sym}\n")
    assert rc.cause == cause, (lib, sym, rc.cause, rc.code)


def test_a_pir_attribute_of_another_type_is_a_model_of_another_release(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: (InvalidArgument) Type of attribute: strides is not right.\n  [Hint: Expected "
                             "attributes.at(\"strides\").dyn_cast<pir::ArrayAttribute>().at(i).isa<pir::Int32Attribute>()"
                             " == true, but received ...:0 != true:1.] (at /paddle/build/paddle/fluid/pir/dialect/"
                             "operator/ir/pd_op3.cc:29084)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "pir_attribute_type", (rc.cause, rc.code)


def test_fluids_read_op_without_its_reader_is_the_feeding_thread(tmp_path):
    rc = _diagnose(tmp_path, "----------------------\nError Message Summary:\n----------------------\nError: Paddle internal "
                             "Check failed. (Please help us create a new issue)\n  [Hint: reader_ should not be null.] at "
                             "(/paddle/paddle/fluid/framework/reader.h:110)\n  [operator < read > error]\n")
    assert rc.cause == CauseId.dataloader_worker_crash and rc.confidence.value == "medium", (rc.cause, rc.code)


def test_paddlex_high_performance_inference_without_a_backend_is_the_setting(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: No inference backend and configuration could be suggested. Reason: "
                             "'PP-LCNet_x1_0_textline_ori' is not a known model.\n")
    assert rc.cause == CauseId.config_error and rc.code == "paddlex_hpi_no_backend", (rc.cause, rc.code)


@pytest.mark.parametrize("code,crash", [("-1073741795", True), ("3221225501", True), ("126", False)])
def test_a_dll_load_failing_with_the_illegal_instruction_status_is_the_crash(tmp_path, code, crash):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"paddle\\fluid\\core.py\", line 269, in "
                             f"<module>\nImportError: DLL load failed with error code {code}\n")
    assert (rc.code == "windows_illegal_instruction") == crash, (code, rc.code)


# --- batch 96 -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["[2020/12/31 11:11:56] root ERROR: error in loading image:F:\\DataSets\\车牌\\藏ED2029.jpg",
                                  "[2023/05/01 10:00:00] ppocr INFO: error in loading image:./doc/imgs/11.jpg"])
def test_paddleocrs_image_that_cv2_could_not_read_is_the_file(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.file_not_found and rc.code == "ppocr_image_unloaded", (rc.cause, rc.code)
    assert rc.confidence.value == "medium"
