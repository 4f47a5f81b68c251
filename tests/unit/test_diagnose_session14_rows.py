"""Readings added in issue 29's fourteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def _diagnose(tmp_path, text):
    return root_cause_of(tmp_path, text)


def _post_init(exc: str = "ValueError", through_dataclass: bool = True, func: str = "__post_init__") -> str:
    built = '  File "<string>", line 87, in __init__\n' if through_dataclass else ""
    return ("Traceback (most recent call last):\n  File \"/w/llm/run_pretrain.py\", line 354, in main\n"
            "    model_args, data_args, training_args = parser.parse_args_into_dataclasses()\n"
            "  File \"/w/paddlenlp/trainer/argparser.py\", line 223, in parse_args_into_dataclasses\n"
            f"    obj = dtype(**inputs)\n{built}"
            f"  File \"/w/paddlenlp/trainer/training_args.py\", line 817, in {func}\n    raise {exc}(\n"
            f"{exc}: pipeline parallel is not compatible for sharding stage2 or stage3, please using sharding stage1\n")


def test_an_arguments_dataclass_rejecting_its_values_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, _post_init())
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert "__post_init__" in rc.why, rc.why


@pytest.mark.parametrize("kwargs", [{"through_dataclass": False}, {"func": "validate"}, {"exc": "TypeError"}])
def test_the_same_error_outside_a_dataclass_check_is_not_read_so(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _post_init(**kwargs))
    assert rc.cause != CauseId.config_error or "__post_init__" not in rc.why, (rc.cause, rc.why)


def _import_as(python: str = "python3.6", source: str = "import paddleseg.optimizers.custom_optimizers as custom_opt",
               package_dir: str = "paddleseg") -> str:
    site = f"/opt/conda/envs/pad/lib/{python}/site-packages"
    return ("Traceback (most recent call last):\n  File \"tools/predict.py\", line 20, in <module>\n    import paddleseg\n"
            f"  File \"{site}/paddleseg/optimizers/__init__.py\", line 14, in <module>\n    from .optimizer import *\n"
            f"  File \"{site}/{package_dir}/optimizers/optimizer.py\", line 19, in <module>\n    {source}\n"
            "AttributeError: module 'paddleseg' has no attribute 'optimizers'\n")


@pytest.mark.parametrize("python, sure", [("python3.6", True), ("python2.7", True), ("python", False)])
def test_import_as_inside_the_package_on_python_before_37_is_the_interpreter(tmp_path, python, sure):
    rc = _diagnose(tmp_path, _import_as(python))
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)
    assert ("3.7" in rc.why) and ((python in rc.why) == sure), rc.why


@pytest.mark.parametrize("kwargs", [{"python": "python3.8", "source": "from . import custom_optimizers as custom_opt"},
                                    {"source": "import paddleseg.models.losses as losses"},
                                    {"package_dir": "myproject"}])
def test_other_attribute_errors_of_a_package_are_not_the_interpreter(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _import_as(**kwargs))
    assert rc.cause != CauseId.dependency_version_mismatch or "3.7" not in rc.why, (rc.cause, rc.why)


def test_load_combine_that_cannot_parse_a_tensor_description_is_a_corrupt_file(tmp_path):
    rc = _diagnose(tmp_path, "----------------------\nError Message Summary:\n----------------------\nInvalidArgumentError: "
                             "Cannot parse tensor desc\n  [Hint: Expected desc.ParseFromArray(buf.get(), size) == true, but "
                             "received desc.ParseFromArray(buf.get(), size):0 != true:1.] at (/paddle/paddle/fluid/framework/"
                             "tensor_util.cu:527)\n  [operator < load_combine > error]\n")
    assert rc.cause == CauseId.checkpoint_corrupt, (rc.cause, rc.why)


def test_a_tensor_description_outside_the_load_ops_is_not_read_as_a_checkpoint(tmp_path):
    rc = _diagnose(tmp_path, "InvalidArgumentError: Cannot parse tensor desc\n  [operator < feed > error]\n")
    assert rc.cause != CauseId.checkpoint_corrupt, (rc.cause, rc.why)


@pytest.mark.parametrize("line", ["/u01/anaconda3/bin/python: No module named paddle_serving_server_gpu.serve",
                                  "ModuleNotFoundError: No module named 'paddle_serving_server_gpu'"])
def test_servings_older_gpu_module_is_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.paddle_api_mismatch, "serving_gpu_module_merged",
                                                         "medium"), (rc.cause, rc.code)


def test_another_module_that_python_m_cannot_find_stays_the_generic_reading(tmp_path):
    rc = _diagnose(tmp_path, "/usr/bin/python3: No module named paddle_serving_server.serve\n")
    assert rc.code == "runpy_no_module", rc.code


@pytest.mark.parametrize("text", [
    "A/Paddle-Lite: [F  6/18 18:42: 6.401 ...e/kernels/opencl/matmul_image_compute.cc:342 ReInitWhenNeeded] unsupported "
    "input case.\nA/libc: Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 1\n",
    "06-18 18:42:06.401  4321  4350 F Paddle-Lite: [F  6/18 18:42: 6.401 ...lite/kernels/arm/conv_compute.cc:80 "
    "PrepareForRun] this type conv not impl\n06-18 18:42:06.402  4321  4350 F libc    : Fatal signal 6 (SIGABRT)\n",
    "[F  6/18 18:42: 6.401 ...lite/kernels/x86/pool_compute.h:51 Run] Pooling type is not supported: lp\n"])
def test_a_lite_kernel_stopping_on_a_case_it_does_not_support_is_another_release(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "lite_kernel_case_unsupported"), (rc.cause, rc.code)


def test_a_lite_kernels_other_fatal_line_is_not_read_as_unsupported(tmp_path):
    rc = _diagnose(tmp_path, "[F  6/18 18:42: 6.401 ...lite/kernels/opencl/conv_image_compute.cc:99 Run] "
                             "clEnqueueNDRangeKernel failed: -5\n")
    assert rc.code != "lite_kernel_case_unsupported", rc.code


@pytest.mark.parametrize("prefix", ["E/Paddle-Lite: ", "E/Paddle-Lite( 4321): ", "06-18 18:42:06.401  4321  4350 F Paddle-Lite: "])
def test_a_logcat_paste_is_read_without_its_prefixes(tmp_path, prefix):
    """The priority and tag come off each line, so a line read from its start (Lite's fatal log line) is read."""
    rc = _diagnose(tmp_path, f"{prefix}[I  6/18 18:42: 6.301 ...lite/api/light_api.cc:20 Build] load model\n{prefix}"
                             "[F  6/18 18:42: 6.401 ...lite/core/op_registry.cc:12 Create] Unknown supported target: X\n")
    assert rc.code == "fatal_log_line" and rc.evidence[-1].text.startswith("[F"), (rc.code, rc.evidence)


@pytest.mark.parametrize("source, message", [
    ("from ppocr.utils.utility import initial_logger", "ImportError: cannot import name 'initial_logger'"),
    ("from ppocr.utils.utility import check_and_read, get_image_file_list",
     "ImportError: cannot import name 'check_and_read' from 'ppocr.utils.utility' (..\\ppocr\\utils\\utility.py)"),
    ("from ppdet.modeling import ops", "ImportError: cannot import name 'ops' from 'ppdet.modeling' (/w/ppdet/modeling/"
     "__init__.py)")])
def test_a_name_a_suites_own_package_lacks_is_two_releases_mixed(tmp_path, source, message):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"tools/infer/predict_system.py\", line 21, in "
                             f"<module>\n    {source}\n{message}\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium"), (rc.cause, rc.why)


def test_a_name_the_users_own_package_lacks_is_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"run.py\", line 2, in <module>\n    from myocr.utils "
                             "import initial_logger\nImportError: cannot import name 'initial_logger'\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def _membership(path: str, source: str) -> str:
    return (f"Traceback (most recent call last):\n  File \"e:\\\\project\\\\test.py\", line 5, in <module>\n    ie = "
            f"Taskflow('information_extraction', model='paddlenlp/PP-UIE-0.5B')\n  File \"{path}\", line 794, in __init__\n"
            f"    {source}\nAssertionError: The models name: paddlenlp/PP-UIE-0.5B is not\n")


def test_an_installed_packages_table_lacking_the_name_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, _membership("F:\\env\\lib\\site-packages\\paddlenlp\\taskflow\\taskflow.py",
                                         'assert self.model in set(TASKS[task][tag].keys()), f"The {tag} name: {model} '
                                         'is not in task:[{task}]"'))
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium"), (rc.cause, rc.why)


@pytest.mark.parametrize("path, source", [
    ("/w/my_project/pipeline.py", "assert self.model in set(TASKS[task][tag].keys())"),
    ("/env/lib/python3.9/site-packages/paddlenlp/taskflow/taskflow.py", "assert len(inputs) > 0, 'empty input'")])
def test_other_assertions_are_not_a_table_of_another_release(tmp_path, path, source):
    rc = _diagnose(tmp_path, _membership(path, source))
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_colabs_linked_frame_headers_are_frames(tmp_path):
    """Colab writes each file as a Markdown link: the frames are read, so the innermost is the library's."""
    from paddle_doctor.diagnose.anatomy.parts import parse_block
    parts = parse_block(["AssertionError                            Traceback (most recent call last)",
                         "[<ipython-input-3-3aeadfaecdff>](https://localhost:8080/#) in <module>()",
                         "----> 2 ie = Taskflow('information_extraction', model='uie-base-en')",
                         "[/usr/local/lib/python3.7/dist-packages/paddlenlp/taskflow/taskflow.py](https://localhost:8080/#)"
                         " in __init__(self, task, model, mode, device_id, **kwargs)",
                         "--> 304             )), \"The {} name: {} is not in task:[{}]\".format(tag, model, task)",
                         "AssertionError: The"])
    assert [f.func for f in parts.frames] == ["<module>", "__init__"], parts.frames
    assert parts.innermost.path.endswith("paddlenlp/taskflow/taskflow.py"), parts.innermost.path


def test_an_installed_library_lacking_a_name_another_imports_needs_no_path_in_the_message(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"E:\\p\\.venv\\lib\\site-packages\\ppdiffusers\\"
                             "utils\\download_utils.py\", line 34, in <module>\n    from huggingface_hub.file_download import "
                             "_chmod_and_replace, http_get\nImportError: cannot import name '_chmod_and_replace' from "
                             "'huggingface_hub.file_download'\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.dependency_version_mismatch, "medium"), (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "config.go:504:2: could not determine kind of name for C.PD_ConfigEnableVarseqlen",
    "cgo-gcc-prolog:415: undefined reference to `PD_ModelDir'",
    "cgo-gcc-prolog:415: 错误: 对‘PD_ModelDir’未定义的引用"])
def test_a_c_api_name_the_library_lacks_is_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\ncollect2: error: ld returned 1 exit status\n")
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "c_api_symbol_missing"), (rc.cause, rc.code)


def test_another_undefined_reference_is_not_the_c_api(tmp_path):
    rc = _diagnose(tmp_path, "main.o: undefined reference to `cv::imread(std::string const&, int)'\ncollect2: error: ld "
                             "returned 1 exit status\n")
    assert rc.code != "c_api_symbol_missing", rc.code


def test_a_library_the_linker_cannot_find_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "/usr/local/bin/ld: cannot find -lpaddle_fluid_c\ncollect2: error: ld returned 1 exit status\n")
    assert (rc.cause, rc.code) == (CauseId.file_not_found, "linker_library_not_found"), (rc.cause, rc.code)


_NUMBERED = ("/home/u/venv/lib/python2.7/site-packages/paddle/fluid/evaluator.py:64: Warning: deprecated\n"
             "  2   % (self.__class__.__name__), Warning)\n  3 `feed_dict` is deprecated\n"
             "  4 terminate called after throwing an instance of 'paddle::platform::EnforceNotMet'\n"
             "  5   what():  an illegal memory access was encountered at [/paddle/fluid/framework/details/op_handle_base.cc:37]\n"
             "  6 PaddlePaddle Call Stacks:\n")


def test_a_paste_with_line_numbers_is_read_without_them(tmp_path):
    rc = _diagnose(tmp_path, _NUMBERED)
    assert (rc.cause, rc.code) == (CauseId.cuda_error_other, "thrust_what_cuda_error"), (rc.cause, rc.code)


def test_leading_numbers_that_do_not_count_up_are_the_logs_own():
    from paddle_doctor.diagnose.read.prefixes import detect
    assert detect(b"10 loss 0.5\n20 loss 0.4\n30 loss 0.3\n40 loss 0.2\n50 loss 0.1\n") is None
    assert detect(_NUMBERED.encode()).name == "numbered lines"


@pytest.mark.parametrize("lib, cause", [("cublasLt", CauseId.cuda_cudnn_mismatch), ("cudart", CauseId.cuda_cudnn_mismatch),
                                        ("opencv_core", CauseId.file_not_found)])
def test_a_cuda_library_the_linker_cannot_find_is_the_toolkits(tmp_path, lib, cause):
    rc = _diagnose(tmp_path, f"RuntimeError: Failed to compile FasterTransformer, errors: /usr/bin/ld: cannot find -l{lib}\n")
    assert rc.cause == cause, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [("ImportError: DLL load failed: 找不到指定的程序。", CauseId.dependency_version_mismatch),
                                         ("ImportError: DLL load failed: The specified procedure could not be found.",
                                          CauseId.dependency_version_mismatch),
                                         ("ImportError: DLL load failed: 找不到指定的模块。", CauseId.file_not_found)])
def test_python_37s_dll_load_failure_is_read_by_its_windows_error(tmp_path, line, cause):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"D:\\Python37\\lib\\site-packages\\fastdeploy\\"
                             "c_lib_wrap.py\", line 159, in <module>\n    from .libs.fastdeploy_main import *\n" + line + "\n")
    assert rc.cause == cause, (rc.cause, rc.why)


def test_a_paddle_library_module_parakeet_lacks_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/tools/generate_audio/frontend.py\", line 8, in "
                             "<module>\n    from parakeet.frontend.cn_frontend import Frontend as cnFrontend\n"
                             "ModuleNotFoundError: No module named 'parakeet.frontend.cn_frontend'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line, code", [
    ("{'err_no': 8, 'err_msg': '(data_id=4 log_id=0) [det|0] Failed to postprocess: postprocess() takes 4 positional "
     "arguments but 5 were given', 'key': []}", "serving_op_hook_signature"),
    ("E0408 03:22:22.416058 364 model_repository_manager.cc:1890] Poll failed for model directory 'cls_runtime': instance "
     "group cls_runtime_0 of model cls_runtime has kind KIND_GPU but server does not support GPUs",
     "triton_gpu_instance_on_cpu_server"),
    ("F0909 14:42:51.584151 15056 LightNetwork.cpp:71] Check failed: ioctl(sock, 0x8915, &ifr) >= 0 (-1 vs. 0)",
     "v1_nics_interface_missing")])
def test_batch89s_template_rows(tmp_path, line, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.code, rc.confidence.value) == (code, "medium"), (rc.code, rc.cause)


def test_a_hook_failing_on_its_own_bug_is_not_a_signature_misfit(tmp_path):
    rc = _diagnose(tmp_path, "{'err_no': 8, 'err_msg': '(data_id=4 log_id=0) [det|0] Failed to postprocess: list index out "
                             "of range'}\n")
    assert rc is None or rc.code != "serving_op_hook_signature", rc.code


@pytest.mark.parametrize("line", [
    "错误\tLNK1181\t无法打开输入文件“E:\\fluid_inference_install_dir\\third_party\\install\\mklml\\lib\\libmklml_intel.dll”\tdemo",
    "LINK : fatal error LNK1181: cannot open input file 'libmklml_intel.lib'"])
def test_a_file_msvcs_linker_cannot_open_is_missing(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code) == (CauseId.file_not_found, "msvc_input_file_unopened"), (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ("paddleocr: error: argument subcommand: invalid choice: 'chart_parsing' (choose from 'doc_preprocessor', 'ocr')",
     CauseId.paddle_api_mismatch),
    ("paddlex: error: argument {install,serve}: invalid choice: 'pipeline' (choose from 'install', 'serve')",
     CauseId.paddle_api_mismatch),
    ("train.py: error: argument subcommand: invalid choice: 'chart_parsing' (choose from 'a', 'b')", CauseId.config_error),
    ("paddleocr: error: argument --device: invalid choice: 'npu' (choose from 'cpu', 'gpu')", CauseId.config_error)])
def test_a_paddle_tools_unknown_subcommand_is_another_release(tmp_path, line, cause):
    rc = _diagnose(tmp_path, "usage: tool [-h]\n" + line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "Error: trainable_statistics should be in AttributeMap at (/paddle/paddle/fluid/framework/attribute.h:177)",
    "(NotFound) Attribute (use_mkldnn) should be in AttributeMap."])
def test_an_op_attribute_this_paddle_requires_missing_is_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n  [operator < batch_norm > error]\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium"), (rc.cause, rc.code)


def test_an_op_onnxs_checker_does_not_know_at_that_opset_is_the_onnx_package(tmp_path):
    rc = _diagnose(tmp_path, "onnx.onnx_cpp2py_export.checker.ValidationError: No Op registered for Einsum with "
                             "domain_version of 12\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "onnx_op_not_in_opset"), (rc.cause, rc.code)


@pytest.mark.parametrize("start", ["`", "Traceback (most recent call last):", ""])
def test_a_traceback_pasted_on_one_line_still_has_its_exception(tmp_path, start):
    rc = _diagnose(tmp_path, start + 'File "/env/site-packages/paddlespeech/s2t/models/u2/u2.py", line 532, in attention '
                             'rescoringassert speech.shape[o] speech lengths.shaperoIndexError: list index out of range'
                             '2024-01-21 15:09:16,837]INFO Traceback (most recent call last):File "/env/asrengine.py", '
                             'line 116,in run\n')
    assert (rc.cause, rc.code) == (CauseId.python_exception, "exception_run_together"), (rc.cause, rc.code)
    assert "IndexError" in rc.evidence[-1].text, rc.evidence


@pytest.mark.parametrize("text", ['  File "train.py", line 9, in <module>\n    x = f()\nValueError: boom\n',
                                  'File "a.py", line 3, in f: raise MyOwnError: not a builtin\n'])
def test_a_normal_traceback_or_a_users_class_is_not_read_as_run_together(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc is None or rc.code != "exception_run_together", rc.code


def test_a_symbol_the_devices_libraries_lack_is_their_version(tmp_path):
    rc = _diagnose(tmp_path, "09-01 10:16:07.724 10374-10422/com.baidu.paddle.lite.demo E/dalvikvm: dlopen(\"/data/app-lib/"
                             "libpaddle_lite_jni.so\") failed: dlopen failed: could not load library \"libhiai.so\" needed by "
                             "\"libpaddle_lite_jni.so\"; caused by cannot locate symbol \"__register_atfork\" referenced by "
                             "\"libhiai.so\"...\n09-01 10:16:07.724 10374-10422/com.baidu.paddle.lite.demo W/dalvikvm: "
                             "Exception Ljava/lang/UnsatisfiedLinkError; thrown\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "android_symbol_missing"), (rc.cause, rc.code)


def test_android_studios_logcat_prefix_comes_off():
    from paddle_doctor.diagnose.read.prefixes import detect
    line = b"09-01 10:16:07.724 10374-10422/com.baidu.paddle.lite.demo E/dalvikvm: text\n"
    assert detect(line * 3).name == "adb logcat"


@pytest.mark.parametrize("line", ["Exception Type:  EXC_BAD_ACCESS (KERN_INVALID_ADDRESS)", "Caused by:Attempted to "
                                  "dereference garbage 0x....", "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)"])
def test_an_ios_crash_reports_bad_access_is_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.code)


def test_gflags_registered_twice_is_two_copies_of_a_library(tmp_path):
    rc = _diagnose(tmp_path, "ERROR: flag 'logtostderr' was defined more than once (in files '/tmp/glog-0.3.5/src/logging.cc'"
                             " and '/Paddle/build/third_party/glog/src/extern_glog/src/logging.cc').\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "gflags_flag_defined_twice"), (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "E0615 07:36:18.786679  3867 grpc_client.cc:248] var: name:[fc_18.w_0.block1] ep:[127.0.0.1:5002] grpc error:Deadline "
    "Exceeded",
    "F0830 13:20:26.802268  1993 grpc_client.cc:504] SendRPC name:[fc_0.b_0.opti.trainer_0], ep:[127.0.0.1:8181], status:[-1]"
    " meets grpc error, error_code:4 error_message:Deadline Exceeded error_details:"])
def test_a_parameter_server_rpc_past_its_deadline_is_a_trainer_that_finished_first(tmp_path, line):
    """Two of the corpus's three such logs were a trainer that finished its data first (issue 29, sixteenth session);
    the server stuck at a barrier is the near cause."""
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.uneven_train_batches, "pserver_rpc_deadline",
                                                        "medium"), rc
    assert rc.alternatives[0].cause == CauseId.collective_timeout, rc.alternatives


@pytest.mark.parametrize("msg, cause", [
    ("Traceback (most recent call last):\\n  File \"ppocr/data/simple_dataset.py\", line 150, in __getitem__\\n    label = "
     "substr[1]\\nIndexError: list index out of range\\n", CauseId.config_error),
    ("Traceback (most recent call last):\\n  File \"ppocr/data/imaug/operators.py\", line 40, in __call__\\nFileNotFoundError: "
     "[Errno 2] No such file or directory: 'train/1.jpg'\\n", CauseId.file_not_found)])
def test_paddleocrs_label_line_it_could_not_read(tmp_path, msg, cause):
    rc = _diagnose(tmp_path, f"Message: 'When parsing line train/1.jpg   text\\r\\n, error happened with msg: {msg}'\n")
    assert rc.cause == cause, (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause, code", [
    ("java.lang.UnsatisfiedLinkError: Can't load library: C:\\Users\\a\\.djl.ai\\paddle\\paddle_fluid.dll",
     CauseId.file_not_found, "java_library_path_missing"),
    ("`error: device 'a133d8abb26137b2' not found`", CauseId.config_error, "adb_device_not_found"),
    ("[libprotobuf ERROR google/protobuf/text_format.cc:298] Error parsing text-format caffe.NetParameter: 243:18: Message "
     "type \"caffe.LayerParameter\" has no field named \"proposal_param\".", CauseId.paddle_api_mismatch,
     "prototxt_field_unknown")])
def test_batch92s_template_rows(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code) == (cause, code), (rc.cause, rc.code)


def test_a_users_file_a_library_imports_at_module_level_shadows_it_without_its_source_line(tmp_path):
    site = "/env/lib/python3.6/site-packages/paddle2onnx-0.8.1-py3.6.egg"
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{site}/paddle2onnx/constant/dtypes.py\", line 17, in "
                             "<module>\n  File \"/home/u/test/onnx.py\", line 84, in <module>\n    paddle.onnx.export(layer, "
                             "path)\n  File \"/env/lib/python3.6/site-packages/paddle/onnx/export.py\", line 100, in export\n"
                             "    p2o.dygraph2onnx(\nAttributeError: module 'paddle2onnx' has no attribute 'dygraph2onnx'\n")
    assert rc.cause == CauseId.python_exception and "onnx.py" in rc.why, (rc.cause, rc.why)


def test_a_pserver_timeout_puts_a_stuck_server_first_among_alternatives(tmp_path):
    rc = _diagnose(tmp_path, "E0523 18:38:30.051322  1004 grpc_client.cc:236] proc param error:name:[fc_0.w_0] "
                             "ep:[127.0.0.1:30002] grpc error:Deadline Exceeded\n")
    assert rc.cause == CauseId.uneven_train_batches and rc.alternatives[0].cause == CauseId.collective_timeout, \
        (rc.cause, rc.alternatives)


# --- the review's faults (fourteenth session), each shown by the input that showed it ---------------------------------

_CPP_TRACE = "".join(f"{i}   paddle::framework::Frame{i}::Run()\n" for i in range(9)) + \
    "9   paddle::framework::SignalHandle(char const*, int)\n10  paddle::platform::GetCurrentTraceBackString[abi:cxx11]()\n"


@pytest.mark.parametrize("head", ["", "C++ Traceback (most recent call last):\n"])
def test_paddles_own_cpp_traceback_is_not_a_numbered_paste(tmp_path, head):
    from paddle_doctor.diagnose.read.prefixes import detect
    assert detect((head + _CPP_TRACE).encode()) is None
    assert _diagnose(tmp_path, head + _CPP_TRACE).cause == CauseId.segfault


def test_a_numbered_paste_with_blank_lines_is_still_numbered():
    from paddle_doctor.diagnose.read.prefixes import detect
    text = "  1 import paddle\n  2 x = 1\n  3\n  4 y = 2\n  5\n  6 z = 3\n"
    assert detect(text.encode()).name == "numbered lines"


@pytest.mark.parametrize("prefix", ["09-01 10:16:07.724 10374-10422/? E/Paddle-Lite: ",
                                    "06-18 18:42:06.401 E/Paddle-Lite( 4321): "])
def test_logcats_other_formats_come_off(tmp_path, prefix):
    rc = _diagnose(tmp_path, f"{prefix}[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] Unknown supported "
                             f"target: X\n{prefix}[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] again\n")
    assert rc.code == "fatal_log_line", rc.code


def test_a_taskflow_assert_cpython_shows_cut_after_in_set_is_read(tmp_path):
    rc = _diagnose(tmp_path, _membership("/env/lib/python3.9/site-packages/paddlenlp/taskflow/taskflow.py",
                                         "assert self.model in set("))
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_a_table_read_through_keys_is_a_table(tmp_path):
    rc = _diagnose(tmp_path, _membership("/env/lib/python3.9/site-packages/paddlenlp/taskflow/taskflow.py",
                                         "assert model in self.models.keys()"))
    assert rc.cause == CauseId.paddle_api_mismatch and "self.models" in rc.why, (rc.cause, rc.why)


def test_colabs_linked_frames_are_read_end_to_end(tmp_path):
    rc = _diagnose(tmp_path, "AssertionError                            Traceback (most recent call last)\n"
                             "[<ipython-input-3-3aeadfaecdff>](https://localhost:8080/#) in <module>()\n"
                             "----> 2 ie = Taskflow('information_extraction', model='uie-base-en')\n\n"
                             "[/usr/local/lib/python3.7/dist-packages/paddlenlp/taskflow/taskflow.py](https://localhost:8080/#) "
                             "in __init__(self, task, model, mode, device_id, **kwargs)\n"
                             "--> 304             )), \"The {} name: {} is not in task:[{}]\".format(tag, model, task)\n\n"
                             "AssertionError: The\n")
    assert "taskflow.py" in rc.why, rc.why


def test_paddleocrs_missing_image_in_a_label_line_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "Message: 'When parsing line train/1.jpg\\ttext\\n, error happened with msg: Traceback (most "
                             "recent call last):\\n  File \"ppocr/data/imaug/operators.py\", line 40, in __call__\\n"
                             "Exception: ./train_data/train/1.jpg does not exist!\\n'\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


def test_a_data_classs_own_check_outside_the_runs_arguments_is_not_the_config(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/dataset.py\", line 30, in __getitem__\n"
                             "    box = Box(*row)\n  File \"<string>\", line 6, in __init__\n  File \"/w/types.py\", line 12, "
                             "in __post_init__\n    raise ValueError('box has negative width')\nValueError: box has negative "
                             "width\n")
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


def test_a_librarys_other_function_running_the_users_file_is_not_an_import(tmp_path):
    egg = "/env/lib/python3.8/site-packages/memory_profiler-0.61-py3.8.egg/memory_profiler.py"
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{egg}\", line 1351, in <module>\n"
                             f"  File \"{egg}\", line 1200, in exec_with_profiler\n  File \"/w/train.py\", line 5, in "
                             "<module>\n    model = paddle.vision.models.resnet5()\nAttributeError: module "
                             "'paddle.vision.models' has no attribute 'resnet5'\n")
    assert "shadows" not in rc.why, rc.why


def test_import_as_of_two_parts_before_python_37_is_the_interpreter_too(tmp_path):
    rc = _diagnose(tmp_path, _import_as("python3.6", "import paddleseg.optimizers as opt"))
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line", ["/usr/bin/ld: 找不到 -lpaddle_inference",
                                  "ld.lld: error: unable to find library -lpaddle_inference"])
def test_the_linkers_other_wordings(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code) == (CauseId.file_not_found, "linker_library_not_found"), (rc.cause, rc.code)


def test_fluid_imported_by_name_from_paddle_is_removed(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: cannot import name 'fluid' from 'paddle' (/env/lib/python3.10/site-packages/paddle/"
                             "__init__.py)\n")
    assert (rc.code, rc.confidence.value) == ("paddle_fluid_removed", "high"), (rc.code, rc.confidence)


def test_fluid_missing_from_a_paddle_checkout_on_the_path_is_the_checkout(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"run.py\", line 1, in <module>\n    import paddle\n"
                             "  File \"/home/u/Paddle/python/paddle/__init__.py\", line 30, in <module>\n    x = paddle.fluid\n"
                             "AttributeError: module 'paddle' has no attribute 'fluid'\n")
    assert rc.cause != CauseId.paddle_api_mismatch or rc.confidence.value != "high", (rc.cause, rc.why)


@pytest.mark.parametrize("line", ['google.protobuf.text_format.ParseError: 2:1 : Message type "caffe.LayerParameter" has no '
                                  'field named "proposal_param".',
                                  "[F  6/18 18:42: 6.401 D:\\Paddle-Lite\\lite\\kernels\\x86\\pool_compute.h:51 Run] Pooling "
                                  "type is not supported: lp"])
def test_the_reviews_minor_wordings(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.code)


# --- the second review's faults ---------------------------------------------------------------------------------------

_SOURCE = ["import paddle", "x = 1", "print(x)", "y = 2", "z = 3", "w = 4"]


@pytest.mark.parametrize("form", ["{i:6d}\t{line}", "{i:7d} {line}", "{i:3d} {line}"])
@pytest.mark.parametrize("start", [1, 10, 100])
def test_numbered_pastes_of_one_digit_count_are_numbered(form, start):
    from paddle_doctor.diagnose.read.prefixes import detect
    text = "".join(form.format(i=start + k, line=line) + "\n" for k, line in enumerate(_SOURCE))
    found = detect(text.encode())
    assert found is not None and "numbered lines" in found.name, found


@pytest.mark.parametrize("trace", [
    "".join(f"{i:2d}   paddle::framework::Frame{i}::Run()\n" for i in range(0, 8)),    # right-aligned, from 0
    "".join(f"{i}   paddle::framework::Frame{i}::Run()\n" for i in range(3, 9)),        # from 3, one digit: aligned
    "".join(f"{i:<4d}paddle::framework::Frame{i}::Run()\n" for i in range(5, 12))])    # left-aligned
def test_paddles_cpp_frames_are_never_a_numbered_paste(trace):
    from paddle_doctor.diagnose.read.prefixes import detect
    found = detect(trace.encode())
    assert found is None or "numbered" not in found.name, found


@pytest.mark.parametrize("source", ["assert key in state_dict.keys()", "assert 'gt_bbox' in sample.keys()"])
def test_any_dicts_keys_are_not_a_table_of_names(tmp_path, source):
    rc = _diagnose(tmp_path, _membership("/env/lib/python3.9/site-packages/paddlenlp/transformers/model_utils.py", source))
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_an_assert_cut_after_in_set_needs_the_message_to_say_not_in(tmp_path):
    text = _membership("/env/lib/python3.9/site-packages/paddle/io/reader.py", "assert mode in set(").replace(
        "AssertionError: The models name: paddlenlp/PP-UIE-0.5B is not", "AssertionError")
    assert _diagnose(tmp_path, text).cause != CauseId.paddle_api_mismatch


@pytest.mark.parametrize("message", ["KeyError: 'key does not exist in the dict'",
                                     "ValueError: character 文 does not exist in character_dict"])
def test_a_label_line_failing_on_another_not_exist_is_not_a_missing_image(tmp_path, message):
    rc = _diagnose(tmp_path, f"Message: 'When parsing line train/1.jpg\\ttext\\n, error happened with msg: Traceback (most "
                             f"recent call last):\\n  File \"ppocr/data/simple_dataset.py\", line 150\\n{message}\\n'\n")
    assert rc.cause != CauseId.file_not_found, (rc.cause, rc.code)


@pytest.mark.parametrize("frames", [
    '  File "/w/dataset.py", line 20, in parse_json_line\n    return Box(**rec)\n',
    '  File "/w/box_options.py", line 20, in make\n    return Box(**rec)\n'])
def test_a_data_record_built_by_a_parser_of_data_is_not_the_runs_arguments(tmp_path, frames):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n{frames}  File \"<string>\", line 6, in __init__\n"
                             "  File \"/w/types.py\", line 12, in __post_init__\n    raise ValueError('negative width')\n"
                             "ValueError: negative width\n")
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


@pytest.mark.parametrize("prefix", ["2023-06-18 18:42:06.401  4321  4350 F Paddle-Lite: ",
                                    "2019-09-01 10:16:07.724 10374-10422/com.app E/Paddle-Lite: "])
def test_logcats_forms_with_a_year_come_off(tmp_path, prefix):
    rc = _diagnose(tmp_path, f"{prefix}[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] Unknown supported "
                             f"target: X\n{prefix}[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] again\n")
    assert rc.code == "fatal_log_line", rc.code


@pytest.mark.parametrize("line, cause", [
    ("/usr/bin/ld: cannot find -lnccl", CauseId.nccl_library_missing),
    ("ld: library not found for -lpaddle_inference", CauseId.file_not_found),
    ("ld64.lld: error: library not found for -lpaddle_inference", CauseId.file_not_found),
    ("adb: device 'a133d8abb26137b2' not found", CauseId.config_error),
    ("[F  6/18 18:42: 6.401 ...lite/kernels/arm/fp16/conv_compute.cc:80 Run] this type conv not supported",
     CauseId.paddle_api_mismatch),
    ("paddlex: error: argument COMMAND: invalid choice: 'pipeline' (choose from 'install', 'serve')",
     CauseId.paddle_api_mismatch)])
def test_the_second_reviews_wordings(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


def test_a_suite_module_imported_with_as_is_two_releases_mixed(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"tools/infer_e2e.py\", line 30, in <module>\n    import "
                             "ppocr.utils.e2e_utils.pgnet_pp_utils as pp_utils\nModuleNotFoundError: No module named "
                             "'ppocr.utils.e2e_utils'\n")
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium"), (rc.cause, rc.why)


def test_spyders_frame_header_names_its_function():
    """Spyder writes ``path:line in func`` (no comma): the function is read, not taken for module level."""
    from paddle_doctor.diagnose.anatomy.parts import parse_block
    parts = parse_block(["Traceback (most recent call last):", "",
                         "  File C:\\ProgramData\\anaconda3\\lib\\site-packages\\spyder_kernels\\py3compat.py:356 in compat_exec",
                         "    exec(code, globals, locals)", "", "  File c:\\alpha\\untitled1.py:8", "    import paddlenlp",
                         "", "AttributeError: module 'paddle' has no attribute 'io'"])
    assert [f.func for f in parts.frames] == ["compat_exec", "<module>"], parts.frames
