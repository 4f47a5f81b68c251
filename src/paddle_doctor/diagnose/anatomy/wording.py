"""What an error's own words say, when nothing more telling does.

Most failures the tables do not know still say what went wrong in plain words: a native library's
``Failed to open file: <path>``, a wrapper's ``model dir <path> not found``, a package's ``PaddlePaddle
2.5 or higher is required``, a converter's ``shape of parameter x does not match``. The emitters are
too many to list (Paddle's own checks of each era, the suites, FastDeploy, Paddle-Lite, Serving,
wrappers in C#, Go and Java), but the wording of each kind of failure is few. :func:`from_wording`
reads that wording after every code, component, frame and type rule has had its say, and before the
verdict would fall back to "an uncaught exception" or "an error with no known cause".

Each wording is a cue and the object it is about (a path for a missing file, a version for a
requirement, a shape for a mismatch) on one line: a cue alone ("not found", "not supported") is said
of too many things. A wording never makes a verdict surer than medium: the words name a kind of
failure, not the call that failed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...catalog.ids import CauseId as C
from ...lazy import lazy_compile

# A path: a whole token (it starts where no other non-space character precedes it) that holds a separator, or
# ends in a data or model file's extension (components.py's missing-path rows use it too). Whole tokens keep the
# search linear: a path is tried once per token, and only its separators are split points. A C++ source location
# in brackets (Paddle's enforce suffix, 1.x "at [/paddle/.../op_desc.cc:195]", 2.x "(at /paddle/.../op_desc.cc:195)") is
# where a check is, not a path the message names ("Cannot find variable split_1.tmp_0@GRAD at [...]").
_SOURCE_LOCATION = r"[\[(]?[^\])\s]*\.(?:cc|cu|cpp|h|hpp|c):\d+[\])]"
PATH = rf"(?:(?<!\S)(?!{_SOURCE_LOCATION})[^\s/\\]*[/\\]\S*|(?<![^\s'\"(\[])[^\s'\"]*\.(?:jpe?g|png|bmp|txt|json|ya?ml|csv|tsv|pdparams|pdopt|" \
        r"pdmodel|pdiparams|params|nb|npy|npz|pkl|pickle|bin|onnx|tar|gz|zip|wav|mp3|mp4|h5|lmdb|mdb|exe)\b)"
# A shared library is not a file the run was given: a missing one is the installation's (signals.py's
# loader rows and the CUDA library rows read those).
_NO_LIBRARY = r"^(?!.*\.(?:dll|dylib|so(?:\.\d+)*)\b)(?:.*?)"
# The act that failed on it: opening, finding, reading or loading (any subject, any tense).
_ACT = r"(?:can\s*not|can't|could\s*not|couldn't|unable\s+to|fail(?:ed|s)?\s+to|not\s+able\s+to|(?<![\w'])not(?=\s+find)|" \
       r"error\s+(?:when\s+)?" \
       r"(?:opening|reading|loading))\s+(?:open|find|locate|read|load|access|stat)"
_GONE = r"(?:does\s*not\s+exists?|doesn't\s+exists?|do\s+not\s+exist|not\s+exists?|is\s+not\s+exist|(?:is|was)\s+" \
        r"missing|not\s+found|(?:can|could)\s*not\s+be\s+(?:found|opened)|is\s+not\s+(?:a\s+)?(?:valid\s+)?(?:file|" \
        r"dir(?:ectory)?|path))"
_PADDLE = r"(?:paddle(?:paddle)?(?:[-_]gpu)?|PaddlePaddle)"
_LOAD_FAILED = r"\b(?:unable\s+to|can\s*not|could\s*not|failed\s+to)\s+load\b[^\n]{0,30}?"
_DLL_NOT_FOUND = r"\.dll\s+(?:was\s+|is\s+)?not\s+found\b"
_CUDA_LIBRARY = r"(?:cudnn|cublas|cudart|cufft|curand|cusolver|cusparse|nvrtc|nvinfer|nccl)"
_VERSION = r"v?\d+(?:\.\d+)+\w*"


@dataclass(frozen=True)
class Wording:
    name: str
    cause: C
    pattern: str  # searched line by line, case-blind
    specificity: int  # below 90: a wording is at most medium
    means: str  # what the words say happened, for the verdict's why
    said_by: str  # who writes it (kinds of emitters, not one example)
    # The words are as often a slip of the user's own code: not read where the user's own frame raised them.
    also_users_slip: bool = False
    # The words name a value only where the failing line takes it from a config or the arguments (a library's
    # "unsupported hash type md5" is not a setting): read only when the caller saw such a line.
    said_of_config: bool = False


# "unknown <setting>" in the words of argument and config checks (value_unknown and value_unknown_bare below).
_UNKNOWN_SETTING = r"\b(?:unknown|unsupported|invalid|unrecognized|illegal|non-?existent)\s+(?!operand)(?:\w+\s+)?"
_SETTING_WORDS = (r"model(?:[_ ]name)?|config(?:uration)?|argument|option|parameter|value|mode|type|key|name|choice|"
                  r"architecture|backbone")


WORDINGS: tuple[Wording, ...] = (
    # Windows' loader found the DLLs, but one lacks a procedure another imports (ERROR_PROC_NOT_FOUND 127): a DLL of
    # another version found first. Before the wordings of a missing file, which "找不到" (cannot find) would take.
    Wording("windows_procedure_not_found", C.dependency_version_mismatch, r"\bThe specified procedure could not be found\b|"
            r"找不到指定的程序", 65, "Windows loaded the DLLs, and one of them lacks a procedure another imports (a DLL of "
            "another version found first)",
            "CPython 3.7 Python/dynload_win.c (ImportError: DLL load failed: %s, FormatMessage of the LoadLibraryEx error); "
            "Windows System Error Codes ERROR_PROC_NOT_FOUND 127 (en-US The specified procedure could not be found.; zh-CN "
            "找不到指定的程序。)"),
    # A path and a failed act on it, or a path said to be gone: the run looked for a file that is not
    # there (a relative path from another working directory, a model not downloaded or exported yet).
    Wording("path_unopened", C.file_not_found, rf"{_NO_LIBRARY}{_ACT}\b[^\n]{{0,40}}?{PATH}", 70,
            "it could not open, find or read a file or directory it names",
            "native loaders (glog/[ERROR] lines of Paddle Inference, Paddle-Lite, FastDeploy, Serving), "
            "suites' and wrappers' checks"),
    Wording("path_gone", C.file_not_found, rf"{_NO_LIBRARY}(?:{PATH}\W{{0,3}}\s*(?:\([^)]{{0,80}}\)\s*)?{_GONE}|"
            rf"(?:no\s+such\s+(?:file|dir(?:ectory)?)|(?:file|dir(?:ectory)?|path|model)\s+{_GONE}|\bno\s+(?:file|model|"
            rf"weights?|checkpoint)s?(?:\s+named\s+\S+)?\s+(?:was\s+)?found\s+(?:in|at|under))\W[^\n]{{0,40}}?"
            rf"{PATH}|(?:找不到|不存在|无法打开|打开失败))", 70,
            "it says a file or directory it names does not exist",
            "os.path.exists checks in suites and tools (assert/raise ... does not exist), native loaders, "
            "Chinese messages of the suites and wrappers"),
    # A native library a wrapper loads (Paddle Inference's, PaddleOCR's C++ DLLs) that it cannot load: not where
    # it looks, or a library it depends on is not (the Windows-DLL convention of the corpus: file_not_found).
    # The CUDA stack's own libraries are the installation's CUDA/cuDNN (the corpus's convention), not a wrapper's file.
    Wording("cuda_library_unloadable", C.cuda_cudnn_mismatch, rf"{_LOAD_FAILED}(?:lib)?{_CUDA_LIBRARY}\w*\.(?:dll|"
            rf"so(?:\.\d+)*)\b|\b(?:lib)?{_CUDA_LIBRARY}\w*{_DLL_NOT_FOUND}", 60, "it says a library of the CUDA stack could not be loaded",
            "the JNI and P/Invoke loaders of wrappers around Paddle Inference (Java, .NET)"),
    # The driver's own library (libcuda, nvcuda) missing is no driver at all: the device rows read it.
    Wording("library_unloadable", C.file_not_found, rf"{_LOAD_FAILED}(?<![\w.\-\\/])(?![\w.\-\\/]*?(?:lib|nv)cuda\.)[\w.\-\\/]+\."
            rf"(?:dll|dylib|so(?:\.\d+)*)\b|\b[\w.\-]+{_DLL_NOT_FOUND}", 60,
            "it says a native library could not be loaded",
            "the JNI and P/Invoke loaders of wrappers around Paddle Inference and PaddleOCR's C++ (Java, .NET)"),
    # A version requirement that is not met: the code (a suite, a tool, a model) was written for
    # another Paddle release than the installed one. Paddle's own require_version templates and the suites'
    # check_version are the signature row paddle_version_required (signatures/rows/checks.py, high); this reads
    # the other phrasings packages use ("requires paddlepaddle >= X", "please upgrade paddle to X").
    Wording("paddle_version_asked", C.paddle_api_mismatch,
            rf"\b{_PADDLE}\s*(?:version\s*)?(?:>=?|≥|==)?\s*{_VERSION}\s*(?:\+|or\s+(?:higher|above|later|newer|"
            rf"greater)|and\s+(?:above|later))?\s*(?:is|are)?\s*(?:required|needed)|\brequires?\s+{_PADDLE}\s*"
            rf"(?:version\s*)?(?:>=?|≥|==)\s*{_VERSION}|\bplease\s+(?:upgrade|update|install)\s+(?:your\s+)?"
            rf"{_PADDLE}\s*(?:to\s+|>=?\s*)?{_VERSION}|\bonly\s+supports?\s+{_PADDLE}\s*(?:version\s*)?(?:>=?\s*)?{_VERSION}\s*"
            rf"(?:\+|or\s+(?:later|higher|above|newer))|\b{_PADDLE}\s+version\s+\(?{_VERSION}\)?\s+is\s+(?:too\s+(?:low|old)|"
            rf"lower\s+than|older\s+than)|\b{_PADDLE}\s+version\s+(?:you\s+installed\s+)?is\s+too\s+(?:low|old)\W{{0,3}}"
            rf"\(?{_VERSION}", 70,
            "it requires another Paddle version than the one installed",
            "version checks of the suites and tools (check_version, require_version, setup-time asserts)"),
    # A call with a keyword the called function does not take (CPython's TypeError, "%U() got an unexpected keyword
    # argument '%S'"): most often code written for another release of what it calls (a suite's code on an older
    # Paddle), sometimes a typo of the caller's own (then python_exception: the wording stays low).
    Wording("keyword_not_taken", C.paddle_api_mismatch, r"\b\w+\(\)\s+got\s+an\s+unexpected\s+keyword\s+argument\s+"
            r"['\"]\w+['\"]", 55,
            "a call passes a keyword argument the called function does not take (code of another release)",
            "CPython's argument check (ceval.c / getargs.c: %U() got an unexpected keyword argument '%S'), as the suites' "
            "loggers and tracebacks print it", also_users_slip=True),
    # A saved tensor's shape that is not the model's: the checkpoint was made for another configuration
    # (class count, input size) or another architecture.
    Wording("shape_mismatch", C.state_dict_shape_mismatch,
            r"^(?=.*\b(?:shape|size)s?\b)(?=.*\b(?:mismatch(?:ed)?|not\s+match(?:ed)?|does\s*n[o']t\s+match|do\s+not\s+"
            r"match|inconsistent|not\s+the\s+same\s+as|differs?\s+from)\b)(?=.*\b(?:param(?:eter)?s?|weights?|state_dict|checkpoint|pretrain(?:ed)?)\b)|"
            r"\bsize\s+mismatch\s+for\b|^(?=.*\bshape\b.*\b(?:but|while|vs\.?|whereas)\b.*\bshape\b)(?=.*\b(?:param(?:eter)?s?|"
            r"weights?|state_dict|checkpoint|pretrain(?:ed)?|loaded|saved)\b)", 65,
            "a saved parameter's shape is not the model's",
            "load_state_dict / set_state_dict checks of Paddle and the suites, converters' own checks"),
    # The CUDA stack's version, in plain words: a cuDNN, CUDA or driver the build cannot use.
    Wording("cuda_stack_version", C.cuda_cudnn_mismatch, r"\b(?:cudnn|cuda|cublas|(?:nvidia\s+|gpu\s+)?driver)\s+version\b"
            r"[^\n]{0,40}?\b(?:is\s+)?(?:not\s+supported|too\s+(?:old|low)|insufficient|mismatch(?:ed)?|not\s+compatible|"
            r"incompatible)|\bplease\s+(?:upgrade|update|install)\s+(?:your\s+)?(?:cudnn|cuda|nvidia\s+driver|gpu\s+driver)\b",
            60, "the CUDA, cuDNN or driver version is one this build cannot use",
            "version checks of Paddle's older eras, the suites and the wrappers"),
    # Memory, in plain words: a device's (Paddle's own GPU messages are rows of their own) or the host's.
    Wording("gpu_memory_short", C.gpu_oom, r"\b(?:cuda|gpu|device|video)\s+(?:memory\s+)?(?:is\s+)?(?:out\s+of\s+memory|"
            r"insufficient|exhausted)|\bout\s+of\s+(?:gpu|cuda|device|video)\s+memory|\b(?:not\s+enough|insufficient)\s+"
            r"(?:gpu|cuda|device|video)\s+memory|显存不足|显存溢出|显存不够", 60,
            "the GPU ran out of memory",
            "the suites' and wrappers' memory checks, in English and Chinese"),
    Wording("host_memory_short", C.host_out_of_memory, r"\b(?:not\s+enough|insufficient)\s+(?:host\s+|system\s+|cpu\s+|"
            r"physical\s+)?memory\b|内存不足|内存不够", 60,
            "the host ran out of memory",
            "allocators and wrappers reporting a failed host allocation, in English and Chinese"),
    # A setting the configuration lacks: the code names the file kind it reads it from.
    Wording("setting_missing", C.config_error,
            r"\b(?:is|are|was|were)\s+not\s+(?:specified|set|configured|provided|given|defined|found)\b[^\n]{0,40}?\b(?:in|by)\s+"
            r"(?:the\s+|your\s+)?(?:config(?:uration)?|ya?ml|cfg|settings?)\b|\b(?:must|should)\s+be\s+(?:specified|set|"
            r"given|provided)\s+in\s+(?:the\s+|your\s+)?(?:config(?:uration)?|ya?ml|cfg)\b|\bplease\s+(?:set|specify|add)\b"
            r"[^\n]{0,40}?\bin\s+(?:the\s+|your\s+)?(?:config(?:uration)?(?:\s+file)?|ya?ml|cfg)\b|\bplease\s+(?:set|specify)\s+"
            r"(?:the\s+)?(?-i:[a-z][a-z0-9]*_[a-z0-9_]+)\s+(?:for|of|in|when\s+(?:running|using))\s+\S+\.py\b", 60,
            "the configuration lacks a setting the code needs",
            "the suites' config checks (PaddleSeg, PaddleDetection, PaddleOCR, PaddleClas: a key not set in the YAML), and "
            "their asserts that name the script's option (PaddleSeg 2.8 models/rtformer.py: \"The first dim of x ({}) should "
            "be greater than 0, please set input_shape for export.py\")"),
    # No GPU the process can use: none installed or visible, or a driver that does not answer.
    Wording("no_gpu", C.device_not_found, r"\bno\s+(?:cuda[- ]capable\s+)?(?:cuda\s+|nvidia\s+)?(?:gpus?|devices?)\b"
            r"[^\n]{0,20}?\b(?:(?:is|are|were|was)\s+)?(?:available|found|detected)\b|\b(?:cuda|gpus?)\s+(?:devices?\s+)?"
            r"(?:is|are)\s+not\s+(?:available|found|detected)\b", 60,
            "the process found no GPU it can use",
            "device checks of the suites, tools and wrappers before they pick a GPU"),
    # A package, plugin or optional part that this environment lacks, said so by the code that needs it.
    Wording("package_absent", C.dependency_version_mismatch,
            r"\b(?:is|are)\s+not\s+(?:installed|available)\b[^\n]{0,40}?\bplease\s+install\b|\b(?:package|module|"
            r"library|plugins?|extension)\s+(?:\S+\s+)?(?:is|are)\s+not\s+installed\b", 60,
            "a package the code needs is not installed",
            "optional-dependency checks of the suites and tools (PaddleX's plugin checks, wrappers' import guards)"),
    # A file that is there but cannot be what it should be: cut short by a download, or not the format.
    Wording("file_damaged", C.checkpoint_corrupt,
            r"\b(?:file|model|checkpoint|archive|params|weights?)\b[^\n]{0,60}?\b(?:is\s+)?(?:truncated|corrupt(?:ed)?|"
            r"damaged|incomplete)\b|\bunexpected\s+end\s+of\s+(?:file|data|stream|archive)\b|\bbad\s+magic\s+number\b",
            60, "it says a file it read is cut short or damaged",
            "archive and pickle readers, Paddle's loaders and the suites' download checks"),
    # A setting the code does not know: a value outside the choices it handles, named after the words (a
    # quoted value or one after a colon: "invalid value encountered in divide" is numpy's arithmetic). "only support
    # 'to_tensor()' in dynamic graph mode" quotes a call, not a value: the code's use of an API, not a setting.
    Wording("value_unknown", C.config_error,
            rf"{_UNKNOWN_SETTING}(?:{_SETTING_WORDS})s?(?:\s*[:=]\s*\S|\s+['\"\[{{(])|"
            r"\b(?:must|should)\s+be\s+(?:one\s+of|in)\s*(?:(?:o?dict_keys|dict_values|list|tuple|set)\()?[\[({'\"]|"
            r"\b(?:must|should)\s+in\s*(?:(?:o?dict_keys|dict_values|list|tuple|set)\()?\[(?!\s*-?\d+\s*,\s*-?\d+\s*[\])])|"
            r"\b(?:please\s+)?choose\s+(?:one\s+)?(?:of|from)\s+"
            r"[\[({'\"]|\bonly\s+supports?\s+(?:(?:dict_keys|list|tuple|set)\()?(?![\[({'\"][\w.]+\(\))[\[({'\"]", 60,
            "a configured value is not one of the choices the code handles",
            "argument and config checks of the suites, tools and Paddle's Python API (paddleocr 2.6 paddleocr.py: logger.error("
            "'lang {} is not support, we only support {} for {} models'.format(lang, dict.keys(), ...)); paddleocr 2.0-2.7 "
            "paddleocr.py parse_lang: assert lang in MODEL_URLS[...]['rec'], 'param lang must in {}, but got {}')"),
    # Two settings the code takes only one of ("pretrain_weights and resume_checkpoint cannot be set simultaneously",
    # argparse-like "cannot be used together", "are mutually exclusive"): the configuration names both.
    Wording("settings_exclusive", C.config_error, r"\b(?:can\s*not|can't|cannot)\s+be\s+(?:set|"
            r"used|specified|given|enabled)\s+(?:simultaneously|at\s+the\s+same\s+time|together)|\bare\s+mutually\s+"
            r"exclusive\b", 60, "it says two settings cannot be given together",
            "argument and config checks of the suites and tools (PaddleX's train(): logging.error(\"pretrain_weights and "
            "resume_checkpoint cannot be set simultaneously.\"))"),
    # The same words with the value bare at the end ("unknown metric type voc"), read only where the failing line
    # takes the value from a config or the arguments: "unknown data type 7" or hashlib's "unsupported hash type md5"
    # are a library's words about its input, not a setting.
    Wording("value_unknown_bare", C.config_error,
            rf"{_UNKNOWN_SETTING}(?:{_SETTING_WORDS}|metric)s?\s+[\w.-]{{1,40}}\s*$", 60,
            "a configured value is not one of the choices the code handles",
            "config checks of the suites and the user's scripts (PaddleDetection's tools/eval.py \"unknown metric type "
            "{}\".format(cfg.metric))", said_of_config=True),
    # A config file or command line that the code cannot parse: its form, not a value, is wrong.
    Wording("config_malformed", C.config_error,
            r"\b(?:config(?:uration)?|options?|arguments?|command[- ]line)\b[^\n]{0,30}?\b(?:format\s+(?:error|is\s+"
            r"(?:wrong|invalid|incorrect))|malformed|(?:wrong|bad|invalid)\s+format)\b|\bconfig(?:uration)?\b[^\n]{0,30}?"
            r"\b(?:should|must)\s+(?:contain|include|have)\s+(?:the\s+)?keys?\b|配置(?:文件)?格式(?:错误|有误|不正确)", 60,
            "the config or command line is not in the form the code parses",
            "the suites' option and config parsers (PaddleSeg 1.x pdseg's update_from_list, config loaders; PaddleSeg "
            "2.x cvlibs/config.py's \"Loss config should contain keys of ...\")"),
    # Windows' loader found no DLL of that name, or not one the DLL links (ERROR_MOD_NOT_FOUND 126), as ctypes raises it.
    Wording("windows_module_not_found", C.file_not_found, r"\[WinError 126\]|\bThe specified module could not be found\b|"
            r"找不到指定的模块", 60, "Windows found no DLL the process loads, or one that DLL links",
            "CPython ctypes (OSError: [WinError 126] The specified module could not be found.; zh-CN 找不到指定的模块。)"),
    # The compiler refused a C/C++/CUDA source: a fault of that source, or headers of another release than it was
    # written for, as an exception is one of a program's code. After every warning that names a cause (gcc's C++11
    # warning comes after the first error it explains), so a wording, not a signature.
    Wording("compile_error_in_source", C.python_exception, r"^[^\s()]{0,300}\.(?:c|cc|cpp|cxx|cu|h|hpp|hh|cuh)"
            r"(?::\d+){1,2}: (?:error|错误)[:：] ?(?!#error)|^[^\s()]{0,300}\.(?:c|cc|cpp|cxx|cu|h|hpp|cuh)\(\d+\): error(?: C\d+)?:",
            40, "the compiler refused the code of a source file (a fault in it, or a header of another release)",
            "GCC and clang diagnostics (\"%s:%d:%d: error: %s\"; zh_CN \"错误：\"), nvcc and MSVC (\"%s(%d): error: %s\")"),
)

# A raised class named for what went wrong (searched on its qualified name): a library's own error class says it
# the way a message would.
TYPE_WORDINGS: tuple[Wording, ...] = (
    Wording("config_class", C.config_error, r"(?:Config|Configuration|Settings?)(?:Key|Attribute|Value|Validation|Type)?"
            r"(?:Error|Exception)$|\byaml\b.*\.(?:Scanner|Parser|Composer|Constructor)Error$", 60,
            "the raised class is a configuration error",
            "the suites' and config libraries' own error classes (ppdet ConfigError, paddlex ConfigError, omegaconf "
            "ConfigKeyError, ruamel.yaml ScannerError)"),
    # An archive that cannot be read: a download cut short or a file that is not the archive its name says. Bare
    # ``ReadError`` is what a notebook's traceback header names (tarfile's and shutil's); httpx has a network
    # ReadError too, so this stays a wording (low).
    Wording("archive_class", C.checkpoint_corrupt, r"(?:^|\b(?:tarfile|shutil)\.)ReadError$|\bBadZip[Ff]ile$|"
            r"\bBadGzipFile$", 60,
            "the raised class is an archive's read error (a download cut short, or not an archive)",
            "CPython's tarfile.ReadError, shutil.ReadError (unpack_archive), zipfile.BadZipFile, gzip.BadGzipFile"),
    # Java's UnsatisfiedLinkError is not here: it also says a symbol or a native method is missing (another version).
    Wording("missing_library_class", C.file_not_found, r"\bDllNotFoundException$", 60,
            "the raised class says a native library was not found",
            ".NET's System.DllNotFoundException (default message \"Dll was not found.\"): wrappers that load Paddle "
            "Inference's or PaddleOCR's DLLs"),
    Wording("missing_file_class", C.file_not_found, r"(?:FileNotFound|FileMissing|PathNotFound|ModelNotFound|"
            r"NoSuchFile)\w*(?:Error|Exception)$", 60,
            "the raised class is a missing-file error",
            "libraries' own missing-file error classes"),
)

_COMPILED = tuple((w, lazy_compile(w.pattern, re.I)) for w in WORDINGS)
_TYPES_COMPILED = tuple((w, lazy_compile(w.pattern)) for w in TYPE_WORDINGS)
# (one run of spaces before the number, not two in a row: linear on a line of spaces)
_FRAME_OR_SOURCE = lazy_compile(r'^\s*(?:File "|\S+\.py in |\d+\s|-+>?\s*\d+\s|>\s*\d+\s)')


# A wording's cue and its object sit close together: each line is read up to here, which keeps the patterns'
# lazy scans (a path after a cue, a cue after a path) bounded on a hostile line of megabytes.
LINE_CHARS = 600


def _said(message: str, text: str) -> list[str]:
    """The lines to read: the exception's message when there is one, else the block's own lines (not
    its frames or their source lines, where a path is only the code's location)."""
    if message:
        return [message[:LINE_CHARS]]
    return [line[:LINE_CHARS] for line in text.splitlines() if line.strip() and not _FRAME_OR_SOURCE.match(line)
            and not line.startswith("    ")]


def read_type_wording(qualified: str) -> Wording | None:
    """What the raised class's own name says (``ppdet.core.config.ConfigError``), or None."""
    return next((w for w, pattern in _TYPES_COMPILED if qualified and pattern.search(qualified)), None)


# CPython's own messages of its built-in exceptions (Objects/listobject.c, abstract.c, floatobject.c, ceval.c ...),
# logged without their type by code that caught them ("err msg: list index out of range"): the program's own
# exception, whatever logged it. Only for a line that shows no exception type (a typed one is read as such).
LOGGED_PYTHON_ERROR = Wording(
    "python_builtin_message", C.python_exception,
    r"\b(?:list|tuple|string) index out of range\b|\bobject is not (?:subscriptable|iterable|callable)\b|\b(?:float )?"
    r"division by zero\b|\bintegers? division or modulo by zero\b|\bunsupported operand type\(s\) for\b|\b(?:not enough|"
    r"too many) values to unpack\b|\binvalid literal for int\(\) with base\b|\bcould not convert string to float\b|"
    r"\bcan only concatenate \w+ \(not\b|\breferenced before assignment\b", 60,
    "a Python built-in exception's own message, logged without its type: the program's own error",
    "CPython's built-in exceptions (IndexError, TypeError, ZeroDivisionError, ValueError, UnboundLocalError), caught "
    "and logged by the suites' and tools' error handlers")


def read_logged_python_error(text: str) -> Wording | None:
    """LOGGED_PYTHON_ERROR when ``text`` holds one of CPython's built-in messages, else None."""
    return LOGGED_PYTHON_ERROR if re.search(LOGGED_PYTHON_ERROR.pattern, text, re.I) else None


def read_wording(message: str, text: str = "", config_line: bool = False) -> Wording | None:
    """The first wording (in table order) said on one line of the error, or None. ``config_line``: the failing
    line takes its values from a config or the arguments (the wordings ``said_of_config`` need it)."""
    for line in _said(message, text):
        for wording, pattern in _COMPILED:
            if (config_line or not wording.said_of_config) and pattern.search(line):
                return wording
    return None
