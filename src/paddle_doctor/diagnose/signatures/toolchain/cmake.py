"""Signatures: CMake's configure step stops: a package or tool the build needs not found, the source folder or a
command CMake does not know, a generator expression newer than this CMake, a compiler path that is no compiler, a
value given on the command line that CMake's own parser refuses, and a project's own check (``message(FATAL_ERROR
...)``) on a setting; spliced by :mod:`..tools.builds` among the build's rows, in match order."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

# CMake's generator-expression errors.
_CMAKE_GENEX = ("CMake 3.x Source/cmGeneratorExpressionEvaluator.cxx / cmGeneratorExpressionNode.cxx (\"Error evaluating "
                "generator expression:\" then the expression and the reason, e.g. \"Expression did not evaluate to a "
                "known generator expression\")")

CMAKE_CHECKS = (
    # CMake's find modules and Paddle's own checks: a library or tool the build needs is not found. A status line
    # ("-- Could NOT find X") is not an error: the build goes on without X or builds it itself (Paddle's
    # cmake/external/*.cmake); only a find_package(... REQUIRED) prints it under a "CMake Error" header.
    _sig("cmake_package_not_found", r"(?<!-- )Could NOT find (?!PY_)(?P<pkg>\w+)(?: \(missing|:)|(?<![\w.+-])(?P<tool>[\w.+-]{1,80}) is not found\.?\s+"
         r"Please install", "cause", CauseId.dependency_version_mismatch, 80,
         "  Could NOT find Protobuf (missing: Protobuf_INCLUDE_DIR)",
         title="the build needs {pkg}{tool}, which CMake did not find: install it (with its headers), or point the "
               "build at it (<Pkg>_ROOT / CMAKE_PREFIX_PATH)",
         source="CMake 3.x Modules/FindPackageHandleStandardArgs.cmake (\"Could NOT find %s (missing: %s)\"); pp 0.x "
                "cmake/check_packages.cmake (message(FATAL_ERROR \"SWIG is not found. Please install swig or disable "
                "WITH_SWIG_PY\"))", most="medium"),
    # Paddle 0.x's own CMake checks for the BLAS it links (cmake/cblas.cmake, cmake/external/openblas.cmake): no CBLAS
    # found under the roots it searches, or the gfortran runtime OpenBLAS needs.
    _sig("paddle_cmake_blas_missing", r"CBlas must be set\.|Cannot found gfortran library which it is used by "
         r"openblas|To build lapack in libopenblas, you need to set gfortran compiler", "cause",
         CauseId.dependency_version_mismatch, 80,
         "  CBlas must be set.  Paddle support MKL, ATLAS, OpenBlas, reference-cblas.",
         title="the build needs a BLAS library (and OpenBLAS the gfortran runtime) that CMake did not find: install it, "
               "or point the build at it (MKL_ROOT, ATLAS_ROOT, OPENBLAS_ROOT)",
         source="pp 0.9-0.11 cmake/cblas.cmake (message(FATAL_ERROR \"CBlas must be set. Paddle support MKL, ATLAS, "
                "OpenBlas, reference-cblas. Try set MKL_ROOT, ATLAS_ROOT, OPENBLAS_ROOT or REFERENCE_CBLAS_ROOT.\")) "
                "and cmake/external/openblas.cmake (message(FATAL_ERROR \"Cannot found gfortran library which it is "
                "used by openblas\"; \"To build lapack in libopenblas, you need to set gfortran compiler: cmake .. "
                "-DCMAKE_Fortran_COMPILER=...\"), as Paddle#710, #1318 and #3880 print them", most="medium"),
    # cmake run in a folder that is not the source tree (the build folder, without the ".." that names the source).
    _sig("cmake_source_dir_wrong", r"The source directory \"(?P<dir>[^\"]{1,300})\" does not appear to contain "
         r"CMakeLists\.txt", "cause", CauseId.config_error, 80,
         "CMake Error: The source directory \"/xxx/paddle/build\" does not appear to contain CMakeLists.txt.",
         title="cmake was given {dir} as the source tree, which has no CMakeLists.txt: run it from the build folder "
               "with the source path (cmake ..)", most="medium",
         source="CMake 3.x Source/cmake.cxx (\"The source directory \\\"%s\\\" does not appear to contain "
                "CMakeLists.txt.\")"),
    _sig("cmake_unknown_command", r"Unknown CMake command \"(?P<cmd>\w+)\"", "cause", CauseId.dependency_version_mismatch,
         60, "  Unknown CMake command \"SWIG_ADD_MODULE\".",
         title="the build calls {cmd}, which no CMake module it loaded defines: the tool or CMake module that provides "
               "it is missing or of another version",
         source="CMake 3.x cmake/Source/cmMakefile.cxx (\"Unknown CMake command \\\"%s\\\".\")", most="medium"),
    # SWIG cannot parse a header it wraps: a SWIG older than the C++ the header uses.
    _sig("swig_syntax_error", r"^\S+\.(?:h|hpp|i):\d+: Error: Syntax error in input\(\d\)", "cause",
         CauseId.dependency_version_mismatch, 70, "decoder_utils.h:55: Error: Syntax error in input(1).",
         title="SWIG could not parse a header it wraps: this SWIG is older than the C++ the header uses (install the "
               "SWIG version the build names)",
         source="SWIG 2.x-4.x Source/CParse/parser.y (Swig_error(..., \"Syntax error in input(%d).\\n\"))", most="medium"),
    # CMake evaluates the generator expressions it knows ($<FILTER:...> came in 3.15, $<REMOVE_DUPLICATES:...> in 3.15,
    # $<TARGET_EXISTS:...> in 3.12): one it does not know is from a newer CMake than this one. The header alone is
    # also printed for a known expression that failed (a missing target, a wrong context): a weak clue.
    _sig("cmake_generator_expression_unknown", r"did not evaluate to a known generator expression", "cause",
         CauseId.dependency_version_mismatch, 75, "  Expression did not evaluate to a known generator expression",
         title="CMake does not know a generator expression the build uses: this CMake is older than the build needs "
               "(install the CMake version its docs name)", source=_CMAKE_GENEX, most="medium"),
    _sig("cmake_generator_expression_failed", r"Error evaluating generator expression", "cause",
         CauseId.dependency_version_mismatch, 40, "Error evaluating generator expression:",
         title="CMake could not evaluate a generator expression of the build: an expression newer than this CMake, or "
               "a target or context it names that is not there", source=_CMAKE_GENEX, most="low"),
    # The compiler CMake was given (CMAKE_<LANG>_COMPILER, CC/CXX, a toolchain file's path) is no file: a cross
    # toolchain not yet made or a path mistyped.
    _sig("cmake_compiler_path_invalid", r"is not a full path (?:to an existing compiler tool|and was not found in the PATH)",
         "cause", CauseId.config_error, 80, "  is not a full path to an existing compiler tool.",
         title="CMake was given a compiler that does not exist at that path: point CMAKE_C_COMPILER / "
               "CMAKE_CXX_COMPILER (or CC, CXX, the toolchain's folder) at one that does", most="medium",
         source="CMake 3.x Source/cmGlobalGenerator.cxx cmGlobalGenerator::EnableLanguage (noCompiler: \"The "
                "CMAKE_<LANG>_COMPILER:\\n  %s\\nis not a full path to an existing compiler tool.\\n\", or \"is not a full "
                "path and was not found in the PATH.\" for a bare name), under project()"),
    # CMake reads a backslash in a value as an escape: a Windows path given with backslashes (-DCUDA_TOOLKIT_ROOT_DIR=
    # "C:\\Program Files\\...") ends up inside CMake code, where "\\P" is no escape CMake knows.
    _sig("cmake_escape_invalid", r"^\s+Invalid (?:character escape '\\(?P<ch>[^'\s])'|escape sequence \\(?P<ch2>\S))", "cause",
         CauseId.config_error, 75, "  Invalid character escape '\\P'.",
         title="CMake read a backslash in a value as an escape (\\{ch}{ch2}): a Windows path given with backslashes; write "
               "it with forward slashes (C:/Program Files/...)", most="medium",
         source="CMake 3.x Source/cmMakefile.cxx / cmCommandArgumentParserHelper.cxx (\"Syntax error in cmake code at ... "
                "when parsing string ... Invalid character escape '\\%c'.\"; 2.8 \"Invalid escape sequence \\%c\")"),
    # A CMake script builds a regular expression from a path (string(REGEX REPLACE "^${CMAKE_SOURCE_DIR}/" ...), as
    # Paddle's cmake/generic.cmake does): a folder named with +, * or ? (C++, a++) makes it no regular expression.
    _sig("cmake_regex_from_path", r"RegularExpression::compile\(\): Nested \*\?\+", "cause", CauseId.config_error, 60,
         "RegularExpression::compile(): Nested *?+.",
         title="a CMake script built a regular expression from a path holding +, * or ? (a folder named like C++): move "
               "the tree (or the build folder) to a path without them", most="medium",
         source="CMake kwsys RegularExpression.cxx (\"RegularExpression::compile(): Nested *?+.\"), then "
                "cmStringCommand.cxx (\"sub-command REGEX, mode REPLACE failed to compile regex \\\"%s\\\".\")"),
    # A project's own check stops the configure step (message(FATAL_ERROR ...)): the lines under the header say which
    # setting or path it wants. Every row that names a package or tool (above) says more, so this one is weak. CMake's
    # own modules (a compiler that cannot build a test program) and a third-party download's stamp scripts (a clone
    # that failed) are no check of the project's.
    _sig("cmake_project_check", r"CMake Error at (?![^\n]{0,300}?(?:[/\\]Modules[/\\]|-stamp[/\\]))(?P<file>[^\n]{1,300}?):\d+ "
         r"\((?i:message)\):", "cause", CauseId.config_error, 35,
         "CMake Error at CMakeLists.txt:27 (message):",
         title="the build's own CMake check ({file}) stopped the configure step: the lines under it say which setting "
               "or path it needs; set it (cmake -D...) and configure again", most="low",
         source="CMake 3.x Source/cmMessageCommand.cxx (message(FATAL_ERROR ...): \"CMake Error at %s:%d (message):\" "
                "then the project's text, indented)"),
    # OpenCV's Android SDK (OpenCVConfig.cmake in sdk/native/jni) has prebuilt libraries for some ABIs only: an app
    # built for another one (x86 in an emulator's debug build) finds no OpenCV. A warning (find_package goes on with
    # OpenCV_FOUND false): it explains the failure after it; alone, a build that did not need OpenCV there.
    _sig("opencv_android_abi_missing", r"Found OpenCV Android Pack but it has no binaries compatible with your ABI", "context",
         CauseId.config_error, 80, "  Found OpenCV Android Pack but it has no binaries compatible with your ABI",
         title="the OpenCV Android pack has no libraries for the ABI this build targets: build only the ABIs it ships "
               "(abiFilters 'armeabi-v7a', 'arm64-v8a'), or use a pack for that ABI", most="medium",
         source="OpenCV 3.x-4.x cmake/templates/OpenCVConfig.root-ANDROID.cmake.in, installed as sdk/native/jni/"
                "OpenCVConfig.cmake (if(NOT OpenCV_FIND_QUIETLY) message(WARNING \"Found OpenCV Android Pack but it has "
                "no binaries compatible with your ABI (can't find: ${OpenCV_CONFIG_SUBDIR})\"); OpenCV_FOUND FALSE)"),
    # CMake's command mode asked for a command this CMake does not have (cmake -E touch/copy of several files, ...): it
    # prints its version and its usage; a CMake older than the build's scripts.
    _sig("cmake_e_command_unknown", r"^CMake Error: cmake version (?P<version>\d[\w.-]{0,20})\s*$", "cause",
         CauseId.dependency_version_mismatch, 70, "CMake Error: cmake version 3.2.2",
         title="the build ran a `cmake -E` command that CMake {version} does not take: most often a CMake older than the "
               "build needs (install the version its docs name), or a command given too few arguments (an empty variable)",
         most="medium",
         source="CMake 3.x Source/cmcmd.cxx cmcmd::ExecuteCMakeCommand (unknown -E command: CMakeCommandUsage: "
                "\"CMake Error: cmake version %s\\nUsage: %s -E <command> [arguments...]\")"),
    # A CMake file whose whole text is a path: a symbolic link of the repository checked out as a plain file (git
    # on Windows, core.symlinks false, an archive that dropped links), included where its target belongs.
    _sig("cmake_symlink_as_file", r"Parse error\.\s+Expected a command name, got unquoted argument with text", "cause",
         CauseId.config_error, 60, "  Parse error.  Expected a command name, got unquoted argument with text",
         title="CMake read a file whose text is not CMake code (often a symbolic link of the repository checked out as "
               "a plain file holding its target's path): check out with symbolic links (git config core.symlinks "
               "true) or copy the file it points to", most="low",
         source="CMake 3.x Source/cmListFileCache.cxx cmListFileParser::Parse (\"Parse error.  Expected a command name, "
                "got %s with text \\\"%s\\\".\")"),
)

