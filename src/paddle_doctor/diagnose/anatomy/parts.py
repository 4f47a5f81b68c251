"""An error, read into its parts: exception type, Paddle's error class, summary and hint, operator,
C++ position, numeric codes, traceback frames.

Paddle wrote the same parts differently in each era (``EnforceNotMet: ... at [file:N]`` in 0.x-1.x,
``ExternalError: Cuda error(3), ...`` and ``OSError: (External) CUDA error(3) ... (at file:N)`` in 2.x,
``[operator < x > error]``, ``Error Message Summary``); the patterns below are case- and
spacing-tolerant so that one rule reads every spelling.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from ...catalog.ids import CauseId
from ...lazy import lazy_compile

# Paddle's error classes: enforce.h / errors.h (1.8-3.x) name them in parentheses or as a type suffix.
ERROR_CLASSES = ("InvalidArgument", "NotFound", "OutOfRange", "AlreadyExists", "ResourceExhausted",
                 "PreconditionNotMet", "PermissionDenied", "ExecutionTimeout", "Unimplemented", "Unavailable",
                 "Fatal", "External")
_CLASS_RE = lazy_compile(r"\((" + "|".join(ERROR_CLASSES) + r")\)|\b(" + "|".join(ERROR_CLASSES) + r")Error\b"
                       r"|\b(EnforceNotMet)\b")
# An exception line may follow a bracketed prefix (a time, a logger) or a reporter's few words in another script
# and a colon ("报错：RuntimeError: ..."), as pasted.
_EXC_RE = lazy_compile(r"^(?:\[[^\]]*\]\s*|[^\x00-\x7f]{1,12}[：:]\s*|(?i:error):\s+(?!Exception:?\s*$))?(?P<type>(?:[A-Za-z_][\w]*\.)*(?:Exception|[A-Z]\w*(?:Error|Exception|NotMet|Exit|"
                     r"Interrupt|Exhausted)))(?:\s*:\s?(?P<msg>.*))?$")
# After a traceback's frames, the exception line is the first unindented line, whatever its type's
# name (CPython traceback.py): ``Exception: ...``, ``cv2.error: ...``, ``StopIteration``.
_AFTER_FRAMES_RE = lazy_compile(r"^(?P<type>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::\s?(?P<msg>.*)|\s*)$")
# A glog line glued to a print that did not end its line ("...in a single call.F1114 03:19:54.470163 96 x.cc:73] ..."):
# Python's print(end="") or a C++ cout without endl, then glog's header. Glued after punctuation only, so a word that
# happens to end in F and digits is not read as a header. (The signature rows of glog's lines use it too.)
GLUED = r"(?:[^\n]{0,2000}?(?<=[^\w\s]))?"
# glog's header before a 1.x enforce message (its own line, or glued after a print): the message is what follows it
GLOG_HEADER = rf"(?:{GLUED}[IWEF]\d{{4}} [\d:.]+\s+\d+ \S+:\d+\]\s*)?"
# glog's fatal check (logging.h CHECK/CHECK_EQ): ``F1125 15:44:39.26 200102 file.h:62] Check failed: A == B (1 vs. 0)``,
# glued or not, as the glog_check_failed row reads it.
_GLOG_CHECK_RE = lazy_compile(rf"^{GLUED}F\d{{4}} [\d:.]+\s+\d+ \S+:\d+\]\s*Check failed:\s*(?P<msg>.*)$")
# The hint ends at its first "]" (as a lazy match would end it); the bounded class keeps repeated hints linear.
_HINT_RE = lazy_compile(r"\[\s*Hint\s*:\s*(?P<hint>[^\]]{0,1000})\]", re.I)
# The op registry's lookups: op_info.h (``Operator (x) is not registered.``), framework.py get_op_proto (``Operator
# "x" has not been registered.``) and operator.cc's kernel lookup (``There are no kernels which are registered in the x
# operator.``). Paddle 1.4's op_info.h check of a gradient's maker printed "Operator GradOpMaker has not been
# registered" without the op's name: that word is not an operator.
_OPERATOR_RE = lazy_compile(r"\[\s*operator\s*<\s*(?P<op>[\w.]+)\s*>\s*error\s*\]|\bOperator\s+\"?(?!GradOpMaker\b)(?P<op2>\w+)\"?\s+"
                          r"(?:raises|has not been registered)|operator\s+(?P<op3>\w+)\s+(?:raises|error)"
                          r"|\bOperator\s*\(\s*(?P<op4>\w+)\s*\)\s*is not registered"
                          r"|no kernels which are registered in the (?P<op5>\w+) operator", re.I)
_CPP_RE = lazy_compile(r"(?:\bat\s*[\[(]?\s*|enforce fail at\s*|^\s*what\(\):\s*\[|\[)(?P<file>(?:[A-Za-z]:)?/?[\w./\\-]{0,300}?"
                     r"(?P<base>[\w-]{1,120}\.(?:cc|cu|h|cpp|hpp|cuh))):(?P<line>\d+)", re.I)
_FRAME_RE = lazy_compile(r'^\s*(?:>\s*)?File "(?P<path>[^"]+)", line (?P<lineno>\d+), in (?P<func>\S+)')
# A notebook's (IPython's ultratb) frame header and the line it was running ("----> 1 code", after context lines).
# The same patterns are the signature rows ipython_frame and ipython_current_line (signatures/rows/libraries.py).
# IPython 7's frame header (``path.py in func(args)``), a cell's (``Cell In [3], line 5``), and IPython 8's
# (``File ~/lib/x.py:34, in func(args)``; no ``, in`` at a module's top level; Spyder's console writes ``x.py:34 in func``).
# Colab writes the header's file as a Markdown link to itself ("[/usr/.../taskflow.py](https://localhost:8080/#) in ...").
NOTEBOOK_FRAME = (r"^\s*(?:\[?(?P<path>[^\s\[\]]+\.py|<ipython-input-[\w-]+>)(?:\]\([^()\s]{0,200}\))? in (?P<func>[\w<>.]+)\(|"
                  r"(?P<cell>Cell In ?\[\d*\]), line \d+|File (?P<path8>(?:[A-Za-z]:)?[^:\"\n]+?\.py):\d+"
                  r"(?:,? in (?P<func8>[\w<>.]+))?)")
NOTEBOOK_LINE = r"^\s*-+>\s*\d+\s+(?P<code>\S.*)$"
_NOTEBOOK_FRAME_RE = lazy_compile(NOTEBOOK_FRAME)
_NOTEBOOK_LINE_RE = lazy_compile(NOTEBOOK_LINE)
_CODE_RES = (
    ("cuda", lazy_compile(r"\bcuda\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    ("cuda", lazy_compile(r"\b(?P<name>cudaError\w+)")),
    ("cuda_driver", lazy_compile(r"\b(?P<name>CUDA_ERROR_[A-Z_]+)")),
    ("cuda", lazy_compile(r"cudaGetLastError.*?errno\s*:\s*(?P<num>\d+)", re.I)),
    # ROCm builds: enforce.h's "Hip error(%d), %s." (hipGetErrorString); hipError_t keeps CUDA's values and
    # texts for the errors both have (hip_runtime_api.h: OutOfMemory 2, NoDevice 100, NoBinaryForGpu 209, ...)
    ("hip", lazy_compile(r"\bhip\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    ("nccl", lazy_compile(r"\bnccl\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    ("nccl", lazy_compile(r"\b(?P<name>nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidArgument|"
                        r"InvalidUsage|RemoteError|InProgress|Timeout))\b")),
    ("cudnn", lazy_compile(r"\b(?P<name>CUDNN_STATUS_[A-Z_]+)")),
    ("cudnn", lazy_compile(r"\bcudnn\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    ("cublas", lazy_compile(r"\b(?P<name>CUBLAS_STATUS_[A-Z_]+)")),
    ("cublas", lazy_compile(r"\bcublas\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    ("cusolver", lazy_compile(r"\b(?P<name>CUSOLVER_STATUS_[A-Z_]+)")),
    ("cusolver", lazy_compile(r"\bcusolver\s*error\s*\(\s*(?P<num>\d+)\s*\)", re.I)),
    # a failed CHECK_EQ on a library call's status (glog prints both values: "(1 vs. 0)"); the 0.x
    # trainer wrote the success constant first (hl_cuda_device.cc CHECK_EQ(cudaSuccess, cudaStat),
    # hl_cuda_cudnn.cc CHECK_EQ(CUDNN_STATUS_SUCCESS, cudnnStat)): then the status is the second value
    ("nccl", lazy_compile(r"==\s*ncclSuccess\s*\((?P<num>\d+)\s*vs\.?\s*0\)|"
                          r"\bncclSuccess\s*==\s*\w+\s*\(0\s*vs\.?\s*(?P<num2>\d+)\)")),
    ("cuda", lazy_compile(r"==\s*cudaSuccess\s*\((?P<num>\d+)\s*vs\.?\s*0\)|"
                          r"\bcudaSuccess\s*==\s*\w+\s*\(0\s*vs\.?\s*(?P<num2>\d+)\)")),
    ("cudnn", lazy_compile(r"\bCUDNN_STATUS_SUCCESS\s*==\s*\w+\s*\(0\s*vs\.?\s*(?P<num>\d+)\)|"
                           r"==\s*CUDNN_STATUS_SUCCESS\s*\((?P<num2>\d+)\s*vs\.?\s*0\)")),
    ("cublas", lazy_compile(r"==\s*CUBLAS_STATUS_SUCCESS\s*\((?P<num>\d+)\s*vs\.?\s*0\)")),
    ("errno", lazy_compile(r"\[Errno\s*(?P<num>\d+)\]")),
    # Paddle 1.x's failed runtime call ("cudaGetDeviceCount failed in ..., error code : 35") and its
    # host allocator's failed posix_memalign ("Fail to alloc memory of N size, error code is 12": errno)
    ("cuda", lazy_compile(r"\bcuda[A-Z]\w* failed\b.*?\berror code\s*:\s*(?P<num>\d+)")),
    # Paddle 1.7-1.8's stream and device checks ("cudaStreamSynchronize raises error: %s, errono: %d", its own typo)
    ("cuda", lazy_compile(r"\bcuda[A-Z]\w* raises error\b.*?\berrono?\s*:\s*(?P<num>\d+)")),
    ("errno", lazy_compile(r"\bFail(?:ed)? to alloc(?:ate)? memory of \d+ size, error code is (?P<num>\d+)")),
    ("signal", lazy_compile(r"killed by signal\s*:?\s*(?P<num>\d+)|\bsignal\s+(?P<num2>\d+)\b", re.I)),
)
# A literal each pattern above cannot match without, and whether it is compared case-blind (on the
# lower-cased line, and only on an ASCII line: Unicode case folding differs beyond ASCII): a line
# without it is not searched, and the pattern is compiled only for a line that has it.
_CODE_LITERALS = (("cuda", True), ("cudaError", False), ("CUDA_ERROR_", False), ("cudagetlasterror", True), ("hip", True),
                  ("nccl", True), ("nccl", False), ("CUDNN_STATUS_", False), ("cudnn", True),
                  ("CUBLAS_STATUS_", False), ("cublas", True), ("CUSOLVER_STATUS_", False), ("cusolver", True),
                  ("ncclSuccess", False), ("cudaSuccess", False),
                  ("CUDNN_STATUS_SUCCESS", False), ("CUBLAS_STATUS_SUCCESS", False),
                  ("[Errno", False), (" failed", False), (" raises error", False), ("to alloc", False), ("signal", True))
_CLASS_WORDS = (*ERROR_CLASSES, "EnforceNotMet")


def _holds(line: str, lowered: str | None, literal: str, caseless: bool) -> bool:
    if not caseless:
        return literal in line
    return lowered is None or literal in lowered  # a non-ASCII line is always searched


# Where a frame's file lives: Paddle's package (any OS separator), the standard library, or the user.
_PADDLE_PATH = lazy_compile(r"[/\\](?:site|dist)-packages[/\\]paddle[/\\]|[/\\]paddle[/\\](?:fluid|distributed|"
                          r"framework|io|base|nn|incubate|utils|device|hapi|jit|static)[/\\]|"
                          # the v1 API's packages in a source tree (Paddle/python/paddle/proto/...), not the root
                          # /paddle a container mounts the user's code at
                          r"[/\\][^/\\]+[/\\]paddle[/\\](?:proto|trainer_config_helpers)[/\\]")
_INSTALLED_RE = lazy_compile(r"[/\\](?:site|dist)-packages[/\\](?P<top>\w+)[/\\]")
_LIB_PATH = lazy_compile(r"[/\\](?:site|dist)-packages[/\\]|[/\\]lib[/\\]python\d[\d.]*[/\\]|^<frozen ")
# A suite's own package (PaddlePaddle's libraries built on Paddle): installed (any paddle*/pp* package, PARL, PGL,
# PASSL under site-/dist-packages) or in a source checkout (PaddleDetection-master/ppdet/..., the suites' import
# names). Its code is of one release: a call or a read it does not fit is another release's (Paddle's, a config's).
# The suites' own packages, as a clone or a wheel holds them (PaddleOCR's ppocr and ppstructure, PaddleDetection's ppdet,
# ...): one release's scripts import names of the same release's package, so a name its package lacks is two releases
# mixed (a wheel's tools with a clone's ppocr, an old checkout's scripts with a newer package).
SUITE_PACKAGES = (r"(?:ppocr|ppstructure|ppdet|ppcls|paddleseg|paddlevideo|paddle3d|paddlers|ppsci|ppfleetx|paddlemix|"
                  r"ppdiffusers)")
_SUITE_PATH = lazy_compile(r"[/\\](?:site|dist)-packages[/\\](?P<installed>paddle\w+|pp\w+|parl|pgl|passl)[/\\]|"
                           rf"[/\\](?P<checkout>{SUITE_PACKAGES}|ppgan|paddlenlp|paddlespeech|paddlex|parl|pgl|passl)[/\\]")
# A suite's clone by its repository's folder name (PaddleSeg-release-2.8, PaddleOCR), whose scripts (contrib/,
# deploy/, tools/) live beside the package _SUITE_PATH reads.
_SUITE_CLONE = lazy_compile(r"[/\\]Paddle(?:Seg|OCR|Detection|Clas|NLP|Speech|GAN|Video|3D|X|Rec|Slim|Hub|MIX|RS|Sleeve|"
                            r"Helix|Science|TS|FleetX|YOLO)[\w.-]*[/\\]")


@dataclass(frozen=True)
class Code:
    kind: str  # cuda | cuda_driver | hip | nccl | cudnn | cublas | cusolver | errno | signal
    number: int | None = None
    name: str | None = None


@dataclass
class Frame:
    path: str
    func: str
    source: str = ""  # the source line Python printed under the frame

    @property
    def owner(self) -> str:
        """``paddle`` (Paddle's own Python), ``library`` (stdlib, other packages) or ``user``."""
        if _PADDLE_PATH.search(self.path.replace("\\\\", "\\")):
            return "paddle"
        return "library" if _LIB_PATH.search(self.path) else "user"

    @property
    def suite(self) -> tuple[str, bool] | None:
        """(the suite's package, whether it is installed) when the frame is a suite's own code, else None."""
        m = _SUITE_PATH.search(self.path)
        return (m["installed"], True) if m and m["installed"] else (m["checkout"], False) if m else None

    @property
    def in_suite_clone(self) -> bool:
        """Whether the frame's file is in a suite's clone, outside its package too (contrib/, deploy/, tools/)."""
        return bool(_SUITE_CLONE.search(self.path))

    @property
    def in_package_code(self) -> bool:
        """Whether the frame is a suite's code (its package or clone) or an installed package's, not the user's script."""
        return self.suite is not None or self.installed_package is not None or self.in_suite_clone

    @property
    def installed_package(self) -> str | None:
        """The top-level package under site-/dist-packages the frame's file belongs to (``shapely``), or None."""
        m = _INSTALLED_RE.search(self.path)
        return m["top"] if m else None

    @property
    def module(self) -> str:
        """The path below the paddle package, with / separators (``distributed/fleet/launch_utils.py``)."""
        path = self.path.replace("\\", "/")
        # the package under site-packages first: an environment may itself be called "paddle"
        m = re.search(r"/(?:site|dist)-packages/paddle/(.*)$", path) or re.search(r"/paddle/(.*)$", path)
        return m.group(1) if m else path.rsplit("/", 1)[-1]


@dataclass
class ErrorParts:
    exc_type: str = ""  # short name (``EnforceNotMet``, ``OSError``)
    qualified: str = ""  # as written (``paddle.fluid.core.EnforceNotMet``)
    message: str = ""
    error_class: str = ""  # External, InvalidArgument, ..., EnforceNotMet
    hint: str = ""
    operator: str = ""
    cpp_file: str = ""  # the path as written
    cpp_line: int | None = None
    codes: list[Code] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    text: str = ""  # every line of the block, joined, for the component tables

    @property
    def innermost(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def innermost_of(self, owner: str) -> Frame | None:
        return next((f for f in reversed(self.frames) if f.owner == owner), None)

    @property
    def dataloader_worker(self) -> bool:
        return any("dataloader/worker.py" in f.module or "dataloader\\worker.py" in f.path for f in self.frames) or \
            bool(re.search(r"DataLoader worker\s*\(\d+\)\s*caught", self.text))


def parse_block(lines: list[str]) -> ErrorParts:
    """Read the lines of one error block (frames, the exception line, what follows it) into parts."""
    parts = ErrorParts(text="\n".join(lines))
    previous = ""
    for line in lines:
        if parts.frames and _FRAME_RE.match(previous) and not _FRAME_RE.match(line) and \
                (line.startswith("    ") or _unindented_source(previous, line)):
            parts.frames[-1].source = line.strip()
        else:
            _read_line(parts, line.rstrip())
        if line.strip():  # a double-spaced paste (a blank line after each) keeps a frame's source after it
            previous = line
    return parts


def _unindented_source(frame_line: str, line: str) -> bool:
    """A paste that lost the traceback's indentation (copied from a rendered page): each frame's source line follows
    it at the margin too. The exception line after a frame with no source is not one (``cv2.error: ...``,
    ``StopIteration``: a dotted name with a message, or a capitalised bare name; not a statement's keyword)."""
    if not frame_line.lstrip("> ").startswith("File ") or frame_line.startswith(" ") or not line.strip():
        return False
    said = _AFTER_FRAMES_RE.match(line.strip())
    exception = said is not None and not keyword.iskeyword(said["type"]) and \
        (said["msg"] is not None or said["type"].rsplit(".", 1)[-1][:1].isupper())
    return not (exception or _EXC_RE.match(line.strip()))


def _read_notebook_frame(parts: ErrorParts, line: str) -> bool:
    """A notebook traceback's frame header (a frame, a cell's named as the user's) or its current line (the
    last frame's source), when ``line`` is one."""
    if "->" in line:
        current = _NOTEBOOK_LINE_RE.match(line)
        if current and parts.frames:
            parts.frames[-1].source = current["code"].strip()
            return True
    if " in " not in line and "Cell In" not in line and "File " not in line:
        return False
    header = _NOTEBOOK_FRAME_RE.match(line)
    if header is None:
        return False
    parts.frames.append(Frame(header["path"] or header["path8"] or header["cell"],
                              header["func"] or header["func8"] or "<module>"))
    return True


def _exception_line(parts: ErrorParts, line: str) -> dict | None:
    """The type and message a line states: an ``...Error``/``...Exception`` line anywhere, any
    dotted name at the start of the line that follows the frames, or glog's ``Check failed``."""
    m = _EXC_RE.match(line.strip())
    if m:
        return m.groupdict()
    if parts.frames and not line[:1].isspace():
        m = _AFTER_FRAMES_RE.match(line.strip())
        if m and (m["msg"] is not None or m["type"].rsplit(".", 1)[-1][:1].isupper()):
            return m.groupdict()
    m = _GLOG_CHECK_RE.match(line.strip()) if "Check failed" in line else None
    return {"type": "CheckFailed", "msg": m["msg"]} if m else None


def _read_line(parts: ErrorParts, line: str) -> None:
    frame = _FRAME_RE.match(line)
    if frame:
        parts.frames.append(Frame(frame["path"], frame["func"]))
        return
    if _read_notebook_frame(parts, line):
        return
    exc = _exception_line(parts, line)
    if exc and not parts.exc_type:
        parts.qualified = exc["type"]
        parts.exc_type = exc["type"].rsplit(".", 1)[-1]
        parts.message = (exc["msg"] or "").strip()
    lowered = line.lower() if line.isascii() else None
    cls = _CLASS_RE.search(line) if any(word in line for word in _CLASS_WORDS) else None
    if cls and not parts.error_class:
        parts.error_class = next(g for g in cls.groups() if g)
    for regex, attr in ((_HINT_RE, "hint"),):
        m = regex.search(line) if _holds(line, lowered, "hint", True) else None
        if m and not getattr(parts, attr):
            setattr(parts, attr, m["hint"].rstrip())
    op = _OPERATOR_RE.search(line) if _holds(line, lowered, "operator", True) else None
    if op and not parts.operator:
        parts.operator = op["op"] or op["op2"] or op["op3"] or op["op4"] or op["op5"]
    cpp = _CPP_RE.search(line) if "." in line and ":" in line else None
    if cpp and not parts.cpp_file:
        parts.cpp_file, parts.cpp_line = cpp["file"], int(cpp["line"])
    for (kind, regex), (literal, caseless) in zip(_CODE_RES, _CODE_LITERALS):
        if not _holds(line, lowered, literal, caseless):
            continue
        for m in regex.finditer(line):
            groups = {k: v for k, v in m.groupdict().items() if v}
            num = groups.get("num") or groups.get("num2")
            code = Code(kind, int(num) if num else None, groups.get("name"))
            if code not in parts.codes:
                parts.codes.append(code)


@dataclass(frozen=True)
class Verdict:
    cause: CauseId
    specificity: int
    why: str
    part: str  # which part decided: one of rules.STRUCTURE_PARTS (code, operator, cpp_file, ...)
    # False for a library status that names nothing read as its library's generic id (cuDNN's, cuBLAS's
    # INTERNAL_ERROR, MAPPING_ERROR, ...): the library failed for a reason the code does not say, so
    # the verdict may not be surer than medium. The CUDA runtime's own faults (illegal address, launch
    # failure) are what the generic cause describes and stay sure.
    sure: bool = True
