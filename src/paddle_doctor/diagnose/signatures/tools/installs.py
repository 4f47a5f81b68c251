"""Signatures: the packages and tools a Paddle job (or its build) needs: not installed in the environment that runs
it, not installed as pip reports it, or a build's configure step missing a setting.

pip builds a package from its source only when no wheel of the asked version fits this Python and
platform (an old pin, a new Python, Windows or ARM); a failed build then ends the install whatever
the build's own error was (a missing compiler, swig, a header), so pip's closing lines name the cause
better than the build's.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..packages import SUITE_LIBRARIES
from ..rows.api_versions import VERSIONED_PACKAGES
from .builds import BUILDS
from .resolvers import RESOLVERS

# Qt's Python bindings, which the suites' annotation and GUI tools (PPOCRLabel, EISeg, PaddleX's GUI) import.
_QT_BINDINGS = r"(?:PyQt[456]|PySide[26]?|qtpy|sip)"

INSTALLS = (
    *RESOLVERS,
    # Two copies of gflags (bundled by glog) in one process: each registers its flags, and the second registration
    # aborts. Two libraries each built with its own (Paddle's wheel and another extension, or a Homebrew glog).
    _sig("gflags_flag_defined_twice", r"ERROR: flag '(?P<flag>\w{1,80})' was defined more than once \(in files "
         r"'(?P<first>[^']{1,300})' and '(?P<second>[^']{1,300})'\)", "cause", CauseId.dependency_version_mismatch, 80,
         "ERROR: flag 'logtostderr' was defined more than once (in files '/tmp/glog-0.3.5/src/logging.cc' and "
         "'/Paddle/build/third_party/glog/src/extern_glog/src/logging.cc').",
         title="two copies of gflags/glog are loaded in one process (from {first} and {second}): two libraries each "
               "built with its own; load them in separate processes, or use builds that share one", most="medium",
         source="glog gflags src/gflags.cc FlagRegistry::RegisterFlag (\"ERROR: flag '%s' was defined more than once "
                "(in files '%s' and '%s').\\n\", then exit)"),
    # gflags refuses a flag that no library of this process defines: a GPU-only flag (fraction_of_gpu_memory_to_use)
    # given to a CPU build, or a flag of another Paddle release.
    _sig("gflags_flag_unknown", r"ERROR: unknown command line flag '(?P<flag>\w{1,80})'", "cause", CauseId.config_error,
         70, "ERROR: unknown command line flag 'fraction_of_gpu_memory_to_use'",
         title="the flag {flag} is not defined by this build (a GPU-only flag given to a CPU build, or one of another "
               "release): drop it, or use a build that has it", most="medium",
         source="gflags 2.x src/gflags.cc CommandLineFlagParser::ParseNewCommandLineFlags (\"unknown command line flag "
                "'%s'\"), printed as \"ERROR: ...\" by Paddle's InitGflags"),
    # The same registry's other abort: one flag registered twice from the same file, the file linked into the binary
    # both statically and through a shared library (a build or an install that mixes two copies of Paddle's code).
    _sig("gflags_flag_linked_twice", r"ERROR: something wrong with flag '(?P<flag>\w{1,80})' in file '(?P<file>[^']{1,300})'"
         r"\.\s{1,4}One possibility: file '[^']{1,300}' is being linked both statically and dynamically",
         "cause", CauseId.dependency_version_mismatch, 80,
         "ERROR: something wrong with flag 'x' in file '/b/paddle/pserver/S.cpp'.  One possibility: file '/b/paddle/"
         "pserver/S.cpp' is being linked both statically and dynamically into this executable.",
         title="gflags found flag {flag} registered twice: {file} is linked into this program both statically and "
               "through a shared library (two copies of one library in the process); use a build or install whose "
               "binaries share one copy", most="medium",
         source="glog gflags src/gflags.cc FlagRegistry::RegisterFlag (\"ERROR: something wrong with flag '%s' in file '%s'.  "
                "One possibility: file '%s' is being linked both statically and dynamically into this executable.\\n\", "
                "then exit)"),
    # Intel MKL's dispatcher loads a CPU-specific library (libmkl_avx2, libmkl_def, ...) at the first call: in an env
    # that mixes two MKL copies (conda's numpy/scipy beside pip's packages) or an MKL without them, it cannot.
    _sig("mkl_cpu_library_unloaded", r"Intel MKL (?:function load error: cpu specific dynamic library is not loaded|"
         r"FATAL ERROR: Cannot load (?P<lib>\S+?)\.?(?:\s|$))", "cause", CauseId.dependency_version_mismatch, 70,
         "Intel MKL function load error: cpu specific dynamic library is not loaded.",
         title="Intel MKL could not load its library ({lib}): the environment mixes MKL copies (conda's "
               "numpy/scipy beside pip packages) or has an MKL without them; install the numpy/scipy versions the code "
               "pins, from one channel", most="medium",
         source="Intel MKL mkl_serv dispatcher (\"Intel MKL FATAL ERROR: Cannot load %s.\", \"Intel MKL function load "
                "error: cpu specific dynamic library is not loaded.\"), as numpy/scipy from conda's mkl package print it"),
    _sig("pip_source_build_failed", r"Failed building wheel for (?P<pkg>(?!paddle\s*$)[\w.-]+)|Could not build wheels for "
         r"(?P<pkgs>[\w.-]+)|Encountered error while trying to install package|error: legacy-install-failure|"
         r"error: Setup script exited with error|Building wheel for (?P<built>(?!paddle \()[\w.-]+) \((?:setup\.py|"
         r"pyproject\.toml)\)(?: \.\.\. error$| did not run successfully)",
         "cause", CauseId.dependency_version_mismatch, 96, "error: legacy-install-failure",
         title="pip (or easy_install) had to build a package from source (no wheel of the asked version for this "
               "Python and platform) and the build failed: install a version that has a wheel here (or give the build "
               "what it lacks)",
         source="pip 10-24 src/pip/_internal/wheel_builder.py (logger.error(\"Failed building wheel for %s\", "
                "req.name)); pip 21-23 commands/install.py (\"Could not build wheels for {}, which is required to "
                "install pyproject.toml-based projects\"); pip 22.0-23.0 exceptions.py LegacyInstallFailure "
                "(reference=\"legacy-install-failure\", \"Encountered error while trying to install package.\"); setuptools "
                "easy_install's build of an sdist (\"error: Setup script exited with error: %s\"); pip 22-24 "
                "wheel_builder.py _build_one (open_spinner(f\"Building wheel for {req.name} ({backend})\"), finished "
                "\"error\"), exceptions.py InstallationSubprocessError (\"{command_description} did not run "
                "successfully.\": \"python setup.py bdist_wheel\", \"Building wheel for {name} (pyproject.toml)\")",
         most="medium"),
    # distutils/setuptools running a compiler or linker for an extension the code builds itself (a suite's custom op
    # compiled at first use, a setup.py build_ext): the native build failed. Inside pip's build of a package the pip
    # rows above are more specific.
    _sig("native_build_command_failed", r"^error: command '(?P<cmd>[^']{1,300})' failed with exit (?:code|status) "
         r"(?P<code>-?\d+)", "cause", CauseId.python_exception, 45,
         "error: command 'D:\\VS\\bin\\HostX86\\x64\\link.exe' failed with exit code 1120",
         title="a native build step failed (exit {code} of {cmd}): the extension or custom op the code compiles did not "
               "build", source="CPython 3.x Lib/distutils/spawn.py and setuptools _distutils/spawn.py (DistutilsExecError("
         "\"command %r failed with exit code %s\"); before 3.9 \"failed with exit status %d\")", most="medium"),
    # The same failed build when the paste keeps only pip's report of the subprocess, which does not name the package:
    # as specific as an exception line (50), so a line before it that names the package (the unrelated PyPI project
    # "paddle", whose build fails the same way) is read first.
    _sig("pip_build_subprocess_failed", r"(?:python setup\.py (?:bdist_wheel|egg_info)|Preparing (?:editable )?metadata "
         r"\((?:pyproject\.toml|setup\.py)\)|Getting requirements to build (?:wheel|editable)) did not run successfully|"
         r"Encountered error while generating package metadata|Command \"python setup\.py egg_info\" failed with error "
         r"code \d+|Command \"[^\"\n]{0,300} -u -c \"import setuptools[^\n]{0,1000}\" install --record [^\n]{0,400} failed "
         r"with error code \d+", "cause",
         CauseId.dependency_version_mismatch, 50, "  × python setup.py bdist_wheel did not run successfully.",
         title="pip had to build a package from source (no wheel of the asked version for this Python and platform) and "
               "the build failed: install a version that has a wheel here",
         source="pip 22-24 src/pip/_internal/exceptions.py InstallationSubprocessError (\"{command_description} did not "
                "run successfully.\", command_description \"python setup.py bdist_wheel\" from "
                "operations/build/wheel_legacy.py, the spinner messages \"Preparing metadata (pyproject.toml)\" of "
                "operations/build/metadata.py and \"Getting requirements to build wheel\" of distributions/sdist.py); "
                "exceptions MetadataGenerationFailed (\"Encountered error while generating package metadata.\"); pip 1.x-18 "
                "utils/misc.py call_subprocess (InstallationError('Command \"%s\" failed with error code %s in %s'), the "
                "command described as \"python setup.py egg_info\" for metadata, printed whole for setup.py install: "
                "\"<python> -u -c \"import setuptools, tokenize;...\" install --record ...\")",
         most="medium"),
    # PyPI's "paddle" is another project (a 2016-2018 library, sdists 0.x-1.0.2, whose setup imports modules it
    # does not ship); PaddlePaddle's distribution is paddlepaddle(-gpu). pip fetching it is the install command's name.
    # As specific as an exception line, so the first in the text wins: after an import of paddle failed, it is the
    # user's attempt to install it, not what failed first.
    _sig("pip_unrelated_paddle_project", r"^\s*Downloading (?:\S+/)?paddle-(?P<version>\d[\w.]*)\.tar\.gz\b|"
         r"^\s*Collecting paddle(?:[=<>!~]=?[\w.*]+)?\s*(?:\(|$)|Failed building wheel for paddle\s*$|"
         r"pip-(?:install|req-build)-\w+[/\\]paddle[/\\]setup\.py", "cause",
         CauseId.config_error, 50,
         "  Downloading paddle-1.0.2.tar.gz (579 kB)",
         title="pip is installing PyPI's \"paddle\", an unrelated project: PaddlePaddle is `pip install paddlepaddle` "
               "(or paddlepaddle-gpu)",
         source="pip 10-24 src/pip/_internal/operations/prepare.py (logger.info(\"Collecting %s\", req); "
                "\"Downloading %s\"); PyPI's paddle project (paddle 1.0.2, an sdist, not PaddlePaddle; PaddlePaddle ships "
                "wheels only, so a setup.py of a 'paddle' in pip's build folder is that project's)"),
    # numpy 1.19.4 on Windows checks the C runtime at import (a fmod bug of Windows' 2004 update) and refuses to load.
    _sig("numpy_windows_sanity_check", r"The current Numpy installation \(.{0,300}?\) fails to pass a sanity\b", "cause",
         CauseId.dependency_version_mismatch, 85,
         "RuntimeError: The current Numpy installation ('C:\\py\\numpy\\__init__.py') fails to pass a sanity check due "
         "to a bug in the windows runtime.",
         title="numpy's start-up check of the Windows C runtime failed (numpy 1.19.4 checks for the fmod bug of "
               "Windows 10 2004): install numpy 1.19.3, or update Windows", most="medium",
         source="numpy 1.19.4 numpy/__init__.py _win_os_check (RuntimeError(\"The current Numpy installation ({!r}) fails "
                "to pass a sanity check due to a bug in the windows runtime. See this issue for more information: "
                "https://tinyurl.com/y3dm3h86\"))"),
    # ndarray methods that one numpy release line has and another lacks: tobytes came with 1.9 (before it, tostring),
    # numpy 2.0 removed ptp, itemset and newbyteorder from ndarray, 2.3 tostring. Code (Paddle's, a suite's) calling
    # one runs under a numpy of the other side.
    _sig("numpy_ndarray_method_release", r"'numpy\.ndarray' object has no attribute '(?P<name>tobytes|tostring|ptp|"
         r"itemset|newbyteorder)'", "cause", CauseId.dependency_version_mismatch, 85,
         "AttributeError: 'numpy.ndarray' object has no attribute 'tobytes'",
         title="the installed numpy's ndarray has no {name}(): the code was written for a numpy of another release line",
         source="numpy 1.9.0 release notes (ndarray.tobytes added, tostring kept as its alias); numpy 2.0.0 release "
                "notes (ndarray.ptp, itemset and newbyteorder removed); numpy 2.3.0 (ndarray.tostring removed); "
                "CPython's AttributeError ('%.50s' object has no attribute '%U')"),
    # gast builds Python's AST nodes for Paddle's dygraph-to-static (paddle.jit.to_static, export): each gast release
    # follows one Python's node fields, and Paddle pins the gast it was written for (0.3.3, 0.4.0); another
    # release makes its nodes with another number of fields.
    _sig("gast_node_fields", r"Bad argument number for (?P<node>\w+): (?P<got>\d+), expecting (?P<want>\d+)", "cause",
         CauseId.dependency_version_mismatch, 85, "AssertionError: Bad argument number for Assign: 2, expecting 3",
         title="the installed gast makes {node} nodes with {want} fields where Paddle's dygraph-to-static gives {got}: "
               "a gast release other than the one this Paddle pins (pip install the gast of Paddle's requirements)",
         source="gast 0.4-0.6 gast/gast.py _make_node.create_node (assert nbparam in (0, len(Fields)), \"Bad argument "
                "number for {}: {}, expecting {}\".format(Name, nbparam, len(Fields))); pp 2.0-2.6 python/requirements.txt "
                "(gast==0.3.3 / 0.4.0), fluid/dygraph/dygraph_to_static/utils.py"),
    # Paddle's CMake checks the Python packages its build scripts import (wheel, protobuf, numpy, yaml, ...) in the
    # interpreter it builds for.
    _sig("build_python_module_missing", r"python module (?P<pkg>[\w.]+) is not found|Could NOT find PY_(?P<pkg2>[\w.]+) "
         r"\(missing", "cause", CauseId.dependency_version_mismatch, 85, "Could NOT find PY_wheel (missing: PY_WHEEL)",
         title="Paddle's source build needs the Python package {pkg}{pkg2} in the interpreter it builds for: pip install "
               "it there (python/requirements.txt), or point the build at the Python that has it",
         source="pp 1.x-3.x cmake/python_module.cmake find_python_module (find_package_handle_standard_args: \"Could NOT "
                "find PY_<module> (missing: ...)\"; message(FATAL_ERROR \"python module ${module} is not found\"))",
         most="medium"),
    # PaddleOCR 3.x builds its pipelines with PaddleX, which checks the optional packages a pipeline needs (the
    # paddlex[ocr] extra, the doc parser's) and raises DependencyError; paddleocr rewraps it without the names.
    _sig("paddleocr_pipeline_dependency", r"A dependency error occurred during pipeline creation|`(?P<what>[^`]+)` "
         r"requires additional dependencies\. To install them", "cause",
         CauseId.dependency_version_mismatch, 85, "RuntimeError: A dependency error occurred during pipeline creation. "
         "Please refer to the installation documentation to ensure all required dependencies are installed.",
         title="packages the PaddleOCR/PaddleX pipeline needs are not installed (an optional extra, e.g. "
               "paddlex[ocr]): install the extra the pipeline's documentation names",
         source="PaddleOCR 3.x paddleocr/_pipelines/base.py _create_paddlex_pipeline (except DependencyError: raise "
                "RuntimeError(\"A dependency error occurred during pipeline creation. Please refer to the installation "
                "documentation to ensure all required dependencies are installed.\") from e); PaddleX 3.x "
                "paddlex/utils/deps.py require_extra (f\"`{obj_name}` requires additional dependencies. To install "
                "them, run ...\")", most="medium"),
    # PyMuPDF (fitz) 1.20 removed the camelCase aliases (getPixmap, pageCount, getText, ...) that PaddleOCR 2.x's PDF
    # reading and older code call.
    _sig("pymupdf_camelcase_removed", r"'(?:Page|Document|Pixmap)' object has no attribute '(?P<name>pageCount|"
         r"(?:get|load|new|insert|write|search|extract)[A-Z]\w*)'", "cause", CauseId.dependency_version_mismatch, 80,
         "AttributeError: 'Page' object has no attribute 'getPixmap'",
         title="PyMuPDF 1.20 removed {name} (renamed in snake_case): install the PyMuPDF release the code was written "
               "for (< 1.20), or a release of the code that uses the new names",
         source="PyMuPDF 1.19-1.20 fitz/__init__.py (the camelCase aliases deprecated in 1.19 and removed in 1.20.0: "
                "Page.getPixmap -> get_pixmap, Document.pageCount -> page_count, ...), changelog 1.20.0",
         most="medium"),
    # nvcc compiles a custom op (the suites' ext_op, setup.py of paddle.utils.cpp_extension) with the host GCC's
    # headers; an error inside those headers means the host compiler is newer than this nvcc supports.
    _sig("nvcc_host_compiler_headers", r"/gcc/[\w.-]+/\d+/include/\w+\.h\(\d+\): error\b", "cause",
         CauseId.dependency_version_mismatch, 70, "/usr/lib/gcc/x86_64-linux-gnu/11/include/serializeintrin.h(41): error: "
         "identifier \"__builtin_ia32_serialize\" is undefined",
         title="nvcc failed inside the host compiler's own headers: this GCC is newer than the CUDA toolkit's nvcc "
               "supports; build with an older gcc (CUDAHOSTCXX / -ccbin) or a newer CUDA",
         source="NVIDIA nvcc (error position <file>(<line>): error: ...) on GCC 11's include/serializeintrin.h "
                "(__builtin_ia32_serialize, unknown to nvcc before 11.6); CUDA's host compiler support matrix",
         most="medium"),
    # pip runs a package's setup.py in a subprocess and prints its exit status: negative is the signal that ended it.
    # Above the build-failure rows (96): the signal says why the build step failed, which their report does not.
    _sig("pip_subprocess_crashed", r"^\s*(?:[│|]\s*)?exit code: -(?P<sig>11|4|8|7)\s*$", "cause", CauseId.segfault, 98,
         "  │ exit code: -11",
         title="the Python process pip ran for the package's setup crashed (signal {sig}): a native crash while "
               "importing its build dependencies",
         source="pip 22-24 src/pip/_internal/exceptions.py InstallationSubprocessError (\"exit code: {exit_code}\", "
                "the subprocess's returncode: -N for signal N)", most="medium"),
    # Qt cannot start its platform plugin: a system library the plugin links is missing (libxcb-*), or another
    # package's bundled Qt plugins (opencv-python's cv2/qt/plugins) are loaded into PyQt's Qt. The GUI tools
    # (PPOCRLabel, EISeg) then abort.
    _sig("qt_platform_plugin", r"Could not load the Qt platform plugin \"(?P<plugin>\w+)\"|no Qt platform plugin could "
         r"be initialized|QLibraryPrivate::loadPlugin failed on \"[^\"]*/plugins/platforms/", "cause", CauseId.dependency_version_mismatch, 85,
         "qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in \"\" even though it was found.",
         title="Qt could not load its platform plugin ({plugin}): a system library it needs is missing (libxcb-*), or "
               "opencv-python's own Qt plugins clash with PyQt's (install opencv-python-headless)",
         source="Qt 5 qtbase/src/gui/kernel/qguiapplication.cpp init_platform (qWarning \"Could not load the Qt "
                "platform plugin \\\"%s\\\" in \\\"%s\\\" even though it was found.\"; qFatal \"This application failed to "
                "start because no Qt platform plugin could be initialized. ...\"); qtbase/src/corelib/plugin/qlibrary.cpp "
                "QLibraryPrivate::loadPlugin (\"QLibraryPrivate::loadPlugin failed on %s : %s\", with QT_DEBUG_PLUGINS)",
         most="medium"),
    # CPython's import of a compiled module (.pyc) written by another Python version: its magic number differs.
    _sig("pyc_of_another_python", r"ImportError: bad magic number in '?(?P<mod>[\w.]+)'?", "cause",
         CauseId.dependency_version_mismatch, 80, "ImportError: bad magic number in 'caffe_pb2': b'\\x03\\xf3\\r\\n'",
         title="the compiled module {mod} (.pyc) was built by another Python version: rebuild or reinstall it for "
               "this Python (delete the stray .pyc)",
         source="CPython 3.x Lib/importlib/_bootstrap_external.py _classify_pyc (raise ImportError(f'bad magic number "
                "in {name!r}: {magic!r}'))", most="medium"),
    *BUILDS,
    # PaddleHub Serving answers a request whose module raised with status 101 and the exception's text as msg: the
    # module's error, without its type or traceback (they stay in the server's own log).
    _sig("hub_serving_module_raised", r"(?P<k>['\"])msg(?P=k): ?(?P<q>['\"])(?P<msg>[^\n]{1,300}?)(?P=q),[^\n]{0,40}?"
         r"(?P=k)status(?P=k): ?(?P=k)101(?P=k)", "exception",
         CauseId.python_exception, 45, "{'msg': \"'Predictor' object has no attribute 'batch_predict'\", 'results': '', "
         "'status': '101'}", title="the PaddleHub module raised while serving the request: {msg}", most="medium",
         source="PaddleHub 2.x paddlehub/serving/http_server.py and its GPU worker (except Exception as err: "
                "log.logger.error(traceback.format_exc()); return package_result(\"101\", str(err), \"\")), the response "
                "JSON {\"msg\": ..., \"results\": ..., \"status\": ...}"),
    # PaddleHub's list of a module's versions, marking the Paddle or PaddleHub release each needs that this one is not.
    _sig("hub_module_version_mismatch", r"[<>=!]=?\s*[\d.]+\s*\(Mismatch\)", "cause", CauseId.paddle_api_mismatch, 85,
         "|Pneumonia_CT_LKM_PP|  1.0.0   |         <=2.1.0(Mismatch)         |         <=2.2.0(Mismatch)         |",
         title="the PaddleHub module needs another PaddlePaddle or PaddleHub release than the installed one (the table "
               "marks it Mismatch)",
         source="PaddleHub 2.x paddlehub/module/manager.py HubModuleNotFoundError (table 'Name', 'Version', "
                "'PaddlePaddle Version Required', 'PaddleHub Version Required'; a range the environment misses is "
                "printed with \"(Mismatch)\")", most="medium"),
    # The same refusal's own line: every release of the module needs another PaddlePaddle or PaddleHub than installed.
    _sig("hub_module_environment_mismatch", r"(?<![\w.-])(?P<module>[\w.-]{1,80}) cannot be installed because "
         r"some conditions are not met", "cause", CauseId.paddle_api_mismatch, 85,
         "paddlehub.module.manager.EnvironmentMismatchError: ernie cannot be installed because some conditions are not met:",
         title="the PaddleHub module {module} needs another PaddlePaddle or PaddleHub release than the installed one "
               "(install a module version that fits: hub install {module}==<version>)",
         source="PaddleHub 2.x paddlehub/module/manager.py EnvironmentMismatchError.__str__ ('{} cannot be installed "
                "because some conditions are not met', then the version table)", most="medium"),
    # PaddleNLP pipelines (as haystack) wraps the classes that need an optional package: when that package does not
    # import, the class's name is all the error gives; the cause is in the import error it chains (not installed, or
    # a version the class cannot use).
    _sig("pipelines_optional_component", r"Failed to import '(?P<cls>\w+)', which is an optional component in "
         r"(?P<pkg>\w+)", "cause", CauseId.dependency_version_mismatch, 80,
         "ImportError: Failed to import 'Milvus2DocumentStore', which is an optional component in pipelines.",
         title="{cls} needs a package {pkg} installs only as an option, and it did not import: install {pkg}'s extra for "
               "it (or the version it supports)", most="medium",
         source="PaddleNLP pipelines/utils/import_utils.py _optional_component_not_installed (raise ImportError(f\"Failed "
                "to import '{component}', which is an optional component in pipelines.\\n...\") from import_error), as "
                "haystack's"),
    # PaddleOCR's wheel imports its bundled folders by bare top-level names (tools, ppocr); another installed package
    # that ships a top-level "tools" (PyPI's "tools", mmdetection's, detectron2's) is found first and has no infer.
    _sig("paddleocr_tools_shadowed", r"No module named 'tools\.(?P<sub>infer|program)\b", "cause",
         CauseId.dependency_version_mismatch, 80, "ModuleNotFoundError: No module named 'tools.infer'",
         title="another installed package named tools (PyPI's tools, or one that mmdetection or detectron2 installs) "
               "shadows the tools folder PaddleOCR imports (pip uninstall tools, or a separate environment)",
         most="medium",
         source="PaddleOCR 2.x paddleocr.py (from tools.infer import predict_system: its own folder by a top-level "
                "name, found through sys.path); CPython ModuleNotFoundError (No module named %r)"),
    # Older PyQt5 (< 5.13) fails while Qt connects a window's slots by name (connectSlotsByName raises from Python's
    # __getattribute__): the PyQt5 release does not fit the GUI tool (EISeg, PPOCRLabel).
    _sig("pyqt_connect_slots_failed", r"<built-in function connectSlotsByName> returned a result with an error", "cause",
         CauseId.dependency_version_mismatch, 75,
         "SystemError: <built-in function connectSlotsByName> returned a result with an error set",
         title="PyQt could not connect the window's slots (connectSlotsByName): a PyQt5 release the tool does not "
               "support (EISeg asks for 5.13 or later)", most="medium",
         source="CPython Objects/call.c _Py_CheckFunctionResult (\"%R returned a result with an error set\"), raised "
                "through PyQt5's QtCore.QMetaObject.connectSlotsByName (the maintainers in EISeg#36: upgrade PyQt5 to "
                "5.13 or later)"),
    # PaddleHub's server knows no module of the name (or not the version) the command asks for: a misspelled name, or a
    # model of another suite's zoo. A module it knows for another release is the version table's Mismatch row above.
    # The interpreter cannot find its own standard library (no site, no encodings): PYTHONHOME or PYTHONPATH point at
    # another Python's, or a binary embedding Python (0.x's paddle_trainer, a C++ demo) runs with a home it was not
    # built against. Nothing of the job ran yet. ("Could not find platform independent libraries <prefix>" alone is
    # not read: Windows venvs print it as a harmless warning.)
    _sig("python_home_unfound", r"^(?:(?:ImportError|ModuleNotFoundError): )?No module named '?site'?$|Fatal Python error: "
         r"(?:init_fs_encoding: failed to get the Python codec of the filesystem encoding|initfsencoding: unable to load "
         r"the file system codec|Py_Initialize: Unable to get the locale encoding)", "cause", CauseId.config_error, 80,
         "ImportError: No module named site",
         title="the Python interpreter cannot find its standard library: PYTHONHOME or PYTHONPATH point at another "
               "Python's (unset them, or set them to the install the program was built with)", most="medium",
         source="CPython 2.7 Python/pythonrun.c initsite (PyErr_Print of the failed `import site`: \"ImportError: No "
                "module named site\", then exit), "
                "3.8+ Python/pylifecycle.c init_fs_encoding (\"failed to get the Python codec of the "
                "filesystem encoding\"), 3.3-3.7 initfsencoding (\"unable to load the file system codec\"), 3.0-3.2 "
                "Py_Initialize (\"Unable to get the locale encoding\")"),
    # A URL joined with Windows' path separator (os.path.join on a URL): the server cannot have that file. PaddleNLP
    # builds such URLs on Windows before its 2022 fix (PR 3640), and only for a name its release does not list (a
    # community model, or a newer release's): a newer paddlenlp fixes both, so the release, as the row below (the
    # corpus has one such log labelled so and one, a develop checkout fixed by that PR, labelled the suite's bug).
    _sig("download_url_backslash", r"Downloading from (?P<url>https?://[^\s\\]{0,300}/paddlenlp/[^\s\\]{0,300}\\\S{0,200}?) failed with code "
         r"(?P<code>\d+)", "cause", CauseId.paddle_api_mismatch, 72,
         "RuntimeError: Downloading from https://bj.bcebos.com/paddlenlp/models/community/x/codegen\\vocab.json failed "
         "with code 404!",
         title="the download URL was joined with Windows' path separator ('\\'), so the server answers {code}: this "
               "release builds URLs with os.path.join on Windows (fixed in later paddlenlp releases), and looks the name "
               "up among community models because it does not list it; upgrade paddlenlp", most="medium",
         source="PaddleNLP paddlenlp/utils/downloader.py _download (raise RuntimeError(\"Downloading from {} failed with "
                "code {}!\")); the community URL built with os.path.join on Windows before PaddleNLP PR 3640 (2022)"),
    # PaddleNLP's from_pretrained looks a name its release does not list up under the community prefix; a 404 there
    # is a model this paddlenlp does not know (a newer release's, or a misspelt name).
    _sig("paddlenlp_community_model_unknown", r"Downloading from \S{0,200}?/models/(?:transformers/)?community/"
         r"(?P<name>[^\s\\]{1,200})/[^/\s\\]{1,200} failed with code 404", "cause", CauseId.paddle_api_mismatch, 75,
         "RuntimeError: Downloading from https://bj.bcebos.com/paddlenlp/models/transformers/community/rocketqa-zh-"
         "dureader-query-encoder/model_state.pdparams failed with code 404!",
         title="the installed paddlenlp does not know the model {name}: it is a newer release's (upgrade paddlenlp) or "
               "the name is misspelt", most="medium",
         source="PaddleNLP paddlenlp/utils/downloader.py (COMMUNITY_MODEL_PREFIX = \"https://bj.bcebos.com/paddlenlp/"
                "models/transformers/community/\", later .../models/community/; _download: raise RuntimeError("
                "\"Downloading from {} failed with code {}!\")); transformers/model_utils.py from_pretrained (a name "
                "not in pretrained_init_configuration is looked up under that prefix)"),
    _sig("hub_module_name_unknown", r"(?:Can't find module|No HubModule named) (?P<module>[\w.-]+)", "cause",
         CauseId.config_error, 75, "Can't find module lexical_analysis",
         title="PaddleHub has no module named {module}: check its name (hub search) and the version asked",
         source="PaddleHub 1.x paddlehub/module/manager.py install_module (\"Can't find module %s\"); 2.x "
                "HubModuleNotFoundError (\"No HubModule named {} was found\")", most="medium"),
    # PaddleNLP's from_pretrained given a name or path whose folder has no config file.
    _sig("paddlenlp_config_missing", r"please make sure one of the \[[^\]]*config\.json[^\]]*\] under (?P<path>\S+)", "cause",
         CauseId.file_not_found, 80, "AssertionError: please make sure one of the ['config.json', 'model_config.json'] "
         "under uie-x-base",
         title="{path} has no model config file (config.json): the name is not a model PaddleNLP knows, or the folder "
               "is not a saved model",
         source="PaddleNLP 2.5-2.8 paddlenlp/transformers/configuration_utils.py PretrainedConfig._get_config_dict "
                "(assert ..., f\"please make sure one of the {CONFIG_NAMES} under {pretrained_model_name_or_path}\")",
         most="medium"),
    # A third-party package the code imports is not in this environment (never installed, installed for another
    # interpreter, or removed by an upgrade): the import names it. Paddle's own packages (VisualDL, paddleaudio among
    # the libraries the suites use) and the suites' are read elsewhere (code for another release, a source tree not
    # installed); a user's own module is not in these lists, nor a file of the user's that shadows the package
    # ("...; 'datasets' is not a package"). Of numpy (Paddle's own dependency) only a part a release lacks (typing
    # before 1.20, _core before 2.0): its C extension missing from its own frame is a broken install, not a release.
    # Only the exception itself: a suite's warning that an optional package
    # is missing ("... Now states: No module named 'lap'") is not why the run failed.
    _sig("third_party_package_missing", rf"(?:ModuleNotFoundError|ImportError): No module named '?(?!visualdl|paddleaudio)"
         rf"(?P<pkg>{SUITE_LIBRARIES}|{_QT_BINDINGS}|numpy(?=\.(?:typing|_core)\b))(?:\.[\w.]+)?(?:'(?!; '[\w.]+' is not a package)|$)|"
         r"QtBindingsNotFoundError: No Qt bindings could be found", "cause", CauseId.dependency_version_mismatch, 65,
         "ModuleNotFoundError: No module named 'skimage'",
         title="a third-party package the code imports ({pkg}) is not installed here, or is of a release without the "
               "part imported (or for another Python): install the version the suite's requirements name",
         source="CPython Lib/importlib/_bootstrap.py _find_and_load_unlocked (ModuleNotFoundError(f\"No module named "
                "{name!r}\")); QtPy 1.x-2.x qtpy/__init__.py (raise QtBindingsNotFoundError: \"No Qt bindings could be "
                "found\")", most="medium"),
    # A native system library a Python binding loads at import (cffi's dlopen by name: soundfile's libsndfile, which
    # librosa and the speech suites import) is not installed: the binding's dependency, outside pip's reach.
    _sig("binding_system_library_missing", r"ctypes\.util\.find_library\(\) did not manage to locate a library called "
         r"[`'\"](?P<lib>[\w.+-]{1,60})[`'\"]|\b(?P<lib2>sndfile) library not found", "cause",
         CauseId.dependency_version_mismatch, 75,
         "OSError: ctypes.util.find_library() did not manage to locate a library called `sndfile`",
         title="the system library {lib}{lib2} that a Python package binds to is not installed (install it with the "
               "system's package manager, e.g. libsndfile1)",
         source="cffi 1.x cffi/api.py _load_backend_lib (\"ctypes.util.find_library() did not manage to locate a library "
                "called %r\"); python-soundfile 0.10-0.12 soundfile.py (raise OSError('sndfile library not found'))",
         most="medium"),
    # CPython's message pasted without its type (a title, a log that keeps only the message), read as the exception it
    # is, below a traceback's own exception line (a script that prints a failed optional import and goes on). The
    # versioned packages' submodules are left to paddle_api_missing (code of another release), which reads the bare
    # form too.
    _sig("bare_module_not_found", rf"^No module named '(?P<mod>(?!{VERSIONED_PACKAGES}\.)[\w.]{{1,100}})'$", "exception",
         CauseId.python_exception, 45, "No module named 'ppdet'", title="ModuleNotFoundError: No module named {mod}",
         source="CPython Lib/importlib/_bootstrap.py _find_and_load_unlocked (ModuleNotFoundError(f\"No module named "
                "{name!r}\")), pasted without the type"),
    # libprotobuf's C++ runtime refuses code generated by another protobuf than the one loaded (Paddle's framework.pb.cc
    # built against 3.1 in a process where another library loaded 3.20): an abort that names both versions.
    _sig("protobuf_runtime_version", r"This program was compiled against version (?P<built>[\d.]+) of the Protocol Buffer "
         r"runtime library, which is not compatible with the installed version \((?P<have>[\d.]+)\)|This program requires "
         r"version (?P<built2>[\d.]+) of the Protocol Buffer runtime library, but the installed version is "
         r"(?P<have2>[\d.]+)", "cause",
         CauseId.dependency_version_mismatch, 85, "[libprotobuf FATAL google/protobuf/stubs/common.cc:83] This program was "
         "compiled against version 3.1.0 of the Protocol Buffer runtime library, which is not compatible with the "
         "installed version (3.20.0).", most="medium",
         title="a library built against protobuf {built}{built2} met protobuf {have}{have2} in the same process: install "
               "the protobuf Paddle's release pins, or keep the other library out of the process",
         source="protobuf 3.x src/google/protobuf/stubs/common.cc VerifyVersion (GOOGLE_LOG(FATAL) << \"This program was "
                "compiled against version \" << ... << \" of the Protocol Buffer runtime library, which is not "
                "compatible with the installed version (\" << ... << \").\"; \"This program requires version \" << ... << "
                "\" of the Protocol Buffer runtime library, but the installed version is \" << ...)"),
    # pip's editable install needs the build backend's PEP 660 hook, which setuptools has from 64 on: an older
    # setuptools (an image's or a pinned one) refuses `pip install -e`.
    _sig("pip_editable_hook_missing", r"missing the 'build_editable' hook", "cause",
         CauseId.dependency_version_mismatch, 75,
         "ERROR: Project file:///x uses a build backend that is missing the 'build_editable' hook, so it cannot be "
         "installed in editable mode. Consider using a build backend that supports PEP 660.",
         title="the build backend has no PEP 660 editable hook (setuptools older than 64): upgrade setuptools "
               "(pip install -U setuptools) or install without -e", most="medium",
         source="pip 21.3-26 _internal/req/req_install.py editable_sanity_check (\"... uses a build backend that is "
                "missing the 'build_editable' hook, so it cannot be installed in editable mode\"; 23.x: \"its build "
                "backend is missing the 'build_editable' hook\")"),
)
