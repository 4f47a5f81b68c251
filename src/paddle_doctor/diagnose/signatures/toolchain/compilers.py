"""Signatures: the compiler refuses code built against a library's headers: a name Paddle's or protobuf's headers
do not declare (code written for another release of them), CUDA's host-compiler check, and setuptools without the
wheel package; spliced by :mod:`..tools.builds` among the build's rows, in match order."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

# GCC's "'X' is not a member of 'ns'" / "'X' in namespace 'ns' does not name a type", clang's "no member named 'X' in
# 'ns'", nvcc's "namespace/enum "ns::T" has no member "X"": a name the headers found do not declare.
_NO_MEMBER = (r"[‘'`](?P<name>\w{{1,80}})[’'`] is not a member of [‘'`](?P<ns>{ns})(?:::\w+)*[’'`]|no member named "
              r"'(?P<name2>\w{{1,80}})' in '(?P<ns2>{ns})(?:::\w+)*'|(?:namespace|enum|class|struct) \"(?P<ns3>{ns})(?:::\w+)*\" "
              r"has no member \"(?P<name3>\w{{1,80}})\"")
_NO_MEMBER_SOURCE = ("GCC cp/ (\"%qE is not a member of %qD\"), clang Sema (\"no member named %0 in %1\"), nvcc's EDG front "
                     "end (\"namespace \\\"%s\\\" has no member \\\"%s\\\"\", \"enum \\\"%s\\\" has no member ...\")")

COMPILER_ROWS = (
    # Code compiled against the installed Paddle's headers (a custom operator, a device plugin, a suite's C++ ops)
    # uses a name they do not declare: the code and the headers are two releases of Paddle.
    _sig("paddle_header_member_missing", _NO_MEMBER.format(ns=r"phi|paddle"), "cause", CauseId.paddle_api_mismatch, 72,
         "batch_norm_kernel.cc:64:33: error: ‘StringToDataLayout’ is not a member of ‘phi’",
         title="the code uses {name}{name2}{name3}, which the Paddle headers it is compiled against do not declare: the "
               "code was written for another Paddle release (build it against the Paddle it names)", most="medium",
         source=_NO_MEMBER_SOURCE + ", on Paddle's namespaces (phi::, paddle::)"),
    # The same for protobuf's generated API: sources (grpc's, a project's) written for another protobuf release than
    # the headers the build uses.
    _sig("protobuf_header_member_missing", _NO_MEMBER.format(ns=r"google::protobuf"), "cause",
         CauseId.dependency_version_mismatch, 72,
         "php_generator_helpers.h:51:23: error: no member named 'has_php_namespace' in 'google::protobuf::FileOptions'",
         title="the code uses protobuf's {name}{name2}{name3}, which the protobuf headers of the build do not declare: "
               "protobuf of another release than the code's", most="medium",
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
               "wheel)", most="medium",
         source="CPython distutils / setuptools dist.py Distribution._parse_command_opts (raise DistutilsArgError(\"invalid "
                "command '%s'\")), bdist_wheel being the wheel package's command"),
    # ccache run with a compiler's options: a build that takes the first word of a compiler setting ("ccache gcc" in
    # CC or Python's sysconfig) as the compiler for one step (distutils' link step).
    _sig("ccache_given_compiler_options", r"^ccache: invalid option --", "cause", CauseId.config_error, 70,
         "ccache: invalid option -- 'p'",
         title="ccache was run with a compiler's options: a step of the build takes only the first word of a compiler "
               "setting such as CC=\"ccache gcc\"; set the compiler alone and use ccache as a launcher "
               "(CMAKE_<LANG>_COMPILER_LAUNCHER) or through its symlinks", most="medium",
         source="glibc posix/getopt.c (\"%s: invalid option -- '%c'\") as ccache 3.x ccache.c ccache_main_options "
                "prints it under its own name (getopt_long)"),
)

