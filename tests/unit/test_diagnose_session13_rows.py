"""Readings added in issue 29's thirteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def _diagnose(tmp_path, text):
    return root_cause_of(tmp_path, text)


def _key_error(source: str, key: str = "nms_offset", path: str = "/w/PaddleVideo/predict/models/lstm_infer.py") -> str:
    return (f"Traceback (most recent call last):\n  File \"{path}\", line 31, in __init__\n    {source}\n"
            f"KeyError: '{key}'\n")


@pytest.mark.parametrize("source", ["self.frame_offset   = cfg[name]['nms_offset']",
                                    "type = dataset_args.pop(\"name\")",
                                    "self.infer_img = global_params['infer_img']",
                                    "x = self.model_config['nms_offset']"])
def test_a_key_a_component_reads_from_its_settings_is_the_config_at_medium(tmp_path, source):
    rc = _diagnose(tmp_path, _key_error(source))
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert CauseId.paddle_api_mismatch in [a.cause for a in rc.alternatives], rc.alternatives


@pytest.mark.parametrize("source", ["alg = config['Architecture']['algorithm']",
                                    "self.task_type = self.config[\"Global\"].get(\"task_type\","])
def test_a_key_read_through_a_top_level_section_stays_another_release(tmp_path, source):
    rc = _diagnose(tmp_path, _key_error(source, "algorithm", "/w/ppocr/tools/program.py"))
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)


@pytest.mark.parametrize("source", ["self.char_ops = params['char_ops']", "x = reconfig['nms_offset']",
                                    "value = row['nms_offset']"])
def test_a_lookup_in_something_not_named_a_config_is_not_the_config(tmp_path, source):
    rc = _diagnose(tmp_path, _key_error(source))
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


_HEADER = ("W0902 21:18:45.540113 67477504 init.cc:209] Warning: PaddlePaddle catches a failure signal, it may not work "
           "properly\nW0902 21:18:45.540398 67477504 init.cc:211] You could check whether you killed PaddlePaddle "
           "thread/process accidentally or report the case to PaddlePaddle\nW0902 21:18:45.540506 67477504 init.cc:214] "
           "The detail failure signal is:\n\n")


def test_paddle_1x_failure_dump_cut_before_its_signal_is_a_native_crash_at_low(tmp_path):
    rc = _diagnose(tmp_path, _HEADER + "W0902 21:18:45.540666 67477504 init.cc:217] *** Aborted at 1599052725 (unix "
                                       "time) try \"date -d @1599052725\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "low", (rc.cause, rc.confidence)


@pytest.mark.parametrize("header", [_HEADER, ""])
def test_paddle_1x_failure_dump_naming_sigterm_is_not_a_native_crash(tmp_path, header):
    rc = _diagnose(tmp_path, header + "W0902 21:18:45.540875 67477504 init.cc:217] *** SIGTERM (@0x3e800001e2d) "
                                      "received by PID 1234 (TID 0x7f) from PID 7725; stack trace: ***\n"
                                      "W0902 21:18:45.541 67477504 init.cc:217]     @     0x7f2b1c8d8390 (unknown)\n"
                                      "W0902 21:18:45.542 67477504 init.cc:217]     @     0x7f2b1c3e5e2b epoll_wait\n")
    assert rc is None or rc.cause != CauseId.segfault, (rc.cause, rc.why)


@pytest.mark.parametrize("step", ["Preparing metadata (pyproject.toml)", "Getting requirements to build wheel",
                                  "python setup.py egg_info"])
def test_pips_failed_build_step_of_a_package_is_the_package_at_medium(tmp_path, step):
    rc = _diagnose(tmp_path, "Collecting numpy==1.26.4\n  Using cached numpy-1.26.4.tar.gz (15.8 MB)\n"
                             f"  error: subprocess-exited-with-error\n\n  × {step} did not run successfully.\n"
                             "  │ exit code: 1\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)


def test_a_build_step_that_crashed_stays_a_crash_not_the_report_around_it(tmp_path):
    rc = _diagnose(tmp_path, "  Preparing metadata (setup.py) ... error\n  error: subprocess-exited-with-error\n\n"
                             "  × python setup.py egg_info did not run successfully.\n  │ exit code: -11\n"
                             "  ╰─> [0 lines of output]\nerror: metadata-generation-failed\n\n"
                             "× Encountered error while generating package metadata.\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause", [
    ("AttributeError: module 'paddlehub' has no attribute 'Module'", CauseId.python_exception),
    ("AttributeError: module 'paddle' has no attribute '__version__'", CauseId.python_exception),
    ("AttributeError: module 'paddlehub' has no attribute 'version'", CauseId.paddle_api_mismatch),
    ("AttributeError: module 'paddle' has no attribute 'fluid'", CauseId.paddle_api_mismatch),
])
def test_a_name_every_release_has_missing_means_the_package_is_not_whole(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)
    assert cause != CauseId.python_exception or rc.confidence.value == "medium"


@pytest.mark.parametrize("message", ["The axis is expected to be in range of [0, 0), but got 0",
                                     "Attr(axis) is out of range, It's expected to be in range of [-0, 0]. But received "
                                     "Attr(axis) = 0."])
def test_an_axis_checked_against_rank_zero_is_code_older_than_zero_d_tensors(tmp_path, message):
    rc = _diagnose(tmp_path, "  File \"/py/site-packages/paddleseg/utils/metrics.py\", line 57, in calculate_area\n"
                             f"    pred_area = paddle.concat(pred_area)\nValueError: (InvalidArgument) {message}\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.code)


def test_an_axis_out_of_a_real_range_is_not_the_zero_d_change(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: (InvalidArgument) The axis is expected to be in range of [-2, 2), but got 3\n")
    assert rc.code != "zero_dim_tensor_axis", rc.code


def _serving_call(source: str, message: str) -> str:
    return ("Traceback (most recent call last):\n  File \"d:\\python36\\lib\\site-packages\\paddlehub\\commands\\"
            f"serving.py\", line 357, in start_serving\n    {source}\nTypeError: {message}\n")


def test_a_packages_method_called_on_its_class_is_a_bug_of_that_code(tmp_path):
    rc = _diagnose(tmp_path, _serving_call("ServingCommand.start_single_app_with_file(configs)",
                                           "start_single_app_with_file() missing 1 required positional argument: "
                                           "'configs'"))
    assert rc.cause == CauseId.python_exception and "on the class" in rc.why, (rc.cause, rc.why)


def test_a_packages_call_of_another_class_that_does_not_fit_stays_another_release(tmp_path):
    rc = _diagnose(tmp_path, _serving_call("pp_option = PaddlePredictorOption(device)",
                                           "__init__() takes 1 positional argument but 2 were given"))
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


_ARCH_NOTE = ("W1125 12:07:24.788084   312 gpu_context.cc:278] Please NOTE: device: 0, GPU Compute Capability: 8.6, "
              "Driver API Version: 12.2, Runtime API Version: 10.2\n")


def test_a_crash_after_a_warning_that_the_gpu_is_too_new_stays_the_crash_with_the_warning_next(tmp_path):
    rc = _diagnose(tmp_path, _ARCH_NOTE + "FatalError: `Segmentation fault` is detected by the operating system.\n"
                                          "  [SignalInfo: *** SIGSEGV (@0x0) received by PID 312 (TID 0x7f5c) from PID 0 ***]\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium", (rc.cause, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.cuda_arch_unsupported, rc.alternatives


def test_a_library_error_after_that_warning_stays_high(tmp_path):
    rc = _diagnose(tmp_path, _ARCH_NOTE + "OSError: (External) CUBLAS error(15). \n")
    assert rc.cause == CauseId.cuda_arch_unsupported and rc.confidence.value == "high", (rc.cause, rc.confidence)


@pytest.mark.parametrize("line", ["98781 bus error  paddlespeech tts --am fastspeech2_mix --input hi",
                                  "[1]  + 98781 bus error  python tts.py", "zsh: bus error  python tts.py"])
def test_zshs_job_report_of_a_bus_error_is_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault and rc.code == "shell_sigbus", (rc.cause, rc.code)


def test_a_class_name_a_registry_lacks_is_the_config_at_medium(tmp_path):
    rc = _diagnose(tmp_path, _key_error("class_name = cls._name_mapping[init_class]", "Ernie35Tokenizer",
                                        "/py/site-packages/paddlenlp/transformers/auto/tokenizer.py"))
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)


def test_a_missing_key_of_a_plain_mapping_is_not_a_registry(tmp_path):
    rc = _diagnose(tmp_path, _key_error("value = row_mapping[idx]", "17"))
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


def test_fluid_layers_called_by_their_import_name_with_other_arguments_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"F:\\lessons\\model.py\", line 26, in __init__\n"
                             "    self.fc1 = layers.fc(size=hid1_size, act='relu')\n"
                             "TypeError: fc() missing 1 required positional argument: 'input'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause, code", [
    ("[F 10/15 20:31:47. 20 .../Paddle-Lite/lite/core/program.cc:141 Build] Check failed: op: no Op found for "
     "depthwise_conv2d_transpose", CauseId.paddle_api_mismatch, "lite_op_not_found"),
    ("[ERROR] fastdeploy/backends/tensorrt/trt_backend.cc(637)::CreateTrtEngineFromOnnx\tFailed to parse ONNX model by "
     "TensorRT.", CauseId.dependency_version_mismatch, "trt_onnx_unparsed"),
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (mklml.dll) that Paddle depends on is not "
     "configured correctly. (error code is 182)", CauseId.dependency_version_mismatch, "dynload_library_version"),
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (libwarpctc.so) that Paddle depends on is not "
     "configured correctly. (error code is libwarpctc.so: cannot open shared object file: No such file or directory)",
     CauseId.file_not_found, "dynload_library_missing"),
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_8.dll) that Paddle depends on is not "
     "configured correctly. (error code is 126)", CauseId.cuda_cudnn_mismatch, None),
    ("RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that Paddle depends on is not "
     "configured correctly. (error code is libnccl.so: cannot open shared object file: No such file or directory)",
     CauseId.nccl_library_missing, None),
])
def test_batch84s_readings(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and (code is None or rc.code == code), (rc.cause, rc.code)
    assert code is None or rc.confidence.value == "medium"


def test_a_device_plugin_that_cannot_be_opened_is_medium(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: (InvalidArgument) Fail to open library: /usr\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_an_uncaught_enforce_errors_what_line_is_the_error_not_a_bare_abort(tmp_path):
    rc = _diagnose(tmp_path, "terminate called after throwing an instance of 'phi::enforce::EnforceNotMet'\n"
                             "  what():  (NotFound) Operator (hard_voxelize) is not registered.\n"
                             "  [Hint: op_info_ptr should not be null.] (at /paddle/paddle/fluid/framework/op_info.h:156)\n"
                             "Aborted (core dumped)\n")
    assert rc.cause != CauseId.segfault and "hard_voxelize" in rc.evidence[0].text, (rc.cause, rc.evidence)


@pytest.mark.parametrize("line, cause, code", [
    ("W1104 19:03:37.945456 29266 operator.cc:187] elementwise_max raises an exception thrust::system::system_error, "
     "parallel_for failed: invalid configuration argument", CauseId.cuda_error_other, "thrust_parallel_for_failed"),
    ("There are 1 ops not supported yet, list as below", CauseId.paddle_api_mismatch, "x2paddle_ops_unsupported"),
    ("paddlehub.module.manager.EnvironmentMismatchError: ernie cannot be installed because some conditions are not met:",
     CauseId.paddle_api_mismatch, "hub_module_environment_mismatch"),
    ("(InvalidArgument) Pass tensorrt_subgraph_pass has not been registered. Please use the paddle inference library "
     "compiled with tensorrt or disable the tensorrt engine in inference configuration! ", CauseId.config_error,
     "trt_pass_not_built"),
])
def test_batch85s_readings(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code == code and rc.confidence.value == "medium", (rc.cause, rc.code, rc.confidence)


def test_thrusts_out_of_memory_is_left_to_the_memory_rows(tmp_path):
    rc = _diagnose(tmp_path, "elementwise_add raises an exception thrust::system::system_error, parallel_for failed: out "
                             "of memory\n")
    assert rc is None or rc.code != "thrust_parallel_for_failed", rc.code


def test_a_crash_after_paddles_library_loading_suggestions_is_that_library_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and "
                             "its version is matched with paddlepaddle you installed.\n  2. Configure third-party dynamic "
                             "library environment variables as follows:\nSegmentation fault (core dumped)\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.segfault


@pytest.mark.parametrize("attr, read", [("model", True), ("train_dataset", True)])
def test_a_suite_script_reading_a_property_its_config_class_lacks_is_another_release(tmp_path, attr, read):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"D:\\PaddleSeg\\contrib\\export.py\", line 84, in "
                             f"main\n    net = cfg.{attr}\nAttributeError: 'Config' object has no attribute '{attr}'\n")
    assert (rc.cause == CauseId.paddle_api_mismatch) == read and rc.confidence.value == "medium", (rc.cause, rc.why)


@pytest.mark.parametrize("path, source", [("/w/PaddleSeg/contrib/export.py", "net = model.backbone"),
                                          ("/home/u/train.py", "lr = cfg.learnign_rate")])
def test_a_config_attribute_not_read_from_the_config_or_in_the_users_own_code_is_not_another_release(tmp_path, path,
                                                                                                      source):
    attr = source.rsplit(".", 1)[1]
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 84, in main\n    {source}\n"
                             f"AttributeError: 'Config' object has no attribute '{attr}'\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause, code", [
    ("E1216 14:35:24.990741  2665 server.cpp:965] Fail to listen 10.0.0.2:8814", CauseId.config_error,
     "brpc_listen_failed"),
    ("time=\"2017-08-07T09:41:47Z\" level=error msg=\"connect to etcd error: dial tcp :2379: getsockopt: connection "
     "refused\"", CauseId.missing_dist_env, "go_dial_empty_host"),
    ("[2023-12-07 15:44:23,956] [   ERROR] - Expecting value: line 1 column 1 (char 0)", CauseId.config_error,
     "json_empty_input"),
])
def test_errors_that_had_no_reading(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code == code and rc.confidence.value == "medium", (rc.cause, rc.code)


def test_a_dial_to_a_named_host_that_refuses_is_not_an_empty_variable(tmp_path):
    rc = _diagnose(tmp_path, "connect to etcd error: dial tcp 10.0.0.5:2379: getsockopt: connection refused\n")
    assert rc is None or rc.code != "go_dial_empty_host", rc.code


@pytest.mark.parametrize("source, error, read", [
    ("model_cfg = self.dic.get('model').copy()", "AttributeError: 'NoneType' object has no attribute 'copy'", True),
    ("head = cfg.get('head')['type']", "TypeError: 'NoneType' object is not subscriptable", True),
    ("if idx % config.get('print_interval', 10) == 0:", "AttributeError: 'NoneType' object has no attribute 'get'",
     False)])
def test_a_config_section_read_with_get_and_used_at_once_is_the_config(tmp_path, source, error, read):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/paddleseg/cvlibs/config.py\", line 284, in "
                             f"model\n    {source}\n{error}\n")
    assert (rc.cause == CauseId.config_error) == read, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause, code, confidence", [
    ("RuntimeError: function_attributes(): after cudaFuncGetAttributes: invalid device function",
     CauseId.cuda_arch_unsupported, "thrust_no_kernel_for_gpu", "high"),
    ("ModuleNotFoundError: No module named 'ppgan.gan_model'", CauseId.paddle_api_mismatch, "suite_module_missing",
     "medium"),
    ("ModuleNotFoundError: No module named 'paddle.fluid'", CauseId.paddle_api_mismatch, "paddle_fluid_removed", "high"),
    ("ModuleNotFoundError: No module named 'paddle.fluid.dataloader.collate'", CauseId.paddle_api_mismatch,
     "paddle_api_missing", "medium"),
    ("F0817 19:56:11.205682  5200 ClassRegistrar.h:65] Check failed: mapGet(type, creatorMap_, &creator) Unknown class "
     "type: data", CauseId.python_exception, "v1_registry_empty", "medium"),
    ("Signal (11) received.", CauseId.segfault, "triton_fatal_signal", "high"),
    ("ImportError: Failed to import 'Milvus2DocumentStore', which is an optional component in pipelines.",
     CauseId.dependency_version_mismatch, "pipelines_optional_component", "medium"),
])
def test_batch86s_readings(tmp_path, line, cause, code, confidence):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (cause, code, confidence)


def test_a_v1_layer_type_of_the_users_own_is_still_a_registry_without_it(tmp_path):
    rc = _diagnose(tmp_path, "F0817 19:56:11.205682  5200 ClassRegistrar.h:65] Check failed: mapGet(type, creatorMap_, "
                             "&creator) Unknown class type: my_custom_layer\n")
    assert rc.code != "v1_registry_empty", rc.code


@pytest.mark.parametrize("path, read", [("/w/PaddleOCR/ppstructure/predict_system.py", True), ("/w/my_app/run.py", False)])
def test_parsed_arguments_a_suites_code_reads_and_lack_are_another_release(tmp_path, path, read):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 82, in __init__\n"
                             "    self.return_word_box = args.return_word_box\n"
                             "AttributeError: 'Namespace' object has no attribute 'return_word_box'\n")
    assert (rc.cause == CauseId.paddle_api_mismatch) == read, (rc.cause, rc.why)



# -- the session's review -------------------------------------------------------------------------------------------

_SIGTERM_DUMP = ("W0902 21:18:45.5 101 init.cc:217] *** SIGTERM (@0x3e8) received by PID 101 (TID 0x7f) from PID 7; "
                 "stack trace: ***\nW0902 21:18:45.5 101 init.cc:217]     @     0x7f2b1c8d8390 (unknown)\n")


def test_a_crash_dump_after_a_sigterm_dump_is_still_a_crash(tmp_path):
    rc = _diagnose(tmp_path, _SIGTERM_DUMP + "W0902 21:18:46.5 100 init.cc:217] *** SIGSEGV (@0x0) received by PID 100 "
                                             "(TID 0x7e) from PID 0; stack trace: ***\n"
                                             "W0902 21:18:46.5 100 init.cc:217]     @     0x7f2b1c3e5e2b paddle::foo()\n"
                                             "W0902 21:18:46.5 100 init.cc:217]     @     0x7f2b1c3e5e2c paddle::bar()\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.code)


def test_a_weak_crash_sign_after_a_warning_stays_low(tmp_path):
    rc = _diagnose(tmp_path, _ARCH_NOTE + _HEADER)
    assert rc.cause == CauseId.segfault and rc.confidence.value == "low", (rc.cause, rc.confidence)


def test_a_crash_inside_pips_wheel_build_stays_a_crash(tmp_path):
    rc = _diagnose(tmp_path, "  Building wheel for numpy (pyproject.toml) ... error\n  error: subprocess-exited-with-error\n"
                             "  × Building wheel for numpy (pyproject.toml) did not run successfully.\n"
                             "  │ exit code: -11\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.code)


def test_a_functional_alias_is_not_a_class_called_without_an_instance(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/py/site-packages/paddleseg/models/x.py\", line "
                             "9, in forward\n    y = F.conv2d(x, bias=self.bias)\nTypeError: conv2d() missing 1 required "
                             "positional argument: 'weight'\n")
    assert "on the class" not in (rc.why or ""), rc.why


def test_python_3_10s_qualified_method_name_is_read_as_the_unbound_call(tmp_path):
    rc = _diagnose(tmp_path, _serving_call("ServingCommand.start_single_app_with_file(configs)",
                                           "ServingCommand.start_single_app_with_file() missing 1 required positional "
                                           "argument: 'configs'"))
    assert rc.cause == CauseId.python_exception and "on the class" in rc.why, (rc.cause, rc.why)


@pytest.mark.parametrize("path, source, message", [
    ("/home/u/run.py", "n = dic.get('name').strip()", "'NoneType' object has no attribute 'strip'"),
    ("/w/paddleseg/cvlibs/config.py", "v = cfg.get('model').copy() if a else b.foo", "'NoneType' object has no attribute "
                                                                                     "'foo'"),
])
def test_none_from_elsewhere_on_the_line_is_not_a_missing_config_section(tmp_path, path, source, message):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 3, in f\n    {source}\n"
                             f"AttributeError: {message}\n")
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


@pytest.mark.parametrize("source", ["c = self.color_map[name]", "h = heat_map[part]"])
def test_a_plain_map_of_names_is_not_a_registry(tmp_path, source):
    rc = _diagnose(tmp_path, _key_error(source, "Car"))
    assert rc.cause != CauseId.config_error, (rc.cause, rc.why)


def test_a_file_named_like_the_package_is_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "ModuleNotFoundError: No module named 'paddleocr.tools'; 'paddleocr' is not a package\n")
    assert rc.cause == CauseId.python_exception and rc.code == "package_is_a_file", (rc.cause, rc.code)


@pytest.mark.parametrize("line, cause", [
    ("RuntimeError: parallel_for failed: cudaErrorInvalidDeviceFunction: invalid device function",
     CauseId.cuda_arch_unsupported),
    ("RuntimeError: parallel_for failed: cudaErrorInvalidConfiguration: invalid configuration argument",
     CauseId.cuda_error_other),
])
def test_newer_thrusts_named_errors_are_read(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.code)


def test_an_illegal_address_in_parallel_for_is_a_cuda_error_not_a_launch_refusal(tmp_path):
    rc = _diagnose(tmp_path, "parallel_for failed: an illegal memory access was encountered\n")
    assert rc.cause == CauseId.cuda_error_other and "illegal memory access" in rc.message, (rc.cause, rc.message)
    assert "could not be launched" not in rc.message, rc.message


@pytest.mark.parametrize("lib", ["CUDNN64_8.DLL", "cuDNN64_8.dll", "libcuda.so.1"])
def test_gpu_libraries_in_any_case_stay_with_their_rows(tmp_path, lib):
    rc = _diagnose(tmp_path, f"RuntimeError: (PreconditionNotMet) The third-party dynamic library ({lib}) that Paddle "
                             "depends on is not configured correctly. (error code is 126)\n")
    assert rc.code not in ("dynload_library_missing", "dynload_library_version"), (rc.cause, rc.code)


def test_gos_newer_dial_wording_is_read(tmp_path):
    rc = _diagnose(tmp_path, "connect to etcd error: dial tcp :2379: connect: connection refused\n")
    assert rc.code == "go_dial_empty_host", rc.code


@pytest.mark.parametrize("source, path", [("ASRExecutor.infer(model_type)", "/py/site-packages/paddlespeech/cli/asr/infer.py"),
                                          ("PPStructure.predict(img)", "/py/site-packages/paddleocr/paddleocr.py")])
def test_a_class_named_with_an_acronym_called_without_an_instance(tmp_path, source, path):
    method = source.split(".")[1].split("(")[0]
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 5, in run\n    {source}\n"
                             f"TypeError: {method}() missing 1 required positional argument: 'x'\n")
    assert rc.cause == CauseId.python_exception and "on the class" in rc.why, (rc.cause, rc.why)


_FRAMES = "".join(f"W0902 21:18:47.5 100 init.cc:217]     @     0x7f2b1c3e5e0{i} paddle::foo{i}()\n" for i in range(3))


def test_frames_far_after_a_sigterm_dump_are_not_its_own(tmp_path):
    rc = _diagnose(tmp_path, _SIGTERM_DUMP + "info\n" * 500 + _FRAMES)
    assert rc.cause == CauseId.segfault, (rc.cause, rc.code)


def test_an_abort_dump_after_a_sigterm_dump_keeps_its_frames(tmp_path):
    alone = _diagnose(tmp_path, "W0902 21:18:47.5 100 init.cc:217] *** SIGABRT (@0x3e8) received by PID 100 (TID 0x7e) "
                                "from PID 100; stack trace: ***\n" + _FRAMES)
    after = _diagnose(tmp_path, _SIGTERM_DUMP + "W0902 21:18:47.5 100 init.cc:217] *** SIGABRT (@0x3e8) received by PID "
                                                "100 (TID 0x7e) from PID 100; stack trace: ***\n" + _FRAMES)
    assert (after.cause, after.code) == (alone.cause, alone.code), (alone.code, after.code)



@pytest.mark.parametrize("line, code", [
    ("ModuleNotFoundError: No module named 'tools.infer'", "paddleocr_tools_shadowed"),
    ("SystemError: <built-in function connectSlotsByName> returned a result with an error set",
     "pyqt_connect_slots_failed"),
])
def test_the_partial_sets_dependency_readings(tmp_path, line, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.dependency_version_mismatch, code, "medium")


def test_a_tools_module_of_the_users_own_is_not_paddleocrs(tmp_path):
    rc = _diagnose(tmp_path, "ModuleNotFoundError: No module named 'tools.my_helper'\n")
    assert rc.code != "paddleocr_tools_shadowed", rc.code


_CPP_STACK = ("--------------------------------------\nC++ Traceback (most recent call last):\n"
              "--------------------------------------\n0   paddle::framework::SignalHandle(char const*, int)\n"
              "1   paddle::platform::GetCurrentTraceBackString[abi:cxx11]()\n\n")


def test_paddle_2x_handlers_stack_cut_before_its_summary_is_a_native_crash_at_low(tmp_path):
    rc = _diagnose(tmp_path, "[2021/03/09 20:03:40] root INFO: cls num  : 26, elapse : 0.117\n" + _CPP_STACK)
    assert rc.cause == CauseId.segfault and rc.confidence.value == "low", (rc.cause, rc.confidence)


def test_paddle_2x_handlers_stack_for_a_termination_signal_is_not_a_crash(tmp_path):
    rc = _diagnose(tmp_path, _CPP_STACK + "----------------------\nError Message Summary:\n----------------------\n"
                             "FatalError: `Termination signal` is detected by the operating system.\n"
                             "  [TimeInfo: *** Aborted at 1764452457 (unix time) try \"date -d @1764452457\" ***]\n"
                             "  [SignalInfo: *** SIGTERM (@0x3e8) received by PID 12 (TID 0x7f) from PID 1000 ***]\n")
    assert rc is None or rc.cause != CauseId.segfault, (rc.cause, rc.code)
