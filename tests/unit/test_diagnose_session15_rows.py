"""Readings added in issue 29's fifteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


# --- a glog line glued to a print that did not end its line ------------------------------------------------------

_GLUED = ("get_startup_program() is deprecated, call get_pserver_programs() to get pserver main and startup in a single "
          "call.{sep}F1114 03:19:54.470163    96 listen_and_serv_op.cc:73] run sub program:9 error Input rows index "
          "should less than height at [/Paddle/Paddle/paddle/fluid/operators/sgd_op.h:113]\n")


def test_a_glog_fatal_line_glued_after_a_print_is_read_as_the_error(tmp_path):
    rc = _diagnose(tmp_path, _GLUED.format(sep=""))
    assert rc.cause == CauseId.python_exception and rc.code in ("enforce_hint", "fatal_log_line"), (rc.cause, rc.code)
    assert "Input rows index" in rc.message and "get_startup_program" not in rc.message, rc.message


def test_a_glued_glog_check_is_read_as_the_check(tmp_path):
    rc = _diagnose(tmp_path, "Epoch 1 done.F0627 17:52:19.446719 22211 some_op.cc:211] Check failed: x == y (1 vs. 2)\n")
    assert rc.code == "glog_check_failed" and "x == y" in rc.message, (rc.code, rc.message)


@pytest.mark.parametrize("line", ["F0627 17:52:19.446719 22211 some_op.cc:211] Check failed: x == y (1 vs. 2)",
                                  "Epoch 1 done.F0627 17:52:19.446719 22211 some_op.cc:211] Check failed: x == y (1 vs. 2)"])
def test_the_error_parts_read_a_glued_glog_check_as_its_own_line(line):
    from paddle_doctor.diagnose.anatomy.parts import parse_block
    parts = parse_block([line])
    assert (parts.exc_type, parts.message) == ("CheckFailed", "x == y (1 vs. 2)")


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


@pytest.mark.parametrize("text", ["Could not find platform independent libraries <prefix>\n",
                                  "ModuleNotFoundError: No module named 'site_packages_helper'\n"])
def test_the_prefix_warning_alone_or_another_module_is_not_read_as_the_home(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc is None or rc.code != "python_home_unfound", rc.code


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


@pytest.mark.parametrize("target,cause", [("nnadapter", CauseId.config_error), ("huawei_ascend_npu", CauseId.config_error),
                                          ("opencl", CauseId.paddle_api_mismatch),
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
    assert rc.cause == CauseId.launcher_python_not_found and rc.code == "script_python_not_found", (rc.cause, rc.code)


def _keyword(source: str, path: str = "tools/train.py", message: str = "__init__() got an unexpected keyword "
             "argument 'output'") -> str:
    return (f"Traceback (most recent call last):\n  File \"{path}\", line 165, in main\n    {source}\n"
            f"TypeError: {message}\n")


def test_a_keyword_the_callee_refuses_at_the_users_call_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, _keyword("logger = Logger(output=args.save_dir)"))
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert rc.alternatives[0].cause == CauseId.python_exception, rc.alternatives


@pytest.mark.parametrize("kwargs", [
    {"message": "main() missing 1 required positional argument: 'args'", "source": "main()"},
    {"path": "/usr/lib/python3.8/site-packages/somelib/core.py", "source": "fn(x, mode=1)"},
    {"source": "json.dumps(cfg, indnt=2)", "message": "dumps() got an unexpected keyword argument 'indnt'. Did you mean "
     "'indent'?"},
    {"source": "", "message": "f() got an unexpected keyword argument 'k'"},
])
def test_other_type_errors_a_named_misspelling_or_a_librarys_own_call_are_not_read_so(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _keyword(**kwargs))
    assert "passes a keyword the function it calls does not take" not in rc.why, rc.why


def test_a_keyword_refused_by_the_users_own_function_is_the_users_slip(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 90, in main\n    evaluate(m)\n"
                             "  File \"train.py\", line 12, in evaluate\n    evaluate(m, epochs=3)\n"
                             "TypeError: evaluate() got an unexpected keyword argument 'epochs'\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_another_objects_method_named_like_the_users_function_is_still_another_release(tmp_path):
    # the user's own train() calls PaddleX's model.train(..., use_vdl=True): the method is PaddleX's, not the user's
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 90, in <module>\n    train(args)\n"
                             "  File \"train.py\", line 40, in train\n    model.train(num_epochs=100, use_vdl=True)\n"
                             "TypeError: train() got an unexpected keyword argument 'use_vdl'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("what", ["image and label path, so the space cannot be in the image or label path",
                                  "source and target image path, so the space cannot be in the source image or target "
                                  "image path"])
def test_paddlex_file_list_with_a_space_in_a_path_is_the_data_given(tmp_path, what):
    rc = _diagnose(tmp_path, f"Exception: A space is defined as the delimiter to separate the {what}, but the "
                             "line[JPEGImages\\1007 (2).jpg Annotations\\1007 (2).png\n] of\n")
    assert rc.cause == CauseId.config_error and rc.code == "paddlex_file_list_space", (rc.cause, rc.code)


# --- what the review of the session's rows found (session 15) ----------------------------------------------------

@pytest.mark.parametrize("line", ["ValueError: 请对'image_shape'设置正确的值", "[ERROR] 对'config.yml'的解析失败"])
def test_chinese_prose_with_dui_and_quotes_is_not_the_linker(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is None or rc.code != "linker_symbol_undefined", rc.code


def test_the_linkers_zh_cn_undefined_reference_is_read(tmp_path):
    rc = _diagnose(tmp_path, "a.cpp:(.text+0x1a)：对‘LAPACKE_sgetrf’未定义的引用\ncollect2: 错误：ld 返回 1\n")
    assert rc.code == "linker_symbol_undefined" and "LAPACKE_sgetrf" in rc.message, (rc.code, rc.message)


@pytest.mark.parametrize("name", ["dev", "rc", "beta"])
def test_a_bare_pre_release_word_is_a_name_not_a_version_part(tmp_path, name):
    rc = _diagnose(tmp_path, f"NameError: name '{name}' is not defined\n")
    assert rc.code != "paddle_version_part_evaluated", rc.code


@pytest.mark.parametrize("line,code", [("/home/u/paddle: line 3: cd: /data: No such file or directory", None),
                                       ("/usr/local/bin/paddle: line 82: python: command not found",
                                        "script_python_not_found")])
def test_a_script_named_paddle_or_what_another_row_reads_is_not_the_launcher_script(tmp_path, line, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is None or rc.code != "v1_paddle_script_error", rc.code
    assert code is None or rc.code == code, rc.code


@pytest.mark.parametrize("line", ["zsh: command not found: python3", "./run.sh:3: command not found: python"])
def test_zshs_command_not_found_is_no_python(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.code == "script_python_not_found", rc and rc.code


def test_a_first_try_without_python_yields_to_the_error_of_the_run_after_it(tmp_path):
    rc = _diagnose(tmp_path, "% python train.py\nzsh: command not found: python\n% python3 train.py\nTraceback (most recent "
                             "call last):\n  File \"train.py\", line 3, in <module>\n    import paddle\nModuleNotFoundError: "
                             "No module named 'paddle'\n")
    assert rc.cause != CauseId.launcher_python_not_found, (rc.cause, rc.code)


def test_glibcs_newer_symbol_version_form_is_read(tmp_path):
    rc = _diagnose(tmp_path, "./demo: relocation error: ./demo: symbol foo version GLIBC_2.34 not defined in file "
                             "libc.so.6 with link time reference\n")
    assert rc.code == "symbol_version_undefined", rc.code


@pytest.mark.parametrize("line", ["dyld: Symbol not found: _PyCMethod_New", "dyld[1234]: Symbol not found: _foo",
                                  "ImportError: dlopen(/Users/u/My (env)/lib/x.so, 0x0002): symbol not found in flat "
                                  "namespace '_PyCMethod_New'"])
def test_dylds_other_forms_are_read(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.code == "macos_symbol_not_found", (line, rc and rc.code)


def test_a_lone_backticked_class_name_is_prose_and_bold_inline_code_is_read(tmp_path):
    assert _diagnose(tmp_path, "是不是需要 catch\n`RuntimeError`\n") is None
    rc = _diagnose(tmp_path, "**`ValueError: bad value`**\n")
    assert rc.cause == CauseId.python_exception and "bad value" in rc.message, rc.message


@pytest.mark.parametrize("message", ["RuntimeError: (InvalidArgument) The input tensor X's dimensions should be 4",
                                     "Exception: something unrelated happened"])
def test_a_users_non_ascii_folder_with_an_unrelated_error_is_not_the_path(tmp_path, message):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"C:\\Users\\张三\\Desktop\\infer.py\", line 9, "
                             f"in <module>\n    predictor = create_predictor(config)\n{message}\n")
    assert "ASCII" not in rc.why, rc.why


def test_a_linux_path_with_prose_after_a_windows_path_is_not_the_path(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/home/u/infer.py\", line 9, in <module>\n"
                             "    predictor = create_predictor(config)\nRuntimeError: Unknown exception, model_dir=C:\\models"
                             "\\det – see log\n")
    assert "ASCII" not in rc.why, rc.why


def test_torchs_global_symbol_is_not_the_librarys_own(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: /home/u/.cache/torch_extensions/foo/foo.so: undefined symbol: "
                             "_Z16THPVariable_WrapN2at10TensorBaseE\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


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


# --- pytest's forms of a failed test's exception ------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "tests/test_x.py:12: in test_train\n    model.fit(data)\nE   RuntimeError: (PreconditionNotMet) The parallel "
    "environment is not ready.\n",
    "FAILED tests/test_x.py::test_train - RuntimeError: (PreconditionNotMet) The parallel environment is not ready.\n",
])
def test_pytests_failure_lines_are_read_as_the_exception(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.python_exception and "parallel environment is not ready" in rc.message, rc.message


@pytest.mark.parametrize("line,plain_line", [
    ("E       RuntimeError: boom", "RuntimeError: boom"),
    ("FAILED tests/t.py::test_x[a b] - ValueError: x", "ValueError: x"),
    ("ERROR tests/test_x.py - ModuleNotFoundError: No module named 'x'", "ModuleNotFoundError: No module named 'x'"),
    ("E1216 14:35:24.967613  2666 server.cpp:965] Fail to listen", None),
    ("ERROR 2024-01-01 10:00:00 - ValueError: x", None),
    ("LAUNCH ERROR 2024-01-01 10:00:00 worker failed", None),
    ("FAILED to start the server - please retry", None),
])
def test_pytests_wrappers_are_taken_off_and_nothing_else(line, plain_line):
    from paddle_doctor.diagnose.read.markdown import plain
    assert plain(line) == (plain_line or line)


@pytest.mark.parametrize("line,plain_line", [("`Killed`", "Killed"), ("`RuntimeError`", None), ("**`ValueError: x`**",
                                              "ValueError: x"), ("`a` and `b`", None), ("  File \"a.py\", line 1", None)])
def test_inline_code_is_taken_off_a_whole_line_but_a_lone_exception_name_stays_prose(line, plain_line):
    from paddle_doctor.diagnose.read.markdown import plain
    assert plain(line) == (plain_line or line)


# --- a paste of a message's tail only ------------------------------------------------------------------------------

def test_the_allocators_advice_alone_is_out_of_device_memory(tmp_path):
    rc = _diagnose(tmp_path, "Please check whether there is any other process using GPU 0.\n1. If yes, please stop them, "
                             "or start PaddlePaddle on another GPU.\n2. If no, please decrease the batch size of your "
                             "model.\n (at D:\\v2.0.1\\paddle\\paddle\\fluid\\memory\\allocation\\cuda_allocator.cc:69)\n")
    assert rc.cause == CauseId.gpu_oom and rc.code == "device_oom_advice", (rc.cause, rc.code)


def test_advice_to_decrease_the_batch_size_in_prose_is_not_the_allocators(tmp_path):
    rc = _diagnose(tmp_path, "Tip: if training is slow, you may decrease the batch size of your model and retry.\n")
    assert rc is None or rc.code != "device_oom_advice", rc.code


def test_glogs_native_stack_alone_is_a_native_crash_at_low_confidence(tmp_path):
    rc = _diagnose(tmp_path, "    @        0x10a5d1205 paddle::TrainerInternal::trainOneBatch()\n"
                             "    @        0x10a5cea78 paddle::Trainer::trainOneDataBatch()\n"
                             "    @        0x10a4b0e0a main\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "low", (rc.cause, rc.confidence)


def test_glogs_stack_after_an_error_that_names_a_cause_leaves_the_verdict_to_it(tmp_path):
    rc = _diagnose(tmp_path, "Out of memory error on GPU 0. Cannot allocate 80.000000MB memory on GPU 0\n"
                             "    @     0x7fd50635ef9d  google::LogMessage::Fail()\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["    @property", "contact me @ 0xdeadbeef tomorrow please", "@   0x12 is a value"])
def test_other_at_signs_are_not_a_native_stack(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is None or rc.code != "glog_stack_frame", rc.code


@pytest.mark.parametrize("frames,cause", [
    ("4   paddle::memory::allocation::Allocator::Allocate(unsigned long)\n5   paddle::memory::allocation::RetryAllocator::"
     "AllocateImpl(unsigned long)\n6   paddle::memory::allocation::AllocatorFacade::Alloc(paddle::platform::Place const&, "
     "unsigned long)\n", CauseId.gpu_oom),
    ("3       0x7fdd810c49d5p paddle::memory::detail::BuddyAllocator::RefillPool() + 53\n5       0x7fdd810c1e25p void* "
     "paddle::memory::legacy::Alloc<paddle::platform::CPUPlace>(paddle::platform::CPUPlace const&, unsigned long) + 117\n",
     CauseId.host_out_of_memory),
])
def test_paddles_allocation_frames_alone_are_a_failed_allocation_at_low_confidence(tmp_path, frames, cause):
    rc = _diagnose(tmp_path, frames)
    assert rc.cause == cause and rc.confidence.value == "low", (rc.cause, rc.code)


def test_a_message_before_the_allocation_frames_decides(tmp_path):
    rc = _diagnose(tmp_path, "OSError: (External) CUDA error(700), an illegal memory access was encountered.\n"
                             "4   paddle::memory::allocation::Allocator::Allocate(unsigned long)\n")
    assert rc.cause == CauseId.cuda_error_other, (rc.cause, rc.code)


def test_fluids_out_of_memory_advice_alone_is_out_of_device_memory(tmp_path):
    rc = _diagnose(tmp_path, "2. If no, please try one of the following suggestions:\n   1) Decrease the batch size of your "
                             "model.\n   2) FLAGS_fraction_of_gpu_memory_to_use is 0.92 now, please set it to a higher "
                             "value but less than 1.0.\n at (/paddle/paddle/fluid/memory/detail/system_allocator.cc:151)\n")
    assert rc.cause == CauseId.gpu_oom and rc.code == "device_oom_advice", (rc.cause, rc.code)


@pytest.mark.parametrize("text,code", [
    ("backtrace:\n      #00 pc 000000000004a5c0  /apex/com.android.runtime/lib64/bionic/libc.so (memset+256)\n"
     "      #01 pc 00000000000ef340  libpaddle_light_api_shared.so (offset 0xa3f000)\n", "android_crash_frame"),
    ("#2  0x00007f3ddd5a4ed7 in __libc_message () from /lib64/libc.so.6\n#3  0x00007f3ddd5ad299 in _int_free () from "
     "/lib64/libc.so.6\n", "gdb_abort_frame"),
])
def test_android_and_gdb_crash_frames_alone_are_a_native_crash_at_low_confidence(tmp_path, text, code):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.segfault and rc.code == code and rc.confidence.value == "low", (rc.cause, rc.code)


def test_a_gdb_frame_of_a_waiting_process_is_not_an_abort(tmp_path):
    rc = _diagnose(tmp_path, "#0  0x00007f3ddd5a4ed7 in pthread_cond_wait@@GLIBC_2.3.2 () from /lib64/libpthread.so.0\n")
    assert rc is None or rc.code != "gdb_abort_frame", rc.code


# --- a model path with a space before its non-ASCII folder -------------------------------------------------------

def test_a_windows_path_with_a_space_before_its_non_ascii_folder_is_read_whole(tmp_path):
    rc = _diagnose(tmp_path, _predictor("hua", exc="RuntimeError: Failed to load model from "
                                        "C:\\Program Files\\模型\\inference.pdmodel", source="predictor = create_predictor(config)"))
    assert rc.cause == CauseId.file_not_found and "Program Files\\模型" in rc.why, (rc.cause, rc.why)


def test_a_path_followed_by_words_or_another_drive_stops_at_its_end():
    from paddle_doctor.diagnose.anatomy.calls import _WINDOWS_PATH

    found = [m.group(0) for m in _WINDOWS_PATH.finditer("C:\\a\\b.txt failed and D:\\c d\\e")]
    assert found == ["C:\\a\\b.txt", "D:\\c d\\e"]
