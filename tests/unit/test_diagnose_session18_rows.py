"""Readings changed in issue 29's eighteenth session: a shared library the loader cannot find, with the advice of a
library (its row's own confirm and fix) rather than the missing path's; Paddle's core that will not import."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


@pytest.mark.parametrize("line, lib", [
    ("ImportError: libGL.so.1: cannot open shared object file: No such file or directory", "libGL.so.1"),
    ("OSError: libsndfile.so: cannot open shared object file: No such file or directory", "libsndfile.so"),
    ("./ocr_system: error while loading shared libraries: libpaddle_inference.so: cannot open shared object file: "
     "No such file or directory", "libpaddle_inference.so"),
])
def test_a_shared_library_not_found_is_a_missing_library_with_a_librarys_advice(tmp_path, line, lib):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.file_not_found, "shared_library_not_found", "medium")
    assert lib in rc.message
    assert "apt-file search" in rc.fix and "LD_LIBRARY_PATH" in rc.fix and "absolute paths" not in rc.fix
    assert "ldd" in rc.facts["confirm"]
    # the catalog's "the path may come from a config value" is no near cause of a library
    assert CauseId.config_error not in [a.cause for a in rc.alternatives]


@pytest.mark.parametrize("line, cause", [
    ("OSError: libcudnn.so.8: cannot open shared object file: No such file or directory", CauseId.cuda_cudnn_mismatch),
    ("error while loading shared libraries: libcrypto.so.10: cannot open shared object file: No such file or directory",
     CauseId.dependency_version_mismatch),
])
def test_gpu_and_versioned_system_libraries_keep_their_own_rows(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code != "shared_library_not_found", (rc.cause, rc.code)


def test_a_missing_file_keeps_the_catalogs_advice(tmp_path):
    rc = _diagnose(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: 'data/train_list.txt'\n")
    assert rc.cause == CauseId.file_not_found and "absolute paths" in rc.fix
    assert CauseId.config_error in [a.cause for a in rc.alternatives]


def test_the_loaders_line_after_paddles_core_line_decides(tmp_path):
    """core.py names the core file; the ImportError raised after it names why (here a symbol of another library)."""
    rc = _diagnose(tmp_path, "Error: Can not import avx core while this file exists: /usr/lib/python3.7/site-packages/"
                             "paddle/fluid/core_avx.so\nImportError: /usr/lib/python3.7/site-packages/paddle/fluid/"
                             "core_avx.so: undefined symbol: _ZN5baidu3xpu3api11sparse_adamIfEEiPNS1_7ContextE\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


def test_paddles_core_lacking_a_procedure_is_a_library_of_another_version(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: DLL load failed while importing libpaddle: 找不到指定的程序。\n")
    assert (rc.cause, rc.code) == (CauseId.cuda_cudnn_mismatch, "paddle_core_procedure_missing")


# --- batch105's first look ----------------------------------------------------------------------------------------

def test_condas_packages_not_found_is_a_dependency_with_the_channel_as_near_cause(tmp_path):
    rc = _diagnose(tmp_path, "PackagesNotFoundError: The following packages are not available from current channels:"
                             "\n\n  - cudatoolkit=11.7\n\nCurrent channels:\n\n  - https://mirrors.x/anaconda/cloud/Paddle/"
                             "win-64\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "conda_packages_not_found")
    assert rc.alternatives[0].cause == CauseId.config_error and "conda search" in rc.alternatives[0].confirm


@pytest.mark.parametrize("text", ["an illegal memory access was encountered", "unspecified launch failure"])
def test_fluids_enforce_carrying_a_kernel_fault_is_cudas_error(tmp_path, text):
    rc = _diagnose(tmp_path, f"paddle.fluid.core.EnforceNotMet: {text} at [/paddle/paddle/fluid/platform/"
                             "device_context.cc:179]\n")
    assert (rc.cause, rc.code) == (CauseId.cuda_error_other, "enforce_cuda_fault_text"), (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["typeError: cannot unpack non-iterable bool object", "valueerror: bad value"])
def test_a_builtin_exception_whose_case_a_paste_changed_is_still_read(tmp_path, line):
    rc = _diagnose(tmp_path, "tokenizer, d = super().from_pretrained()\n" + line + "\n")
    assert (rc.cause, rc.code) == (CauseId.python_exception, "exception_case_changed"), (rc.cause, rc.code)


@pytest.mark.parametrize("line", ["valueerror_rate: 0.1", "keyerrors: 3", "myerror: nothing here"])
def test_a_word_that_only_starts_like_an_exception_is_not_read_as_one(tmp_path, line):
    rc = _diagnose(tmp_path, "step 3: loss 0.2\n" + line + "\n")
    assert rc is None or rc.code != "exception_case_changed"


def test_servings_client_asked_for_unsaved_fetch_names_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, "    fetch=[\"multiclass_nms\"])\nValueError: Fetch names should not be empty or out of "
                             "saved fetch list.\n")
    assert (rc.cause, rc.code) == (CauseId.config_error, "serving_fetch_name_unknown")


def test_a_lite_ops_shape_check_is_a_verdict_with_another_lite_release_near(tmp_path):
    rc = _diagnose(tmp_path, "[I  1/ 4  0:28: 2.711 /Paddle-Lite/lite/operators/concat_op.cc InferShape:44] "
                             "out_dims[j] == input_dims[i][j] check failed!\n[I  1/ 4  0:28: 2.711 /Paddle-Lite/lite/"
                             "operators/concat_op.cc InferShape:44] 246 != 120\n")
    assert (rc.cause, rc.code) == (CauseId.python_exception, "lite_op_shape_check"), (rc.cause, rc.code)
    assert rc.alternatives[0].cause == CauseId.paddle_api_mismatch


def test_a_cmake_status_line_is_not_the_builds_error(tmp_path):
    """find_package without REQUIRED prints "-- Could NOT find X" and goes on; the CMake Error after it is the error."""
    rc = _diagnose(tmp_path, "-- Could NOT find Protobuf (missing:  Protobuf_INCLUDE_DIR)\n-- Checking whether "
                             "/usr/bin/gfortran supports Fortran 90 -- yes\nCMake Error at cmake/external/openblas.cmake:"
                             "46 (message):\n  Cannot found gfortran library which it is used by openblas\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "paddle_cmake_blas_missing"), (rc.cause, rc.code)
    rc = _diagnose(tmp_path, "CMake Error at /usr/share/cmake-3.7/Modules/FindPackageHandleStandardArgs.cmake:138 "
                             "(message):\n  Could NOT find Protobuf (missing: Protobuf_INCLUDE_DIR)\n")
    assert rc.code == "cmake_package_not_found"


# --- batch106's first look ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "[2023/12/09 20:45:37] ppocr ERROR: When parsing line crop_img/1.jpg      6.车辆识别代号\n, error happened with msg: "
    "Traceback (most recent call last):\n  File \"ppocr/data/simple_dataset.py\", line 124, in get_ext_data\n"
    "    label = substr[1]\nIndexError: list index out of range\n",
    "ppocr ERROR: When parsing line {\"filename\": \"img/1.jpg\", \"html\": {\"structure\": etc...}\n\nFile \"ppocr/data/"
    "imaug/label_ops.py\", line 673, in __call__\n    bboxes[i] = bbox\nValueError: could not broadcast input array "
    "from shape (8,) into shape (4,)\n",
])
def test_ppocrs_label_line_whose_message_broke_at_its_newline_is_still_the_label_file(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.config_error, "ppocr_label_line_cut"), (rc.cause, rc.code)


@pytest.mark.parametrize("frame", ['  File "/content/PaddleOCR/tools/program.py", line 70, in _parse_opt',
                                   '  File "/w/PaddleDetection/ppdet/utils/cli.py", line 64, in _parse_opt'])
def test_a_suites_override_without_an_equals_sign_is_the_command(tmp_path, frame):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n" + frame + "\n    k, v = s.split('=')\n"
                             "ValueError: not enough values to unpack (expected 2, got 1)\n")
    assert (rc.cause, rc.code) == (CauseId.config_error, "suite_option_unparsed"), (rc.cause, rc.code)
    assert "***" not in rc.message


@pytest.mark.parametrize("text, cause, code, confidence", [
    ("NOT PASS label class check!\nfatal error: label class is out of range [0, 1]\n", CauseId.config_error,
     "seg_label_class_out_of_range", "medium"),
    ("  File \"/usr/lib/python2.7/os.py\", line 157, in makedirs\n    mkdir(name, mode)\nOSError: [Errno 17] File exists: "
     "'cluster_model/epoch_5'\n", CauseId.concurrent_checkpoint_write, "makedirs_exists_race", "low"),
    ("CMake Error: The source directory \"/xxx/paddle/build\" does not appear to contain CMakeLists.txt.\n",
     CauseId.config_error, "cmake_source_dir_wrong", "medium"),
    ("ValueError: (InvalidArgument) Input shapes are inconsistent with the model. Expect [3, 32, 100] in model "
     "description, but got [3, 32, 163] in runtime. TRT 5 or lower version does not support dynamic input shapes.\n",
     CauseId.config_error, "trt_static_shape_differs", "medium"),
    ("ERROR: unknown command line flag 'fraction_of_gpu_memory_to_use'\n", CauseId.config_error, "gflags_flag_unknown", "medium"),
])
def test_batch106s_emitters_name_their_causes(tmp_path, text, cause, code, confidence):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (cause, code, confidence), (rc.cause, rc.code)


# --- batch107's first look ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, cause, code", [
    ("E0921 22:37:35.347833 13728 analysis_config.cc:73] Please compile with gpu to EnableGpu()\n", CauseId.config_error,
     "inference_gpu_in_cpu_build"),
    ("/usr/bin/ld: warning: libjasper.so.1, needed by ../deps/opencv/lib/libopencv_imgcodecs.so.3.4.6, not found (try "
     "using -rpath or -rpath-link)\n/usr/bin/ld: ../deps/opencv/lib/libopencv_imgcodecs.so.3.4.6: undefined reference "
     "to `jas_image_writecmpt'\n", CauseId.file_not_found, "linker_needed_library_missing"),
    ("      File \"/private/var/folders/T/pip-install-sazg3s7j/paddle/setup.py\", line 3, in <module>\n        import "
     "paddle\n    ModuleNotFoundError: No module named 'common'\n", CauseId.config_error, "pip_unrelated_paddle_project"),
    ("F0914 15:47:05.081784  3788 NeuralNetwork.cpp:250] Check failed: inArgs.size() == dataLayers_.size() (1 vs. 0)\n",
     CauseId.config_error, "v2_inputs_unlike_data_layers"),
    ("RuntimeError: The current Numpy installation ('D:\\\\py\\\\numpy\\\\__init__.py') fails to pass a sanity che\n",
     CauseId.dependency_version_mismatch, "numpy_windows_sanity_check"),
    ("【'/paddle/lib/libpaddle_fluid.lib', needed by 'ocr_system.exe', missing and no known rule to make it\n",
     CauseId.config_error, "paddle_lib_setting_empty"),
    ("错误\tLNK1104\t无法打开文件“\\paddle\\lib\\paddle_inference.lib”\tppocr\n", CauseId.config_error,
     "paddle_lib_setting_empty"),
    ("CMake Error at CMakeLists.txt:48 (find_package):\n  Could not find a package configuration file provided by "
     "\"OpenCV\" with any\n  of the following names:\n", CauseId.config_error, "cmake_package_config_missing"),
])
def test_batch107s_emitters_name_their_causes(tmp_path, text, cause, code):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (cause, code), (rc.cause, rc.code)


def test_a_library_linked_from_a_folder_is_no_empty_setting(tmp_path):
    rc = _diagnose(tmp_path, "ninja: error: '/opt/x/paddle/lib/libpaddle_fluid.so', needed by 'demo', missing and no known "
                             "rule to make it\n")
    assert rc is None or rc.code != "paddle_lib_setting_empty"


def test_a_hub_serving_response_is_the_modules_error(tmp_path):
    rc = _diagnose(tmp_path, "{'msg': \"'Predictor' object has no attribute 'batch_predict'\", 'results': '', "
                             "'status': '101'}\n")
    assert (rc.cause, rc.code) == (CauseId.python_exception, "hub_serving_module_raised")
    assert "batch_predict" in rc.message


def test_glog_records_run_together_on_one_line_are_each_read(tmp_path):
    """A paste that lost its line breaks: the cuDNN warning and the error after it on one line. The warning explains
    the generic error after it, as on separate lines."""
    warning = ("W0309 22:57:00.701028 37327 device_context.cc:295] WARNING: device: 0. The installed Paddle is compiled "
               "with CUDNN 7.3, but CUDNN version in your machine is 5.1, which may cause serious incompatible bug. Please "
               "recompile or reinstall Paddle with compatible CUDNN version.")
    error = ("Traceback (most recent call last): File \"p_train.py\", line 79, in train_loop exe.run(fluid.default_"
             "startup_program()) File \"/x/paddle/fluid/executor.py\", line 591, in _run exe.run(program.desc, scope, 0, "
             "True, True) paddle.fluid.core.EnforceNotMet: Invoke operator fill_constant error. Python Callstacks: File "
             "\"/x/framework.py\", line 1, in append_op")
    rc = _diagnose(tmp_path, warning + " " + error + "\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)
    assert any("EnforceNotMet" in e.text for e in rc.evidence)
    rc = _diagnose(tmp_path, error + "\n")
    assert rc.cause == CauseId.python_exception and "EnforceNotMet: Invoke operator fill_constant" in rc.message


# --- batch108's first look ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, cause, code", [
    ("c++: error: unrecognized command line option ‘-m64’\n", CauseId.config_error, "compiler_x86_option_elsewhere"),
    ("packed_sgemm.cc:2872:53: error: ‘asm’ operand has impossible constraints\n", CauseId.dependency_version_mismatch,
     "gcc_asm_constraints_impossible"),
    ("Error: Can not import paddle core while this file exists: /env/site-packages/paddle/base/libpaddle.so\n"
     "    from . import libpaddle\nImportError: libnvrtc.so.13:\n", CauseId.cuda_cudnn_mismatch,
     "import_cuda_library_failed"),
    ("  File \"ppdet/data/source/voc.py\", line 186, in load_roidb_and_cname2cid\nAssertionError: not found any voc "
     "record in ./dataset/voc/trainval.txt\n", CauseId.config_error, "ppdet_no_records"),
    ("Error: Variable value (input) of OP(fluid.layers.embedding) expected >= 0 and < 283925, but got 284239. Please "
     "check input value.\n  [Hint: Expected ids[i] < row_number, but received ids[i]:284239 >= row_number:283925.] at "
     "(/paddle/paddle/fluid/operators/lookup_table_op.h:94)\n", CauseId.python_exception, "embedding_id_out_of_range_cpu"),
    ("Error: /paddle/paddle/fluid/operators/lookup_table_v2_op.cu:43 Assertion `id < N` failed. Variable value (input) "
     "of OP(fluid.layers.embedding) expected >= 0 and < 1024, but got 1053. Please check input value.\n",
     CauseId.cuda_error_other, "embedding_id_out_of_range"),
])
def test_batch108s_emitters_name_their_causes(tmp_path, text, cause, code):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (cause, code), (rc.cause, rc.code)


def test_dlerrors_own_words_for_a_cuda_library_keep_their_row(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.cuda_cudnn_mismatch, "cuda_lib_dlerror", "high")


@pytest.mark.parametrize("option", ["-march=armv8-a", "-mavx512f"])
def test_an_option_that_is_not_x86s_own_is_no_other_architecture(tmp_path, option):
    """An ARM option an x86 compiler lacks, or an AVX-512 option an old x86 GCC lacks: not an x86 build elsewhere."""
    rc = _diagnose(tmp_path, f"c++: error: unrecognized command line option ‘{option}’\n")
    assert rc is None or rc.code != "compiler_x86_option_elsewhere"


# --- cuSOLVER's statuses in the code tables (batch106's 10603) --------------------------------------------------------

@pytest.mark.parametrize("text, cause", [
    ("OSError: (External) CUSOLVER error(7).\n  [Hint: 'CUSOLVER_STATUS_INTERNAL_ERROR'. An internal cuSolver operation "
     "failed.]\n", CauseId.cuda_cudnn_mismatch),
    ("OSError: (External) CUSOLVER error(2).\n  [Hint: 'CUSOLVER_STATUS_ALLOC_FAILED'. Resource allocation failed "
     "inside the cuSolver library.]\n", CauseId.gpu_oom),
    ("OSError: (External) CUSOLVER error(4).\n", CauseId.cuda_arch_unsupported),
])
def test_a_cusolver_status_is_read_by_its_code_table(tmp_path, text, cause):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == cause, (rc.cause, rc.code)


def test_a_cusolver_status_beside_a_cuda_fault_is_not_read_alone(tmp_path):
    rc = _diagnose(tmp_path, "OSError: (External) CUSOLVER error(7). CUDA error(700), an illegal memory access was "
                             "encountered.\n")
    assert rc.cause != CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)


def test_a_run_together_line_keeps_its_runners_rank(tmp_path):
    """srun --label's prefix names the rank; the records split from the line keep it."""
    line = ("1: W0921 22:37:35.347833 13728 device_context.cc:73] Please NOTE: device: 0, GPU Compute Capability: 7.0, "
            "Driver API Version: 11.2, Runtime API Version: 10.2, more words to make the line long enough to be split "
            "F0921 22:37:35.347833 13728 device_context.cc:73] Check failed: cudaSuccess == cudaStat (2 vs. 0) out of "
            "memory\n")
    rc = _diagnose(tmp_path, line + "0: step 1 loss 0.5\n2: step 1 loss 0.5\n3: step 1 loss 0.5\n")
    assert rc.ranks == (1,), (rc.ranks, rc.code)


def test_paddles_cpp_traceback_header_is_no_record_start():
    from paddle_doctor.diagnose.read.markdown import records

    line = ("ValueError: (InvalidArgument) The input's channels do not match the filter's " * 3 + "C++ Traceback (most "
            "recent call last): ------ 0 paddle::operators::ConvOp::InferShape(paddle::framework::InferShapeContext*)")
    assert [start for start, _ in records(line)] == [0]


def test_a_one_line_paste_of_many_records_still_reads_its_last_error(tmp_path):
    """More triggers than the windows of one line: the window of the line's last trigger is always read."""
    records = "".join(f"W0309 22:57:00.700938 37327 op_function.cc:{i}] The op error handling warning {'x' * 500} "
                      for i in range(30))
    rc = _diagnose(tmp_path, records + "Traceback (most recent call last): File \"a.py\", line 3, in <module> "
                             "open(\"d.txt\") FileNotFoundError: [Errno 2] No such file or directory: 'd.txt'\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


def test_a_hub_serving_response_printed_as_json_is_read_too(tmp_path):
    rc = _diagnose(tmp_path, "{\"msg\": \"'Predictor' object has no attribute 'batch_predict'\", \"results\": \"\", "
                             "\"status\": \"101\"}\n")
    assert (rc.cause, rc.code) == (CauseId.python_exception, "hub_serving_module_raised")


def test_the_inference_gpu_notice_yields_to_an_error_after_it(tmp_path):
    """EnableUseGpu only logs and goes on on the CPU: a real error after it says more."""
    rc = _diagnose(tmp_path, "E0921 22:37:35.347833 13728 analysis_config.cc:73] Please compile with gpu to EnableGpu()\n"
                             "ValueError: (InvalidArgument) Cannot open file ./inference/det/inference.pdmodel, please "
                             "confirm whether the file is normal.\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


def test_ppocrs_cut_label_line_does_not_outrank_an_image_that_does_not_exist(tmp_path):
    rc = _diagnose(tmp_path, "[2023/12/09 20:45:37] ppocr ERROR: When parsing line crop_img/1.jpg\t车辆识别代号\n, error "
                             "happened with msg: Traceback (most recent call last):\n  File \"ppocr/data/simple_dataset.py\""
                             ", line 130, in __getitem__\n    raise Exception(\"{} does not exist!\".format(img_path))\n"
                             "Exception: ./train_data/crop_img/1.jpg does not exist!\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.code)


def test_a_library_row_s_advice_stays_when_an_error_follows_its_warning(tmp_path):
    rc = _diagnose(tmp_path, "2020-06-27 22:09:59  -  [WinError 126] 找不到指定的模块。\nError: failed to create the "
                             "predictor (dll)\n")
    assert rc.cause == CauseId.file_not_found and "Visual C++ Redistributable" in rc.fix, (rc.cause, rc.code)



# --- batch109's first look ----------------------------------------------------------------------------------------

def test_fluids_stream_error_with_its_errono_is_cudas_error(tmp_path):
    rc = _diagnose(tmp_path, "FatalError: cudaStreamSynchronize raises error: unspecified launch failure, errono: 4: "
                             "unspecified launch failure at (/paddle/paddle/fluid/platform/device_context.cc:331)\n")
    assert rc.cause == CauseId.cuda_error_other, (rc.cause, rc.code)


@pytest.mark.parametrize("cls", ["Parameter", "ParamBase", "Program"])
def test_a_paddle_framework_class_lacking_an_attribute_is_another_release(tmp_path, cls):
    rc = _diagnose(tmp_path, f"  File \"/py/site-packages/paddlehub/common/paddle_helper.py\", line 65, in get_variable_info"
                             f"\n    var_info['gradient_clip_attr'] = var.gradient_clip_attr\nAttributeError: '{cls}' object "
                             "has no attribute 'gradient_clip_attr'\n")
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "tensor_attribute_missing"), (rc.cause, rc.code)


def test_a_users_own_block_class_is_not_paddles(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: 'Block' object has no attribute 'conv3'\n")
    assert rc.code != "tensor_attribute_missing"
