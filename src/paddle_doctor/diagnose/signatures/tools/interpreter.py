"""Signatures: code built or written for another Python interpreter than the one that runs it: Python's own removals,
numpy's C API and expired conversions, unicode width, libpython, Python 2 builtins (``INTERPRETER_ROWS``, spliced by
:mod:`..rows.api_versions` among the rows of libraries past their version boundary)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig


# Code built or written for another interpreter: Python's own removals, numpy's C API and expired
# conversions, unicode width, libpython, Python 2 builtins.
INTERPRETER_ROWS = (
    _sig("python_too_new", r"cannot import name '(?P<name>Mapping|MutableMapping|Sequence|MutableSequence|Iterable|"
         r"Iterator|Callable|Set|MutableSet|Hashable|Sized|Container)' from 'collections'", "cause",
         CauseId.dependency_version_mismatch, 85,
         "ImportError: cannot import name 'Mapping' from 'collections' (/usr/lib/python3.10/collections/__init__.py)",
         title="Python 3.10 removed collections.{name}, which this code (written for an older Python) imports",
         source="CPython 3.10 Lib/collections/__init__.py (the ABC aliases, deprecated since 3.3, removed: bpo-37324)"),
    _sig("numpy_c_api_import_failed", r"numpy\.(?:_?core)\.(?:multiarray|_multiarray_umath) failed to import", "cause",
         CauseId.dependency_version_mismatch, 80, "ImportError: numpy.core.multiarray failed to import",
         title="an extension cannot import numpy's C API: it was compiled against another numpy than the installed one",
         source="numpy 1.x numpy/core/code_generators/generate_numpy_api.py _import_array (PyErr_SetString(PyExc_"
                "ImportError, \"numpy.core.multiarray failed to import\")); Cython's numpy.import_array wrapper", most="medium"),
    # numpy 2.4 ended the deprecation (1.25) of converting an array with ndim > 0 to a Python scalar (float(),
    # int() on a one-element array): code written for an older numpy that converts such arrays now fails, and
    # its message is new in 2.4. An array of several elements fails with the same words (a plain bug in any
    # numpy), so the line alone is at most medium.
    _sig("numpy_scalar_conversion_expired", r"only 0-dimensional arrays can be converted to Python scalars", "cause",
         CauseId.dependency_version_mismatch, 80,
         "TypeError: only 0-dimensional arrays can be converted to Python scalars",
         title="numpy 2.4 no longer converts an array of one element (ndim > 0) to a Python scalar, which this code "
               "(written for an older numpy) does",
         source="numpy 2.4.0 release notes, expired deprecations (conversion of an array with ndim > 0 to a scalar, "
                "deprecated in 1.25, raises TypeError); numpy 2.4 _multiarray_umath (TypeError(\"only 0-dimensional "
                "arrays can be converted to Python scalars\"), the message of float()/int() on any array with ndim > 0)",
         most="medium"),
    # Paddle's dynamic-to-static conversion (to_static, jit.save, the suites' export) parses the code with gast and
    # converts back with gast.gast_to_ast; another gast than the pinned one builds nodes without (or with) the
    # fields Python's ast of this interpreter expects.
    _sig("gast_node_field_missing", r"'(?P<node>Assign|AnnAssign|FunctionDef|AsyncFunctionDef|For|AsyncFor|With|"
         r"AsyncWith|arguments|Module|Constant|Index)' object has no attribute '(?P<field>type_comment|type_ignores|"
         r"posonlyargs|kind|type_params)'", "cause", CauseId.dependency_version_mismatch, 80,
         "AttributeError: 'Assign' object has no attribute 'type_comment'",
         title="an AST node lacks the field {field}: the gast version does not fit this Python and Paddle's "
               "dynamic-to-static conversion",
         source="pp 2.x python/requirements.txt (gast==0.3.3, the version dy2static's transformers are written "
                "for); CPython 3.8 Lib/ast (type_comment, type_ignores, posonlyargs: fields gast must carry over)",
         most="medium"),
    _sig("python_unicode_width_mismatch", r"undefined symbol: (?P<sym>PyUnicodeUCS[24]_\w+)", "cause",
         CauseId.dependency_version_mismatch, 85, "ImportError: core.so: undefined symbol: PyUnicodeUCS2_FromString",
         title="an extension built for a Python 2 of the other unicode width (UCS2/UCS4) than this interpreter ({sym})",
         source="CPython 2.x Include/unicodeobject.h (PyUnicode_* renamed PyUnicodeUCS2_* or PyUnicodeUCS4_* by "
                "Py_UNICODE_SIZE, PEP 261: --enable-unicode=ucs2|ucs4)"),
    # Any other CPython C-API symbol an extension module references and the interpreter does not export: the
    # extension was compiled against another Python's headers (PyCMethod_New is 3.9+, _PyThreadState_UncheckedGet
    # 3.5-3.12, PyUnicode_AsUTF8AndSize's private siblings move between releases).
    _sig("python_c_api_symbol_missing", r"undefined symbol: (?P<sym>_?Py[A-Z][A-Za-z]*_\w+)", "cause",
         CauseId.dependency_version_mismatch, 85, "ImportError: lite.so: undefined symbol: PyCMethod_New",
         title="a compiled extension was built against another Python version's headers: this interpreter has no "
               "{sym}; rebuild it (or install its wheel) for the Python that runs it",
         source="CPython 3.x C API (PyCMethod_New added in 3.9, _PyThreadState_UncheckedGet 3.5-3.12, ...) with "
                "glibc elf/dl-lookup.c (\"undefined symbol: %s\") when the extension is loaded"),
    _sig("python_other_libpython", r"Fatal Python error: PyThreadState_Get: no current thread", "cause",
         CauseId.dependency_version_mismatch, 80, "Fatal Python error: PyThreadState_Get: no current thread",
         title="an extension linked against another libpython than the running interpreter's",
         source="CPython 2.7 Python/pystate.c PyThreadState_Get (Py_FatalError(\"PyThreadState_Get: no current "
                "thread\")) when the extension's libpython holds no thread state", most="medium"),
    _sig("python2_builtin_removed", r"NameError: (?:global )?name '(?P<name>basestring|unicode|xrange|raw_input|"
         r"unichr|execfile)' is not defined", "cause", CauseId.dependency_version_mismatch, 80,
         "NameError: name 'basestring' is not defined",
         title="Python 3 removed the builtin {name}, which this code (written for Python 2) uses",
         source="CPython 3.0 Doc/whatsnew/3.0.rst (basestring and unicode folded into str, xrange into range, raw_input "
                "into input, unichr into chr, execfile removed)", most="medium"),
    # PyQt's bindings (sip) take an int argument from any number through __int__ up to Python 3.9; 3.10 dropped the
    # implicit conversion, so a float passed where Qt declares an int fails: GUI code (PPOCRLabel, EISeg) of a release
    # made before Python 3.10, run on a newer one.
    _sig("pyqt_float_for_int", r"(?<!\w)\w{1,60}\(self, (?:[^)]{0,200}[ ,(])?int\b[^)]{0,200}\): argument \d+ has unexpected type "
         r"'float'", "cause",
         CauseId.dependency_version_mismatch, 75, "TypeError: setValue(self, int): argument 1 has unexpected type 'float'",
         title="a Qt call was given a float where it takes an int, which Python 3.10+ no longer converts: the GUI code "
               "predates this Python (run it on Python <= 3.9, or a release that passes int())",
         source="sip 4.19-6.x (PyQt5) sip_api_parse_args (\"%s(%s): argument %d has unexpected type '%s'\"); CPython "
                "3.10 bpo-37999 (no implicit __int__ for floats in int conversions)", most="medium"),
    # A JavaScript engine's TypeError, pasted without its type (Paddle.js's SDKs in a browser or Node): the code
    # calls something that is no function, a value of another kind than the SDK expects (a parsed object for a URL).
    # Only a property call (a.b) that ends its clause: "x is not a function of ..." is English prose; a typed
    # "TypeError: ..." line is the generic exception's already.
    _sig("js_not_a_function", r"(?:^|(?<!Error:)[\s(]|[:：])(?P<name>[\w$]{1,60}(?:\.[\w$]{1,60}){1,4}) is not a function"
         r"(?=\s*(?:$|[.,;!)]|\(In '| or its return))", "cause",
         CauseId.python_exception, 45, "ocr init failed: A.endsWith is not a function",
         title="the JavaScript code called {name}, which is no function there: a value of another kind than the code "
               "expects (an object where a string or a URL belongs)", most="low",
         source="V8 messages (message-template.h kCalledNonCallable \"% is not a function\"), SpiderMonkey alike "
                "(JSMSG_NOT_FUNCTION)"),
)

