"""Readings added in issue 29's seventeenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _said(rc) -> str:
    return f"{rc.message} {rc.why}"


# --- CMake: a platform or toolset its generator does not take -----------------------------------------------------

@pytest.mark.parametrize("what", ["platform", "toolset"])
def test_a_cmake_generator_given_a_platform_it_lacks_is_the_commands_options(tmp_path, what):
    rc = _diagnose(tmp_path, f"CMake Error at CMakeLists.txt:2 (project):\n  Generator\n\n    Unix Makefiles\n\n  does "
                             f"not support {what} specification, but {what}\n\n    NDROID_TOOLCHAIN=/x\n\n  was specified.\n"
                             "-- Configuring incomplete, errors occurred!\n")
    assert rc.cause == CauseId.config_error and what in _said(rc), (rc.cause, _said(rc))


# --- the compiler without numpy's C API ---------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "PyDataProvider2.cpp:693:53: error: ‘PyArray_DTYPE’ was not declared in this scope",
    "ext.c:12:5: error: ‘PyArray_NDIM’ undeclared (first use in this function)",
    "ext.cc:12:5: error: use of undeclared identifier 'PyArray_SHAPE'"])
def test_a_numpy_c_api_macro_the_compiler_lacks_is_numpys_headers(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "numpy" in _said(rc), (rc.cause, _said(rc))


def test_another_undeclared_name_is_not_read_as_numpy(tmp_path):
    rc = _diagnose(tmp_path, "op.cc:12:5: error: ‘my_helper’ was not declared in this scope\n")
    assert rc is None or rc.cause != CauseId.dependency_version_mismatch, (rc.cause, _said(rc))


# --- macOS's loader: a library the binary was linked against is not there ------------------------------------------

@pytest.mark.parametrize("text", [
    "ImportError: dlopen(/L/site-packages/visualdl/core.so, 2): Library not loaded: /usr/local/opt/python/Python\n"
    "  Referenced from: /L/site-packages/visualdl/core.so\n  Reason: image not found\n",
    "dyld[4211]: Library not loaded: @rpath/libpaddle_inference.dylib\n  Referenced from: /u/demo\n  Reason: tried: "
    "'/u/lib/libpaddle_inference.dylib' (no such file)\n"])
def test_a_library_macos_cannot_load_is_a_missing_file(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence, _said(rc))


def test_a_symbol_macos_cannot_find_stays_another_build(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: dlopen(/u/libpaddle.so, 2): Symbol not found: __ZNSt3__1\n")
    assert rc.cause == CauseId.dependency_version_mismatch, rc.cause


# --- Intel's OpenMP runtime, its message number rewritten by a page ------------------------------------------------

@pytest.mark.parametrize("line", [
    "OMP: Error https://github.com/o/r/pull/15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.",
    "OMP: Error #15: Initializing libiomp5.dylib, but found libomp.dylib already initialized."])
def test_two_openmp_runtimes_are_read_whatever_the_message_number_became(tmp_path, line):
    assert _diagnose(tmp_path, line + "\n").cause == CauseId.duplicate_openmp_runtime


# --- OpenCV's failed read, then the image used as if it were there -------------------------------------------------

_UNREAD = ("[ WARN:0@370.018] global D:\\a\\opencv\\modules\\imgcodecs\\src\\loadsave.cpp (239) cv::findDecoder "
           "imread_('D:/data/1.jpg'): can't open/read file: check file path/integrity\n")


@pytest.mark.parametrize("error", ["AttributeError: 'NoneType' object has no attribute 'shape'",
                                   "TypeError: 'NoneType' object is not subscriptable"])
def test_an_image_opencv_could_not_open_explains_the_none_after_it(tmp_path, error):
    rc = _diagnose(tmp_path, _UNREAD + f"Traceback (most recent call last):\n  File \"app.py\", line 9, in f\n"
                                       f"    size = img.shape\n{error}\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence, _said(rc))


def test_an_unrelated_error_after_the_warning_stays_its_own(tmp_path):
    rc = _diagnose(tmp_path, _UNREAD + "Traceback (most recent call last):\n  File \"app.py\", line 9, in f\n"
                                       "    n = cfg['epochs']\nKeyError: 'epochs'\n")
    assert rc.cause != CauseId.file_not_found, (rc.cause, _said(rc))


def test_the_warning_alone_is_a_low_reading(tmp_path):
    rc = _diagnose(tmp_path, _UNREAD)
    assert rc.cause == CauseId.file_not_found and rc.confidence == "low", (rc.cause, rc.confidence)


# --- gloo's I/O thread aborting on a pair that already failed --------------------------------------------------------

def test_gloos_loop_abort_on_a_failed_pair_is_a_closed_connection_not_a_crash(tmp_path):
    rc = _diagnose(tmp_path, "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n  what():  [enforce "
                             "fail at /paddle/third_party/gloo/gloo/transport/tcp/pair.cc:1195] ex_ == nullptr. \n"
                             "FatalError: `Process abort signal` is detected by the operating system.\n"
                             "  [SignalInfo: *** SIGABRT (@0x6154) received by PID 24916 (TID 0x7e) from PID 24916 ***]\n")
    assert rc is None or rc.cause != CauseId.segfault, (rc.cause, _said(rc))


# --- the Windows event log's Application Error, in Chinese --------------------------------------------------------

def test_the_event_logs_illegal_instruction_is_a_cpu_without_the_instructions(tmp_path):
    rc = _diagnose(tmp_path, "错误应用程序名称: python.exe，版本: 3.12.9150.1013\n错误模块名称: simsimd.cp312-win_amd64.pyd\n"
                             "异常代码: 0xc000001d\n错误偏移量: 0x0000000000003ad6\n")
    assert rc.cause == CauseId.segfault and "instruction" in _said(rc), (rc.cause, _said(rc))


# --- a library PARL uses, of a release without the name it calls ---------------------------------------------------

def test_a_name_parls_pyarrow_lacks_is_another_release_of_pyarrow(tmp_path):
    rc = _diagnose(tmp_path, "  File \"/u/site-packages/parl/remote/communication.py\", line 38, in <module>\n    context = "
                             "pyarrow.default_serialization_context()\nAttributeError: module 'pyarrow' has no attribute "
                             "'default_serialization_context'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, _said(rc))


# --- soundfile: a file it cannot open, or a data list's whole line given as the path ----------------------------------

@pytest.mark.parametrize("path", ["dataset/wav/G1.wav  神鹿五两三四\\n", "data/a.wav\\ttranscript", "data/a.flac\\n"])
def test_a_data_list_line_given_as_the_audio_path_is_the_lists_form(tmp_path, path):
    rc = _diagnose(tmp_path, f"RuntimeError: Error opening '{path}': System error.\n")
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


@pytest.mark.parametrize("path", ["data/a.wav", "D:/语音 数据/a b.wav", "data/clip.wav.bak"])
def test_an_audio_file_soundfile_cannot_open_is_a_missing_file(tmp_path, path):
    rc = _diagnose(tmp_path, f"soundfile.LibsndfileError: Error opening '{path}': System error.\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))


# --- PaddleHub's check of the Paddle it imports; PaddleDetection's component without a section ----------------------

def test_paddlehub_refusing_an_old_paddle_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: Version mismatch in PaddleHub and PaddlePaddle, you need to upgrade "
                             "PaddlePaddle to version 2.0.0 or above.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "2.0.0" in _said(rc), (rc.cause, _said(rc))


def test_a_ppdet_component_the_config_never_defines_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, "  File \"/p/ppdet/core/workspace.py\", line 256, in create\n    if 'name' not in "
                             "target_key.keys():\nAttributeError: 'SchemaValue' object has no attribute 'keys'\n")
    assert rc.cause == CauseId.config_error and rc.confidence == "medium", (rc.cause, rc.confidence)


# --- batch103: builds, runners, pip, NCCL's own error string --------------------------------------------------------

@pytest.mark.parametrize("line, cause", [
    ("pybind11/detail/common.h:112:10: fatal error: 'Python.h' file not found", CauseId.dependency_version_mismatch),
    ("tensor_py.h:59:10: error: ‘PYBIND11_DESCR’ does not name a type", CauseId.dependency_version_mismatch),
    ("  LINK : fatal error LNK1102: out of memory [D:\\b\\paddle_fluid_c_shared.vcxproj]", CauseId.host_out_of_memory),
    ("op.cc(12): fatal error C1060: compiler is out of heap space", CauseId.host_out_of_memory),
    ("ERROR: parl 1.2.3 has requirement flask==1.0.4, but you'll have flask 1.1.1 which is incompatible.",
     CauseId.dependency_version_mismatch),
    ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
     "paddleocr 2.7.0 requires numpy<2, but you have numpy 2.0.1 which is incompatible.",
     CauseId.dependency_version_mismatch),
    ("2020-06-27 22:09:59  -  [WinError 126] 找不到指定的模块。", CauseId.file_not_found),
    ('docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process '
     'caused "exec: \\"-p\\": executable file not found in $PATH": unknown.', CauseId.config_error)])
def test_batch103_lines_name_their_causes(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, _said(rc))


def test_a_program_docker_cannot_find_is_still_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, 'starting container process caused "exec: \\"python3.8\\": executable file not found in '
                             '$PATH": unknown.\n')
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))


_NCCL_MAP = ("  File \"/u/paddle/fluid/compiler.py\", line 253, in _compile_data_parallel\n"
             "    self._exec_strategy, self._build_strategy, self._graph)\n"
             "paddle.fluid.core.EnforceNotMet: {msg} at [/paddle/paddle/fluid/platform/nccl_helper.h:113]\n")


def test_nccls_own_error_string_at_the_communicators_is_nccls_failure(tmp_path):
    rc = _diagnose(tmp_path, _NCCL_MAP.format(msg="internal error"))
    assert rc.cause == CauseId.nccl_error, (rc.cause, _said(rc))


def test_another_enforce_at_the_communicators_stays_the_library_reading(tmp_path):
    rc = _diagnose(tmp_path, _NCCL_MAP.format(msg="Enforce failed. Expected nccl_id != nullptr"))
    assert rc.cause == CauseId.nccl_library_missing, (rc.cause, _said(rc))


def test_a_winerror_126_raised_by_a_binding_stays_its_loaders_reading(tmp_path):
    """The logged-line row reads a WinError 126 no exception carries; an OSError's own line is read by its frames."""
    rc = _diagnose(tmp_path, "  File \"C:\\env\\lib\\site-packages\\shapely\\geos.py\", line 154, in <module>\n    _lgeos = "
                             "CDLL(os.path.join(sys.prefix, 'Library', 'bin', 'geos_c.dll'))\n  File \"C:\\env\\lib\\"
                             "ctypes\\__init__.py\", line 364, in __init__\n    self._handle = _dlopen(self._name, mode)\n"
                             "OSError: [WinError 126] 找不到指定的模块。\n")
    assert rc.code != "win_dll_missing_logged", (rc.code, rc.cause)


# --- the review's cases: warnings that must not take over a later error ---------------------------------------------

def test_a_python_package_tensorrt_missing_is_not_explained_by_the_library_warning(tmp_path):
    rc = _diagnose(tmp_path, "W0101 00:00:00.000 1 dynamic_loader.cc:307] The third-party dynamic library (libnvinfer.so) "
                             "that Paddle depends on is not configured correctly. (error code is libnvinfer.so: cannot "
                             "open shared object file: No such file or directory)\nTraceback (most recent call last):\n"
                             "  File \"x.py\", line 1, in <module>\n    import tensorrt\n"
                             "ModuleNotFoundError: No module named 'tensorrt'\n")
    assert rc.cause != CauseId.cuda_cudnn_mismatch, (rc.cause, _said(rc))


def test_pips_conflicting_pins_do_not_outrank_a_later_error(tmp_path):
    rc = _diagnose(tmp_path, "ERROR: parl 1.2.3 has requirement click==7.0, but you'll have click 8.1.3 which is "
                             "incompatible.\nTraceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n"
                             "    cfg['epochs']\nKeyError: 'epochs'\n")
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, _said(rc))


def test_pips_pin_with_a_comma_is_read(tmp_path):
    rc = _diagnose(tmp_path, "paddleocr 2.7.0 requires numpy<1.24,>=1.22, but you have numpy 2.0.1 which is "
                             "incompatible.\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, _said(rc))


def test_a_logged_winerror_126_does_not_outrank_a_later_error_about_something_else(tmp_path):
    rc = _diagnose(tmp_path, "2024-01-01 10:00:00 - INFO - optional backend unavailable: [WinError 126] The specified "
                             "module could not be found\nTraceback (most recent call last):\n  File \"t.py\", line 3, in "
                             "<module>\n    cfg['epochs']\nKeyError: 'epochs'\n")
    assert rc.cause != CauseId.file_not_found, (rc.cause, _said(rc))


@pytest.mark.parametrize("path", ["D:/my.wav files/a.wav", "songs/a.mp3 (1).wav"])
def test_a_real_path_with_spaces_after_an_extension_is_still_a_missing_file(tmp_path, path):
    rc = _diagnose(tmp_path, f"RuntimeError: Error opening '{path}': System error.\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))


def test_a_none_model_after_an_imread_warning_is_not_the_image(tmp_path):
    rc = _diagnose(tmp_path, _UNREAD + "Traceback (most recent call last):\n  File \"app.py\", line 9, in f\n"
                                       "    out = model.predict(img)\nAttributeError: 'NoneType' object has no attribute "
                                       "'predict'\n")
    assert rc.cause != CauseId.file_not_found, (rc.cause, _said(rc))


# --- batch104: a Python built without an extension, gdb's other faults, ppdet's -c, a config run as a script ---------

@pytest.mark.parametrize("line, cause", [
    ("ImportError: No module named '_sqlite3'", CauseId.dependency_version_mismatch),
    ("ModuleNotFoundError: No module named '_ctypes'", CauseId.dependency_version_mismatch),
    ('Thread 1 "benchmark" received signal SIGFPE, Arithmetic exception.', CauseId.segfault),
    ("FTL| 10:01:02 logger caught a signal: SIGILL", CauseId.segfault),
    ("AssertionError: Please specify --config=configure_file_path.", CauseId.config_error),
    ("three_interp_op.cc:120:8: error: ‘void paddle::operators::ThreeInterpGradDescMaker<T>::Apply(int) const [with T = "
     "paddle::framework::OpDesc]’ marked ‘override’, but does not override", CauseId.paddle_api_mismatch)])
def test_batch104_lines_name_their_causes(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause, (rc.cause, _said(rc))


def test_a_module_named_like_an_extension_is_not_read_as_pythons_build(tmp_path):
    rc = _diagnose(tmp_path, "ModuleNotFoundError: No module named '_sqlite3_helpers'\n")
    assert rc.cause != CauseId.dependency_version_mismatch or "built without" not in _said(rc), _said(rc)


def test_a_syntax_error_in_a_yaml_file_is_a_config_run_as_the_script(tmp_path):
    rc = _diagnose(tmp_path, '  File "./configs/x.yaml", line 2\n    Global:\n          ^\nSyntaxError: invalid syntax\n')
    assert rc.cause == CauseId.config_error and "x.yaml" in _said(rc), (rc.cause, _said(rc))


def test_a_syntax_error_in_a_python_file_stays_the_users_code(tmp_path):
    rc = _diagnose(tmp_path, '  File "./tools/train.py", line 2\n    def f(:\n          ^\nSyntaxError: invalid syntax\n')
    assert rc.cause == CauseId.python_exception, (rc.cause, _said(rc))


@pytest.mark.parametrize("header", ["cuda_runtime.h", "Python.h", "nccl.h", "boost/any.hpp"])
def test_clangs_missing_header_reads_as_gccs(tmp_path, header):
    """One header, one cause, whichever compiler said it could not find it."""
    gcc = _diagnose(tmp_path, f"x.cc:3:10: fatal error: {header}: No such file or directory\n")
    clang = _diagnose(tmp_path, f"x.cc:3:10: fatal error: '{header}' file not found\n")
    assert (clang.cause, clang.code) == (gcc.cause, gcc.code), (clang.code, gcc.code)
