"""What a call's arguments say when they do not fit the callee: the user's call to a Paddle API this version takes
otherwise, an installed Paddle package's call into another package of another release, a package's call of its own
method on the class instead of an instance (a bug of that release), a reader API's result called as the other
release's kind of object."""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from ..signatures.rows.api_versions import VERSIONED_PACKAGES
from .lookups import SETTINGS_NAME
from .parts import ErrorParts, Verdict


# An installed Paddle package (pip) whose arguments do not fit: its own check rejects an argument of the call
# (paddleocr 3.x _common_args.parse_common_args: ValueError("Unknown argument: {name}") for 2.x names), or its own
# call fails on the callee's signature (CPython's TypeError: the callee never ran, the caller's line is innermost;
# the same TypeError at the user's own call to paddle is from_call_signature's).
INSTALLED_PACKAGE = re.compile(rf"[/\\](?:site|dist)-packages[/\\](?P<pkg>{VERSIONED_PACKAGES}|paddleocr)[/\\]")
_ARGUMENT_REJECTED = re.compile(r"^Unknown argument: \w+$")
# CPython: "<callee>() got an unexpected keyword argument 'k'"; 3.13 adds ". Did you mean 'j'?" for a misspelt one
_KEYWORD_REFUSED = re.compile(r"(?:^|[.\s])(?P<callee>\w+|<lambda>)\(\) got an unexpected keyword argument '\w+'"
                              r"(?!\. Did you mean)")


def _users_own_function(parts: ErrorParts, callee: str, source: str) -> bool:
    """Whether the call is to one of the user's own functions: called bare or through ``self.`` and a frame of the
    user's of that name (``model.train(...)`` from the user's own ``train`` is another object's method)."""
    called_so = re.search(rf"(?:(?<![\w.])|\bself\.){re.escape(callee)}\(", source)
    return callee != "__init__" and called_so is not None and \
        any(f.func == callee and f.owner == "user" for f in parts.frames)


_SIGNATURE_MISFIT = re.compile(r"unexpected keyword argument '\w+'|takes \d+ positional arguments? but \d+ (?:was|were) "
                               r"given|missing \d+ required positional arguments?")


# A method called on its class (``ServingCommand.start(configs)``) rather than an instance: the first argument is
# taken as ``self`` and CPython reports the last parameter missing, naming the method.
# a class's name (a capital and a lower-case letter somewhere: ServingCommand, ASRExecutor), not an alias (F., np.)
_UNBOUND_CALL = re.compile(r"\b[A-Z](?=\w*[a-z])\w*\.(?P<method>[a-z_]\w*)\(")


def _names_the_method(source: str, message: str) -> bool:
    # CPython 3.10+ names the method by its qualified name (ServingCommand.start() missing ...)
    m = re.match(r"(?:\w+\.)*(?P<method>\w+)\(\) missing \d+ required positional argument", message)
    return m is not None and any(c["method"] == m["method"] for c in _UNBOUND_CALL.finditer(source))


def from_package_arguments(parts: ErrorParts) -> Verdict | None:
    """An installed Paddle package and the arguments it is given, or gives, do not fit: code (the user's, or
    the package's own call into another package) written for another release."""
    frame = parts.innermost
    # a versioned Paddle package installed, or any suite's code (Frame.suite: a source checkout's too)
    listed = INSTALLED_PACKAGE.search(frame.path) if frame is not None else None
    suite = (listed["pkg"], True) if listed else frame.suite if frame is not None else None
    if suite is None:
        return None
    (pkg, installed), caller = suite, parts.innermost_of("user")
    the_pkg = f"the installed {pkg}" if installed else f"{pkg} (a source checkout)"
    if parts.exc_type == "ValueError" and _ARGUMENT_REJECTED.search(parts.message):
        call = f" of the call `{caller.source[:80]}`" if caller is not None else ""  # the caller may be cut off
        return Verdict(CauseId.paddle_api_mismatch, 75, f"{the_pkg} rejects an argument ({parts.message[:60]})"
                       f"{call}: the code was written for another release of {pkg}", "call")
    if parts.exc_type == "TypeError" and _SIGNATURE_MISFIT.search(parts.message):
        if _UNBOUND_CALL.search(frame.source or "") and _names_the_method(frame.source, parts.message):
            return Verdict(CauseId.python_exception, 60, f"{the_pkg} calls `{frame.source.strip()[:60]}` on the class, "
                           "not on an instance, so its first argument became `self` and one is missing: a bug of "
                           "the code that calls it", "call")
        if re.search(rf"\b{pkg}(?:\.\w+)+\(", frame.source):  # its own function: the release's parts disagree
            return Verdict(CauseId.python_exception, 60, f"{the_pkg} calls its own `{frame.source[:60]}` with "
                           f"arguments it does not take ({parts.message[:60]}): a bug of that release", "call")
        return Verdict(CauseId.paddle_api_mismatch, 75, f"{the_pkg} calls `{frame.source[:80]}`, which does not fit "
                       f"the signature it calls ({parts.message[:60]}): {pkg} and what it calls come from releases "
                       "that do not fit", "call")
    return None


def from_call_signature(parts: ErrorParts) -> Verdict | None:
    """A TypeError at a call the user wrote to a Paddle API (the innermost frame's source line calls
    ``paddle.``/``fluid.``/``layers.``): the API takes other arguments in this version."""
    frame = parts.innermost
    if parts.exc_type != "TypeError" or frame is None or frame.owner != "user":
        return None
    if not _SIGNATURE_MISFIT.search(parts.message):
        return None
    if re.search(r"(?<![\w.])(?:paddle|fluid)\.\w", frame.source):
        return Verdict(CauseId.paddle_api_mismatch, 75, f"the call `{frame.source[:80]}` passes arguments this Paddle "
                       "version's API does not take: the code was written for another version", "call")
    # fluid's layers are imported by that name (``from paddle.fluid import layers``, PARL's ``parl.layers``); a module
    # of the user's own may be called so too, so the name alone is weaker (medium at most)
    if re.search(r"(?<![\w.])layers\.\w", frame.source):
        return Verdict(CauseId.paddle_api_mismatch, 60, f"the call `{frame.source[:80]}` passes arguments that fluid's "
                       "layers of this Paddle do not take (if `layers` is fluid's): code written for another version",
                       "call", sure=False)
    # Any other callee refusing a keyword by name: the keyword is one that another release of the callee takes (the
    # corpus: 5 such logs of 5 were code and library of two releases, a suite's script and its package, Paddle's
    # DataLoader's prefetch_factor), more often than a misspelt one.
    refused = _KEYWORD_REFUSED.search(parts.message)
    if refused and frame.suite is None and frame.source and not _users_own_function(parts, refused["callee"], frame.source):
        return Verdict(CauseId.paddle_api_mismatch, 55, f"the call `{frame.source.strip()[:80]}` passes a keyword the "
                       f"function it calls does not take ({parts.message[:60]}): the code was written for another "
                       "release of what it calls (or misspells the keyword)", "call", sure=False)
    return None


# Paddle's vision transforms reshape Normalize's mean and std to the layout data_format names ((C,1,1) for 'CHW', its
# default; (1,1,C) for 'HWC'): an image of the other layout cannot be broadcast against them (2.x-3.x
# vision/transforms/functional_cv2.py, functional_pil.py, functional_tensor.py normalize).
_VISION_NORMALIZE = re.compile(r"paddle[/\\]vision[/\\]transforms[/\\]functional(?:_cv2|_pil|_tensor)?\.py$")
_BROADCAST_SHAPES = re.compile(r"shapes \((?P<img>\d+,\d+,\d+)\) \((?P<mean>\d+(?:,\d*)*)")


def from_normalize_layout(parts: ErrorParts) -> Verdict | None:
    """numpy's broadcast error inside Paddle's Normalize where the image's channels sit on the other axis than the
    mean's: the image's layout is not the data_format it was given (another channel count is not this)."""
    m = _BROADCAST_SHAPES.search(parts.message) if parts.exc_type == "ValueError" else None
    if m is None or not any(f.func == "normalize" and _VISION_NORMALIZE.search(f.path) for f in parts.frames):
        return None
    img = [int(n) for n in m["img"].split(",")]
    mean = [int(n) for n in m["mean"].split(",") if n]  # the paste may cut the second shape
    chw_mean_on_hwc = mean[0] != 1 and img[-1] == mean[0]
    hwc_mean_on_chw = len(mean) == 3 and mean[0] == 1 and img[0] == mean[-1]
    if not (chw_mean_on_hwc or hwc_mean_on_chw):
        return None
    return Verdict(CauseId.config_error, 70, "Paddle's Normalize could not broadcast its mean and std against the image "
                   "(shaped for its data_format): the image is HWC where data_format is 'CHW' (its default), or the "
                   "reverse; set data_format to the image's layout, or transpose the image first", "call", sure=False)


# SWIG's generated wrappers look an attribute up in their own table and raise AttributeError (SWIG 1.3-2.x
# ``_swig_getattr``: ``raise AttributeError(name)``; 3.0: "'%s' object has no attribute '%s'"): Paddle's swig API
# (py_paddle, 0.x's v2) lacks what the caller asks of it.
_SWIG_PADDLE = re.compile(r"(?:^|[/\\])py_paddle[/\\]swig_paddle\.py$")
_SWIG_NAME = re.compile(r"^(?:'\w+' object has no attribute '(?P<quoted>\w+)'|(?P<bare>\w+))$")


def from_swig_attribute(parts: ErrorParts) -> Verdict | None:
    """An AttributeError raised by Paddle's SWIG wrapper lookup, called from the code's own line: code written for
    another release of Paddle's swig API than the one installed."""
    frames, m = parts.frames, _SWIG_NAME.match(parts.message.strip())
    if parts.exc_type != "AttributeError" or m is None or not frames or frames[-1].func != "_swig_getattr":
        return None
    name = m["quoted"] or m["bare"]
    swig = [f for f in frames if _SWIG_PADDLE.search(f.path)]
    caller = next((f for f in reversed(frames) if f not in swig), None)
    if not swig or caller is None or not re.search(rf"\.{re.escape(name)}\b", caller.source or ""):
        return None
    return Verdict(CauseId.paddle_api_mismatch, 70, f"`{caller.source.strip()[:80]}` asks Paddle's swig API for "
                   f"{name}, which this build's py_paddle lacks: the code was written for another Paddle release "
                   "(its docker image or wheel)", "call", sure=False)


# A dataclass's generated __init__ runs its __post_init__, where arguments classes (PaddleNLP's TrainingArguments,
# PaddleMIX's and PaddleFormers' copies of it, any HfArgumentParser-style parser) check the values they were given
# together: a ValueError there is the arguments (the command line, a JSON or YAML of settings) rejected before any work.
_VALUE_CHECKS = ("ValueError", "AssertionError", "NotImplementedError")
# what says the dataclass holds the run's arguments: a parser's frame above it, or a file of arguments or settings
_ARGUMENTS_PARSER = re.compile(r"^parse_(?:args|known_args|args_into_dataclasses|json_file|yaml_file|dict)$")
_ARGUMENTS_FILE = re.compile(r"(?:^|[/\\])(?:\w+_)?(?:args|arguments|argparser)\.py$|(?:^|[/\\])(?:config|configuration|"
                            r"settings)\.py$")


def from_argument_check(parts: ErrorParts) -> Verdict | None:
    """An arguments dataclass's own check (its ``__post_init__``, called by the generated ``__init__``) rejected the
    values it was built with: the configuration given to the run."""
    frame = parts.innermost
    if parts.exc_type not in _VALUE_CHECKS or frame is None or frame.func != "__post_init__" or frame.owner == "paddle":
        return None
    built = any(f.func == "__init__" and f.path == "<string>" for f in parts.frames[:-1])  # the generated __init__
    arguments = any(_ARGUMENTS_PARSER.match(f.func) for f in parts.frames) or _ARGUMENTS_FILE.search(frame.path)
    if not built or not arguments:
        return None
    return Verdict(CauseId.config_error, 65, f"the arguments class's own check ({frame.module}, in __post_init__) rejects "
                   f"the values it was given ({parts.message[:80]}): the run's arguments or settings do not fit "
                   "together", "call")


# Paddle's C++ on Windows (1.x-2.x) opens model files through narrow-character paths, which cannot hold a character
# outside the ANSI code page: a model under a folder named in Chinese (C:\Users\华康\.paddlehub\modules\...) is not
# opened, and creating the predictor fails with whatever that build says ("Unknown exception", "Cannot open file").
# A space belongs to the path when the word after it still has a separator (`C:\Program Files\模型\x`)
# and is not another drive's path: each space looks ahead one word only, so the match stays linear.
_WINDOWS_PATH = re.compile(r"(?<![\w])[A-Za-z]:[\\/](?:[^\s\"'<>|*?]| (?![A-Za-z]:)(?=[^\s\"'<>|*?]*[\\/])){1,300}")
_MODEL_LOADING_CALL = re.compile(r"\b(?:create_paddle_predictor|create_predictor|load_inference_model|AnalysisConfig|"
                                 r"jit\.load|load_program_state|set_model(?:_from_file)?)\(")
_OPEN_FAILURES = ("RuntimeError", "OSError", "IOError", "EnforceNotMet", "Exception", "NotFoundError",
                  "PreconditionNotMetError", "UnavailableError", "ExternalError")
# what such a build says: nothing (an uncaught C++ exception turned into "Unknown exception") or that it cannot open
_LIBRARY_FILE = re.compile(r"\.(?:dll|so(?:\.\d+)*|dylib)\b", re.I)
# (a paste cut after Paddle's error class, "(NotFound)", keeps only the class: the same failure to find the file)
_OPEN_FAILED = re.compile(r"Unknown exception|[Cc]an ?not (?:open|load|read|find)|[Ff]ail(?:ed|s)? to (?:open|load|read)|"
                          r"[Nn]o such file|(?:does not|doesn't|not) exists?|[Nn]ot found|^\(NotFound\)\s*$")


def from_unopenable_model_path(parts: ErrorParts) -> Verdict | None:
    """A model loaded from a Windows path with non-ASCII characters, failing in Paddle's loader: the path."""
    if parts.exc_type not in _OPEN_FAILURES or not _OPEN_FAILED.search(parts.message):
        return None
    loading = next((f for f in reversed(parts.frames) if _MODEL_LOADING_CALL.search(f.source)), None)
    if loading is None:
        return None
    if _LIBRARY_FILE.search(parts.message):
        return None  # a DLL or shared library not found: a library load, read by the library rows
    # the path the message names, else the loading frame's own file (a hub module's folder holds its model)
    named = [m.group(0) for m in _WINDOWS_PATH.finditer(parts.message)]
    where = next((p for p in named or _WINDOWS_PATH.findall(loading.path) if not p.isascii()), None)
    if where is None:
        return None
    return Verdict(CauseId.file_not_found, 70, f"`{loading.source.strip()[:60]}` loads a model under a Windows path "
                   f"with non-ASCII characters ({where[:60]}...), which Paddle's loader on Windows cannot "
                   "open: move the model (or HUB_HOME, the suite's model folder) to an ASCII-only path", "call")


# CPython's os.makedirs(name, exist_ok=True) raises FileExistsError only when ``name`` exists and is not a directory
# (Lib/os.py: "if not exist_ok or not path.isdir(name): raise"): the path the code makes a folder of names a file. A
# setting that points at a file (a model file given as the model directory) where the code wants a folder.
_MAKEDIRS_EXIST_OK = re.compile(r"\bmakedirs\(.*\bexist_ok\s*=\s*True\b")


def from_makedirs_on_file(parts: ErrorParts) -> Verdict | None:
    """FileExistsError from a makedirs(..., exist_ok=True) call in the frames: the path is a file, not a folder."""
    if parts.exc_type != "FileExistsError":
        return None
    call = next((f for f in reversed(parts.frames) if _MAKEDIRS_EXIST_OK.search(f.source or "")), None)
    if call is None:
        return None
    return Verdict(CauseId.config_error, 60, f"os.makedirs(..., exist_ok=True) raises FileExistsError only when the path "
                   f"exists and is not a directory ({call.source.strip()} in {call.func}): a setting names a file where "
                   "a folder is wanted", "call", sure=False)


# json.loads of a value the command line or the config gives (``json.loads(args.run_config)``, ERNIE's propeller demos):
# a JSONDecodeError there says the value given is not JSON (a path where a JSON string is wanted, shell quoting lost).
_JSON_MODULE = re.compile(r"[/\\]json[/\\](?:__init__|decoder|scanner)\.py$")
_JSON_OF_SETTING = re.compile(rf"\bjson\.loads?\(\s*(?:{SETTINGS_NAME})\.(?P<name>\w+)\s*\)")


def from_setting_not_json(parts: ErrorParts) -> Verdict | None:
    """A JSONDecodeError where the frame that called json parses an argument or config value."""
    if parts.exc_type != "JSONDecodeError":
        return None
    caller = next((f for f in reversed(parts.frames) if not _JSON_MODULE.search(f.path)), None)
    m = _JSON_OF_SETTING.search(caller.source or "") if caller is not None else None
    if m is None:
        return None  # the value parsed is not a setting, or the frame that parsed it is not in the text
    return Verdict(CauseId.config_error, 65, f"the code parses the setting {m['name']} as JSON ({m.group(0)}) and the "
                   "value given is not JSON", "call", sure=False)


# CPython's TypeError for calling an object without __call__, at a line of the user's that calls what one of Paddle's
# reader APIs returned (``paddle.dataset.imdb.train(word_dict)()``): a reader creator in one release, the reader (a
# generator) in another. Any other call's result is the user's own slip.
_NOT_CALLABLE = re.compile(r"^'\w+' object is not callable$")
_CALLS_READER_RESULT = re.compile(r"\b(?:paddle|fluid)\.(?:v2\.)?(?:dataset|reader)\.[\w.]+\([^()]*\)\s*\(")


def from_called_result(parts: ErrorParts) -> Verdict | None:
    """A reader API's result called as the other release's kind of object: code written for another version."""
    frame = parts.innermost
    if parts.exc_type != "TypeError" or frame is None or frame.owner != "user":
        return None
    if not _NOT_CALLABLE.match(parts.message) or not _CALLS_READER_RESULT.search(frame.source):
        return None
    return Verdict(CauseId.paddle_api_mismatch, 70, f"`{frame.source[:80]}` calls what a Paddle reader API returned, "
                   f"which is not callable in this version ({parts.message[:60]}): code written for another version",
                   "call")
