"""Signatures: code and libraries written for another release than the one installed (``API_VERSION_ROWS``): a
name or module a Paddle package lacks, a library's API the suites' code calls that the installed library
renamed or removed, a package that is not a whole release. Spliced into ``libraries``' order after paddle-doctor's
own exceptions; the package names (``VERSIONED_PACKAGES``, ``IMPORTED_PACKAGES``) are shared with the anatomy readers."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..advice import LIBRARY_CONFIRM, LIBRARY_FIX
from ..packages import SUITE_LIBRARIES
from ..tools.interpreter import INTERPRETER_ROWS

# Packages of PaddlePaddle's own that are installed as versioned releases (pip), each paired with a Paddle
# range: a submodule one of them lacks ("No module named 'paddlehub.vision'": CPython names the dotted path
# up to the first part it could not find, so the package itself was found) is code written for another
# release. Suites run from a clone (ppdet, ppocr, paddleseg) are left out: there it is the working directory.
VERSIONED_PACKAGES = r"(?:paddle|paddlehub|paddlenlp|paddlex|paddleslim|paddle2onnx|x2paddle|pgl|parl|paddlespeech|" \
                     r"paddleformers|parakeet)"
SUITE_WHEELS = r"(?:paddleocr|paddleclas|paddlets|ppgan)"  # suites also installed as wheels (issue 29)
# The PaddlePaddle organisation's other libraries installed as wheels under names without "paddle" (the prefix already
# covers paddle_fl, paddle_serving_*, paddleseg, ...): a name one lacks is another release of it. Not their "No module
# named" (a clone's module not on the path reads alike: PaddleHelix's pahelix, batch73).
ORG_WHEELS = r"(?:metagym|pahelix|ppsci)"
IMPORTED_PACKAGES = VERSIONED_PACKAGES[:-1] + "|" + SUITE_WHEELS[3:]  # a module missing below one is its release's
API_PACKAGES = IMPORTED_PACKAGES[:-1] + "|" + ORG_WHEELS[3:]
# Names every release of the package has (its version, PaddleHub's Module class since 1.0): a package that lacks one is
# not a whole release of it, whatever its version. (Not the organisation's other wheels: metagym, pahelix and ppsci
# define no __version__.)
_EVERY_RELEASE_HAS = rf"module '{IMPORTED_PACKAGES}' has no attribute '__version__'|module 'paddlehub' has no attribute 'Module'"
# --- code written for another Paddle version (read in LIBRARIES after paddle-doctor's own exceptions) -----
API_VERSION_ROWS = (
    # What is imported under the package's name is not the package: a file or folder of the user's with its name,
    # found first on sys.path (paddlehub.py beside the script, a folder called paddle), or what an uninstall of one
    # of two wheels sharing the folder left behind. The user's own tree (python_exception in the catalog's terms); the
    # traceback's frames may say which (anatomy/installed.py: blocks.SHADOWABLE).
    _sig("package_not_whole", rf"(?<!initialized )(?={_EVERY_RELEASE_HAS})module '(?P<module>\w+)' has no attribute "
         r"'(?P<name>\w+)'", "cause", CauseId.python_exception, 70,
         "AttributeError: module 'paddlehub' has no attribute 'Module'",
         title="what Python imported as {module} has no {name}, which every release of {module} has: a file or folder "
               "of yours named {module} found first on sys.path (rename it), or a partial install (reinstall)",
         source="CPython AttributeError (module %R has no attribute %R); paddle/__init__.py (pp 1.8.5-3.3.1: from "
                "paddle.version import full_version as __version__), paddlehub/__init__.py (1.0-2.4: from "
                "paddlehub.module.module import Module)", most="medium"),
    # The Paddle libraries released with Paddle (PaddleHub, PARL, PGL, PaddleNLP, ...) change their APIs between
    # releases as Paddle does: a name missing from one of them is code written for another release (a package
    # shadowed by the user's tree is told apart by anatomy/installed.py from the traceback's frames).
    # CPython imported a module (a file) under the package's name and was asked for a submodule of it: a file of the
    # user's (or a clone's paddleocr.py) named like the package, found first on sys.path.
    _sig("package_is_a_file", rf"No module named '(?P<module>{API_PACKAGES})\.[\w.]+'; '(?P=module)' is not a package",
         "cause", CauseId.python_exception, 70, "ModuleNotFoundError: No module named 'paddleocr.tools'; 'paddleocr' is not a "
         "package", title="what Python imported as {module} is a file, not the installed package: a {module}.py of yours "
         "(or of a source checkout) found first on sys.path (rename it, or run from elsewhere)", most="medium",
         source="CPython Lib/importlib/_bootstrap.py _find_and_load_unlocked (ModuleNotFoundError(f\"No module named "
                "{name!r}; {parent!r} is not a package\") when the parent module has no __path__)"),
    # Paddle 2.6 removed paddle.fluid as a whole: the package itself found without it (CPython names the dotted path up
    # to its first missing part, so "paddle.fluid" alone) is code written for Paddle <= 2.5, whatever else is true.
    _sig("paddle_fluid_removed", r"(?<!initialized )module 'paddle' has no attribute 'fluid'|No module named "
         r"'paddle\.fluid'(?![.\w])|cannot import name 'fluid' from 'paddle'", "cause", CauseId.paddle_api_mismatch, 85,
         "ModuleNotFoundError: No module named 'paddle.fluid'",
         title="the code imports paddle.fluid, which Paddle 2.6 removed: it was written for Paddle 2.5 or older",
         source="pp 2.6.0 release notes (paddle.fluid removed; Paddle#56566 and the PRs it lists); CPython "
                "ModuleNotFoundError (No module named %r: the dotted name up to its first missing part), AttributeError "
                "(module %r has no attribute %r)"),
    # At most medium: a name missing from a package has several causes the line cannot tell apart (another release,
    # a shadowing file, a broken or partial install, the user's typo); when first looks said high here they were right
    # 25 times in 38 (batches 52-86, bench/results/29-session14.md).
    _sig("paddle_api_missing", rf"(?<!initialized )(?!{_EVERY_RELEASE_HAS})module '(?P<module>{API_PACKAGES}(?:\.[\w.]+)?)' has no "
         r"attribute '(?P<name>(?!NCCLParallelContext\b|ProcessGroupNCCL\b|NCCLCommContext\b)\w+)'|cannot import name '(?P<name2>\w+)' "
         rf"from '(?P<module2>{API_PACKAGES}[\w.]*)'(?! \(unknown location\))|No module named '(?P<module3>{VERSIONED_PACKAGES}\.[\w.]+)'(?!;\s*'[\w.]+' is not a package)",
         "cause", CauseId.paddle_api_mismatch, 85, "AttributeError: module 'paddle.nn' has no attribute 'Conv2d'",
         title="the code uses an API this Paddle (or Paddle library) version does not have",
         source="CPython AttributeError (module %r has no attribute %r), ImportError (cannot import name %r from "
                "%r), ModuleNotFoundError (No module named %r: the dotted name up to its first missing part); pp "
                "2.6.0 removed paddle.fluid (Paddle#18926 and the 2.6 release notes); PaddleHub 2.0 dropped the 1.x "
                "module API (hub.version, hub.RunConfig; PaddleHub 2.0 release notes); PARL 2.x imports its Paddle classes "
                "only when it finds a Paddle it supports (parl/algorithms/__init__.py: if _HAS_PADDLE ... else "
                "logger.warning(\"No deep learning framework was found, but it's ok for parallel computation.\"))",
         most="medium"),
    # The same for a suite's own submodule: the suite's layout differs between releases, and between a clone and its
    # wheel, and a module the user's code invents reads alike; so another release at most at medium. CPython's "; 'x' is
    # not a package" says a file of that name (a clone's paddleocr.py) was imported instead: not another release.
    _sig("suite_module_missing", rf"No module named '(?P<module>{SUITE_WHEELS}\.[\w.]+)'(?!;\s*'[\w.]+' is not a package)",
         "cause",
         CauseId.paddle_api_mismatch, 80, "ModuleNotFoundError: No module named 'ppgan.gan_model'",
         title="the installed suite has no module {module}: code written for another release of it (or a module name "
               "it never had)", most="medium",
         source="CPython ModuleNotFoundError (No module named %r: the dotted name up to its first missing part, so the "
                "suite itself was found)"),
    # A library that imports paddle.fluid in a try block and says so when the import fails (jieba's paddle
    # mode): the installed Paddle no longer has the fluid API the library was written for.
    # A Paddle tool's own command line (paddleocr, paddlex, paddlespeech, hub, ...) rejecting a subcommand: its list of
    # subcommands is the installed release's (PaddleOCR 3.x adds pipelines release by release), and a command from the
    # docs of another release names one it lacks more often than a mistyped one. Read before argparse_usage (libraries).
    _sig("paddle_cli_subcommand_unknown", rf"^(?P<prog>{API_PACKAGES}|hub|paddle_serving_\w+|fastdeploy): error: argument "
         r"(?:[a-z_]{0,30}(?:command|COMMAND)[a-z_]{0,30}|\{[^}]{0,2000}\}): invalid choice: '(?P<choice>[^']+)'", "cause", CauseId.paddle_api_mismatch, 92,
         "paddleocr: error: argument subcommand: invalid choice: 'chart_parsing' (choose from 'doc_preprocessor', 'ocr')",
         title="the installed {prog} has no subcommand {choice}: the command follows the docs of another release of it "
               "(or mistypes the name)", most="medium",
         source="CPython Lib/argparse.py _SubParsersAction / ArgumentParser._check_value (\"argument %s: invalid choice: "
                "%r (choose from %s)\"); paddleocr 3.x paddleocr/__main__.py (subparsers dest=\"subcommand\", one per "
                "pipeline and module of the release)"),
    # Code that reads Paddle's version by eval()-ing each dotted part (PaddleClas's predictor) meets a pre-release's
    # part ("0-beta2", "0rc1"): the installed Paddle is a release the code was not written for.
    _sig("paddle_version_part_evaluated", r"NameError: name '(?P<part>(?:alpha|beta|rc|post|dev)\d+)' is not defined",
         "cause", CauseId.paddle_api_mismatch, 70, "NameError: name 'beta2' is not defined",
         title="the code evaluates the parts of Paddle's version and meets '{part}': the installed Paddle is a "
               "pre-release (or post-release) the code was not written for; install a final release", most="medium",
         source="PaddleClas 2.x deploy/utils/predictor.py create_paddle_predictor (for v in paddle.__version__.split("
                "\".\")[:3]: pd_version = 10 * pd_version + eval(v)); pp 3.0.0-beta1/-beta2/-rc0 version strings"),
    # Paddle 3.x's PIR ops check each attribute's type when a program is built or deserialized: a stored program (a
    # .json inference model) whose attribute has another type was saved by another Paddle release.
    _sig("pir_attribute_type", r"Type of attribute: (?P<attr>\w{1,80}) is not right", "cause", CauseId.paddle_api_mismatch,
         70, "ValueError: (InvalidArgument) Type of attribute: strides is not right.",
         title="an op of the program has its {attr} attribute of another type than this Paddle's op takes: the program "
               "(a PIR .json model) was saved by another Paddle release", most="medium",
         source="pp 3.0-3.3.1 generated paddle/fluid/pir/dialect/operator/ir/pd_op*.cc <Op>::VerifySig "
                "(phi::errors::InvalidArgument(\"Type of attribute: %s is not right.\"))"),
    # An op of the program lacks an attribute this Paddle's definition of the op requires: the program (a saved model,
    # or one a converter built) was made by another Paddle release, whose op had other attributes.
    _sig("op_attribute_missing", r"(?:Attribute \((?P<attr>\w{1,80})\)|\b(?P<attr1x>\w{1,80})) should be in AttributeMap", "cause",
         CauseId.paddle_api_mismatch, 75, "Error: trainable_statistics should be in AttributeMap at (/paddle/paddle/fluid/"
         "framework/attribute.h:177)",
         title="an op of the program lacks the attribute {attr}{attr1x} this Paddle's op requires: the program (a saved "
               "model, or what a converter built) comes from another Paddle release", most="medium",
         source="pp 1.8 paddle/fluid/framework/attribute.h (PADDLE_ENFORCE(attrs.count(name) != 0, \"%s should be in "
                "AttributeMap\", name)); pp 3.3.1 libpaddle.so strings (\"Attribute (%s) should be in AttributeMap.\")"),
    # An axis checked against a rank of 0 ("in range of [0, 0)", "[-0, 0)"): the op got a 0-D tensor where the code
    # expects at least one dimension. Paddle 2.5 made reductions, indexing and a tensor's item return 0-D tensors
    # (shape []), so code written for an older Paddle concatenates or indexes them and fails here.
    _sig("zero_dim_tensor_axis", r"\b(?:axis|dim)\b[^\n]{0,80}?range of \[-?0, ?0[)\]]", "cause",
         CauseId.paddle_api_mismatch, 60,
         "ValueError: (InvalidArgument) The axis is expected to be in range of [0, 0), but got 0",
         title="an op got a 0-D tensor (rank 0) where the code expects a dimension: Paddle 2.5 made reductions and "
               "indexing return 0-D tensors, and this code was written for an older Paddle (or its suite release is)",
         source="pp 2.5.0 release notes (0-D tensors: paddle.sum/mean and x[i] of a 1-D tensor return shape []); pp "
                "2.5 phi/infermeta/multiary.cc ConcatInferMeta (\"The axis is expected to be in range of [%d, %d), but "
                "got %d\") and the other ops' axis checks (\"... expected to be in range of [-%d, %d) ...\")",
         most="medium"),
    _sig("paddle_fluid_not_found", r"\bcannot (?:find|import) (?:module )?['\"]?paddle\.fluid\b", "cause",
         CauseId.paddle_api_mismatch, 80,
         "Import error, cannot find paddle.fluid and jieba.lac_small.predict module. Now, back to jieba basic cut......",
         title="a library could not import paddle.fluid: it was written for an older Paddle",
         source="jieba 0.42 jieba/_compat.py enable_paddle (try: import jieba.lac_small.predict (paddle.fluid "
                "layers) except ImportError: default_logger.debug(\"Import error, cannot find paddle.fluid and "
                "jieba.lac_small.predict module. Now, back to jieba basic cut......\")) (jieba#996: 2.4.2 works, 2.5.0 "
                "fails); pp 2.6.0 removed paddle.fluid itself (2.6 release notes)"),
    # A version check the code makes before it runs: Paddle's own require_version, and the suites' check_version
    # helpers (PaddleDetection, PaddleOCR, PaddleClas, models: the same template), raised or logged when the
    # installed version is below the code's minimum. The warning for a develop build ("Maybe you are using a
    # develop version") is not a failure. The version asked may be a pre-release (2.0.0-rc0).
    _sig("paddle_version_required", r"(?i:\bpaddle(?:paddle)?(?:-gpu)?) ?(?:>= ?[\d.]+|version (?:in \[[^\]]*\]|"
         r"[\d.]+(?:-?(?:rc|beta|post|dev)\d*)? or higher)) (?:is )?required(?![^\n]*Maybe you are using a develop version)|PaddlePaddle version is "
         r"out of date\. Your version is [\w.]+, while we need at least|only the following paddle versions are "
         r"supported: [^\n]*current paddle version", "cause",
         CauseId.paddle_api_mismatch, 85,
         "Exception: VersionError: PaddlePaddle version 2.0.0 or higher is required, but 1.8.5 installed, please "
         "upgrade your PaddlePaddle to 2.0.0 or other higher version.",
         title="the code requires another Paddle version than the one installed",
         source="pp 1.8.5-2.x paddle/fluid/framework.py require_version (VersionError: PaddlePaddle version in [%s, "
                "%s] required, but %s installed.; VersionError: PaddlePaddle version %s or higher is required, but %s "
                "installed, please upgrade your PaddlePaddle to %s or other higher version.); PaddleDetection "
                "ppdet/utils/check.py check_version (PaddlePaddle version {} or higher is required, ...); X2Paddle 1.x "
                "x2paddle/utils.py PaddleDtypes (Paddle>=2.0.0 is required, Please update version!); PGL 2.2 pgl/__init__.py "
                "(warnings.warn(\"The PaddlePaddle version is out of date. Your version is %s, while we need at least "
                "2.2.0.\" % paddle.__version__)); PaddleTS 1.0 paddlets/__init__.py (ValueError: only the following "
                "paddle versions are supported: %s, current paddle version: %s)"),
    # The libraries under Paddle moved on: each message names the library and the version boundary it crossed.
    _sig("protobuf_too_new", r"Descriptors cannot (?:not )?be created directly", "cause",
         CauseId.dependency_version_mismatch, 90,
         "TypeError: Descriptors cannot not be created directly.",
         title="the installed protobuf (4.21 or newer) cannot read the _pb2.py files this Paddle was generated with",
         source="protobuf 4.21.0 python/google/protobuf/descriptor.py (_Deprecated / FieldDescriptor.__new__: "
                "TypeError(\"Descriptors cannot not be created directly.\\nIf this call came from a _pb2.py file, your "
                "generated code is out of date and must be regenerated with protoc >= 3.19.0.\")); pp <= 2.3 "
                "framework_pb2.py generated with protoc 3.x"),
    _sig("numpy_alias_removed", r"module 'numpy' has no attribute '(?P<alias>int|float|bool|object|str|long|unicode|"
         r"complex)'|`np\.(?P<alias2>int|float|bool|object|str|long|unicode|complex)` was a deprecated alias",
         "cause", CauseId.dependency_version_mismatch, 88, "AttributeError: module 'numpy' has no attribute 'int'.",
         title="numpy 1.24 removed np.{alias}{alias2}, which this code (Paddle's or the suite's) still uses",
         source="numpy 1.24.0 numpy/__init__.py __getattr__ (the expired aliases of __former_attrs__: "
                "AttributeError(\"module 'numpy' has no attribute '{}'.\\n`np.{}` was a deprecated alias for ...\")), "
                "release notes: np.int, np.float, np.bool, np.object, np.str, np.long, np.unicode, np.complex"),
    _sig("numpy_abi_changed", r"A module that was compiled using NumPy 1\.x cannot be run in|_ARRAY_API not found|numpy\."
         r"(?:dtype|ndarray|ufunc) (?:size changed, may indicate binary incompatibility|has the wrong size)", "cause",
         CauseId.dependency_version_mismatch, 85,
         "A module that was compiled using NumPy 1.x cannot be run in",
         title="an extension compiled against another numpy is loaded under the installed one (1.x under 2.x, or another ABI)",
         source="numpy 2.0.0 numpy/_core/include/numpy/__multiarray_api.c _import_array (\"A module that was "
                "compiled using NumPy 1.x cannot be run in\\nNumPy %s as it may crash.\"; AttributeError: _ARRAY_API "
                "not found); Cython's module init (numpy.dtype/ndarray/ufunc size changed, may indicate binary incompatibility; "
                "older Cython: numpy.ndarray has the wrong size, try recompiling)"),
    # numpy 1.x's check when an extension module imports its C API: the module was built against another numpy
    # (a newer API version than the installed numpy has, or another ABI), so it cannot load under this one.
    _sig("numpy_api_version_mismatch", r"module compiled against (?P<what>API|ABI) version (?P<built>0x[0-9a-fA-F]+) "
         r"but this version of numpy is (?P<have>0x[0-9a-fA-F]+)", "cause", CauseId.dependency_version_mismatch, 85,
         "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xf",
         title="an extension was built against another numpy C {what} ({built}) than the installed numpy has "
               "({have})",
         source="numpy 1.x numpy/core/code_generators/generate_numpy_api.py _import_array (PyErr_Format("
                "PyExc_RuntimeError, \"module compiled against ABI version 0x%x but this version of numpy is 0x%x\"), "
                "(\"module compiled against API version 0x%x but this version of numpy is 0x%x\") when NPY_FEATURE_"
                "VERSION > PyArray_GetNDArrayCFeatureVersion()) (PaddleSpeech#2982)"),
    # the quotes around the version are optional: a paste rendered as Markdown (or a translated copy) loses the
    # opening backquote and keeps the rest of the line as dl-version.c wrote it.
    _sig("system_library_too_old", r"version [`'\u2018]?(?P<need>(?:GLIBC|GLIBCXX|CXXABI)_[\d.]+)['`\u2019]? "
         r"not found", "cause", CauseId.dependency_version_mismatch, 88,
         "ImportError: /lib64/libc.so.6: version `GLIBC_2.27' not found (required by /usr/lib/python3.8/"
         "site-packages/paddle/fluid/core_avx.so)",
         title="the system's C or C++ runtime is older than this build needs ({need})",
         source="glibc elf/dl-version.c match_symbol (\"version `%s' not found (required by %s)\"), for libc.so.6 "
                "(GLIBC_*) and libstdc++.so.6 (GLIBCXX_*, CXXABI_*)"),
    # The loader found the library a binary was linked against, but another build of it, without the symbol version
    # the binary was linked with (libmklml_intel.so resolved against another libiomp5.so on the library path).
    _sig("symbol_version_undefined", r"symbol (?P<sym>[^\s,]{1,200}),? version (?P<ver>\S{1,80}) not defined in file "
         r"(?P<lib>\S{1,200}) with link time reference", "cause", CauseId.dependency_version_mismatch, 80,
         "libmklml_intel.so: symbol __kmpc_omp_task_with_deps, version VERSION not defined in file libiomp5.so with "
         "link time reference",
         title="{lib} is another build than the one the library was linked against (it lacks {sym}, version {ver}): "
               "another copy of {lib} comes first on the library path", most="medium",
         source="glibc elf/dl-lookup.c _dl_lookup_symbol_x (\"symbol %s version %s not defined in file %s with link "
                "time reference\"; 2.x: \"symbol %s, version %s not defined ...\")"),
    # macOS's dynamic loader: a symbol the binary needs is not in the library it was linked against (the next line
    # names it: "Expected in: /usr/lib/libc++.1.dylib"); the binary was built for a newer macOS, or another release of
    # that library, than the one loaded.
    _sig("macos_symbol_not_found", r"\bdlopen\(.{1,400}?\): [Ss]ymbol not found(?: in flat namespace)?:? '?(?P<sym>[^\s']{1,300})|"
         r"^\s*(?:dyld(?:\[\d+\])?: )?[Ss]ymbol not found(?: in flat namespace)?:? '?(?P<sym2>[^\s']{1,300})", "cause", CauseId.dependency_version_mismatch, 75,
         "ImportError: dlopen(/u/site-packages/paddle/fluid/libpaddle.so, 2): Symbol not found: __ZNSt3__113basic_file"
         "bufIcNS_11char_traitsIcEEE5closeEv",
         title="a library lacks {sym}{sym2}: the binary was built for a newer macOS (or another release of that library) "
               "than the one loaded (install a build made for this macOS, or upgrade it)", most="medium",
         source="Apple dyld 2 (\"dlopen(%s, %d): Symbol not found: %s\\n  Referenced from: %s\\n  Expected in: %s\"; "
                "\"(which was built for Mac OS X %s)\"; dyld 3-4 \"dyld[%d]: Symbol not found: %s\"; macOS 12+ \"symbol not "
                "found in flat namespace '%s'\")"),
    # macOS's dynamic loader cannot load a library a binary was linked against (a Homebrew Python framework on a
    # Mac with the system Python): dyld 2 says "image not found" on the next lines; dyld 3-4 list the paths tried.
    _sig("macos_library_not_loaded", r"\bdlopen\([^()\n]{1,400}\): Library not loaded: (?P<lib>\S{1,300})|"
         r"^\s*dyld(?:\[\d+\])?: Library not loaded: (?P<lib2>\S{1,300})", "cause", CauseId.file_not_found, 75,
         "ImportError: dlopen(/Library/Python/2.7/site-packages/visualdl/core.so, 2): Library not loaded: "
         "/usr/local/opt/python/Frameworks/Python.framework/Versions/2.7/Python",
         title="macOS's loader could not load {lib}{lib2}, which the library was linked against (the Reason line "
               "says why: most often not there; else another architecture or version)", most="medium",
         source="Apple dyld 2 (\"dlopen(%s, %d): Library not loaded: %s\\n  Referenced from: %s\\n  Reason: image not "
                "found\"); dyld 3-4 (\"dyld[%d]: Library not loaded: %s ... Reason: tried: ...\")", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # PaddleHub 2.x checks the Paddle it imports: a Paddle 1.x (another env's, or an old one first on the path).
    _sig("paddlehub_needs_newer_paddle", r"Version mismatch in PaddleHub and PaddlePaddle, you need to upgrade "
         r"PaddlePaddle to version (?P<ver>[\d.]+) or above", "cause", CauseId.paddle_api_mismatch, 88,
         "RuntimeError: Version mismatch in PaddleHub and PaddlePaddle, you need to upgrade PaddlePaddle to version 2.0.0 "
         "or above.",
         title="this PaddleHub needs PaddlePaddle {ver} or above, and the Python that runs it imports an older one",
         source="PaddleHub 2.x paddlehub/__init__.py (if Version(paddle.__version__) < Version('2.0.0'): raise "
                "RuntimeError('Version mismatch in PaddleHub and PaddlePaddle, you need to upgrade PaddlePaddle to "
                "version 2.0.0 or above.'))"),
    # CPython's optional C extensions are built only where their system library's headers were there when Python was
    # built (a Python compiled by hand, or a slim image): the stdlib module that wraps one then fails to import.
    _sig("python_built_without_module", r"No module named '?(?P<mod>_sqlite3|_ctypes|_bz2|_lzma|_ssl|_tkinter|_curses|"
         r"_hashlib|_uuid|_dbm|_gdbm|readline)'?(?![\w.])", "cause", CauseId.dependency_version_mismatch, 75,
         "ImportError: No module named '_sqlite3'",
         title="this Python was built without its {mod} extension (its system library was missing when Python was "
               "compiled): install that library's development package and rebuild Python, or use a packaged Python",
         most="medium",
         source="CPython setup.py / Modules/Setup (optional extension modules built only when their library is found: "
                "\"The necessary bits to build these optional modules were not found\"); Lib/sqlite3/dbapi2.py (from "
                "_sqlite3 import *), Lib/ctypes/__init__.py (from _ctypes import ...)"),
    # pybind11 keeps one registry of C++ types per process: a second extension module that binds a type of the
    # same name fails at import. torch and paddlepaddle-gpu both bind their CUDA device properties type, so
    # builds of the two that were not made to coexist cannot be imported into one process (which of them is
    # imported second decides the message; the fix is a pair of versions that coexist, or two processes).
    _sig("pybind11_type_registered_twice", r'generic_type: type "(?P<type>\w+)" is already registered!', "cause",
         CauseId.dependency_version_mismatch, 80, 'ImportError: generic_type: type "_gpuDeviceProperties" is already '
         "registered!",
         title="two native libraries loaded into one process bind the same type ({type}): builds of them (torch and "
               "paddlepaddle-gpu) that cannot be imported together",
         source="pybind11 include/pybind11/pybind11.h generic_type::initialize (pybind11_fail(\"generic_type: type \\\"\" "
                "+ rec.name + \"\\\" is already registered!\")) (video-subtitle-remover#26, PaddleOCR#10558: torch with "
                "paddlepaddle-gpu 2.5+)", most="medium"),
    # pip's resolver when no release of a Paddle package has a wheel this interpreter and platform can install
    # (a Python newer than the package's last build: paddlepaddle-tiny stops at 3.7; an OS or CPU it was not built
    # for). The same two lines also follow a version pinned that the index does not carry (Paddle's GPU builds are
    # served from paddlepaddle.org.cn, not PyPI): one line, two causes, so at most medium.
    _sig("pip_no_paddle_wheel", r"(?:No matching distribution found for|Could not find a version that satisfies the "
         r"requirement) (?P<pkg>(?i:paddle)[\w.-]*)|(?P<whl>(?i:paddle)[\w.+-]*\.whl) is not a supported wheel on this "
         r"platform", "cause", CauseId.dependency_version_mismatch, 80,
         "ERROR: No matching distribution found for paddlepaddle-tiny",
         title="pip cannot install {pkg}{whl} here: no wheel of it is built for this Python and platform (or on the index)",
         source="pip 20.3-24 src/pip/_internal/resolution/resolvelib/factory.py Factory._report_single_requirement_"
                "conflict (logger.critical(\"Could not find a version that satisfies the requirement %s (from versions: "
                "%s)\"); DistributionNotFound(f\"No matching distribution found for {req}\")); pip < 20.3 "
                "src/pip/_internal/index/package_finder.py PackageFinder.find_requirement (the same two messages); "
                "pip 19-24 src/pip/_internal/req/constructors.py (\"{wheel.filename} is not a supported wheel on this platform.\") "
                "(jieba#920: paddlepaddle-tiny under Python 3.8)", most="medium"),
    # Code built or written for another interpreter (tools/interpreter.py: an extension that cannot load under this one).
    *INTERPRETER_ROWS,
    # Any other library the suites depend on that lacks a name the code (or a package built on it) uses: the
    # installed release is past the boundary (a removed name: Pillow 10's Image.ANTIALIAS) or before it. After
    # the rows above, which name their boundary.
    # Not "cannot import name": that one is as often a misspelt name or the user's own file of the library's
    # name (batch24's 2415, batch25's 2507), which the missing module attribute of a release is not.
    _sig("library_name_missing", rf"(?<!initialized )module '(?P<lib>{SUITE_LIBRARIES})(?:\.[\w.]+)?' has no attribute '(?P<name>\w+)'",
         "cause", CauseId.dependency_version_mismatch, 65,
         "AttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'",
         title="the installed {lib} lacks {name}: a release the code was not written for",
         source="CPython's module getattr (AttributeError: module %R has no attribute %R), on the libraries the "
                "suites' wheels require (Requires-Dist of paddleocr 2.0-2.10, paddledet, paddleseg, paddleclas, paddlenlp, paddlespeech, "
                "paddlex, paddlehub, ppgan, paddle3d, paddlets)", most="medium"),
    # Tensor.set_value's dtype check while a state dict loads: weights saved in another dtype than the model's parameter
    # (bfloat16 weights into a float32 model on a device without bf16): a loader release that does not convert them.
    _sig("state_dict_dtype_mismatch", r"Variable dtype not match, ?Variable [\[［] ?(?P<var>[^\]］\n]{1,200}?) ?[\]］] need tensor with "
         r"dtype (?P<want>[\w.]+)\s+but load tensor with dtype (?P<got>[\w.]+)", "cause", CauseId.paddle_api_mismatch, 70,
         "AssertionError: Variable dtype not match, Variable [ linear_164.w_0 ] need tensor with dtype paddle.float32  but load "
         "tensor with dtype paddle.bfloat16", most="medium",
         title="the weights of {var} are {got} where the model's parameter is {want}: a loader (Paddle, PaddleX) release "
               "that does not convert them, or a model built in another precision than the weights",
         source="pp 2.x-3.x python/paddle/base/dygraph/tensor_patch_methods.py Tensor.set_value (assert self.dtype == dtype, "
                "\"Variable dtype not match, Variable [ {self.name} ] need tensor with dtype {self.dtype}  but load tensor "
                "with dtype {dtype}\")"),
    # Paddle 2.x's pybind cast of a dygraph tensor argument: what the call got is no VarBase. In the reports gathered,
    # fluid 1.x static-graph code (py_reader, layers.data Variables) run on Paddle 2.0+, where dygraph is the default,
    # or 1.8 dygraph code handing 2.x another object. medium: the user's own wrong argument reads alike (2 of the 3
    # gathered were code of another release, the third a non-tensor given to the user's own custom op).
    _sig("varbase_cast_failed", r"Python object is not type of \S*imperative\d*VarBase", "cause",
         CauseId.paddle_api_mismatch, 65,
         "ValueError: (InvalidArgument) Python object is not type of St10shared_ptrIN6paddle10imperative7VarBaseEE (at "
         "/paddle/paddle/fluid/pybind/imperative.cc:220)",
         title="a Paddle 2.x dygraph call got an object that is no dygraph tensor: code written for Paddle 1.x "
               "(static-graph Variables, or 1.8's dygraph objects) run on 2.x, where dygraph is the default "
               "(paddle.enable_static(), or the release the code was written for); else an argument of the call "
               "that is no Tensor",
         source="pp 2.0-2.5 so: pybind/imperative.cc CastPyHandleToVarBase (\"Python object is not type of %s\")",
         most="medium"),
)

# Modules a later release renamed, read before every other table (table.py puts them first): the generic rows of a module
# Python cannot find (launch_env's runpy_no_module, `python -m X` in an environment without X) would take the line.
RENAMED_MODULES = (
    # Paddle Serving's GPU server was its own module (paddle_serving_server_gpu) up to 0.6; from 0.7 the GPU wheels install
    # paddle_serving_server too, so the older docs' `-m paddle_serving_server_gpu.serve` and imports find nothing.
    _sig("serving_gpu_module_merged", r"No module named '?paddle_serving_server_gpu\b", "cause", CauseId.paddle_api_mismatch,
         80, "/usr/bin/python: No module named paddle_serving_server_gpu.serve",
         title="paddle_serving_server_gpu is the GPU server's module of Serving 0.6 and older; from 0.7 it is "
               "paddle_serving_server (the command or code follows an older release's docs, or no server is installed)",
         source="Paddle Serving 0.6 python/paddle_serving_server_gpu (and its version.py, updated by the release scripts); "
                "Paddle Serving 0.7+ docs (python -m paddle_serving_server.serve ... --gpu_ids 0 for the GPU wheel) and "
                "Serving's own fallbacks (try: from paddle_serving_server import ... except ImportError: from "
                "paddle_serving_server_gpu import ...)", most="medium"),
    # fluid 1.6 made the Length of sequence_pad's output and sequence_unpad's input 1-D ([batch]); 1.5 and older took
    # [batch, 1]. Code of 1.5 that declares the length with a trailing 1 (a py_reader's or data layer's shape) fails
    # this check from 1.6 on: its message names the shape it wants and the hint the rank it got.
    _sig("sequence_length_shape_changed", r"The shape of Input\(Length\) should be \[batch_size\]\.(?:\s*But received "
         r"\((?P<got>\d+)\))?|The rank of SequenceUnpadOp Input\(Length\) should be 1\. But the rank we received is [2-9]",
         "cause", CauseId.paddle_api_mismatch, 75,
         "Error: The shape of Input(Length) should be [batch_size].",
         title="sequence_unpad's Length input is [batch] from Paddle 1.6 on; code written for 1.5 and older declares it "
               "[batch, 1] (drop the trailing 1, or run the release the code was written for)",
         source="pp 1.6-1.8.5 fluid/operators/sequence_ops/sequence_unpad_op.cc InferShape (PADDLE_ENFORCE_EQ("
                "len_dims.size(), 1, \"The shape of Input(Length) should be [batch_size]. But received (%d)\"; 1.8.5's "
                "core_avx.so), 2.x's words (\"The rank of SequenceUnpadOp Input(Length) should be 1. But the rank we "
                "received is %d\"; 2.6.2's libpaddle.so); 1.6 changed sequence_pad's Length output from [batch, 1] to "
                "[batch] (Paddle#24664's answer)", most="medium"),
    # fluid's Executor checks isinstance(program, Program): a Program it does not know as its own (the class named the
    # same, another class object) comes from another paddle.fluid than the running one: another release's code or copy.
    _sig("executor_program_of_another_paddle", r"Executor requires Program as its Parameter\. But you passed in <class "
         r"'(?P<cls>paddle\.(?:fluid|base)\.framework\.Program)'>", "cause", CauseId.paddle_api_mismatch, 65,
         "TypeError: Executor requires Program as its Parameter. But you passed in <class 'paddle.fluid.framework.Program'>",
         title="the Executor refuses a {cls} that is not its own Program class: the code and the running Paddle come "
               "from two releases or two copies of paddle.fluid (run the release the code was written for, one install)",
         source="pp 1.x fluid/executor.py Executor.run (if not isinstance(program, Program): raise TypeError(\"Executor "
                "requires Program as its Parameter. But you passed in %s\" % (type(program))); 1.8.5)", most="medium"),
    # fluid's early DataFeeder wanted a batch dimension (-1) in every variable it feeds; later releases dropped the
    # check (1.8.5's data_feeder.py has none), so a model whose inputs are declared without one was written for them.
    _sig("feeder_batch_dimension_required", r"Variable \{0\} must has a batch size dimension", "cause",
         CauseId.paddle_api_mismatch, 70, "ValueError: ('Variable {0} must has a batch size dimension', 'items')",
         title="the installed fluid's DataFeeder wants a batch dimension in every fed variable, which later releases do "
               "not: code written for a newer Paddle 1.x (upgrade), or a data layer declared without its batch dimension",
         source="pp 1.0-1.3 fluid/data_feeder.py DataFeeder.__init__ (raise ValueError(\"Variable {0} must has a batch "
                "size dimension\", each_var.name)); absent from 1.8.5's", most="medium"),
)


_PY2_IMPORT = ("CPython 2.7 Python/import.c load_next (PyErr_Format(PyExc_ImportError, \"No module named %.200s\", name) "
               "with name the dotted path from the part that failed on: 'import paddle.v2' says \"paddle.v2\" when no "
               "paddle is found, \"v2\" when paddle is found without it)")
# Read among older_forms' rows (before the generic exception row): Python 2's unquoted "No module named" forms.
PY2_IMPORT_ROWS = (
    # Python 2 names the dotted path from the first part it could not find, unquoted: "v2" or "fluid.executor" is a
    # part below a paddle it found (code for another release); "paddle.v2" is paddle itself not found.
    _sig("py2_paddle_module_missing", r"No module named (?P<module>(?:v2|fluid|trainer_config_helpers)(?:\.[\w.]+)?)$",
         "cause", CauseId.paddle_api_mismatch, 80, "ImportError: No module named fluid.executor",
         title="Python 2 found paddle but not its {module}: code written for another Paddle release",
         source=_PY2_IMPORT, most="medium"),
    _sig("py2_paddle_not_importable", r"No module named (?P<module>paddle\.[\w.]+)$", "cause", CauseId.python_exception, 75,
         "ImportError: No module named paddle.trainer.PyDataProvider2",
         title="Python 2 found no paddle package at all (it names {module} from its first part): Paddle is not installed "
               "for this interpreter (another Python's, or not on its path)",
         source=_PY2_IMPORT, most="medium"),
)
