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


@pytest.mark.parametrize("cls", ["Tensor", "Variable", "VarBase", "EagerParamBase"])
def test_a_paddle_tensor_lacking_an_attribute_is_code_of_another_version_at_medium(tmp_path, cls):
    rc = _diagnose(tmp_path, f"AttributeError: '{cls}' object has no attribute 'numpy'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_a_fastdeploy_backend_without_the_models_input_type_is_a_release_that_does_not_fit(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/runtime/backends/ort/utils.cc(30)::GetOrtDtype\tUnrecognized fastdeply "
                             "data type:FDDataType::UINT8.\nRuntimeError: tensor type 0 is not supported\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_uvs_report_of_no_wheel_for_this_python_is_the_interpreter_the_package_lacks(tmp_path):
    rc = _diagnose(tmp_path, "  x No solution found when resolving dependencies:\n  Because all of:\n"
                             "          paddlepaddle<=2.6.2\n      have no wheels with a matching Python version tag, we "
                             "can conclude that all of:\n       cannot be used.\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "uv_no_matching_wheel", (rc.cause, rc.code)


def test_easy_installs_failed_sdist_build_is_a_package_without_a_wheel_here(tmp_path):
    rc = _diagnose(tmp_path, "Processing somepkg-1.0.tar.gz\nerror: Setup script exited with error: command 'gcc' failed "
                             "with exit status 1\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("text", ["Collecting paddle\n  Downloading paddle-1.0.2.tar.gz (579 kB)\n",
                                  "Collecting paddle==1.0.2\n  Using cached paddle-1.0.2.tar.gz\n"])
def test_pip_fetching_pypis_unrelated_paddle_project_is_the_install_commands_name(tmp_path, text):
    rc = _diagnose(tmp_path, text + "  error: subprocess-exited-with-error\n      ModuleNotFoundError: No module named "
                                    "'common'\nerror: metadata-generation-failed\n")
    assert rc.cause == CauseId.config_error and rc.code == "pip_unrelated_paddle_project", (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["Collecting paddlepaddle-gpu==2.4.2.post117\n", "Collecting paddle2onnx\n",
                                  "  Downloading paddlepaddle-2.6.2-cp310-cp310-manylinux1_x86_64.whl (126 MB)\n"])
def test_paddlepaddles_own_distributions_are_not_the_unrelated_project(tmp_path, line):
    rc = _diagnose(tmp_path, line + "ERROR: Could not install packages due to an OSError: [Errno 28] No space left\n")
    assert rc is None or rc.code != "pip_unrelated_paddle_project", rc.code


def test_1x_out_of_memory_in_the_device_context_is_the_jobs_gpu_memory(tmp_path):
    rc = _diagnose(tmp_path, "paddle.fluid.core_avx.EnforceNotMet: out of memory at [/paddle/paddle/fluid/platform/"
                             "device_context.cc:243]\n")
    assert rc.cause == CauseId.gpu_oom and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_a_legacy_variable_given_to_a_pir_op_is_old_ir_code_on_paddle_3(tmp_path):
    rc = _diagnose(tmp_path, "TypeError: (InvalidType) multiply(): argument (position 1) must be Value, but got "
                             "Variable (at /paddle/paddle/fluid/pybind/eager_utils.cc:2262)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_paddle_lite_reading_no_known_model_format_is_at_most_medium(tmp_path):
    rc = _diagnose(tmp_path, "[F  5/ 9 14:40:46.375 ...e-Lite/lite/model_parser/model_parser.cc:134 "
                             "PrintPbModelErrorMessage] \n Error, Unsupported model format!\nAborted (core dumped)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("dtype, place, read", [("float", "CUDAPlace(0)", True), ("float", "XPUPlace(0)", True),
                                                ("int64_t", "CUDAPlace(0)", False), ("float", "CPUPlace", False)])
def test_a_1x_op_without_a_float_kernel_on_a_device_is_the_release(tmp_path, dtype, place, read):
    rc = _diagnose(tmp_path, f"PaddleCheckError: op data_norm does not have kernel for data_type[{dtype}]:data_layout"
                             f"[ANY_LAYOUT]:place[{place}]:library_type[PLAIN] at [/paddle/paddle/fluid/framework/"
                             "operator.cc:1010]\n")
    assert (rc.code == "fluid_op_without_device_kernel") == read, (rc.cause, rc.code)


def test_fastdeploy_without_the_devices_backend_is_its_build(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/fastdeploy_model.cc(200)::CreateRKNPUBackend Cannot find an available "
                             "npu backend to load this model.\nAssertionError: PicoDet model initialize failed.\n")
    assert rc.cause == CauseId.config_error and "npu" in rc.message, (rc.cause, rc.message)


def test_a_class_id_the_label_list_lacks_is_the_datasets_classes(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/ppdet/utils/coco_eval.py\", line 315, in "
                             "bbox2out\n    catid = (clsid2catid[int(clsid)])\nKeyError: 1\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_a_string_key_missing_from_the_same_map_is_not_read_as_a_class_id(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/tools/x.py\", line 3, in f\n"
                             "    v = label_map[name]\nKeyError: 'person'\n")
    assert rc.code != "frame" or rc.cause != CauseId.config_error, (rc.cause, rc.why)


def test_python_2s_module_attribute_error_at_a_paddle_name_is_the_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/models/ssd/net.py\", line 242, in "
                             "net_conf\n    out = paddle.layer.detection_output(\nAttributeError: 'module' object has "
                             "no attribute 'detection_output'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_python_2s_module_attribute_error_at_another_modules_name_stays_generic(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/run.py\", line 3, in <module>\n"
                             "    fleet.init()\nAttributeError: 'module' object has no attribute 'init'\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("name", ["tobytes", "ptp", "itemset", "newbyteorder"])
def test_an_ndarray_method_of_another_numpy_release_line_is_the_numpy(tmp_path, name):
    rc = _diagnose(tmp_path, f"AttributeError: 'numpy.ndarray' object has no attribute '{name}'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


def test_an_ndarray_asked_for_a_tensor_method_is_not_read_as_numpys_release(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: 'numpy.ndarray' object has no attribute 'numpy'\n")
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.code)


@pytest.mark.parametrize("line, confidence", [("Program terminated with signal SIGSEGV, Segmentation fault.", "high"),
                                              ("Program terminated with signal 11, Segmentation fault.", "high"),
                                              ("Program terminated with signal 6, Aborted.", "medium")])
def test_gdbs_core_file_signal_is_a_native_crash_and_an_abort_at_most_medium(tmp_path, line, confidence):
    rc = _diagnose(tmp_path, f"[New LWP 1234]\nCore was generated by `./build/ppocr system'.\n{line}\n#0  0x00007f in "
                             "raise () from /lib64/libc.so.6\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == confidence, (rc.cause, rc.confidence)


@pytest.mark.parametrize("text, cause, confidence", [
    ("FatalError: `Access to an undefined portion of a memory object` is detected by the operating system.",
     CauseId.segfault, "medium"),
    ("FatalError: `Access to an undefine", CauseId.segfault, "medium"),
    ("FatalError: `Erroneous arithmetic operation` is detected by the operating system.", CauseId.segfault, "high"),
])
def test_paddles_signal_handler_names_the_signal_by_posixs_description(tmp_path, text, cause, confidence):
    rc = _diagnose(tmp_path, "--------------------------------------\nC++ Traceback (most recent call last):\n"
                             "--------------------------------------\nNo stack trace in paddle, may be caused by external "
                             f"reasons.\n\n----------------------\nError Message Summary:\n----------------------\n{text}\n")
    assert rc.cause == cause and rc.confidence.value == confidence, (rc.cause, rc.confidence)


def test_python_2s_module_attribute_error_of_fluid_layers_in_markdown_bold_is_the_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"model.py\", line 510, in make_inputs\n"
                             "    reader = layers.py_reader(\n**AttributeError: 'module' object has no attribute "
                             "'py_reader\u2018**\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_tensorrts_kernel_library_that_does_not_fit_is_its_release(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] trt_backend.cc(232)::log  2: [builder.cpp::nvinfer1::builder::"
                             "createCaskKernelLibraryImpl::137] Error Code 2: Internal Error (Assertion "
                             "validateCaskKLibSize(buffer.size) failed. )\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_an_installed_tools_call_of_its_own_function_that_does_not_fit_is_its_own_bug(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/v/bin/paddle2onnx\", line 8, in <module>\n"
                             "    sys.exit(main())\n  File \"/v/lib/python3.12/site-packages/paddle2onnx/command.py\", "
                             "line 139, in main\n    paddle2onnx.export(\nTypeError: export() got an unexpected keyword "
                             "argument 'model_file'\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_paddle2onnx_aborting_on_unsupported_operators_without_naming_them_is_the_release(tmp_path):
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Start parsing the Paddle model file...\n[ERROR][Paddle2ONNX] Due to the "
                             "unsupported operators, the conversion is aborted.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "{" not in rc.message, (rc.cause, rc.message)


def test_paddle_lite_nnadapter_without_a_device_is_the_programs_setting(tmp_path):
    rc = _diagnose(tmp_path, "[F 12/ 1 14:47:20.689 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check "
                             "failed: (device_names.size() > 0): 0!>0 No device specified.\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.code)


def test_paddle_lite_without_a_cast_kernel_is_the_release_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "[F  2/27 11:55: 5.352 ...ite/core/mir/type_precision_cast_pass.cc:133 AddCastInst] Check "
                             "failed: is_found: Can't find a Cast kernel for Cast op: Tensor<host,int64_t,NCHW,0>:x->"
                             "Tensor<arm,float,NCHW,0>:y\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_paddle_lites_fatal_check_is_read_as_the_failure_it_ends_with(tmp_path):
    rc = _diagnose(tmp_path, "[I 12/ 1 14:47:20.561 op_lite.cc:75] pick kernel\n[F 12/ 1 14:47:20.689 ...le-Lite/lite/"
                             "kernels/x/engine.cc:294 Engine] Check failed: (n > 0): 0!>0 Something is wrong.\n"
                             "terminate called after throwing an instance of 'paddle::lite::PaddleLiteException'\n")
    assert rc is not None and "Something is wrong" in rc.message and "engine.cc" not in rc.cause, rc


@pytest.mark.parametrize("line", [
    "AssertionError: The FastDeploy didn't compile with TrtBackend.",
    "[ERROR] fastdeploy/runtime/runtime.cc(310)::CreateTrtBackend TrtBackend is not available, please compiled with "
    "ENABLE_TRT_BACKEND=ON.",
    "[ERROR] fastdeploy/core/fd_tensor.cc(75)::Data The FastDeploy didn't compile under -DWITH_GPU=ON, so this is an "
    "unexpected problem happend.",
])
def test_fastdeploys_checks_of_its_own_build_are_the_build(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "fastdeploy_built_without", (rc.cause, rc.code)


def test_fastdeploys_warning_that_it_falls_back_to_the_cpu_is_no_failure(tmp_path):
    rc = _diagnose(tmp_path, "[WARNING] fastdeploy/runtime/runtime_option.cc(58)::UseGpu The FastDeploy didn't compile "
                             "with GPU, will force to use CPU.\n")
    assert rc is None or rc.code != "fastdeploy_built_without", rc.code


@pytest.mark.parametrize("line", ["[ERROR] fastdeploy/utils/utils.cc(30)::ReadBinaryFromFile\tFail to open file:./m/"
                                  "model.pdmodel",
                                  "[ERROR] fastdeploy/vision/detection/ppdet/preprocessor.cc(34)::BuildPreprocessPipeline"
                                  "FromConfig\tFailed to load yaml file ./m/infer_cfg.yml, maybe you should check this "
                                  "file."])
def test_fastdeploy_unable_to_read_a_model_file_is_a_missing_file(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


@pytest.mark.parametrize("text", [
    "The conflict is caused by:\n    torch 2.5.1 depends on nvidia-cuda-runtime-cu12==12.4.127\n    paddlepaddle-gpu 3.1.0 "
    "depends on nvidia-cuda-runtime-cu12==12.3.101\n\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/"
    "en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts\n",
    "ERROR: Cannot install paddleocr==2.7.0 and numpy==2.0.0 because these package versions have conflicting "
    "dependencies.\n",
])
def test_pips_resolver_finding_no_versions_that_fit_together_is_the_dependencies(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "pip_resolution_impossible", (rc.cause, rc.code)


@pytest.mark.parametrize("line, read", [
    ("/paddle/paddle/fluid/operators/math/cross_entropy.cu:40 Assertion `label[i] >= 0 && label[i] < D` failed.", True),
    ("/w/Paddle/paddle/phi/kernels/funcs/gather.cu.h:61: operator(): block: [0,0,0], thread: [3,0,0] Assertion "
     "`index_value >= 0 && index_value < input_dims[j]` failed.", True),
    ("python: /usr/include/c++/9/bits/stl_vector.h:1042: Assertion `__n < this->size()' failed.", False),
])
def test_a_gpu_kernels_own_assertion_in_its_every_form_is_read_before_the_cuda_status_after_it(tmp_path, line, read):
    rc = _diagnose(tmp_path, line + "\npaddle.fluid.core.EnforceNotMet: CUDNN_STATUS_EXECUTION_FAILED at [/paddle/paddle/"
                                    "fluid/operators/batch_norm_op.cu.cc:289]\n")
    assert (rc.code == "gpu_kernel_assertion") == read, (rc.cause, rc.code)


@pytest.mark.parametrize("event", [
    "  Warning  FailedScheduling  12s  default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
    "  5h  27s  1086  default-scheduler  Warning  FailedScheduling  No nodes are available that match all of the "
    "following predicates:: Insufficient alpha.kubernetes.io/nvidia-gpu (3).",
])
def test_kubernetes_unable_to_place_the_jobs_pods_is_what_the_job_asks(tmp_path, event):
    rc = _diagnose(tmp_path, "Events:\n" + event + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "k8s_insufficient_resource", (rc.cause, rc.code)


def test_ppdets_1x_data_source_without_its_annotation_file_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/ppdet/data/source/roidb_source.py\", line 63, "
                             "in __init__\n    anno_file), 'invalid file[%s] for RoiDbSource' % (anno_file)\n"
                             "AssertionError: invalid file[/d/coco/annotations/instances_train.json] for RoiDbSource\n")
    assert rc.cause == CauseId.file_not_found and "instances_train.json" in rc.message, (rc.cause, rc.message)


@pytest.mark.parametrize("source, read", [("self.task_type = self.config[\"Global\"].get(\"task_type\",", True),
                                          ("alg = config['Architecture']['algorithm']", True),
                                          ("value = row['algorithm']", False)])
def test_a_config_key_the_code_reads_and_the_file_lacks_is_another_release_at_medium(tmp_path, source, read):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/ppocr/tools/program.py\", line 639, in "
                             f"preprocess\n    {source}\nKeyError: 'algorithm'\n")
    assert (rc.cause == CauseId.paddle_api_mismatch) == read, (rc.cause, rc.why)
    assert not read or rc.confidence.value == "medium"


def test_a_markdown_italic_exception_line_is_read_as_the_exception(tmp_path):
    rc = _diagnose(tmp_path, "_Traceback (most recent call last):\n  File \"/py/site-packages/paddleocr/tools/program.py\", "
                             "line 639, in "
                             "preprocess\n    alg = config['Architecture']['algorithm']_\n_KeyError: 'algorithm'_\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "reads 'algorithm' from a configuration" in rc.why, rc.why
    assert "_KeyError" not in rc.message and "_KeyError" not in rc.why


def test_a_confusion_matrix_index_past_the_class_count_is_the_class_count(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/pdseg/metrics.py\", line 47, in calculate\n"
                             "    shape=(self.num_classes, self.num_classes))\n  File \"/py/scipy/sparse/coo.py\", line "
                             "285, in _check\n    raise ValueError('row index exceeds matrix dimensions')\n"
                             "ValueError: row index exceeds matrix dimensions\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "79792 Error: /paddle/paddle/fluid/operators/gather.cu.h:62 Assertion index_value >= 0 && index_value < "
    "input_dims[j] failed. The index is out of bounds, please check whether the dimensions of index and input meet "
    "the requirements. It should be less than [7] and greater or equal to 0, but received [32571]\n",
    "Error: C:\\home\\workspace\\Paddle\\paddle\\phi\\kernels\\gpu\\one_hot_kernel.cu:37 \nAssertion `p_in_data[idx] >= 0 "
    "&& p_in_data[idx] < depth` failed. \nIllegal index value, Input(input) value should be greater than or equal to "
    "0, and less than depth [20], but received [20].\n",
])
def test_a_gpu_kernels_assertion_without_backticks_or_split_over_two_lines_is_read(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.cuda_error_other and rc.code == "gpu_kernel_assertion", (rc.cause, rc.code)


def test_a_compilers_error_in_a_cu_file_is_not_read_as_a_kernels_assertion(tmp_path):
    rc = _diagnose(tmp_path, "/w/Paddle/paddle/phi/kernels/gpu/x_kernel.cu:37:5: error: expected ';' before '}' token\n")
    assert rc is None or rc.code != "gpu_kernel_assertion", rc.code


def test_gast_making_nodes_with_other_fields_is_the_gast_release(tmp_path):
    rc = _diagnose(tmp_path, "  File \"/py/paddle/fluid/dygraph/dygraph_to_static/utils.py\", line 446, in "
                             "create_assign_node\n    assign_node = gast.Assign(targets=[targets], values=node)\n  File "
                             "\"/py/gast/gast.py\", line 19, in create_node\n    format(Name, nbparam, len(Fields))\n"
                             "AssertionError: Bad argument number for Assign: 2, expecting 3\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "gast_node_fields", (rc.cause, rc.code)


@pytest.mark.parametrize("path, cause", [("paddle_model_temp_dir/model.pdmodel", CauseId.paddle_api_mismatch),
                                         ("./inference/model.pdmodel", CauseId.file_not_found)])
def test_paddle2onnx_unable_to_read_its_model_file_is_the_path_or_paddles_new_ir(tmp_path, path, cause):
    rc = _diagnose(tmp_path, f"[Paddle2ONNX] Start to parsing Paddle model...\n[Paddle2ONNX] Failed to read model file: "
                             f"{path}, please make sure your model file or file path is valid.\n[Paddle2ONNX] Paddle "
                             "model convert failed.\n")
    assert rc.cause == cause and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_warp_ctcs_failed_gpu_computation_is_a_cuda_failure_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: (PreconditionNotMet) warp-ctc [version 2] Error in get_workspace_size: "
                             "execution failed\n  [Hint: Expected CTC_STATUS_SUCCESS == status, but received "
                             "CTC_STATUS_SUCCESS:0 != status:3.] (at ../paddle/phi/kernels/impl/warpctc_kernel_impl.h:"
                             "199)\n  [operator < warpctc > error]\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence.value == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("a, b, read", [("", "1", True), ("1", "", True), ("2", "3", False)])
def test_a_zero_d_tensor_meeting_a_shape_one_tensor_is_paddle_2_5s_change(tmp_path, a, b, read):
    rc = _diagnose(tmp_path, "InvalidArgumentError: The shape of input[0] and input[1] is expected to be equal.But "
                             f"received input[0]'s shape = [{a}], input[1]'s shape = [{b}].\n")
    assert (rc.code == "zero_d_meets_one_d") == read, (rc.cause, rc.code)


@pytest.mark.parametrize("path, read", [("/v/lib/python3.9/site-packages/paddlespeech/s2t/models/u2/u2.py", True),
                                        ("/home/u/proj/model.py", False)])
def test_a_suites_shape_index_past_a_zero_d_shape_is_code_before_paddle_2_5(tmp_path, path, read):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 532, in attention_rescoring\n"
                             "    assert speech.shape[0] == speech_lengths.shape[0]\nIndexError: list index out of range\n")
    assert (rc.cause == CauseId.paddle_api_mismatch) == read, (rc.cause, rc.why)


def test_a_reshape_that_cannot_hold_the_input_is_the_inputs_size_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "InvalidArgumentError: The 'shape' attribute in ReshapeOp is invalid. The input tensor "
                             "X'size must be divisible by known capacity of 'shape'. But received X's shape = [1, 8, 3, "
                             "320, 320], X's size = 2457600, 'shape' is [-1, 3, 224, 224], known capacity of 'shape' is "
                             "-150528.\n  [operator < reshape2 > error]\n")
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.confidence)


def test_a_reshape_check_failing_at_the_users_own_call_is_the_users_shape(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/tmp/run/case/eval.py\", line 49, in hits\n"
                             "    x = paddle.reshape(x, [-1, 7])\n  File \"/py/site-packages/paddle/tensor/manipulation.py\","
                             " line 4012, in reshape\n    return _C_ops.reshape(x, shape)\nValueError: (InvalidArgument) "
                             "The 'shape' attribute in ReshapeOp is invalid. The input tensor X'size must be divisible by "
                             "known capacity of 'shape'.\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_a_scheduling_warning_before_the_jobs_own_error_does_not_hide_it(tmp_path):
    rc = _diagnose(tmp_path, "  Warning  FailedScheduling  12s  default-scheduler  0/3 nodes are available: 3 Insufficient "
                             "nvidia.com/gpu.\n  Normal   Scheduled  2s  default-scheduler  Successfully assigned job\n"
                             "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    x = a[9]\n"
                             "IndexError: list index out of range\n")
    assert rc.cause != CauseId.config_error or rc.code != "k8s_insufficient_resource", rc.code


def test_the_scheduler_names_the_resource_without_the_sentences_period(tmp_path):
    rc = _diagnose(tmp_path, "  Warning  FailedScheduling  0/3 nodes are available: 3 Insufficient memory.\n")
    assert "enough memory for" in rc.message, rc.message


def test_a_numpy_shapes_index_past_its_end_in_a_suite_is_not_read_as_a_zero_d_tensor(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/py/site-packages/paddleocr/ppocr/data/imaug/"
                             "operators.py\", line 80, in __call__\n    c = img.shape[2]\nIndexError: tuple index out of "
                             "range\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_the_users_own_script_missing_a_key_of_its_own_config_is_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/home/u/train.py\", line 12, in main\n"
                             "    lr = config['learning_rate']\nKeyError: 'learning_rate'\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_a_reshape_check_in_a_suites_source_checkout_is_the_input_size(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/home/u/PaddleDetection/ppdet/modeling/heads/"
                             "x.py\", line 40, in forward\n    y = paddle.reshape(x, [-1, 3, 224, 224])\nValueError: "
                             "(InvalidArgument) The 'shape' attribute in ReshapeOp is invalid. The input tensor X'size must "
                             "be divisible by known capacity of 'shape'.\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_fastdeploy_naming_a_backend_its_library_lacks_names_it_in_the_verdict(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/fastdeploy_model.cc(72)::InitRuntimeWithSpecifiedBackend\tBackend::TRT is "
                             "not compiled with current FastDeploy library.\n")
    assert rc.cause == CauseId.config_error and "(Backend::TRT)" in rc.message, rc.message


@pytest.mark.parametrize("text", [
    "Collecting paddle\n  Downloading http://mirrors.aliyun.com/pypi/packages/55/cf/e4b6/paddle-1.0.2.tar.gz (579 kB)\n",
    "  Building wheel for paddle (setup.py) ... error\n  Failed building wheel for paddle\n",
])
def test_pypis_unrelated_paddle_project_is_read_from_a_mirrors_url_or_its_failed_wheel(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error and rc.code == "pip_unrelated_paddle_project", (rc.cause, rc.code)


def test_python_2s_module_attribute_error_at_another_frameworks_layers_stays_generic(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/w/net.py\", line 3, in build\n"
                             "    x = keras.layers.Foo(3)\nAttributeError: 'module' object has no attribute 'Foo'\n")
    assert rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("path, said", [("/py/lib/python3.8/site-packages/ppgan/apps/x.py", "the installed ppgan"),
                                        ("/home/u/PaddleGAN/ppgan/apps/x.py", "ppgan (a source checkout)")])
def test_a_suites_call_says_whether_the_suite_is_installed_or_a_checkout(tmp_path, path, said):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n  File \"{path}\", line 9, in run\n    y = op(x, k=1)\n"
                             "TypeError: op() got an unexpected keyword argument 'k'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and said in rc.why, rc.why
