"""Signatures: the compiler refuses code built against a library's headers: a name Paddle's or protobuf's headers
do not declare (code written for another release of them), CUDA's host-compiler check, setuptools without the
wheel package, a custom operator's build that failed without its compiler output (``COMPILER_ROWS``, spliced by
:mod:`..tools.builds` among the build's rows, in match order); the C++ standard library's own headers not found and
an error inside a system header (``SYSTEM_HEADER_ROWS``, spliced after every build row)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

# GCC's "'X' is not a member of 'ns'" / "'X' in namespace 'ns' does not name a type", clang's "no member named 'X' in
# 'ns'", nvcc's "namespace/enum "ns::T" has no member "X"": a name the headers found do not declare.
_NO_MEMBER = (r"(?:error|错误)(?: C2039)? ?[:：] ?(?:[‘'`“](?P<name>\w{{1,80}})[’'`”]:? (?:is not a member of|in namespace) "
              r"[‘'`“](?P<ns>{ns})(?:::\w+)*[’'`”]|[‘“](?P<name4>\w{{1,80}})[’”]:? ?不是[‘“](?P<ns4>{ns})(?:::\w+)*[’”]的成员|no member "
              r"named '(?P<name2>\w{{1,80}})' in (?:namespace )?'(?P<ns2>{ns})(?:::\w+)*'|(?:namespace|enum|class|struct) "
              r"\"(?P<ns3>{ns})(?:::\w+)*\" has no member \"(?P<name3>\w{{1,80}})\"|[‘'](?:class|struct) (?P<ns5>{ns})(?:::\w+)*[’'] "
              r"has no member named [‘'](?P<name5>\w{{1,80}})[’'])")
_NO_MEMBER_SOURCE = ("GCC cp/ (\"%qE is not a member of %qD\", \"%qT has no member named %qE\"; zh_CN \"%qE不是%qD的成员\"), "
                     "MSVC C2039 (\"'%s': is not a member of '%s'\"), clang Sema (\"no member named %0 in %1\"), nvcc's EDG front "
                     "end (\"namespace \\\"%s\\\" has no member \\\"%s\\\"\", \"enum \\\"%s\\\" has no member ...\")")

COMPILER_ROWS = (
    # Code compiled against the installed Paddle's headers (a custom operator, a device plugin, a suite's C++ ops)
    # uses a name they do not declare: most often the code and the headers are two releases of Paddle. Only the
    # compiler's error line (not prose), not Paddle's own source tree (a stale build folder), not Paddle-Lite's API.
    _sig("paddle_header_member_missing", r"^(?!\S*\bpaddle[/\\](?:phi|fluid)[/\\])(?!.*paddle::lite_api)[^\n]{0,600}?"
         + _NO_MEMBER.format(ns=r"phi|paddle"), "cause", CauseId.paddle_api_mismatch, 72,
         "batch_norm_kernel.cc:64:33: error: ‘StringToDataLayout’ is not a member of ‘phi’",
         title="the code uses {name}{name2}{name3}{name4}{name5}, which the Paddle headers it is compiled against do not "
               "declare: most often code written for another Paddle release (build it against the Paddle it names); or a "
               "build option or #include that leaves it undeclared", most="medium",
         source=_NO_MEMBER_SOURCE + ", on Paddle's namespaces (phi::, paddle::), not in Paddle's own tree nor Paddle-Lite's"),
    # The same for protobuf's generated API: sources (grpc's, a project's) written for another protobuf release than
    # the headers the build uses.
    _sig("protobuf_header_member_missing", _NO_MEMBER.format(ns=r"google::protobuf"), "cause",
         CauseId.dependency_version_mismatch, 72,
         "php_generator_helpers.h:51:23: error: no member named 'has_php_namespace' in 'google::protobuf::FileOptions'",
         title="the code uses protobuf's {name}{name2}{name3}{name4}{name5}, which the protobuf headers of the build do "
               "not declare: most often protobuf of another release than the code's (or an #include missing)", most="medium",
         source=_NO_MEMBER_SOURCE + ", on protobuf's namespace (google::protobuf::)"),
    # nvcc checks the host compiler's version in crt/host_config.h: a Visual Studio or GCC newer (or older) than this
    # CUDA supports.
    _sig("cuda_host_compiler_unsupported", r"#error:?\s+-- unsupported (?P<what>Microsoft Visual Studio|GNU|clang) version!",
         "cause", CauseId.dependency_version_mismatch, 80,
         "CUDA\\v12.6\\include\\crt/host_config.h(170): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio "
         "version! Only the versions between 2017 and 2022 (inclusive) are supported!",
         title="this CUDA does not support the {what} compiler it was given as host compiler: use a version its "
               "release notes list (or a CUDA that supports this one)", most="medium",
         source="CUDA 9-12 include/crt/host_config.h (#error -- unsupported Microsoft Visual Studio version! Only the "
                "versions between 2017 and 2022 (inclusive) are supported!; #error -- unsupported GNU version! gcc "
                "versions later than %d are not supported!); MSVC C1189 reports it"),
    # setuptools has a bdist_wheel command only where the wheel package is installed.
    _sig("setup_bdist_wheel_missing", r"error: invalid command 'bdist_wheel'", "cause", CauseId.dependency_version_mismatch,
         80, "error: invalid command 'bdist_wheel'",
         title="setup.py has no bdist_wheel command: the wheel package is not installed in this Python (pip install "
               "wheel), or the setup.py imports distutils' setup instead of setuptools'", most="medium",
         source="CPython distutils / setuptools _distutils dist.py Distribution.get_command_class (raise DistutilsModuleError("
                "\"invalid command '%s'\")), printed by core.setup as \"error: %s\"; bdist_wheel is the wheel package's"),
    # ccache run with a compiler's options: a build that takes the first word of a compiler setting ("ccache gcc" in
    # CC or Python's sysconfig) as the compiler for one step (distutils' link step).
    _sig("ccache_given_compiler_options", r"^ccache: (?:invalid|illegal|unrecognized) option", "cause", CauseId.config_error, 70,
         "ccache: invalid option -- 'p'",
         title="ccache was run with a compiler's options: a step of the build takes only the first word of a compiler "
               "setting such as CC=\"ccache gcc\"; set the compiler alone and use ccache as a launcher "
               "(CMAKE_<LANG>_COMPILER_LAUNCHER) or through its symlinks", most="medium",
         source="glibc posix/getopt.c (\"%s: invalid option -- '%c'\") as ccache 3.x ccache.c ccache_main_options "
                "prints it under its own name (getopt_long)"),
    # Paddle's cpp_extension (and PaddleNLP's ops, which copy it) build a custom operator in a subprocess and raise its
    # CalledProcessError as this line; the compiler's own output was printed above it only with verbose=True. The
    # build failed, which alone names no cause: an exception of that code, read where the RuntimeError: was cut off
    # (with it, the line is read as the exception it is).
    _sig("custom_op_build_failed", r"(?<!Error: )Failed to run command: <built-in function compile>, errors: (?P<msg>.{0,300})",
         "exception", CauseId.python_exception, 45, "- Failed to run command: <built-in function compile>, "
         "errors: Command 'cd ~/.cache/paddle_extensions && python voxelize_setup.py build' returned non-zero exit status 1.",
         title="the custom operator's build failed: {msg} (run it with verbose=True for the compiler's output)",
         source="pp 2.0-3.3.1 paddle/utils/cpp_extension/extension_utils.py run_cmd (raise RuntimeError(\"Failed to run "
                "command: {}, errors: {}\".format(compile, error))); PaddleNLP 2.x paddlenlp/ops/ext_utils.py (the same)"),
)

# After every other build row (tools/builds.py splices them last): a specific row (C++11 not enabled, -Werror of a
# newer compiler, protoc's generated check) still reads its own line under /usr/include.
_GCC_ZH_ERROR = r"(?:error|错误)[:：] ?"
SYSTEM_HEADER_ROWS = (
    # The C++ standard library's own headers (no extension) not found, from a C++ source: the compiler has no standard
    # library it can use (a clang that Paddle's build downloads beside a system GCC whose libstdc++ it does not know:
    # CINN's LLVM 11 with GCC 13, Paddle#68930; g++ not installed; a cross or NDK toolchain without its C++ library).
    _sig("cxx_standard_header_missing", r"^(?!\S*\.c[:(])[^\n]{0,300}?(?:fatal error|致命错误) ?[:：] ?(?:['\u2018](?P<header>(?:"
         r"experimental/)?[a-z_]{3,20})['\u2019] file not found|(?P<header2>(?:experimental/)?[a-z_]{3,20}) ?[:：] ?(?:No such "
         r"file or directory|没有那个文件或目录)|C1083: Cannot open include file: '(?P<header3>[a-z_]{3,20})')", "cause",
         CauseId.dependency_version_mismatch, 70, "cinn_runtime.h:32:10: fatal error: 'functional' file not found",
         title="the compiler finds no C++ standard library header ({header}{header2}{header3}): a compiler without a "
               "standard library it can use (a bundled clang that does not know this GCC's libstdc++, g++ not installed, "
               "a cross or NDK toolchain without its C++ library, macOS without its command line tools)", most="medium",
         source="clang Basic/DiagnosticLexKinds.td err_pp_file_not_found (\"'%0' file not found\"), GCC libcpp files.c "
                "open_file_failed (\"%s: No such file or directory\"; zh_CN), MSVC C1083, for a header of the C++ standard "
                "library (no extension)"),
    # GCC, clang or nvcc failing inside the kernel's UAPI headers or glibc's: the code that includes them, or a library
    # it vendors, is of another age than this system's headers (Paddle's pinned gloo against Linux 6.x's ethtool.h,
    # Paddle#58286; CUDA 9-10's nvcc against glibc 2.26's floatn.h).
    _sig("system_header_compile_error", r"(?:^|(?<=\s))(?P<header>/usr/include/(?:linux|asm[\w-]*|[\w-]*linux-gnu/bits|"
         r"bits)/\S{1,200}?\.h)(?::\d+:\d+:| ?\(\d+\):) " + _GCC_ZH_ERROR, "cause",
         CauseId.dependency_version_mismatch, 60, "/usr/include/linux/ethtool.h:2199:17: error: flexible array member "
         "'ethtool_link_settings::link_mode_masks' not at end of 'struct gloo::<unnamed>'",
         title="the compiler fails inside a system header ({header}): the code, or a library it vendors, is of another "
               "age than this system's kernel or C library headers", most="medium",
         source="GCC and clang diagnostics (\"%s:%d:%d: error: %s\"; zh_CN), nvcc (\"%s(%d): error: %s\"), located in the "
                "kernel's or glibc's headers under /usr/include"),
    # Any other header under /usr/include (not the C++ library's, where a template error is the code's own): the
    # project's macros or flags (a -std, a #define before the include) as often as another age: low.
    _sig("system_header_compile_error_other", r"(?:^|(?<=\s))(?P<header>/usr/include/(?!c\+\+/)\S{1,200}?\.h)(?::\d+:\d+:"
         r"| ?\(\d+\):) " + _GCC_ZH_ERROR, "cause", CauseId.dependency_version_mismatch, 45,
         "/usr/include/python3.8/pyport.h:726:2: error: #error \"LONG_BIT definition appears wrong for platform\"",
         title="the compiler fails inside a system header ({header}): a header of another version than the code expects, "
               "or the project's own flags or macros before it", most="low",
         source="GCC and clang diagnostics (\"%s:%d:%d: error: %s\"), nvcc (\"%s(%d): error: %s\"), under /usr/include"),
)
