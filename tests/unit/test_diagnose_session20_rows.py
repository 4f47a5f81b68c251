"""Readings added in issue 29's twentieth session (batch115's misses and after, each from its emitter's source)."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.text import verdict_line
from pastes import root_cause_of as _diagnose

_FRAME = '  File "/home/u/PaddleDetection/ppdet/metrics/coco_utils.py", line 169, in json_eval_results\n'


@pytest.mark.parametrize("source", ["assert metric == 'COCO'", "assert dataset in ['pascalvoc', 'coco2014', 'coco2017']",
                                    'assert cfg.architecture in ("YOLOv3", "FasterRCNN")'])
def test_a_bare_assert_of_named_choices_is_a_value_outside_them(tmp_path, source):
    text = f"Traceback (most recent call last):\n{_FRAME}    {source}\nAssertionError\n"
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")


@pytest.mark.parametrize("source", ["assert x.shape == y.shape", "assert len(boxes) == 4", "assert mode == other_mode"])
def test_a_bare_assert_of_shapes_or_names_is_no_choice(tmp_path, source):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n{_FRAME}    {source}\nAssertionError\n")
    assert rc.cause == CauseId.python_exception


def _makedirs(source):
    return ("Traceback (most recent call last):\n"
            '  File "f:\\paddleocr2.4\\ppocr\\utils\\network.py", line 54, in maybe_download\n'
            f"    {source}\n"
            '  File "C:\\Users\\u\\.conda\\envs\\paddle\\lib\\os.py", line 221, in makedirs\n'
            "    mkdir(name, mode)\n"
            "FileExistsError: [WinError 183] 当文件已存在时，无法创建该文件。: './inference/det_onnx/model.onnx'\n")


def test_makedirs_with_exist_ok_on_a_file_is_a_setting_that_names_a_file(tmp_path):
    rc = _diagnose(tmp_path, _makedirs("os.makedirs(model_storage_directory, exist_ok=True)"))
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")


def test_makedirs_without_exist_ok_is_a_folder_that_exists(tmp_path):
    # without exist_ok, an existing folder raises too (a second rank making the same folder): no setting is wrong
    rc = _diagnose(tmp_path, _makedirs("os.makedirs(model_storage_directory)"))
    assert rc.cause != CauseId.config_error


def test_an_assert_that_asks_to_set_a_scripts_option_is_the_config(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/x/PaddleSeg/paddleseg/models/rtformer.py", line 371, in forward\n'
            '    assert B > 0, "The first dim of x ({}) should be greater than 0, please set input_shape for export.py".format(\n'
            "AssertionError: The first dim of x (-1) should be greater than 0, please set input_shape for export.py\n")
    assert _diagnose(tmp_path, text).cause == CauseId.config_error
    # a constant's name in capitals is no option of the script
    text = text.replace("input_shape", "CUDA_VISIBLE_DEVICES")
    assert _diagnose(tmp_path, text).cause != CauseId.config_error


def test_a_logged_only_support_that_lists_a_dicts_keys_is_the_config(tmp_path):
    text = ("[2022/10/24 19:41:47] ppocr ERROR: lang latin is not support, we only support dict_keys(['en', 'ch']) "
            "for layout models\n")
    assert _diagnose(tmp_path, text).cause == CauseId.config_error


def test_yacs_config_without_the_key_a_suites_code_reads_is_another_release(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/PaddleSpeech/paddlespeech/s2t/models/ds2/deepspeech2.py", line 233, in from_config\n'
            "    share_rnn_weights=config.share_rnn_weights,\n"
            '  File "/usr/lib/python3.7/site-packages/yacs/config.py", line 141, in __getattr__\n'
            "    raise AttributeError(name)\n"
            "AttributeError: share_rnn_weights\n")
    assert _diagnose(tmp_path, text).cause == CauseId.paddle_api_mismatch
    # the user's own script reading its own config: a typo of theirs
    user = text.replace("/PaddleSpeech/paddlespeech/s2t/models/ds2/deepspeech2.py", "/home/u/train.py")
    assert _diagnose(tmp_path, user).cause == CauseId.python_exception


def test_numpy_0d_index_in_a_suites_line_is_code_before_0d_tensors(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/site-packages/paddleseg/core/train.py", line 278, in train\n'
            "    avg_loss_list = [l[0] / log_iters for l in avg_loss_list]\n"
            "IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed\n")
    assert _diagnose(tmp_path, text).cause == CauseId.paddle_api_mismatch
    assert _diagnose(tmp_path, text.replace("/site-packages/paddleseg/core/", "/home/u/")).cause == \
        CauseId.python_exception


@pytest.mark.parametrize("line, cause, code", [
    ("AssertionError: Number of places must be 1 in dygraph mode", CauseId.cuda_visible_devices_misconfig,
     "dygraph_loader_places"),
    ("ValueError: (InvalidArgument) Python object is not type of St10shared_ptrIN6paddle10imperative7VarBaseEE (at "
     "/paddle/paddle/fluid/pybind/imperative.cc:74)", CauseId.paddle_api_mismatch, "varbase_cast_failed"),
    ("/opt/cuda/targets/x86_64-linux/include/thrust/system/cuda/detail/scan_by_key.h(905): error: identifier "
     '"CUB_TARGET_ALLOWS_DEVICE_SYNC" is undefined', CauseId.cuda_cudnn_mismatch, "nvcc_toolkit_header_undefined"),
    ("报错：uses a build backend that is missing the 'build_editable' hook, so it cannot be installed in editable mode. "
     "Consider using a build backend that supports PEP 660.", CauseId.dependency_version_mismatch,
     "pip_editable_hook_missing"),
])
def test_session20_rows(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (cause, code, "medium")


def test_an_identifier_undefined_in_the_users_own_cuda_file_is_no_toolkit_mismatch(tmp_path):
    rc = _diagnose(tmp_path, '/home/u/op/my_kernel.cu(12): error: identifier "blockDimm" is undefined\n')
    assert rc is None or rc.code != "nvcc_toolkit_header_undefined"


@pytest.mark.parametrize("line, cause, code", [
    ("F0927 17:52:51.326489 46117 kernel.cc:44] Check failed: type no type registered for kernel "
     "[generate_proposals/def] output argument [RpnRoisLod]", CauseId.paddle_api_mismatch,
     "lite_kernel_argument_undeclared"),
    ("Check failed: type no type registered for kernel [conv2d] input argument [Input] with key x", CauseId.paddle_api_mismatch,
     "lite_kernel_argument_undeclared"),
    ("AttributeError: 'ProcessMesh' object has no attribute 'get_rank_by_dim_and_process_id'", CauseId.paddle_api_mismatch,
     "tensor_attribute_missing"),
])
def test_session20_rows_batch117(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code) == (cause, code)
    assert rc.confidence.value != "high"


def test_paddle_1x_untyped_enforce_summary_is_the_generic_exception(tmp_path):
    text = ("----------------------\nError Message Summary:\n----------------------\n"
            "Error: Cannot get attribute groups by type int ,its type is bool at(/paddle/paddle/fluid/framework/attribute.h:42)\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.python_exception, "enforce_legacy_summary", "medium")
    assert "Cannot get attribute groups" in rc.message
    # a tool's own "Error:" line without Paddle's place is not Paddle's enforce
    rc = _diagnose(tmp_path, "Error: could not reach the mirror\n")
    assert rc is None or rc.code != "enforce_legacy_summary"


def test_onnx_runtime_status_is_read_with_its_name(tmp_path):
    text = ("    return self._sess.run(output_names, input_feed, run_options)\n"
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
            "onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : "
            "Non-zero status code returned while running BatchNormalization node.\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.python_exception, "ort_status_error", "medium")
    assert "INVALID_ARGUMENT" in rc.message
    # its missing-file status keeps its own reading
    rc = _diagnose(tmp_path, "onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : "
                             "NO_SUCHFILE : Load model from ./det.onnx failed:Load model ./det.onnx failed. File doesn't exist\n")
    assert rc.code == "ort_model_file_missing"


def test_onnx_runtime_input_of_another_size_than_the_export_fixed(tmp_path):
    text = ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : "
            "Got invalid dimensions for input: x for the following indices\n index: 3 Got: 262 Expected: 100\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.config_error, "ort_input_dims_fixed", "medium")


def _metric_key_error(path, key):
    return ("Traceback (most recent call last):\n"
            f'  File "{path}", line 71, in bbox_eval\n'
            f"    gt_boxes = t[{key}][0]\n"
            f"KeyError: {key}\n")


def test_a_detection_metric_without_its_ground_truth_field_is_the_eval_reader(tmp_path):
    rc = _diagnose(tmp_path, _metric_key_error("/x/PaddleDetection/static/ppdet/utils/voc_eval.py", "'gt_bbox'"))
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")


@pytest.mark.parametrize("path, key", [("/x/PaddleDetection/ppdet/data/source/voc.py", "'gt_bbox'"),
                                       ("/home/u/my_eval.py", "'gt_bbox'"),
                                       ("/x/PaddleDetection/ppdet/utils/voc_eval.py", "'boxes'")])
def test_other_key_errors_are_no_ground_truth_reader(tmp_path, path, key):
    assert _diagnose(tmp_path, _metric_key_error(path, key)).cause == CauseId.python_exception


@pytest.mark.parametrize("text, cause, code", [
    ("REGISTER_CLASS:paddlex\nterminate called after throwing an instance of 'YAML::BadFile'\n  what():  bad file\n"
     "Aborted (core dumped)\n", CauseId.file_not_found, "yaml_cpp_bad_file"),
    ("0x00007FF9FE0BA799 处(位于 main.exe 中)有未经处理的异常: Microsoft C++ 异常: YAML::InvalidNode，位于内存位置 "
     "0x00000091186FF600 处。\n", CauseId.config_error, "yaml_cpp_invalid_node"),
    ("F1107 10:07:00.807379 15320 seg_predictor.cpp:22] Fail to load config file: [D:\\m\\deploy.yaml]\n"
     "*** Check failure stack trace: ***\n", CauseId.config_error, "seg_deploy_config_unloaded"),
    ("The given version [11] is not supported, only version 1 to 7 is supported in this build.\n",
     CauseId.dependency_version_mismatch, "ort_api_version_unsupported"),
])
def test_session20_rows_batch118(tmp_path, text, cause, code):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (cause, code, "medium")


def test_a_yaml_cpp_exception_without_a_row_stays_the_uncaught_exception(tmp_path):
    rc = _diagnose(tmp_path, "terminate called after throwing an instance of 'YAML::EmitterException'\n"
                             "  what():  unexpected end sequence token\nAborted (core dumped)\n")
    assert rc.code == "cpp_terminate"


# --- the review's cases ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, code", [
    ("onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : "
     "Non-zero status code returned while running Conv node. Name:'Conv_0' Status Message: CUDA error "
     "cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device\n", None),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidGraph: [ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model "
     "from model.onnx failed:This is an invalid model. In Node, (\"\", LayerNormalization, \"\", -1) : (\"x\": "
     "tensor(float),) -> (\"y\",) , Error No Op registered for LayerNormalization with domain_version of 17\n", None),
])
def test_an_onnx_runtime_status_whose_message_names_a_cause_keeps_that_reading(tmp_path, text, code):
    rc = _diagnose(tmp_path, text)
    assert rc.code != "ort_status_error" and rc.cause != CauseId.python_exception


def test_paddle_1x_untyped_enforce_summary_is_refined_by_its_words(tmp_path):
    text = ("Error Message Summary:\n"
            "Error: Cannot open file ./inference/__model__ for load op at (/paddle/paddle/fluid/operators/load_op.h:37)\n")
    assert _diagnose(tmp_path, text).cause == CauseId.file_not_found


def test_a_ground_truth_key_outside_a_metric_file_is_no_eval_reader_even_under_an_eval_folder(tmp_path):
    text = _metric_key_error("/home/u/retrieval/PaddleDetection/ppdet/data/transform/operators.py", "'gt_bbox'")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception
    text = _metric_key_error("/home/u/eval/PaddleDetection/ppdet/data/transform/operators.py", "'gt_bbox'")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


@pytest.mark.parametrize("path, source", [("/home/u/test_predict.py", "assert label == 'cat'"),
                                          (_FRAME.split('"')[1], "assert sys.platform == 'linux'"),
                                          (_FRAME.split('"')[1], "assert paddle.__version__ == '2.4.2'"),
                                          ("/usr/lib/python3.8/site-packages/paddle/nn/functional/common.py",
                                           "assert x.dtype == 'float32'")])
def test_a_bare_assert_in_the_users_code_or_of_a_version_platform_or_dtype_is_no_setting(tmp_path, path, source):
    text = f'Traceback (most recent call last):\n  File "{path}", line 12, in f\n    {source}\nAssertionError\n'
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


def test_makedirs_with_exist_ok_on_a_file_in_linux_words(tmp_path):
    text = _makedirs("os.makedirs(model_storage_directory, exist_ok=True)").replace(
        "FileExistsError: [WinError 183] 当文件已存在时，无法创建该文件。", "FileExistsError: [Errno 17] File exists")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")
    # without exist_ok it stays the race (or the leftover) that row names
    text = text.replace(", exist_ok=True", "")
    assert _diagnose(tmp_path, text).cause == CauseId.concurrent_checkpoint_write


def test_numpy_0d_index_of_a_suites_own_label_array_is_not_a_loss(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/site-packages/paddleclas/ppcls/data/dataloader/imagenet_dataset.py", line 60, in __getitem__\n'
            "    return (img, np.array(self.labels[idx])[0])\n"
            "IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed\n")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


@pytest.mark.parametrize("text", [
    "terminate called after throwing an instance of 'YAML::TypedBadConversion<int>'\n  what():  yaml-cpp: error at line "
    "5, column 12: bad conversion\nAborted (core dumped)\n",
    "terminate called after throwing an instance of 'YAML::ParserException'\n  what():  yaml-cpp: error at line 3, "
    "column 1: illegal map value\nAborted (core dumped)\n",
    "terminate called after throwing an instance of 'YAML::TypedKeyNotFound<std::string>'\n  what():  key not found: "
    "Preprocess\n",
])
def test_yaml_cpp_exceptions_of_a_config_that_does_not_parse(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.config_error, "yaml_cpp_config_unparsed", "medium")


def test_yaml_cpp_invalid_node_with_its_first_invalid_key(tmp_path):
    rc = _diagnose(tmp_path, 'what():  invalid node; first invalid key: "image_shape"\n')
    assert (rc.cause, rc.code) == (CauseId.config_error, "yaml_cpp_invalid_node")


def _json_of(source):
    return ("Traceback (most recent call last):\n"
            '  File "ernie/finetune_classifier.py", line 88, in <module>\n'
            f"    {source}\n"
            '  File "/usr/lib/python3.7/json/__init__.py", line 348, in loads\n'
            "    return _default_decoder.decode(s)\n"
            '  File "/usr/lib/python3.7/json/decoder.py", line 355, in raw_decode\n'
            '    raise JSONDecodeError("Expecting value", s, err.value) from None\n'
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n")


def test_a_setting_parsed_as_json_that_is_not_json_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, _json_of("run_config = dict(default_run_config, **json.loads(args.run_config))"))
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")
    # a file's or a response's text that is not JSON says nothing of a setting
    assert _diagnose(tmp_path, _json_of("data = json.loads(resp.text)")).cause == CauseId.python_exception


@pytest.mark.parametrize("line, cause, code", [
    ("Variable Shape not match, Variable [ embedding_0.w_0_moment1_0 ] need tensor with shape (21128, 768) but load set "
     "tensor with shape (50006, 1024)", CauseId.state_dict_shape_mismatch, "load_shape_check"),
    ("Error: AVX is not support on your machine, but you have installed paddlepaddle with avx core, you should reinstall "
     "paddlepaddle by 'python -m pip install -U paddlepaddle-gpu[==version] -f "
     "https://paddlepaddle.org.cn/whl/stable_noavx.html'", CauseId.dependency_version_mismatch, "avx_core_without_avx"),
    ('  File "/paddle/paddle/program.py", line 58, in _parse_opt', CauseId.config_error, "suite_option_unparsed"),
])
def test_session20_rows_batch119(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code) == (cause, code)


# --- the second review's cases -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "[2024/06/12 10:00:00] ppocr INFO:     find_unused_parameters : True\nKeyError: 'label'\n",
    "$ KMP_DUPLICATE_LIB_OK=TRUE python tools/train.py -c configs/x.yml\nKeyError: 'label'\n",
])
def test_a_setting_named_in_a_config_print_or_a_command_is_no_cause(tmp_path, text):
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


def test_init_parallel_envs_single_card_warning_is_no_failure(tmp_path):
    text = ("/opt/conda/lib/python3.7/site-packages/paddle/distributed/parallel.py:136: UserWarning: Currently not a "
            "parallel execution environment, `paddle.distributed.init_parallel_env` will not do anything.\nepoch 1\n")
    assert _diagnose(tmp_path, text) is None


def test_a_repl_call_of_gloo_init_parallel_env_is_no_rendezvous_hang(tmp_path):
    assert _diagnose(tmp_path, '>>> paddle.distributed.gloo_init_parallel_env(0, 2, "127.0.0.1:6170")\ndone\n') is None


def test_a_skipped_pretrained_weight_is_a_warning_not_a_sure_cause(tmp_path):
    text = ("2024-06-12 10:00:01 [WARNING]\t[SKIP] Shape of pretrained params head.conv_out.conv.weight doesn't match."
            "(Pretrained: (19, 64, 1, 1), Actual: (2, 64, 1, 1))\n2024-06-12 10:05:00 [INFO]\t[TRAIN] epoch: 1\n")
    rc = _diagnose(tmp_path, text)
    assert rc is None or rc.confidence.value == "low"


def test_libcxx_names_yaml_cpps_exception_too(tmp_path):
    rc = _diagnose(tmp_path, "libc++abi: terminating with uncaught exception of type YAML::BadFile: bad file: m.yml\n")
    assert rc.code == "yaml_cpp_bad_file"


def test_json_of_a_setting_only_when_the_frame_that_called_json_parses_it(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "client.py", line 9, in <module>\n    result = fetch(json.loads(args.request))\n'
            '  File "client.py", line 4, in fetch\n    return json.loads(resp.text)\n'
            '  File "/usr/lib/python3.7/json/__init__.py", line 348, in loads\n    return _default_decoder.decode(s)\n'
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


def test_yaml_cpp_invalid_node_alone_on_its_line(tmp_path):
    assert _diagnose(tmp_path, 'invalid node; first invalid key: "image_shape"\n').code == "yaml_cpp_invalid_node"


@pytest.mark.parametrize("line, cause", [
    ("(InvalidArgument) The shape of input x must be 4-D", CauseId.python_exception),
    ("numpy.ndarray size changed, may indicate binary incompatibility. Expected 16 from C header, got 96 from PyObject",
     CauseId.dependency_version_mismatch),
    ("0/3 nodes are available: 3 Insufficient nvidia.com/gpu.", None),
])
def test_a_nested_alternative_alone_on_its_line_is_read(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is not None and (cause is None or rc.cause == cause)


def test_a_lone_warning_is_not_said_to_have_failed_the_run(tmp_path):
    log = tmp_path / "w.log"
    log.write_text("2024-06-12 10:00:01 [WARNING]\t[SKIP] Shape of pretrained params head.w doesn't match.(Pretrained: "
                   "(19, 64), Actual: (2, 64))\n2024-06-12 10:05:00 [INFO]\t[TRAIN] epoch: 1\n")
    line = verdict_line(diagnose_paths([str(log)]))
    assert line.startswith("VERDICT  no error in the text; a warning names a cause") and "failed first" not in line
    # a warning an error follows is the failure's cause, said so
    log.write_text(log.read_text() + "Traceback (most recent call last):\nRuntimeError: boom\n")
    assert "failed first" in verdict_line(diagnose_paths([str(log)]))
