"""Readings added in issue 29's twenty-second session (batches 124-126: builds and links of C++ programs against
Paddle's libraries, each row from its emitter's source), and the near texts each must leave alone."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _cause(tmp_path, text: str):
    rc = _diagnose(tmp_path, text)
    return (rc.cause, rc.confidence.value) if rc else None


@pytest.mark.parametrize("text", [
    "CMake Error at CMakeLists.txt:32 (project):\n  The CMAKE_CXX_COMPILER:\n\n    /opt/ndk/bin/aarch64-linux-android-g++\n\n"
    "  is not a full path to an existing compiler tool.\n",
    "CMake Error at C:/cmake/share/cmake-3.19/Modules/FindCUDA.cmake:749 (find_program):\n  Syntax error in cmake code at\n"
    "  when parsing string\n    C:\\Program Files\\NVIDIA GPU Computing Toolkit\n  Invalid character escape '\\P'.\n",
    "RegularExpression::compile(): Nested *?+.\nRegularExpression::compile(): Error in compile.\n"
    "CMake Error at cmake/generic.cmake:109 (string):\n  string sub-command REGEX, mode REPLACE failed to compile regex\n",
    "CMake Error at D:/demo/CMakeLists.txt:27 (message):\n  please set PADDLE_LIB with -DPADDLE_LIB=/path/paddle/lib\n",
    "CMake Error at CMakeLists.txt:3 (project):\n  The CMAKE_C_COMPILER:\n\n    cl\n\n  is not a full path and was not found "
    "in the PATH.\n",
])
def test_cmakes_configure_errors_on_a_setting_are_the_config(tmp_path, text):
    assert _cause(tmp_path, text)[0] == CauseId.config_error


def test_a_projects_own_cmake_check_is_weak_and_a_named_package_says_more(tmp_path):
    # the header alone: the project's text under it is what the user reads; low, not medium
    assert _cause(tmp_path, "CMake Error at CMakeLists.txt:27 (message):\n  set OPENCV_DIR first\n") == (
        CauseId.config_error, "low")
    # a package CMake did not find, under the same header, is that package
    text = ("CMake Error at /usr/share/cmake/Modules/FindPackageHandleStandardArgs.cmake:146 (message):\n"
            "  Could NOT find Protobuf (missing: Protobuf_INCLUDE_DIR)\n")
    assert _cause(tmp_path, text)[0] == CauseId.dependency_version_mismatch
    # CMake's own status and warning lines are no error
    assert _diagnose(tmp_path, "CMake Warning at CMakeLists.txt:10 (message):\n  WITH_MKL is OFF\n") is None
    # CMake's own modules and a third-party download's stamp scripts are no check of the project's
    module = ("CMake Error at /usr/share/cmake-3.16/Modules/CMakeTestCXXCompiler.cmake:53 (message):\n"
              "  The C++ compiler \"/usr/bin/c++\" is not able to compile a simple test program.\n")
    stamp = ("CMake Error at /paddle/build/third_party/protobuf/src/extern_protobuf-stamp/tmp/extern_protobuf-gitclone.cmake:31 "
             "(message):\n  Failed to clone repository\n")
    for text in (module, stamp):
        rc = _diagnose(tmp_path, text)
        assert rc is None or rc.code != "cmake_project_check"
    # the command as the file spells it
    assert _cause(tmp_path, "CMake Error at CMakeLists.txt:24 (MESSAGE):\n  set PADDLE_LIB\n") == (CauseId.config_error, "low")


@pytest.mark.parametrize("text", [
    "libpaddle_inference_dummy_1.lib : fatal error LNK1248: image size (1002F8BB5) exceeds maximum allowable size "
    "(FFFFFFFF)\n",
    "错误\tLNK1248\t映像大小(902A2000)超过允许的最大大小(80000000)\tprint_pten_kernels\n",
])
def test_visual_cs_image_size_limit_is_the_build_configuration(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


def test_the_linkers_codes_in_prose_are_no_error(tmp_path):
    assert _diagnose(tmp_path, "LNK1248 is documented at https://learn.microsoft.com/cpp/error-messages\n") is None


def test_the_runtime_library_mismatch_copied_from_the_error_list_without_its_code(tmp_path):
    for text in ("检测到“RuntimeLibrary”的不匹配项：值\"MT_StaticRelease\"不匹配值\"MD_DynamicRelease\"\n",
                 "mismatch detected for 'RuntimeLibrary': value 'MT_StaticRelease' doesn't match value "
                 "'MD_DynamicRelease' in main.obj\n"):
        assert _cause(tmp_path, text)[0] == CauseId.config_error


@pytest.mark.parametrize("text", [
    "[ 56%] Building CXX object CMakeFiles/main.dir/src/main.cc.o\ncc1plus: error: too many filenames given.  Type "
    "cc1plus --help for usage\ncc1plus: fatal error: CMakeFiles/main.dir/src/main.cc.d: No such file or directory\n",
    "cc1plus: 错误：给定了太多文件名。试用 cc1plus --help 以了解用法\n"
    "cc1plus: 致命错误：CMakeFiles/main.dir/src/main.cc.d：没有那个文件或目录\n",
    "cc1plus.exe: error: too many filenames given.  Type cc1plus.exe --help for usage\n",
])
def test_gcc_given_two_input_files_is_a_flag_newer_cmake_refuses(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.dependency_version_mismatch, "medium")


def test_the_depfile_alone_is_that_flag_at_low(tmp_path):
    # a missing build folder or a path too long print the same line: low
    text = ("cc1plus: fatal error: CMakeFiles/model_infer.dir/src/clas_postprocess.cpp.d: No such file or directory\n"
            "compilation terminated.\n")
    assert _cause(tmp_path, text) == (CauseId.dependency_version_mismatch, "low")


def test_a_missing_header_of_the_source_is_a_missing_file_not_a_cmake_depfile(tmp_path):
    assert _cause(tmp_path, "main.cc:3:10: fatal error: paddle/phi/api/include/api.h: No such file or directory\n")[0] \
        == CauseId.file_not_found
    # a .d file outside CMake's folder is a missing file like any other
    assert _cause(tmp_path, "cc1plus: fatal error: deps/x.d: No such file or directory\n")[0] == CauseId.file_not_found


def test_lds_symbol_of_a_library_the_link_line_does_not_name(tmp_path):
    text = ("/usr/bin/ld: /opt/fluid_inference/paddle/lib/libpaddle_fluid.a(analysis_predictor.cc.o): undefined reference "
            "to symbol 'dlsym@@GLIBC_2.2.5'\n//lib/x86_64-linux-gnu/libdl.so.2: error adding symbols: DSO missing from "
            "command line\ncollect2: error: ld returned 1 exit status\n")
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")
    # gold's words; the DSO line alone names the library
    gold = ("main.cc:9: error: undefined reference to 'dlsym'\n/usr/bin/ld.gold: note: 'dlsym' is defined in DSO "
            "/lib/x86_64-linux-gnu/libdl.so.2 so try adding it to the linker command line\n")
    assert _cause(tmp_path, gold) == (CauseId.config_error, "medium")
    dso = "//lib/x86_64-linux-gnu/libdl.so.2: error adding symbols: DSO missing from command line\n"
    rc = _diagnose(tmp_path, dso)
    assert rc.cause == CauseId.config_error and "libdl.so.2" in rc.message
    # an undefined reference of a symbol no library has stays the generic linker row
    assert _cause(tmp_path, "main.cc:9: undefined reference to `LAPACKE_sgetrf'\n")[0] == \
        CauseId.dependency_version_mismatch


def test_a_library_of_another_architecture_in_either_of_lds_words(tmp_path):
    for text in ("third_libs/install/onnxruntime/lib/libonnxruntime.so: error adding symbols: File in wrong format\n",
                 "lib/libpaddle_full_api_shared.so: file not recognized: File format not recognized\n"):
        assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


def test_undefined_symbols_cut_before_their_quote_and_apples_list_header(tmp_path):
    cut = "undefined reference to `paddle::experimental::add(paddle::experimental::Tensor const&, paddle::experiment\n"
    assert _cause(tmp_path, cut)[0] == CauseId.dependency_version_mismatch
    apple = ('Undefined symbols for architecture x86_64:\n  "__ZN12paddle_infer6Tensor7ReshapeERKSt6vectorIiSaIiEE", '
             "referenced from:\n      RunModel(...) in main.cpp.o\n")
    assert _cause(tmp_path, apple)[0] == CauseId.dependency_version_mismatch
    # a prefixed header (a build tool's) and Xcode 15's and lld's forms
    for text in ("[build] Undefined symbols for architecture arm64:\n", "ld: Undefined symbols:\n  _foo, referenced from:\n",
                 "ld.lld: error: undefined symbol: paddle_infer::CreatePredictor(paddle_infer::Config const&)\n"):
        assert _cause(tmp_path, text)[0] == CauseId.dependency_version_mismatch


def test_gccs_zh_cn_compiler_killed(tmp_path):
    for text in ("c++: 致命错误：已杀死 signal terminated program cc1plus\n编译中断。\n",
                 "c++: 编译器内部错误：已杀死(程序 cc1plus)\n"):
        assert _cause(tmp_path, text) == (CauseId.host_oom_killed, "medium")


def test_opencvs_android_pack_without_the_abi_built_is_the_build_configuration(tmp_path):
    warning = ("CMakeLists.txt : C/C++ debug|x86 : CMake Warning at app/OpenCV/sdk/native/jni/OpenCVConfig.cmake:47 "
               "(message):\n  Found OpenCV Android Pack but it has no binaries compatible with your ABI\n  (can't find: "
               "/abi-x86)\n")
    # a warning (find_package goes on): the cause of the failed build, never above low where it is the only sign
    assert _cause(tmp_path, warning + "Execution failed for task ':app:generateJsonModelDebug'.\n") == (
        CauseId.config_error, "low")
    ok = _diagnose(tmp_path, warning + "-- Build files have been written to: /b\nBUILD SUCCESSFUL in 12s\n")
    assert ok is None or ok.confidence.value == "low"


def test_paddleocrs_cpp_program_without_its_dictionary(tmp_path):
    text = ("ppocr.exe system --det_model_dir=det --rec_model_dir=rec --image_dir=11.jpg\n"
            "no such label file:  ../../ppocr/utils/ppocr_keys_v1.txt, exit the program...\n")
    assert _cause(tmp_path, text) == (CauseId.file_not_found, "medium")
    # the title keeps the path whole and its advice readable
    message = _diagnose(tmp_path, text).message
    assert "(../../ppocr/utils/ppocr_keys_v1.txt)" in message and "start it in the folder" in message
    # the words in a question about the file are no error of the program
    assert _diagnose(tmp_path, "is there no such label file in the release?\n") is None


def test_a_crash_after_a_warning_about_one_library_is_never_high(tmp_path):
    text = ("W0311 16:16:12.435428  6840 tensorrt.cc:56] You are using Paddle compiled with TensorRT, but TensorRT dynamic "
            "library is not found. Ignore this if TensorRT is not needed.\n"
            "The TensorRT that Paddle depends on is not configured correctly.\nSegmentation fault (core dumped)\n")
    rc = _diagnose(tmp_path, text)
    # the crash stands (it names nothing), the missing TensorRT its likeliest reason
    assert (rc.cause, rc.confidence.value) == (CauseId.segfault, "medium")
    assert rc.alternatives[0].cause == CauseId.cuda_cudnn_mismatch
    # without the warning the same crash line is what it was
    assert _diagnose(tmp_path, "Segmentation fault (core dumped)\n").cause == CauseId.segfault
    # a missing TensorRT is no reason for an illegal instruction, nor a pip conflict for a crash
    sigill = text.replace("Segmentation fault", "Illegal instruction")
    assert all(a.cause != CauseId.cuda_cudnn_mismatch for a in _diagnose(tmp_path, sigill).alternatives[:1])
    pip = ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n"
           "paddlex 3.0.0 requires pyyaml==6.0.1, but you have pyyaml 6.0.2 which is incompatible.\n"
           "Segmentation fault (core dumped)\n")
    assert _diagnose(tmp_path, pip).alternatives[0].cause != CauseId.dependency_version_mismatch


def test_the_loaders_undefined_cpp_symbol_retyped_without_its_colon(tmp_path):
    text = "./infer_demo: symbol lookup error : /usr/local/lib/libfastdeploy.so.1.0.7: undefined symbol _ZN2cv3MatC1EV\n"
    assert _cause(tmp_path, text)[0] == CauseId.dependency_version_mismatch
    # nm's words are no loader error
    rc = _diagnose(tmp_path, "nm: warning: undefined symbol _ZN5paddle3fooEv referenced\n")
    assert rc is None or rc.code != "cxx_symbol_undefined"


def test_paddle2onnx_parameters_that_did_not_load_alone_is_low(tmp_path):
    text = ("[Paddle2ONNX] Failed to load parameters of PaddlePaddle model.\n[Paddle2ONNX] Paddle model parsing failed.\n"
            "[Paddle2ONNX] Paddle model convert failed.\n")
    # its reason's line (a file not opened, more tensors than the program's) is not in the text: low
    assert _cause(tmp_path, text) == (CauseId.checkpoint_corrupt, "low")
    # a file it could not open says which: the missing file
    opened = "[Paddle2ONNX] Cannot open file ./inference.pdiparams to read.\n" + text
    assert _cause(tmp_path, opened)[0] == CauseId.file_not_found


def test_a_javascript_typeerror_without_its_type_is_the_codes_fault_at_low(tmp_path):
    assert _cause(tmp_path, "ocr.init(model)\n初始化出现  : A.endsWith is not a function\n") == (
        CauseId.python_exception, "low")
    # typed, it is the generic exception's line, at its confidence
    rc = _diagnose(tmp_path, "TypeError: A.endsWith is not a function\n")
    assert (rc.cause, rc.confidence.value, rc.code) == (CauseId.python_exception, "medium", "exception")
    # English prose is no error of JavaScript
    for text in ("note: this is not a function but a class\n", "Note: np.dot is not a function of two tensors here\n"):
        rc = _diagnose(tmp_path, text)
        assert rc is None or rc.code != "js_not_a_function"


def test_other_parsers_invalid_escapes_are_not_cmakes(tmp_path):
    for text in ("Newtonsoft.Json.JsonReaderException: Invalid escape sequence \\U in config.json\n",
                 "lua: config.lua:3: Invalid escape sequence \\P\n"):
        rc = _diagnose(tmp_path, text)
        assert rc is None or rc.code != "cmake_escape_invalid"


@pytest.mark.parametrize("text, cause", [
    ("ValueError: This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider'] "
     "enabled. Since ORT 1.9, you are required to explicitly set the providers parameter when instantiating "
     "InferenceSession. For example, onnxruntime.InferenceSession(..., providers=['TensorrtExecutionProvider'], ...)\n",
     CauseId.dependency_version_mismatch),
    ("onnxruntime.capi.onnxruntime_pybind11_state.InvalidProtobuf: [ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load "
     "model from output/inference/det_infer/ failed:Protobuf parsing failed.\n", CauseId.config_error),
    ("(External) Error in Flash-Attention, detail information is: `is_sm8x || is_sm90` check failed at "
     "/paddle/third_party/flashattn/csrc/capi/flash_attn.cu:626\n", CauseId.cuda_arch_unsupported),
    ("CMake Error: cmake version 3.2.2\nUsage: /usr/bin/cmake -E [command] [arguments ...]\nAvailable commands:\n",
     CauseId.dependency_version_mismatch),
    ("backends/npu/kernels/batch_norm_kernel.cc:64:33: error: ‘StringToDataLayout’ is not a member of ‘phi’\n",
     CauseId.paddle_api_mismatch),
    ('fused_moe_gemm_kernels_template.h(521): error: enum "phi::CutlassTileConfig" has no member '
     '"CtaShape64x64x64_WarpShape32x32x64"\n', CauseId.paddle_api_mismatch),
    ("./src/compiler/php_generator_helpers.h:51:23: error: no member named 'has_php_namespace' in "
     "'google::protobuf::FileOptions'\n", CauseId.dependency_version_mismatch),
    ("C:\\CUDA\\v12.6\\include\\crt/host_config.h(170): fatal error C1189: #error:  -- unsupported Microsoft Visual "
     "Studio version! Only the versions between 2017 and 2022 (inclusive) are supported!\n",
     CauseId.dependency_version_mismatch),
    ("usage: setup.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]\nerror: invalid command 'bdist_wheel'\n",
     CauseId.dependency_version_mismatch),
])
def test_batches_127_128_messages(tmp_path, text, cause):
    assert _cause(tmp_path, text) == (cause, "medium")


def test_a_memory_cgroups_oom_report_of_an_older_kernel(tmp_path):
    text = ("========================= OOM INFO =========================\n"
            "[76328.366538] Task in /186984025.job-e6-trainer killed as a result of limit of /186984025.job-e6-trainer\n"
            "[76328.366541] memory: usage 52428800kB, limit 52428800kB, failcnt 1225754\n")
    assert _cause(tmp_path, text) == (CauseId.host_oom_killed, "high")


def test_flash_attentions_warning_that_falls_back_is_no_verdict(tmp_path):
    warn = ("/x/modeling_qwen.py:42: UserWarning: FlashAttention only supports Ampere GPUs or newer.\n"
            "  warnings.warn('FlashAttention only supports Ampere GPUs or newer.')\nEpoch 1 loss 0.3\n")
    rc = _diagnose(tmp_path, warn)
    assert rc is None or rc.cause != CauseId.cuda_arch_unsupported
    assert _cause(tmp_path, "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n") == (
        CauseId.cuda_arch_unsupported, "medium")


def test_onnxruntimes_other_unparsed_model_wording(tmp_path):
    text = "[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Failed to load model because protobuf parsing failed.\n"
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


def test_a_cmake_file_that_holds_a_path_is_a_link_checked_out_as_a_file_at_low(tmp_path):
    text = ("CMake Error at cmake/generic.cmake:1:\n  Parse error.  Expected a command name, got unquoted argument with text\n"
            "  \"../../../Paddle/cmake/generic.cmake\".\nCall Stack (most recent call first):\n  CMakeLists.txt:8 (include)\n")
    assert _cause(tmp_path, text) == (CauseId.config_error, "low")


@pytest.mark.parametrize("text", [
    "batch_norm_kernel.cc:64:33: error: no member named 'StringToDataLayout' in namespace 'phi'\n",
    "kernel.cc(64): error C2039: 'StringToDataLayout': is not a member of 'phi'\n",
    "kernel.cc(64): error C2039: “StringToDataLayout”: 不是“phi”的成员\n",
    "kernel.cc:64:33: 错误：‘StringToDataLayout’不是‘phi’的成员\n",
    "custom_op.cc:12:5: error: 'DenseTensor' in namespace 'phi' does not name a type\n",
    "custom_op.cc:20:9: error: ‘class paddle::Tensor’ has no member named ‘mutable_data’\n",
])
def test_a_name_paddles_headers_lack_in_each_compilers_words(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.paddle_api_mismatch, "medium")


def test_names_outside_a_paddle_release_are_not_read_as_one(tmp_path):
    for text in ("autolog.h:66:27: error: 'accumulate' is not a member of 'std'\n",  # std and cv are no Paddle
                 "main.cc:5:1: error: 'imread' is not a member of 'cv'\n",
                 # Paddle's own source tree (a stale build folder), Paddle-Lite's API, prose
                 "paddle/phi/core/device_context.cc:300:1: error: ‘float8_e4m3fn’ is not a member of ‘phi::dtype’\n",
                 "demo.cc:9:5: error: 'CxxConfig' is not a member of 'paddle::lite_api'\n",
                 "I get 'Foo' is not a member of 'paddle' when I build\n"):
        rc = _diagnose(tmp_path, text)
        assert rc is None or rc.code != "paddle_header_member_missing"


def test_gccs_in_function_line_of_paddles_memory_code_is_no_allocation_frame(tmp_path):
    text = ("/home/u/Paddle/paddle/memory/memory.cc: In function ‘paddle::memory::BuddyAllocator* "
            "paddle::memory::GetGPUBuddyAllocator(int)’:\n"
            "/home/u/Paddle/paddle/memory/memory.cc:33:10: error: ‘unique_ptr’ in namespace ‘std’ does not name a type\n")
    rc = _diagnose(tmp_path, text)
    assert rc is None or rc.cause != CauseId.gpu_oom
    # the frame of a stack still is one
    for context in ("paddle/platform/gpu_info.cc: In function ‘size_t paddle::platform::GpuMaxChunkSize()’:\n",
                    "memory.cc:40:3:   required from ‘T* paddle::memory::Alloc(const paddle::platform::Place&, size_t) [with T "
                    "= float]’\n",
                    "memory.cc: 在函数‘paddle::memory::BuddyAllocator* paddle::memory::GetGPUBuddyAllocator(int)’中:\n"):
        rc = _diagnose(tmp_path, context + "memory.cc:33:10: error: ‘x’ was not declared in this scope\n")
        assert rc is None or rc.cause != CauseId.gpu_oom
    frame = "6   paddle::memory::allocation::AllocatorFacade::Alloc(paddle::platform::Place const&, unsigned long)\n"
    assert _diagnose(tmp_path, frame).cause == CauseId.gpu_oom


def test_ccache_given_a_compilers_options_and_the_onnx_checkers_node(tmp_path):
    for option in ("invalid option -- 'p'", "illegal option -- p", "unrecognized option: p"):
        ccache = ("ccache gcc -fno-strict-aliasing -O2 -fPIC -c stub.cc -o build/stub.o\n"
                  f"ccache -pthread -shared build/stub.o -o build/_foo.so\nccache: {option}\n")
        assert _cause(tmp_path, ccache) == (CauseId.config_error, "medium")
    for text in ('Bad node spec: input: "Constant@2" input: "Gather@0" output: "ScatterND@0" name: "ScatterND@0" '
                 'op_type: "ScatterND"\n',
                 "onnx.onnx_cpp2py_export.checker.ValidationError: Unrecognized attribute: axes for operator Squeeze\n"
                 "\n==> Context: Bad node spec for node. Name:  OpType: Squeeze\n",
                 "onnx.onnx_cpp2py_export.checker.ValidationError: Field 'type' is required but missing.\n"
                 "==> Context: Bad node spec for node. Name: my node OpType: Conv\n"):
        assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


@pytest.mark.parametrize("text, cause", [
    ("PreconditionNotMetError: To use Paddle-TensorRT, please compile with TENSORRT first. (at D:\\paddle-src\\paddle\\"
     "fluid\\inference\\api\\analysis_config.cc:787)\n", CauseId.config_error),
    ("AssertionError:Variable dtype not match,Variable ［ Linear_164.w_0 ］ need tensor with dtype paddle.float32 but load "
     "tensor with dtype paddle.bfloat16\n", CauseId.paddle_api_mismatch),
    ("error message is **safetensors_rust.SafetensorError: framework paddle is invalid**\n",
     CauseId.dependency_version_mismatch),
])
def test_batch129_messages(tmp_path, text, cause):
    assert _cause(tmp_path, text) == (cause, "medium")


def test_a_state_dicts_shape_check_stays_the_shape(tmp_path):
    text = ("AssertionError: Variable Shape not match, Variable [ linear_0.w_0 ] need tensor with shape [10, 2] but load set "
            "tensor with shape [10, 3]\n")
    assert _diagnose(tmp_path, text).cause == CauseId.state_dict_shape_mismatch


def test_a_compile_error_in_a_source_is_its_codes_fault_after_any_warning_that_names_a_cause(tmp_path):
    for text in ("paddle_mobile_jni.cpp:109:24: error: use of undeclared identifier 'fmaxf'\n",
                 "autolog.h:66:27: 错误：‘accumulate’不是‘std’的成员\n",
                 "kernel.cu(42): error: identifier \"foo\" is undefined\n"):
        assert _cause(tmp_path, text) == (CauseId.python_exception, "low")
    # gcc 4.x prints the C++11 warning after the first error it explains: the warning still names the cause
    cxx11 = ("paddle_inference_api.h:83: error: expected ',' or '...' before '&&' token\n"
             "paddle_inference_api.h:84: warning: defaulted and deleted functions only available with -std=c++0x or "
             "-std=gnu++0x\npaddle_inference_api.h:85: error: expected ',' or '...' before '&&' token\n")
    assert _cause(tmp_path, cxx11)[0] == CauseId.config_error
    # a compiler's #error is its own row's (or no verdict), not a fault of the code
    rc = _diagnose(tmp_path, "x.h:2:2: error: #error This file requires compiler and library support for the ISO C++ "
                   "2011 standard.\n")
    assert rc.cause == CauseId.config_error
