"""Signatures: forms of a Python exception line the generic rows do not read: a class named in lower case
(``cv2.error``, ``socket.gaierror``), a builtin's name whose case a paste changed, Paddle's own messages pasted without
their type, a traceback pasted on one line.
Spliced into :data:`.rows.libraries.LIBRARIES` (see there where each goes).
"""

from __future__ import annotations

import builtins

from ...catalog.ids import CauseId
from .model import sig as _sig

# Python's own exception classes (its builtins module): the names a run-together traceback may end on, longest first.
_BUILTIN_ERRORS = "|".join(sorted((name for name, obj in vars(builtins).items() if name.endswith("Error")
                                   and isinstance(obj, type) and issubclass(obj, BaseException)), key=len, reverse=True))

# Spliced by libraries.py right after the generic exception row (before the catch-all error_line): a
# specific row for one of these lines (socket.error's 'Address already in use') still wins.
EXCEPTION_LINE_FORMS = (
    _sig("exception_lowercase_class", r"^(?P<exc>(?:cv2|socket|select|ssl|lmdb|h5py|zmq)\.(?:error|gaierror|"
         r"herror|timeout|Error))(?::\s?(?P<msg>.*))?$", "exception", CauseId.python_exception, 50,
         "socket.gaierror: [Errno -2] Name or service not known",
         title="{exc}: {msg}",
         source="CPython Modules/socketmodule.c (socket.gaierror, socket.herror, socket.timeout: an alias of "
                "TimeoutError from 3.10), Modules/selectmodule.c (select.error); OpenCV's cv2.error (cv::Exception); "
                "lmdb.Error, h5py and pyzmq's exceptions, printed by CPython's traceback.py as '<module>.<name>: <msg>'"),
    # A builtin exception's name with its case changed ("typeError:", "valueerror:"): CPython never prints it so, but a
    # paste retyped or auto-capitalised by an editor or a chat does. Read as that exception (the correctly spelled
    # names are the generic row's, read first).
    _sig("exception_case_changed", rf"^(?=[a-z])(?P<exc>(?i:{_BUILTIN_ERRORS}))\s?:\s?(?P<msg>.*\S)", "exception",
         CauseId.python_exception, 50, "typeError: cannot unpack non-iterable bool object", title="{exc}: {msg}",
         most="medium", source="CPython traceback.py (<type>: <message>, the class name as defined: builtins' "
                               "*Error classes), as a retyped paste shows it"),
    # Paddle's own messages that say what was called wrong, pasted without the exception type before them (an issue's
    # one line): still the exception, read as the generic one (the corpus's label for each).
    _sig("paddle_message_untyped", r"^(?P<msg>We only support '[\w.]+\(\)' in dynamic graph mode\b.*|"
         r"Tensor holds the wrong type, it holds \w+(?:, but desires to be \w+)?\b.*)$",
         "exception", CauseId.python_exception, 50, "Tensor holds the wrong type, it holds double, but desires to be float",
         title="{msg}", most="medium",
         source="pp 2.x-3.x python/paddle/base/framework.py _dygraph_only_ / _non_static_only_ (assert ..., \"We only "
                "support '%s()' in dynamic graph mode, please call 'paddle.disable_static()' to enter dynamic graph "
                "mode.\"; 2.6.2); pp 1.x-2.x "
                "framework/tensor_impl.h Tensor::data (\"Tensor holds the wrong type, it holds %s, but desires to be "
                "%s.\"; 1.8.5 core_avx.so)"),
)


# Spliced by libraries.py before its traceback rows: such a line starts like a frame or a traceback header, which
# would take it; every specific row before them still reads the line first.
RUN_TOGETHER_ROWS = (
    # A traceback pasted with its line breaks lost (copied from a screenshot's text, a web form): the frames and the
    # exception run together on one line, the exception's name glued to the source line before it. Only Python's own
    # exception classes, only after a frame's "line N, in" on the same line, so a normal log never reads so. The span
    # after the last frame's "line N, in" does not cross another frame's (linear on a line of many frames).
    _sig("exception_run_together", r"\bline \d+ ?[,，] ?in ?(?:[^\nl]|l(?!ine \d)){0,160}?(?<=[a-z\d)\]'\"])(?=[A-Z][a-z])"
         rf"(?P<exc>{_BUILTIN_ERRORS}): ?(?P<msg>[^\n]{{0,120}}?)(?=\d{{4}}-\d\d-\d\d|Traceback|File|$)",
         "exception", CauseId.python_exception, 45,
         "Traceback (most recent call last):File \"/w/u2.py\", line 532, in attention rescoringassert speech.shape[0] == "
         "lengths.shape[0]IndexError: list index out of range2024-01-21 15:09:16,837",
         title="{exc}: {msg} (a traceback pasted on one line)", most="medium",
         source="CPython traceback.py (File \"%s\", line %d, in %s; then <type>: <message>), as a paste that lost its "
                "line breaks shows them; the class names from CPython's builtins"),
    # The same paste ending on Paddle's own exception (fluid's EnforceNotMet, core's *Error), which follows the last
    # frame's source after a space, with its module path, and runs on into Paddle's call stacks.
    _sig("paddle_exception_run_together", r"\bline \d+ ?, ?in ?(?:[^\nl]|l(?!ine \d)){0,160}?\s(?P<exc>(?:paddle\."
         r"(?:fluid|base)\.core\.)?EnforceNotMet|paddle\.(?:fluid|base)\.core\.[A-Z]\w*Error): ?(?P<msg>[^\n]{0,160}?)"
         r"(?=\s*(?:Python Call ?[Ss]tacks|C\+\+ Call ?[Ss]tacks|PaddlePaddle Call Stacks|\[operator|File \")|$)",
         "exception", CauseId.python_exception, 45,
         "Traceback (most recent call last): File \"x.py\", line 591, in _run exe.run(program.desc, scope, 0, True, "
         "True) paddle.fluid.core.EnforceNotMet: Invoke operator fill_constant error. Python Callstacks: File \"a.py\"",
         title="{exc}: {msg} (a traceback pasted on one line)", most="medium",
         source="pp 1.x python/paddle/fluid/executor.py (the EnforceNotMet of core, printed by CPython's traceback.py "
                "after the frames; \"Python Callstacks:\" / \"PaddlePaddle Call Stacks:\" from platform/enforce.h), as a "
                "paste that lost its line breaks shows them"),
)
