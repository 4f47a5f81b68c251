"""Signatures: building Paddle or a package it needs from source: the tools the build runs not installed, CMake's
settings and modules, headers missing or of another library release than the code was written for (Paddle's dynload
wrappers, protoc's generated check), the C++ ABI and compilers newer or older than the code, a C++ standard or a
library's architecture the build does not match (Visual C++'s own errors are :mod:`..rows.windows`'); spliced by
:mod:`.installs` among its rows, in match order."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..advice import LIBRARY_CONFIRM, LIBRARY_FIX
from ..model import sig as _sig
from ..rows.windows import CUDA_LIBRARIES
from ..toolchain.binaries import BINARY_ROWS
from ..toolchain.cmake import CMAKE_CHECKS
from ..toolchain.compilers import COMPILER_ROWS, SYSTEM_HEADER_ROWS

# GCC's missing #include, in English or its zh_CN catalogue (full-width colons).
_CC_FATAL = r"(?:fatal error|致命错误) ?[:：] ?"
_NO_SUCH = r" ?[:：] ?(?:No such file or directory|没有那个文件或目录)"

# The CUDA toolkit's and cuDNN's headers.
_CUDA_HEADER = r"(?:cuda|cudnn|cublas|cusparse|curand|cufft|cusolver|nvrtc|nvToolsExt|thrust/|cub/)[\w/.]*\.(?:h|hpp|cuh)"


def _header_absent(name: str, clang_name: str | None = None) -> str:
    """A header the compiler cannot find, in GCC's words (``fatal error: X: No such file or directory``) or clang's
    (``fatal error: 'X' file not found``); ``clang_name`` is the pattern for clang's branch where ``name`` holds a
    named group (a group name may stand once in a pattern)."""
    return rf"{_CC_FATAL}(?:{name}){_NO_SUCH}|fatal error: '(?:{clang_name or name})' file not found"


_LD_MISSING = r"(?:cannot find|找不到|unable to find library|library not found for)"  # GNU ld and gold, ld's zh_CN catalogue, lld
_LD_SOURCE = ("GNU ld ldfile.c (\"cannot find -l%s\"; zh_CN \"找不到 -l%s\"), gold (\"error: cannot find -l%s\"), lld "
              "(\"error: unable to find library -l%s\"), Apple ld64 (\"library not found for -l%s\"); GCC collect2 "
              "(\"collect2: error: ld returned 1 exit status\")")

_CXX11_TITLE = ("the code is compiled without C++11, which Paddle's headers need: add -std=c++11 (or newer) to the build's "
                "flags (CMAKE_CXX_STANDARD 11)")

BUILDS = (
    # A tool the build or the packaging step runs is not installed: the shell says so.
    _sig("build_tool_missing", r"(?:^|: )(?P<tool>patchelf|cmake|make|gcc|g\+\+|cc|c\+\+|nvcc|swig|protoc|ninja|ccache|"
         r"bison|flex|git|wget|unzip|patch|autoreconf|pkg-config)(?:: command not found|: not found)\s*$", "cause",
         CauseId.dependency_version_mismatch, 80, "sh: 1: patchelf: not found",
         title="the build runs {tool}, which is not installed: install it (the build's documentation lists its tools)",
         source="dash / bash 5 execute_cmd.c (\"%s: not found\" with the script's name and line, bash \"%s: command not "
                "found\")", most="medium"),
    # CMake's project() enables a language whose compiler is not installed (Paddle 2018's Go pserver; CUDA, Fortran).
    _sig("cmake_cuda_compiler_missing", r"No CMAKE_CUDA_COMPILER could be found", "cause", CauseId.cuda_cudnn_mismatch, 80,
         "No CMAKE_CUDA_COMPILER could be found.",
         title="CMake finds no CUDA compiler (nvcc), which a GPU build needs: install the CUDA toolkit the build "
               "supports, or point CMAKE_CUDA_COMPILER at its nvcc", most="medium",
         source="CMake Modules/CMakeDetermineCUDACompiler.cmake (message(FATAL_ERROR \"No CMAKE_CUDA_COMPILER could be "
                "found.\"))"),
    _sig("cmake_compiler_missing", r"No CMAKE_(?P<lang>(?!CUDA_)\w{1,20})_COMPILER could be found", "cause",
         CauseId.dependency_version_mismatch, 80, "No CMAKE_Go_COMPILER could be found.",
         title="CMake finds no {lang} compiler, which the build enables: install it (or turn off the part that needs "
               "it, as the build's options allow)", most="medium",
         source="CMake Modules/CMakeDetermine*Compiler.cmake (message(FATAL_ERROR \"No CMAKE_${lang}_COMPILER could be "
                "found.\")), under project() at the build's CMakeLists.txt"),
    # CMake's -A (platform) or -T (toolset) given to a generator that has none (Unix Makefiles, Ninja): an option of
    # the command line, often a -D whose D was lost (-ANDROID_... is read as -A NDROID_...).
    _sig("cmake_generator_option_unsupported", r"does not support (?P<what>platform|toolset) specification, but "
         r"(?:platform|toolset)", "cause", CauseId.config_error, 80,
         "does not support platform specification, but platform",
         title="the cmake command gives a {what} (-A/-T, or a -D option missing its D) that its generator does not "
               "take: correct the command's options",
         source="CMake Source/cmGlobalGenerator.cxx SetGeneratorPlatform / SetGeneratorToolset (\"Generator\\n  %s\\n"
                "does not support platform specification, but platform\\n  %s\\nwas specified.\"; toolset alike)"),
    # A build that compiles against numpy's C API (Paddle 0.x-1.x's legacy PyDataProvider2, custom extensions) with
    # numpy headers older than that API (PyArray_DTYPE came with numpy 1.7), or of another Python than the one
    # whose numpy was upgraded: the compiler does not know the macro.
    _sig("numpy_c_api_undeclared", r"[‘'`](?P<name>PyArray_\w{1,60})[’'] (?:was not declared in this scope|undeclared)|"
         r"use of undeclared identifier '(?P<name2>PyArray_\w{1,60})'", "cause", CauseId.dependency_version_mismatch, 75,
         "PyDataProvider2.cpp:693:53: error: ‘PyArray_DTYPE’ was not declared in this scope",
         title="the compiler does not know numpy's {name}{name2}: the numpy headers the build found are of another "
               "release than the code's (older, or a 2.x that removed it; or another Python's numpy)", most="medium",
         source="gcc (‘%s’ was not declared in this scope; C: ‘%s’ undeclared), clang (use of undeclared identifier "
                "'%s'), on numpy's C API macros (numpy/ndarraytypes.h, PyArray_DTYPE since numpy 1.7)"),
    # pybind11's macros that later releases removed (PYBIND11_DESCR went with 2.3's descr rework): the build found
    # pybind11 headers of a release other than the one the code was written for.
    _sig("pybind11_macro_unknown", r"[‘'`](?P<name>PYBIND11_\w{1,60})[’'] (?:does not name a type|was not declared in "
         r"this scope)", "cause", CauseId.dependency_version_mismatch, 75,
         "tensor_py.h:59:10: error: ‘PYBIND11_DESCR’ does not name a type",
         title="the compiler does not know pybind11's {name}: the pybind11 headers the build found are of another "
               "release than the code's", most="medium",
         source="gcc (‘%s’ does not name a type; ‘%s’ was not declared in this scope), on pybind11's macros "
                "(include/pybind11/detail/descr.h: PYBIND11_DESCR until 2.2, removed in 2.3)"),
    # A custom operator compiled against the installed Paddle's headers overrides a method whose signature those
    # headers do not have (GradOpPtr<T> came with 1.7's grad-op makers): code written for another Paddle's API.
    _sig("custom_op_override_unmatched", r"[‘'`]\w[^’'\n]{0,300}?(?:paddle::|GradOpPtr|OpDesc)[^’'\n]{0,300}[’'] marked "
         r"[‘'`]override[’'], but does not override", "cause", CauseId.paddle_api_mismatch, 72,
         "three_interp_op.cc:120:8: error: ‘void paddle::operators::ThreeInterpGradDescMaker<T>::Apply(int) const [with T "
         "= paddle::framework::OpDesc]’ marked ‘override’, but does not override",
         title="a custom operator overrides a Paddle method the installed Paddle's headers do not have: the op was "
               "written for another Paddle release", most="medium",
         source="gcc (%qD marked %<override%>, but does not override), on a class deriving from Paddle's headers "
                "(pp 1.7+ framework/grad_op_desc_maker.h Apply(GradOpPtr<T>); 1.6 Apply() returning op descs)"),
    # A build that links Paddle 1.x's inference library by its file name (fluid_inference: libpaddle_fluid.a/.so)
    # against a 2.x Paddle Inference package (its folder is paddle_inference/), where it is libpaddle_inference: make
    # has no rule for that file. A 1.x package (fluid_inference_install_dir/) at a wrong path is not this.
    _sig("build_wants_fluid_library", r"No rule to make target [`'‘](?P<path>[^'’\s]{0,300}paddle_inference[/\\][^'’\s]{0,100}libpaddle_fluid\.(?:a|so|"
         r"dylib))['’], needed by [`'‘](?P<target>[^'’\s]{1,200})['’]", "cause", CauseId.paddle_api_mismatch, 75,
         "make[2]: *** No rule to make target '/d/paddle_inference/paddle/lib/libpaddle_fluid.a', needed by 'lac_demo'.  "
         "Stop.",
         title="{target} links {path}, Paddle 1.x's inference library name: the package given is another release "
               "(2.x names it libpaddle_inference); use the release the build was written for, or change its library "
               "name", most="medium",
         source="GNU make remake.c (\"No rule to make target '%s', needed by '%s'\"); pp 1.x fluid_inference "
                "(paddle/lib/libpaddle_fluid.a|so), pp 2.0+ paddle_inference (paddle/lib/libpaddle_inference.a|so)"),
    # CMake's configure step stops on a setting the build needs: Paddle-Lite's Android NDK, a toolchain file.
    _sig("cmake_build_setting", r"Must set ANDROID_NDK or env NDK_ROOT|Could not find toolchain file", "cause",
         CauseId.config_error, 85, "  Must set ANDROID_NDK or env NDK_ROOT",
         title="the build's configuration lacks a setting it needs (the Android NDK's path, a toolchain file that "
               "exists): set it as the build's documentation says",
         source="Paddle-Lite 2.x cmake/os/android.cmake, cmake/cross_compiling/android.cmake (message(FATAL_ERROR "
                "\"Must set ANDROID_NDK or env NDK_ROOT\")); CMake 3.x Modules/CMakeDetermineSystem.cmake "
                "(message(FATAL_ERROR \"Could not find toolchain file: ${CMAKE_TOOLCHAIN_FILE}\"))"),
    # --- a build from source (Paddle, its inference demos, a custom op): the compiler's and linker's own words ---
    # A header the compiler cannot find: NCCL's (not installed: a GPU build needs NCCL2), the CUDA toolkit's, Python's
    # (the -dev package); another is a library the build downloads itself, not on that target's include path.
    _sig("header_nccl_missing", _header_absent(r"nccl\.h|rccl\.h|rccl/rccl\.h"), "cause",
         CauseId.nccl_library_missing, 80, "/paddle/paddle/platform/dynload/nccl.h:18:18: fatal error: nccl.h: No such "
         "file or directory",
         title="the build found no NCCL header: install NCCL2 (its -dev package) before building Paddle with GPU",
         source="GCC cpp (\"fatal error: %s: No such file or directory\", a missing #include); pp 1.x "
                "platform/dynload/nccl.h (#include <nccl.h>)", most="medium"),
    _sig("header_cuda_missing", _header_absent(rf"(?P<header>{_CUDA_HEADER})", rf"(?P<header2>{_CUDA_HEADER})"), "cause",
         CauseId.cuda_cudnn_mismatch,
         75, "fatal error: cudnn.h: No such file or directory",
         title="the build found no {header}{header2}: the CUDA toolkit or cuDNN (its headers) is not installed where the build "
               "looks (CUDA_TOOLKIT_ROOT_DIR, CUDNN_ROOT)",
         source="GCC cpp (\"fatal error: %s: No such file or directory\"); nvcc (the same for a .cu file); clang "
                "(\"fatal error: '%s' file not found\")", most="medium"),
    # Python's own headers: the -dev package of the interpreter a C extension is built for (pip building one from source).
    _sig("header_python_missing", _header_absent(r"Python\.h|pyconfig\.h"), "cause",
         CauseId.dependency_version_mismatch, 80, "fatal error: Python.h: No such file or directory",
         title="a C extension is built from source and this Python's development headers (python3-dev / "
               "python-devel) are not installed: install them, or a release of the package that has a wheel here",
         source="GCC cpp (\"fatal error: %s: No such file or directory\"; zh_CN \"致命错误：%s：没有那个文件或目录\"), clang "
                "(\"fatal error: '%s' file not found\")", most="medium"),
    # Paddle's C++ inference library (paddle_inference: paddle/include, paddle/lib, third_party/install) is its own
    # download; the Python wheel in site-packages has none of those folders. A C++ build whose PADDLE_LIB points into
    # the wheel misses them (PaddleOCR#2122's cpp_infer copying third_party/install/mklml from site-packages/paddle).
    _sig("inference_lib_is_python_wheel", r"(?<![^\s'\"`])(?P<path>[^\s'\"`]*(?:site|dist)-packages[/\\]paddle[/\\](?:third_party"
         r"[/\\]install|paddle[/\\](?:include|lib))[/\\][^\s'\"`]*)['\"`]?(?::? (?:No such file or directory|not found|does not "
         r"exist)|, needed by )",
         "cause", CauseId.config_error, 80, "cp: cannot stat '/home/u/envs/ocr/lib/python3.7/site-packages/paddle/"
         "third_party/install/mklml/lib/libmklml_intel.so': No such file or directory",
         title="the C++ build looks for the inference library inside the Python wheel ({path}): PADDLE_LIB must be the "
               "paddle_inference package (its paddle/include, paddle/lib, third_party), not site-packages/paddle",
         source="Paddle Inference C++ demos' and PaddleOCR deploy/cpp_infer CMakeLists.txt (${PADDLE_LIB}/paddle/include, "
                "make's \"No rule to make target '%s', needed by '%s'\" for a library it names; "
                "${PADDLE_LIB}/third_party/install/mklml/lib/libmklml_intel.so); the wheel's layout (paddle/libs, "
                "paddle/include for custom ops)", most="medium"),
    _sig("header_missing", _header_absent(r"(?P<header>[\w./+-]+\.(?:h|hpp|hh|hxx|cuh))", r"(?P<header2>[\w./+-]+\.(?:h|hpp|hh|hxx|cuh))"),
         "cause",
         CauseId.file_not_found, 70, "fatal error: boost/range/adaptor/reversed.hpp: No such file or directory",
         title="the compiler found no {header}{header2}: the build does not give that target the library's include path (or "
               "the library is not installed)",
         source="GCC cpp (\"fatal error: %s: No such file or directory\"), clang (\"fatal error: '%s' file not "
                "found\")", most="medium"),
    *COMPILER_ROWS,
    *BINARY_ROWS,
    # Paddle's dynload wrappers declare the library's functions from its installed header: an error inside them, or a
    # call through one that fits no signature (nvcc: no instance of DynLoad__f::operator() matches), means the header
    # found is of another version than the one the code was written for.
    _sig("dynload_nccl_header_mismatch", r"(?:error: [^\n]*?dynload::DynLoad__|/platform/dynload/)nccl(?:\.h:\d+:\d+: "
         r"error:|\w*::operator\(\))", "cause",
         CauseId.nccl_version_mismatch, 75, "/mnt/Paddle/paddle/fluid/platform/dynload/nccl.h:41:31: error: 'nccl_func' "
         "does not name a type",
         title="Paddle's NCCL wrapper does not compile against the nccl.h found: it is of another NCCL version (NCCL "
               "1.x lacks the NCCL2 calls Paddle wraps, e.g. ncclGroupStart)",
         source="pp 1.x-2.x paddle/fluid/platform/dynload/nccl.h (DECLARE_DYNAMIC_LOAD_NCCL_WRAP(ncclGroupStart), ...); "
                "GCC (\"%s:%d:%d: error: ...\")", most="medium"),
    _sig("dynload_header_mismatch", r"(?:error: [^\n]*?dynload::DynLoad__|/platform/dynload/)(?P<lib>cudnn|cublas|"
         r"cusolver|cusparse|curand|cufft|nvrtc|cuda|tensorrt)(?:\.h:\d+:\d+: error:|\w*::operator\(\))", "cause", CauseId.cuda_cudnn_mismatch, 75,
         "/paddle/paddle/fluid/platform/dynload/cudnn.h:72:11: error: '::cudnnGetConvolutionForwardAlgorithm' has "
         "not been declared",
         title="Paddle's wrapper of {lib} does not compile against the installed {lib} header: that {lib} is of "
               "another version than this Paddle branch supports",
         source="pp 1.x-2.x paddle/fluid/platform/dynload/*.h (DECLARE_DYNAMIC_LOAD_*_WRAP of each function the "
                "header declares); GCC (\"%s:%d:%d: error: ...\"), nvcc (\"error: no instance of function template "
                "\\\"%s\\\" matches the argument list\")", most="medium"),
    # CUDA 8 declares a double atomicAdd for sm_60 and newer; code written before it defined its own (Paddle's 2016
    # hl_device_functions.cuh, many CUDA projects): the toolkit is newer than the code supports.
    _sig("cuda_atomic_add_redeclared", r"atomicAdd\(double ?\*, ?double\)'? conflicts with a previous declaration|"
         r"sm_60_atomic_functions\.h:\d+:\d+: note: previous declaration", "cause", CauseId.cuda_cudnn_mismatch, 75,
         "hl_device_functions.cuh:39:13: error: 'double hppl::atomicAdd(double*, double)' conflicts with a previous "
         "declaration",
         title="the code defines its own double atomicAdd, which the installed CUDA toolkit (8.0 and newer) declares "
               "itself: a toolkit newer than this code supports (build with the CUDA it names, or a newer release of "
               "the code)", most="medium",
         source="CUDA 8.0 include/sm_60_atomic_functions.h (__SM_60_ATOMIC_FUNCTIONS_DECL__ double atomicAdd(double "
                "*address, double val)); GCC (\"'%s' conflicts with a previous declaration\"); pp 0.8 "
                "paddle/cuda/include/hl_device_functions.cuh (hppl::atomicAdd)"),
    # protoc writes a version check into each generated header: the protobuf headers the build uses are of another
    # release than the protoc that generated it.
    _sig("protoc_headers_mismatch", r"#error (?:incompatible with your Protocol Buffer headers|This file was generated "
         r"by (?:a newer|an older) version of protoc)", "cause", CauseId.dependency_version_mismatch, 85,
         "framework.pb.h:18:2: error: #error incompatible with your Protocol Buffer headers. Please",
         title="a generated .pb.h does not fit the protobuf headers the build uses: protoc and the protobuf library "
               "are of different releases (regenerate with the build's own protoc)",
         source="protobuf 3.x src/google/protobuf/compiler/cpp/cpp_file.cc (the generated #if GOOGLE_PROTOBUF_VERSION "
                "check: \"#error This file was generated by a newer version of protoc which is\" / \"#error "
                "incompatible with your Protocol Buffer headers. Please update\")", most="medium"),
    # A library built with the other libstdc++ string ABI (gcc < 5, or _GLIBCXX_USE_CXX11_ABI=0) than the code
    # linking it: every std::string in its symbols differs, so the linker finds none.
    # Paddle's C inference API (pd_*.h, every name PD_...): the binding (the Go package, a C demo) calls a name that the
    # header it compiles against (cgo) or the library it links lacks: the binding and the library are two releases (the
    # Go package fetched at another commit; 2.0's old C API header against 2.1's new library).
    _sig("c_api_symbol_missing", r"could not determine kind of name for C\.(?P<sym>PD_\w+)|(?:undefined reference to|对)"
         r"\s*[`‘'](?P<sym2>PD_\w+)[’'`]", "cause", CauseId.paddle_api_mismatch, 75,
         "config.go:504:2: could not determine kind of name for C.PD_ConfigEnableVarseqlen",
         title="Paddle's C inference API has no {sym}{sym2} in the header or library used: the binding (Go, C) and the "
               "inference library come from different releases",
         source="Go cmd/cgo gcc.go (\"could not determine kind of name for C.%s\"); GNU ld ldmain.c undefined_symbol (\"undefined "
                "reference to `%s'\", zh_CN \"对'%s'未定义的引用\"); pp 2.1+ paddle/fluid/inference/capi_exp/pd_*.h (PD_Config*, "
                "PD_Predictor*), pp 1.8-2.0 capi/paddle_c_api.h (PD_NewAnalysisConfig, PD_ModelDir)", most="medium"),
    # A shared library on the link line needs another (its DT_NEEDED) that the linker finds nowhere: the undefined
    # references that follow are that library's symbols. Missing, not of another version.
    _sig("linker_needed_library_missing", r"\bwarning: (?P<lib>[\w.+-]{1,80}\.so[\w.]*), needed by (?P<by>\S{1,300}), "
         r"not found", "cause", CauseId.file_not_found, 70,
         "/usr/bin/ld: warning: libjasper.so.1, needed by ../deps/opencv/lib/libopencv_imgcodecs.so.3.4.6, not found "
         "(try using -rpath or -rpath-link)",
         title="{by} needs {lib}, which the linker finds nowhere: install it, or add its folder (-rpath-link, "
               "LD_LIBRARY_PATH)", most="medium", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX,
         source="GNU ld emultempl/elf.em (\"warning: %s, needed by %pB, not found (try using -rpath or -rpath-link)\")"),
    # Paddle Inference's demos (and PaddleOCR's cpp_infer) link ${PADDLE_LIB}/paddle/lib/...: a path that starts at
    # the root with paddle/lib is that setting left empty in the CMake configuration the build used.
    _sig("paddle_lib_setting_empty", r"(?:needed by|LNK1104|cannot open file|无法打开文件)[^\n]{0,60}?[\'\"“](?:[A-Za-z]:)?[/\\]"
         r"paddle[/\\]lib[/\\](?P<lib>[\w.+-]{1,80})|[\'\"“](?:[A-Za-z]:)?[/\\]paddle[/\\]lib[/\\](?P<lib2>[\w.+-]{1,80})"
         r"[\'\"”], needed by", "cause", CauseId.config_error, 80,
         "ninja: error: '/paddle/lib/libpaddle_fluid.lib', needed by 'ocr_system.exe', missing and no known rule to make it",
         title="the build links /paddle/lib/{lib}{lib2} at the root: PADDLE_LIB (the inference library's folder) is "
               "empty in the CMake configuration it used; set it and configure again", most="medium",
         source="Paddle Inference demos' and PaddleOCR deploy/cpp_infer CMakeLists.txt (${PADDLE_LIB}/paddle/lib/"
                "paddle_inference${CMAKE_STATIC_LIBRARY_SUFFIX}); ninja (\"'%s', needed by '%s', missing and no known rule "
                "to make it\"), Microsoft linker LNK1104 (\"cannot open file '%s'\"; zh-CN 无法打开文件“%s”)"),
    # find_package in config mode (the demos' find_package(OpenCV REQUIRED PATHS ${OPENCV_DIR}/share/OpenCV ...))
    # finds no <Pkg>Config.cmake where its setting points: the setting names the wrong folder, or the package is
    # not installed with its CMake files. Without REQUIRED CMake prints the same text as a warning and goes on: below
    # every row that names a cause of its own.
    _sig("cmake_package_config_missing", r"Could not find a package configuration file provided by \"(?P<pkg>[\w.+-]+)\"|"
         r"By not providing \"Find(?P<pkg2>[\w.+-]+)\.cmake\" in CMAKE_MODULE_PATH",
         "cause", CauseId.config_error, 40,
         "  Could not find a package configuration file provided by \"OpenCV\" with any",
         title="CMake found no {pkg}{pkg2}Config.cmake where the build looks: point {pkg}{pkg2}_DIR (or the project's "
               "setting, e.g. OPENCV_DIR) at the folder that holds it, or install {pkg}{pkg2} with its CMake files",
         most="medium",
         source="CMake 3.x Source/cmFindPackageCommand.cxx (\"Could not find a package configuration file provided "
                "by \\\"%s\\\" with any of the following names:\"; before it, \"By not providing \\\"Find%s.cmake\\\" "
                "in CMAKE_MODULE_PATH this project has asked CMake to find a package configuration file ...\")"),
    # An x86-only option that every x86 GCC knows (-m64, -m32, -msse..-msse4.2) and the compiler does not: a compiler
    # for another architecture (ARM, an aarch64 host) given the flags of an x86 build, a build configured without its
    # ARM switch (WITH_ARM). Newer x86 options (-mavx512f) are unknown to an old x86 GCC too, so they are left out.
    _sig("compiler_x86_option_elsewhere", r"unrecognized command[- ]line option [‘'\"`](?P<opt>-m(?:64|32|sse(?:[234]|3|4\.[12])?))"
         r"[’'\"`]", "cause", CauseId.config_error, 75,
         "c++: error: unrecognized command line option ‘-m64’",
         title="the compiler does not know {opt}, an x86 option: the build was configured for x86 on a machine or for a "
               "target of another architecture (configure it for that one, e.g. -DWITH_ARM=ON)", most="medium",
         source="GCC opts-common.c / gcc.c (\"unrecognized command-line option %qs\"; before GCC 8 \"unrecognized "
                "command line option\"), for -m64/-msse/-mavx that only the x86 back end defines; pp cmake/flags.cmake "
                "(-m64 unless WITH_ARM)"),
    # GCC cannot allocate registers for an inline-asm block's constraints: hand-written NEON/SSE assembly (Lite's ARM
    # kernels) given to a compiler, target or optimisation level it was not written for.
    _sig("gcc_asm_constraints_impossible", r"[‘'`]asm[’'`] operand has impossible constraints", "cause",
         CauseId.dependency_version_mismatch, 70, "packed_sgemm.cc:2872:53: error: ‘asm’ operand has impossible constraints",
         title="the compiler cannot fit the code's inline assembly to its registers: a compiler, target (-march/-mfpu) or "
               "version other than the one the assembly was written for", most="medium",
         source="GCC reload1.c / lra-constraints.c (error_for_asm: \"%<asm%> operand has impossible constraints\")"),
    # The linker finds no library named by -l on its search path (-L, LIBRARY_PATH): not installed there, or the path
    # not given (a C inference library built but not copied where the build looks). CUDA's libraries are the toolkit's
    # (a custom op or FasterTransformer linking cuBLASLt), NCCL's are left to the NCCL rows.
    _sig("linker_cuda_library_not_found", rf"\b(?:ld\w*|mold)(?:\.\w+)?(?:\.exe)?: (?:error: )?{_LD_MISSING} ?-l(?P<lib>(?:{CUDA_LIBRARIES})"
         r"[\w.+-]*)", "cause", CauseId.cuda_cudnn_mismatch, 75, "/usr/bin/ld: cannot find -lcublasLt",
         title="the linker found no lib{lib} (a CUDA library) on its search path: the CUDA toolkit installed lacks it, or "
               "its lib64 folder is not on the library path", source=_LD_SOURCE, most="medium"),
    _sig("linker_nccl_library_not_found", rf"\b(?:ld\w*|mold)(?:\.\w+)?(?:\.exe)?: (?:error: )?{_LD_MISSING} ?-l(?P<lib>nccl"
         r"[\w.+-]*)", "cause", CauseId.nccl_library_missing, 75, "/usr/bin/ld: cannot find -lnccl",
         title="the linker found no lib{lib} on its search path: NCCL is not installed where the build looks (its lib "
               "folder on the library path)", source=_LD_SOURCE, most="medium"),
    _sig("linker_library_not_found", rf"\b(?:ld\w*|mold)(?:\.\w+)?(?:\.exe)?: (?:error: )?{_LD_MISSING} ?-l(?P<lib>(?!{CUDA_LIBRARIES}|nccl)"
         r"[\w.+-]+)", "cause", CauseId.file_not_found, 75, "/usr/bin/ld: cannot find -lpaddle_fluid_c",
         title="the linker found no lib{lib} on its search path: the library is not where -L or LIBRARY_PATH points",
         source=_LD_SOURCE, most="medium"),
    # Paddle's C++ headers use C++11 (rvalue references, defaulted functions): libstdc++'s C++11 headers refuse to compile
    # without it, and gcc before 6 (C++98 by default) warns at each use, errors following; a warning alone builds on.
    _sig("cxx11_not_enabled", r"This file requires compiler and library support for the (?:upcoming )?ISO C\+\+ (?:2011 )?"
         r"standard", "cause", CauseId.config_error, 75, "bits/c++0x_warning.h:32:2: error: #error This file requires "
         "compiler and library support for the ISO C++ 2011 standard.", title=_CXX11_TITLE, most="medium",
         source="libstdc++ bits/c++0x_warning.h (#error This file requires compiler and library support for the ISO C++ "
                "2011 standard ...)"),
    _sig("cxx11_not_enabled_warning", r"only available with -std=c\+\+(?:0x|11) or -std=gnu\+\+(?:0x|11)", "context",
         CauseId.config_error, 60, "paddle_inference_api.h:84: warning: defaulted and deleted functions only available "
         "with -std=c++0x or -std=gnu++0x", title=_CXX11_TITLE, most="medium",
         source="GCC 4.4-5 cp/parser.c pedwarns (\"%s only available with -std=c++0x or -std=gnu++0x\"; 4.7+ -std=c++11 "
                "or -std=gnu++11), then the errors of the code it could not parse"),
    # GNU ld cannot read a library it was given: built for another architecture than the toolchain links (an arm64
    # library with a 32-bit ARM cross compiler), or no library at all (a download cut short, a git-LFS pointer file).
    _sig("linker_file_format_unknown", r"(?:^|[\s:'\"])(?P<lib>[^\s:'\"]{1,300}\.(?:so|a)(?:\.[\w.]+)?): (?:file not recognized: "
         r"[Ff]ile format not recognized|error adding symbols: [Ff]ile in wrong format)", "cause", CauseId.config_error, 60,
         "third_libs/install/paddlelite/lib/libpaddle_full_api_shared.so: file not recognized: File format not recognized",
         title="the linker cannot read {lib}: it is built for another architecture than this toolchain (a cross build's "
               "compiler and target ABI that do not match), or is no library (a download cut short, a git-LFS pointer)",
         source="GNU ld ldmain.c/ldfile.c via BFD (\"%pB: file not recognized: %E\", bfd_error_file_not_recognized "
                "\"file format not recognized\"; ldlang.c \"%pB: error adding symbols: %E\", bfd_error_wrong_format \"file "
                "in wrong format\")", most="medium"),
    _sig("cxx11_abi_mismatch", r"(?:undefined reference to|对)\s*[`‘'][^’'`]*std::__cxx11::", "cause",
         CauseId.dependency_version_mismatch, 75, "vis_demo.cc:(.text+0x12be): undefined reference to `paddle::"
         "AnalysisConfig::SetModel(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > "
         "const&)'",
         title="the library and the code linking it were built with different libstdc++ string ABIs (gcc < 5 or "
               "_GLIBCXX_USE_CXX11_ABI=0 on one side): build both with the same compiler and flag",
         source="libstdc++ Dual ABI (GCC 5+, std::__cxx11::basic_string; _GLIBCXX_USE_CXX11_ABI); GNU ld "
                "(\"undefined reference to `%s'\", zh_CN \"对'%s'未定义的引用\")", most="medium"),
    # GNU ld found a symbol in a shared library the link line does not name (only in one another library needs): a
    # static Paddle library's dlsym/pthread calls without -ldl/-lpthread. ld refuses to take it from there.
    _sig("linker_dso_missing", r"undefined reference to symbol [`‘'](?P<sym>[^’'`\n]{1,200})[’'`]|(?:^|(?<=\s))(?P<lib>[^\s:]{1,300}): error "
         r"adding symbols: DSO missing from command line|is defined in DSO (?P<lib2>\S{1,300}) so try adding it to the "
         r"linker command line", "cause", CauseId.config_error, 70,
         "libpaddle_fluid.a(analysis_predictor.cc.o): undefined reference to symbol 'dlsym@@GLIBC_2.2.5'",
         title="the link needs {sym}{lib}{lib2}, which the link line does not name (the symbol is only in a library "
               "another one needs): add that library to the link line (-ldl, -lpthread, ...) after the ones that need it",
         most="medium",
         source="GNU ld elflink.c elf_link_add_object_symbols (\"%pB: undefined reference to symbol '%s'\"), then "
                "ldlang.c (\"%pB: error adding symbols: %E\", bfd_error_missing_dso \"DSO missing from command line\"); "
                "gold (\"'%s' is defined in DSO %s so try adding it to the linker command line\")"),
    # GCC's compiler proper given two input files: a compile flag that takes the next word as a file (a lower-case
    # -o2/-o3 for -O2/-O3 in a demo's CMAKE_CXX_FLAGS) is harmless until CMake 3.20+ adds its own depfile options
    # (-MD -MT -MF), after which every object fails and the .d file is never written: above the generic "No such file
    # or directory" (95) that GCC prints next for that .d file.
    _sig("compiler_too_many_filenames", r"cc1(?:plus)?(?:\.exe)?: (?:error: too many filenames given|错误：给定了太多文件名)",
         "cause", CauseId.dependency_version_mismatch, 96, "cc1plus: error: too many filenames given.  Type cc1plus --help for usage",
         title="the compiler was given two input files: a compile flag of the build takes a word as a file (a lower-case "
               "-o2/-o3 for -O2/-O3), which CMake 3.20 and newer turn into this error; correct the flag (or use the "
               "CMake release the build was written for)", most="medium",
         source="GCC c-family/c-opts.c c_common_post_options (\"too many filenames given.  Type %s --help for usage\"; "
                "zh_CN \"给定了太多文件名。试用 %s --help 以了解用法\"); CMake 3.20 depfile flags (CMAKE_DEPFILE_FLAGS_CXX)"),
    # The .d file of that failure alone (the line above not pasted): a missing build folder or a path too long print
    # it too, so low; above the generic "No such file or directory" all the same.
    _sig("compiler_depfile_unwritten", r"cc1(?:plus)?(?:\.exe)?: (?:fatal error|致命错误) ?[:：] ?[^\s:：]{0,300}?CMakeFiles/"
         r"[^\s:：]{1,300}?\.d ?[:：] ?(?:No such file or directory|没有那个文件或目录)", "cause", CauseId.dependency_version_mismatch,
         96, "cc1plus: fatal error: CMakeFiles/main.dir/src/main.cc.d: No such file or directory",
         title="the compiler could not write its dependency file: most often a compile flag that takes a word as a file "
               "(a lower-case -o3 for -O3) under CMake 3.20+'s depfile options; else a missing build folder or a path "
               "too long", most="low",
         source="GCC c-family/c-opts.c (the -MF file opened for writing: \"%s: No such file or directory\"), under CMake "
                "3.20+ CMAKE_DEPFILE_FLAGS_CXX (-MD -MT -MF <obj>.d)"),
    # Any other symbol the linker finds in no library it was given: a library on the link line is another build or
    # version than the code was written against (an OpenBLAS built without LAPACKE, a library of an older release).
    # After the rows above (the string ABI, Paddle's C API), which name which side.
    _sig("linker_symbol_undefined", r"undefined reference to\s*[`‘'](?P<sym>[^’'`\n]{1,200})(?:[’'`]|$)|对\s*[`‘']"
         r"(?P<sym2>[^’'`\n]{1,200})[’'`]\s*未定义的引用|\bld: (?P<sym3>symbol\(s\)) not found for architecture \w+|"
         r"(?:^|\s)(?=Undefined symbols for architecture \w+:)Undefined (?P<sym4>symbols)|\bld: Undefined (?P<sym5>symbols):|"
         r"\bld\.lld(?:\.exe)?: error: undefined symbol: (?P<sym6>[^\n]{1,200})",
         "cause", CauseId.dependency_version_mismatch, 60,
         "MathFunctions.cpp:91: undefined reference to `LAPACKE_sgetrf'",
         title="the linker found {sym}{sym2}{sym3}{sym4}{sym5}{sym6} in no library it was given: a library on the link line is another build or "
               "version than the code expects (or one is missing from the link line)", most="medium",
         source="GNU ld ldmain.c undefined_symbol (\"undefined reference to `%s'\", zh_CN \"对‘%s’未定义的引用\"); Apple "
                "ld64 (\"Undefined symbols for architecture %s:\" then the list, \"ld: symbol(s) not found for "
                "architecture %s\"; Xcode 15's ld \"ld: Undefined symbols:\"); LLVM lld ELF/Symbols.cpp (\"undefined symbol: "
                "%s\"); a line cut before its closing quote is read too"),
    # Paddle compiles with -Werror: a newer compiler's new warning stops the build in code that built before.
    _sig("werror_newer_compiler", r"\[-Werror=(?P<flag>[\w+-]+)=?\]", "cause",
         CauseId.dependency_version_mismatch, 65,
         "tinyformat.h:673:15: error: this statement may fall through [-Werror=implicit-fallthrough=]",
         title="the build turns warnings into errors and this compiler warns ({flag}) where the code's tested "
               "compilers did not: build with a supported gcc version (or without -Werror)",
         source="GCC (\"error: %s [-Werror=%s]\"; -Wimplicit-fallthrough in GCC 7, -Wclass-memaccess in 8, ...); pp "
                "1.x-2.x cmake/flags.cmake (-Werror)", most="medium"),
    # The nvcc driver's front end (cicc) or assembler killed by SIGKILL while building CUDA kernels: the OOM killer.
    _sig("nvcc_tool_killed", r"nvcc error\s*: '(?P<prog>\w+)' died due to signal 9", "cause", CauseId.host_oom_killed,
         75, "nvcc error   : 'cicc' died due to signal 9 (Kill signal)",
         title="nvcc's {prog} was killed (SIGKILL) while building CUDA kernels: the machine ran out of memory; build "
               "with fewer parallel jobs or add memory/swap",
         source="NVIDIA nvcc (\"nvcc error   : '%s' died due to signal %d (%s)\")", most="medium"),
    # A FileNotFoundError a library raises itself with a message that names no path: what is missing is the
    # library's own notion (a remote file, a resource), not necessarily a file of the run's.
    _sig("file_not_found_unnamed", r"^FileNotFoundError: (?P<msg>(?![^\n]*(?:[/\\'\"]|\.\w{2,5}\b|Errno))[^\n]+)$", "cause",
         CauseId.file_not_found, 80, "FileNotFoundError: cannot locate the remote file",
         title="a file was not found ({msg}); the message names no path",
         source="CPython FileNotFoundError raised by the library's own code (raise FileNotFoundError(\"...\")), "
                "without errno or filename", most="medium"),
    *CMAKE_CHECKS,
    # nvcc on a CUDA toolkit header (thrust, cub) naming an identifier the header itself expects: the toolkit's thrust
    # and the CUB the build brings are of two releases, a CUDA version the source was not yet adapted to.
    _sig("nvcc_toolkit_header_undefined", r"[/\\](?:thrust|cub)[/\\]\S+\(\d+\): error: identifier \"(?P<name>\w+)\" is "
         r"undefined", "cause", CauseId.cuda_cudnn_mismatch, 70,
         "/opt/cuda/targets/x86_64-linux/include/thrust/system/cuda/detail/scan_by_key.h(905): error: identifier "
         "\"CUB_TARGET_ALLOWS_DEVICE_SYNC\" is undefined",
         title="nvcc fails inside the CUDA toolkit's own thrust/CUB headers ({name} undefined): the toolkit's "
               "thrust and the CUB the build uses are of two releases, a CUDA version this source does not support "
               "yet (build with a CUDA the release lists)", most="medium",
         source="nvcc (EDG front end: \"error: identifier \\\"%s\\\" is undefined\") in the toolkit's include/thrust and "
                "include/cub headers; Paddle#47384 (CUDA 11.8, thrust 1.15 vs the build's CUB)"),
    *SYSTEM_HEADER_ROWS,
)

