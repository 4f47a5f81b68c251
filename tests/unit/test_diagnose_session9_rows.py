"""Issue 29, ninth session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("text", [
    "[Paddle2ONNX] Due to the operator: bitwise_and, requires opset_version >= 18.\n[Paddle2ONNX] This PaddlePaddle "
    "model is not able to export to ONNX with opset_version=7, please set the opset_version to 18 or higher for "
    "successfully conversion.\n[ERROR] Due to opset version, the model exporting is aborted, please set a higher "
    "opset_version or set auto_upgrade_opset=true.\n",
    "This model cannot export to onnx with opset version = 9, the opset version for this model should be greater or "
    "equal than 11\nDue to opset version, the model exporting is aborted.\n",
    "[Paddle2ONNX] This PaddlePaddle model is not able to export to ONNX with opset_version=11, please set the "
    "opset_version to 13 or higher for successfully conversion.\n",
])
def test_paddle2onnx_stopping_at_a_too_low_opset_is_the_export_option(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error and rc.code == "p2o_opset_too_low", (rc.cause, rc.code, rc.why)


def test_paddle2onnx_upgrading_the_opset_itself_is_no_failure(tmp_path):
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Opset version will change to 13 from 11\n[Paddle2ONNX] Use opset_version = "
                             "13 for ONNX export.\n[Paddle2ONNX] PaddlePaddle model is exported as ONNX format now.\n")
    assert rc is None or rc.cause != CauseId.config_error, (rc.cause, rc.why)


@pytest.mark.parametrize("ops, cause", [
    ("'pad'", CauseId.paddle_api_mismatch),
    ("'inverse, matmul_v2, nearest_interp_v2'", CauseId.paddle_api_mismatch),
    ("'batch_norm_grad, conv2d_grad, create_py_reader, rmsprop'", CauseId.config_error),
    ("'momentum, read'", CauseId.config_error),
])
def test_paddle_lite_opt_without_kernels_is_its_release_unless_the_model_is_a_training_program(tmp_path, ops, cause):
    rc = _diagnose(tmp_path, "E0923 09:26:17.571808 12050 opt_base.cc:445] Error: This model is not supported, because 3 "
                             f"ops are not supported on 'arm'. These unsupported ops are: {ops}.\nAborted (core dumped)\n")
    assert rc.cause == cause, (rc.cause, rc.code, rc.why)


def test_x2paddles_failed_node_is_the_converters_release_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "Converting node 666 ...     2022-11-09 06:28:18,955-WARNING: convert failed node:onnx__"
                             "Concat_649, op_type is Resize\n2022-11-09 06:28:18,956-ERROR: x2paddle threw an exception, "
                             "you can ask for help at: https://github.com/PaddlePaddle/X2Paddle/issues\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("line", ["c++: fatal error: Killed signal terminated program cc1plus",
                                  "g++: internal compiler error: Killed (program cc1plus)"])
def test_a_compiler_killed_during_a_build_is_the_oom_killer_at_medium(tmp_path, line):
    rc = _diagnose(tmp_path, f"[  8%] Building CXX object paddle/phi/kernels/funcs/eigen/broadcast.cc.o\n{line}\n"
                             "compilation terminated.\nmake[2]: *** [broadcast.cc.o] Error 1\n")
    assert rc.cause == CauseId.host_oom_killed and rc.confidence == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("text", ["-- Could NOT find PY_wheel (missing: PY_WHEEL)\nCMake Error at cmake/python_module.cmake"
                                  ":27 (message):\n  python module wheel is not found\n",
                                  "CMake Error at cmake/FindPythonModule.cmake:27 (message):\n  python module "
                                  "google.protobuf is not found\n"])
def test_pythons_missing_build_package_is_a_dependency(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "build_python_module_missing", rc.code


def test_the_v2_loader_missing_a_parameter_is_a_checkpoint_of_another_network(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/usr/lib/python2.7/site-packages/paddle/v2/'
                             'parameters.py", line 200, in get_shape\n    raise ValueError("No such parameter %s" % key)\n'
                             "ValueError: No such parameter ___fc_layer_0__.w0\n")
    assert rc.cause == CauseId.state_dict_shape_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_fluids_bare_enforce_line_is_an_error(tmp_path):
    rc = _diagnose(tmp_path, "C++ Callstacks:\nEnforce failed. Expected ins[0].size() > 0, but received 0.\n")
    assert rc is not None and rc.cause == CauseId.python_exception and "ins[0].size() > 0" in rc.message, rc


@pytest.mark.parametrize("code", ["-1073741676 (0xC0000094)", "-1073740940 (0xC0000374)", "3221225614"])
def test_windows_arithmetic_and_heap_statuses_are_native_crashes(tmp_path, code):
    rc = _diagnose(tmp_path, f"step 510, loss: 5.83\n\nProcess finished with exit code {code}\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


def test_a_windows_path_with_an_escaped_control_character_is_the_codes_string(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "demo.py", line 3, in <module>\n    with open(p) as f:\n'
                             "OSError: [Errno 22] Invalid argument: 'E:\\\\Record\\x07nntest\\\\demo\\\\map.txt'\n")
    assert rc.cause == CauseId.python_exception and "control character" in rc.why, (rc.cause, rc.why)


def test_a_plain_windows_path_that_is_missing_stays_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: 'C:\\\\data\\\\train.txt'\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


_SITE = "/opt/conda/lib/python3.9/site-packages"


def test_a_third_party_namespace_package_imported_by_paddle_is_not_installed_whole(tmp_path):
    rc = _diagnose(tmp_path, f'Traceback (most recent call last):\n  File "{_SITE}/paddle/fluid/proto/framework_pb2.py", '
                             "line 6, in <module>\n    from google.protobuf.internal import enum_type_wrapper\n"
                             "ImportError: cannot import name 'enum_type_wrapper' from 'google.protobuf.internal' "
                             "(unknown location)\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("frames", ['  File "PPOCRLabel.py", line 80, in <module>\n', ""])
def test_a_paddle_package_found_only_as_a_folder_is_not_another_release(tmp_path, frames):
    rc = _diagnose(tmp_path, f"Traceback (most recent call last):\n{frames}    from paddleocr import PaddleOCR\n"
                             "ImportError: cannot import name 'PaddleOCR' from 'paddleocr' (unknown location)\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_a_suites_class_imported_from_paddle_is_the_wrong_package(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n    from paddle '
                             f"import PaddleOCR\nImportError: cannot import name 'PaddleOCR' from 'paddle' ({_SITE}/"
                             "paddle/__init__.py)\n")
    assert rc.cause == CauseId.python_exception and "paddleocr" in rc.why, (rc.cause, rc.why)


def test_a_name_paddle_lacks_is_still_another_release(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "main.py", line 1, in <module>\n    from paddle '
                             f"import einsum\nImportError: cannot import name 'einsum' from 'paddle' ({_SITE}/paddle/"
                             "__init__.py)\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_paddleocrs_pipeline_dependency_error_is_a_missing_extra(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: A dependency error occurred during pipeline creation. Please refer to the "
                             "installation documentation to ensure all required dependencies are installed.\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("message", ["'Page' object has no attribute 'getPixmap'",
                                     "'Document' object has no attribute 'pageCount'"])
def test_pymupdfs_removed_camelcase_names_are_its_release(tmp_path, message):
    rc = _diagnose(tmp_path, f'  File "{_SITE}/paddleocr/ppocr/utils/utility.py", line 99, in check_and_read\n    pm = '
                             f"page.getPixmap(matrix=mat, alpha=False)\nAttributeError: {message}\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("module", ["Polygon", "easydict"])
def test_the_suites_third_party_imports_not_installed_are_dependencies(tmp_path, module):
    rc = _diagnose(tmp_path, f"ModuleNotFoundError: No module named '{module}'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_nvcc_failing_in_the_host_compilers_headers_is_the_toolchain_at_medium(tmp_path):
    rc = _diagnose(tmp_path, '/usr/lib/gcc/x86_64-linux-gnu/11/include/serializeintrin.h(41): error: identifier '
                             '"__builtin_ia32_serialize" is undefined\n\n1 error detected in the compilation of '
                             '"ppdet/ext_op/csrc/rbox_iou/rbox_iou.cu".\n')
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_pips_setup_subprocess_ended_by_sigsegv_is_a_native_crash(tmp_path):
    rc = _diagnose(tmp_path, "  error: subprocess-exited-with-error\n\n  × python setup.py egg_info did not run "
                             "successfully.\n  │ exit code: -11\n  ╰─> [0 lines of output]\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "kernel: traps: python3.8[66885] trap invalid opcode ip:73c69f6f9a77 sp:7ffe36ecd478 error:0 in libpaddle.so[7+d]",
    "[12345.678] python[4242]: segfault at 0 ip 00007f1 sp 00007ffd error 4 in libpaddle.so[7f0+1000]",
])
def test_the_kernels_fault_report_is_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


def test_a_quoted_frame_line_still_shows_which_library_windows_could_not_load(tmp_path):
    rc = _diagnose(tmp_path, '>   File "D:\\\\ocr\\\\ppocr\\\\data\\\\det\\\\make_shrink_map.py", line 11, in <module>\n'
                             "    import pyclipper\nImportError: DLL load failed: The specified module could not be "
                             "found.\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_markdown_bold_error_lines_are_still_errors(tmp_path):
    rc = _diagnose(tmp_path, "[2023-12-07 15:44:23,956] [   **ERROR**] - **Failed to synthesized audio.**\n")
    assert rc is not None, "an error line in Markdown bold read as no failure"


def test_a_journalctl_log_is_read_without_its_prefix(tmp_path):
    """journald's short form before each line: the traceback's frames are read (the shadowed package's folder)."""
    from paddle_doctor.diagnose.read.prefixes import detect

    body = ['Traceback (most recent call last):', '  File "/srv/app/ocr.py", line 3, in <module>',
            '    from paddleocr import PaddleOCR', "ImportError: cannot import name 'PaddleOCR' from 'paddleocr' "
            "(unknown location)"]
    text = "".join(f"Nov 29 01:13:23 gpu01 ocr-api[6688]: {line}\n" for line in body)
    assert detect(text.encode()).name == "journalctl"
    rc = _diagnose(tmp_path, text + "Nov 29 01:13:25 gpu01 systemd[1]: ocr-api.service: Main process exited, "
                                     "code=exited, status=1/FAILURE\n")
    assert rc.cause == CauseId.python_exception and rc.evidence[0].text.startswith("ImportError"), (rc.cause, rc.evidence)


@pytest.mark.parametrize("text", [
    'qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "/env/lib/python3.12/site-packages/cv2/qt/plugins" '
    "even though it was found.\nThis application failed to start because no Qt platform plugin could be initialized. "
    "Reinstalling the application may fix this problem.\n",
    'QLibraryPrivate::loadPlugin failed on "/env/site-packages/PyQt5/Qt5/plugins/platforms/libqxcb.so" : "Cannot load '
    'library /env/site-packages/PyQt5/Qt5/plugins/platforms/libqxcb.so: (libxcb-util.so.1: cannot open shared object '
    'file: No such file or directory)"\n',
])
def test_qts_platform_plugin_that_does_not_load_is_a_dependency_not_a_missing_file(tmp_path, text):
    rc = _diagnose(tmp_path, text + "FatalError: `Process abort signal` is detected by the operating system.\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "qt_platform_plugin", (rc.cause, rc.code)


def test_x2paddles_model_not_supported_is_the_converters_release(tmp_path):
    rc = _diagnose(tmp_path, '  File "/env/site-packages/x2paddle/op_mapper/onnx2paddle/onnx_op_mapper.py", line 39, in '
                             '__init__\n    raise Exception("Model is not supported yet.")\nException: Model is not '
                             "supported yet.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "()" not in rc.message, (rc.cause, rc.message)


def test_a_pyc_of_another_python_is_a_dependency(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"convert.py\", line 12, in <module>\n    import "
                             "caffe_pb2\nImportError: bad magic number in 'caffe_pb2': b'\\x03\\xf3\\r\\n'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line", ["sh: 1: patchelf: not found", "bash: cmake: command not found"])
def test_a_build_tool_not_installed_is_a_dependency(tmp_path, line):
    rc = _diagnose(tmp_path, f"Scanning dependencies of target publish_inference_python_installer\n{line}\nmake[3]: *** "
                             "[publish_inference_python_installer] Error 1\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "build_tool_missing", (rc.cause, rc.code)


def test_a_users_own_command_not_found_is_not_a_build_tool(tmp_path):
    rc = _diagnose(tmp_path, "bash: paddleocrr: command not found\n")
    assert rc is None or rc.code != "build_tool_missing", rc.code


@pytest.mark.parametrize("text", ["CMake Error at cmake/os/android.cmake:23 (message):\n  Must set ANDROID_NDK or env "
                                  "NDK_ROOT\n", "CMake Error at /usr/share/cmake-3.22/Modules/CMakeDetermineSystem.cmake"
                                  ":130 (message):\n  Could not find toolchain file:\n  /home/a/android-ndk*/build/cmake/"
                                  "android.toolchain.cmake\n"])
def test_a_build_configure_step_missing_a_setting_is_the_config(tmp_path, text):
    rc = _diagnose(tmp_path, text + "-- Configuring incomplete, errors occurred!\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_an_onnx_model_given_to_the_rknn_runtime_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, "E RKNN: [02:14:42.649] parseRKNN: invalid RKNN_MAGIC!\nE RKNN: [02:14:42.649] rknn_init, "
                             "load model failed!\n[ERROR] fastdeploy/runtime/runtime.cc(328)::CreateRKNPU2Backend Failed "
                             "to initialize RKNPU2 backend.\nAborted\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_protobuf_refusing_the_file_is_another_kind_of_file_at_medium(tmp_path):
    rc = _diagnose(tmp_path, '  File "/env/site-packages/x2paddle/decoder/tf_decoder.py", line 336, in __init__\n    '
                             "graph_def.ParseFromString(f.read())\ngoogle.protobuf.message.DecodeError: Error parsing "
                             "message with type 'tensorflow.GraphDef'\n")
    assert rc.cause == CauseId.config_error and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_python36s_import_error_without_from_names_the_paddle_package_from_its_line(tmp_path):
    rc = _diagnose(tmp_path, '  File "/usr/local/lib/python3.6/site-packages/paddle_serving_server/pipeline/operator.py", '
                             "line 19, in <module>\n    from paddle_serving_client import MultiLangClient, Client\n"
                             "ImportError: cannot import name 'MultiLangClient'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line, cause", [
    ("/paddle/paddle/platform/dynload/nccl.h:18:18: fatal error: nccl.h: No such file or directory",
     CauseId.nccl_library_missing),
    ("/paddle/paddle/fluid/platform/dynload/cudnn.h:20:10: fatal error: cudnn.h: No such file or directory",
     CauseId.cuda_cudnn_mismatch),
    # another library's header: a file the build does not find (the twenty-second session's labels: 4 of 6 logs)
    ("paddle/framework/executor.cc:19:52: fatal error: boost/range/adaptor/reversed.hpp: No such file or directory",
     CauseId.file_not_found),
])
def test_a_header_the_compiler_cannot_find_is_a_build_failure_at_medium(tmp_path, line, cause):
    rc = _diagnose(tmp_path, f"{line}\n #include <x.h>\ncompilation terminated.\nmake[2]: *** [executor.cc.o] Error 1\n")
    assert rc.cause == cause and rc.confidence == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("line, cause", [
    ("/mnt/Paddle/paddle/fluid/platform/dynload/nccl.h:41:31: error: 'nccl_func' does not name a type",
     CauseId.nccl_version_mismatch),
    ("/paddle/paddle/fluid/platform/dynload/cudnn.h:72:11: error: '::cudnnGetConvolutionForwardAlgorithm' has not "
     "been declared", CauseId.cuda_cudnn_mismatch),
])
def test_paddles_dynload_wrapper_not_compiling_is_the_installed_headers_version(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "framework.pb.h:18:2: error: #error incompatible with your Protocol Buffer headers. Please\n",
    "framework.pb.h:12:2: error: #error This file was generated by a newer version of protoc which is\n",
    "vis_demo.cc:(.text+0x12be): undefined reference to `paddle::AnalysisConfig::SetModel(std::__cxx11::basic_string"
    "<char, std::char_traits<char>, std::allocator<char> > const&)'\ncollect2: error: ld returned 1 exit status\n",
    "vis_demo.cc:(.text+0x12be)：对‘paddle::AnalysisConfig::SetModel(std::__cxx11::basic_string<char>)’未定义的引用\n",
    "tinyformat.h:673:15: error: this statement may fall through [-Werror=implicit-fallthrough=]\n",
])
def test_a_build_whose_tools_or_libraries_do_not_fit_is_a_dependency(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


@pytest.mark.parametrize("line", ["c++: internal compiler error: 已杀死 (program cc1plus)",
                                  "nvcc error   : 'cicc' died due to signal 9 (Kill signal)"])
def test_a_build_tool_killed_in_the_locales_words_or_nvccs_is_the_oom_killer(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\nmake[2]: *** [activation_op.cu.o] Error 1\n")
    assert rc.cause == CauseId.host_oom_killed, (rc.cause, rc.why)


def test_an_embedding_id_past_its_table_is_a_kernels_input_check_at_medium(tmp_path):
    rc = _diagnose(tmp_path, "Error: /paddle/paddle/fluid/operators/lookup_table_v2_op.cu:43 Assertion `id < N` failed. "
                             "Variable value (input) of OP(fluid.layers.embedding) expected >= 0 and < 1024, but got "
                             "1053. Please check input value.\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert "past its table of 1024 rows" in rc.message


def test_a_fluid_op_without_the_input_its_grad_maker_asks_for_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "EnforceNotMet: Input ShapeTensor cannot be found in Op reshape2 at [/paddle/paddle/fluid/"
                             "framework/op_desc.cc:306]\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_an_option_with_a_typographic_dash_is_the_command(tmp_path):
    rc = _diagnose(tmp_path, "subprocess.CalledProcessError: Command '['/env/bin/python', '-u', './train.py', "
                             "'\u2014param_path', './config/x.json']' returned non-zero exit status 1.\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_chinese_prose_with_em_dashes_is_no_option(tmp_path):
    rc = _diagnose(tmp_path, "训练报错——求助\nRuntimeError: boom\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_a_file_not_found_that_names_no_path_is_medium_and_the_raise_line_is_code(tmp_path):
    rc = _diagnose(tmp_path, '  File "/home/u/PARL/parl/remote/utils.py", line 138, in locate_remote_file\n    raise '
                             'FileNotFoundError("cannot locate the remote file")\nFileNotFoundError: cannot locate the '
                             "remote file\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert rc.evidence[0].text.startswith("FileNotFoundError"), rc.evidence


def test_a_file_not_found_with_its_path_is_medium(tmp_path):
    """The line says what is missing, not why (first looks: right 17 times in 27 when it was said high)."""
    rc = _diagnose(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: './train_data/x.jpg'\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_paddlehubs_module_version_table_marks_the_release_it_needs(tmp_path):
    rc = _diagnose(tmp_path, "|       Name        | Version  |   PaddlePaddle Version Required   |    PaddleHub Version Required "
                             "    |\n|Pneumonia_CT_LKM_PP|  1.0.0   |         <=2.1.0(Mismatch)         |         "
                             "<=2.2.0(Mismatch)         |\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "  Could NOT find Protobuf (missing: Protobuf_INCLUDE_DIR)\nCall Stack (most recent call first):\n",
    "CMake Error at cmake/check_packages.cmake:38 (message):\n  SWIG is not found.  Please install swig or disable "
    "WITH_SWIG_PY\n",
    "CMake Error at python/CMakeLists.txt:12 (SWIG_ADD_MODULE):\n  Unknown CMake command \"SWIG_ADD_MODULE\".\n",
    "decoder_utils.h:55: Error: Syntax error in input(1).\nerror: command 'swig' failed with exit status 1\n",
    "  _posixsubprocess.c:3:20: 致命错误：Python.h：没有那个文件或目录\n   #include \"Python.h\"\n",
    "  _posixsubprocess.c:16:20: fatal error: Python.h: No such file or directory\n",
    "ValueError: numpy.ndarray has the wrong size, try recompiling\n",
])
def test_a_build_missing_a_library_or_tool_is_a_dependency(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code, rc.why)


def test_paddlenlps_folder_without_a_config_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "AssertionError: please make sure one of the ['config.json', 'model_config.json'] under "
                             "uie-x-base\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_pydataprovider2s_python_error_is_the_providers_exception(tmp_path):
    rc = _diagnose(tmp_path, "Python Error: <type 'exceptions.IndexError'> : too many indices for array\n")
    assert rc.cause == CauseId.python_exception and "IndexError" in rc.message, (rc.cause, rc.message)


def test_python2s_missing_paddle_dotted_from_paddle_is_no_paddle_at_medium(tmp_path):
    """Python 2 names the dotted path from the first part it could not find: "paddle.trainer..." is paddle itself."""
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"dataprovider_bow.py\", line 15, in <module>\n"
                             "    from paddle.trainer.PyDataProvider2 import *\nImportError: No module named "
                             "paddle.trainer.PyDataProvider2\n")
    assert rc.cause == CauseId.python_exception and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert "not installed" in rc.message or "no paddle" in rc.message, rc.message


def test_gunicorns_worker_timeout_explains_the_sigkill_after_it(tmp_path):
    rc = _diagnose(tmp_path, "[2024-03-27 07:25:18 +0000] [229325] [CRITICAL] WORKER TIMEOUT (pid:236752)\nFatalError: "
                             "`Process abort signal` is detected by the operating system.\n[2024-03-27 07:25:19 +0000] "
                             "[229325] [ERROR] Worker (pid:236752) was sent SIGKILL! Perhaps out of memory?\n")
    assert rc.cause == CauseId.config_error and rc.code == "gunicorn_worker_timeout", (rc.cause, rc.code)


def test_a_gunicorn_sigkill_without_a_timeout_stays_the_oom_killer(tmp_path):
    rc = _diagnose(tmp_path, "[2025-06-23 10:58:53 +0000] [1] [ERROR] Worker (pid:8) was sent SIGKILL! Perhaps out of "
                             "memory?\n")
    assert rc.cause == CauseId.host_oom_killed, (rc.cause, rc.why)


def test_windows_fail_fast_after_a_failed_check_is_an_abort_at_low(tmp_path):
    rc = _diagnose(tmp_path, "*** Check failure stack trace: ***\n\nProcess finished with exit code -1073740791 "
                             "(0xC0000409)\n")
    assert rc.cause == CauseId.segfault and rc.confidence != "high", (rc.cause, rc.confidence)


def test_tritons_model_without_a_version_folder_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "E1202 06:13:21.330861 189 model_repository_manager.cc:1395] failed to load model 'pp_ocr': "
                             "at least one version must be available under the version policy of model 'pp_ocr'\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_brpc_refused_connection_is_the_clients_address(tmp_path):
    rc = _diagnose(tmp_path, "W0827 14:56:09.752732   538 predictor.hpp:129] inference call failed, message: [E112]1/1 "
                             "channels failed, fail_limit=1 [C0][E111]Fail to connect Socket{id=1 addr=127.0.0.1:9400} "
                             "(0x0x558f976c7070): Connection refused\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_an_xmlrpc_fault_is_read_as_the_servers_exception(tmp_path):
    rc = _diagnose(tmp_path, "xmlrpc.client.Fault: <Fault 1: \"<class 'AssertionError'>:ocr_version must in ['PP-OCR', "
                             "'PP-OCRv3'], but get PP-OCRv4\">\n")
    assert rc is not None and "AssertionError" in rc.message, rc


def test_paddlexs_missing_extra_is_a_dependency(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: `OCR` requires additional dependencies. To install them, run `pip install "
                             "\"paddlex[ocr]==<PADDLEX_VERSION>\"` if you're installing `paddlex` from an index\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_a_users_file_imported_by_an_installed_package_as_its_module_shadows_it(tmp_path):
    site = "D:\\env\\lib\\site-packages"
    rc = _diagnose(tmp_path, f'Traceback (most recent call last):\n  File "{site}\\paddleocr\\paddleocr.py", line 32, '
                             "in <module>\n    ppstructure = importlib.import_module('.', 'ppstructure')\n  File "
                             '"D:\\env\\lib\\importlib\\__init__.py", line 127, in import_module\n    return '
                             '_bootstrap._gcd_import(name[level:], package, level)\n  File "I:\\ocr\\ppstructure.py", '
                             "line 9, in <module>\n    from paddleocr import PPStructure\nImportError: cannot import "
                             f"name 'PPStructure' from 'paddleocr' ({site}\\paddleocr\\__init__.py)\n")
    assert rc.cause == CauseId.python_exception and "shadows" in rc.why, (rc.cause, rc.why)


def test_one_installed_paddle_library_lacking_what_another_imports_is_at_most_medium(tmp_path):
    site = "/env/lib/python3.10/site-packages"
    rc = _diagnose(tmp_path, f'Traceback (most recent call last):\n  File "{site}/paddlespeech/cli/vector/infer.py", line '
                             "25, in <module>\n    from paddleaudio.backends import load as load_audio\nImportError: cannot "
                             f"import name 'load' from 'paddleaudio.backends' ({site}/paddleaudio/backends/__init__.py)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert "paddleaudio" in rc.why and "paddlespeech" in rc.why, rc.why


@pytest.mark.parametrize("code, written", [('open(jsonPath, "w", encoding="utf-8").write(json.dumps(labels))', True),
                                           ("paddle.save(state, save_path)", True),
                                           ("with open(label_file, 'r') as f:", False)])
def test_a_missing_file_the_failing_line_writes_puts_the_code_first_among_alternatives(tmp_path, code, written):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "C:\\\\env\\\\site-packages\\\\eiseg\\\\app.py", line '
                             f"2091, in exportLabel\n    {code}\nFileNotFoundError: [Errno 2] No such file or directory: "
                             "'C:/data\\\\label\\\\labelme\\\\14_2_labelme.json'\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert ("being written" in rc.why) == written, rc.why
    assert (rc.alternatives[0].cause == CauseId.python_exception) == written, rc.alternatives


def test_a_kill_after_the_process_failed_is_at_most_medium(tmp_path):
    rc = _diagnose(tmp_path, "[DAG] Succ init\n[det|2] failed to init op: Log_id: 0  Raise_msg: sequence item 0: expected "
                             "str instance, NoneType found  ClassName: Op._run.<locals>.check_helper  FunctionName: "
                             "check_helper\n已杀死\n")
    assert rc.cause == CauseId.host_oom_killed and rc.confidence == "medium", (rc.cause, rc.confidence)
    assert rc.alternatives[0].cause == CauseId.python_exception, rc.alternatives


def test_a_kill_with_no_error_before_it_stays_high(tmp_path):
    rc = _diagnose(tmp_path, "epoch 1 step 200 loss 0.31\nepoch 1 step 210 loss 0.30\nrun.sh: line 3: 12345 Killed"
                             "                  python train.py\n")
    assert rc.cause == CauseId.host_oom_killed and rc.confidence == "high", (rc.cause, rc.confidence)
