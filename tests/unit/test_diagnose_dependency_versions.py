"""A library under Paddle whose version moved on (issue 29, "read the whole error"): protobuf 4.21's
refusal of old _pb2 files, numpy 1.24's removed aliases, numpy 2's refusal of 1.x extensions, the C/C++
runtime older than the build, Python 3.10's removed collections aliases: ``dependency_version_mismatch``,
each row citing the library's own message. Before, each was ``python_exception`` or no verdict."""

from __future__ import annotations

import pytest

from pastes import root_cause_of
from paddle_doctor.catalog.ids import CauseId

TRACEBACK = """\
Traceback (most recent call last):
  File "tools/train.py", line 12, in <module>
    import paddle
  File "/usr/local/lib/python3.8/site-packages/paddle/__init__.py", line 25, in <module>
    from .framework import monkey_patch_variable
{last}
"""


@pytest.mark.parametrize("last, words", [
    ("TypeError: Descriptors cannot not be created directly.", "protobuf"),
    ("AttributeError: module 'numpy' has no attribute 'int'.", "np.int"),
    ("AttributeError: module 'numpy' has no attribute 'bool'.", "np.bool"),
    ("ImportError: /lib64/libc.so.6: version `GLIBC_2.27' not found (required by /usr/local/lib/python3.8/"
     "site-packages/paddle/fluid/core_avx.so)", "GLIBC_2.27"),
    ("ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.26' not found", "GLIBCXX_3.4.26"),
    # the same line pasted through Markdown: the opening backquote is gone (batch33 3302)
    ("ImportError: /opt/conda/lib/libstdc++.so.6: version GLIBCXX_3.4.30' not found (required by /opt/conda/lib/"
     "python3.10/site-packages/paddle/base/libpaddle.so)", "GLIBCXX_3.4.30"),
    ("ImportError: cannot import name 'Mapping' from 'collections' (/usr/lib/python3.10/collections/__init__.py)",
     "collections.Mapping"),
    ("AttributeError: _ARRAY_API not found", "numpy"),
])
def test_a_library_past_its_version_boundary_is_named(tmp_path, last, words):
    finding = root_cause_of(tmp_path, TRACEBACK.format(last=last))
    assert finding.cause == CauseId.dependency_version_mismatch
    assert words in finding.message


def test_numpy_2s_warning_alone_names_it(tmp_path):
    text = ("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support "
            "both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\n")
    assert root_cause_of(tmp_path, text).cause == CauseId.dependency_version_mismatch


@pytest.mark.parametrize("last", [
    "AttributeError: module 'numpy' has no attribute 'integer_types'",  # not one of the removed aliases
    "ImportError: cannot import name 'OrderedDict' from 'collections.abc'",  # never in collections.abc
])
def test_look_alikes_are_not_read_as_a_version_boundary(tmp_path, last):
    assert root_cause_of(tmp_path, TRACEBACK.format(last=last)).cause != CauseId.dependency_version_mismatch


@pytest.mark.parametrize("last, words", [
    ("ImportError: numpy.core.multiarray failed to import", "numpy"),
    ("ImportError: /usr/local/lib/python2.7/dist-packages/paddle/fluid/core.so: undefined symbol: "
     "PyUnicodeUCS2_FromString", "PyUnicodeUCS2_FromString"),
    ("Fatal Python error: PyThreadState_Get: no current thread", "libpython"),
    ("NameError: name 'basestring' is not defined", "basestring"),
])
def test_code_built_or_written_for_another_interpreter_is_named(tmp_path, last, words):
    """numpy's C-API import, a Python 2 extension of the other unicode width, another libpython, a Python 2
    builtin under Python 3: each names its mechanism (batch38: 3806, 3807, 3808, 3810); at most medium."""
    finding = root_cause_of(tmp_path, TRACEBACK.format(last=last))
    assert finding.cause == CauseId.dependency_version_mismatch
    assert words in finding.message
    assert finding.confidence.value != "high" or "UCS" in last


def test_a_user_name_that_is_no_python2_builtin_stays_a_python_exception(tmp_path):
    finding = root_cause_of(tmp_path, TRACEBACK.format(last="NameError: name 'basestr' is not defined"))
    assert finding.cause != CauseId.dependency_version_mismatch


@pytest.mark.parametrize("last", [
    "TypeError: only 0-dimensional arrays can be converted to Python scalars",
    # re-raised by a pipeline's worker thread with the worker's name before numpy's words (batch48 4803's shape)
    "RuntimeError: Exception from the 'ocr' worker: only 0-dimensional arrays can be converted to Python scalars",
])
def test_numpy_2_4s_refused_scalar_conversion_is_a_version_boundary(tmp_path, last):
    """numpy 2.4 raises this for float()/int() of any array with ndim > 0 (a one-element array converted
    with a warning since 1.25): code written for an older numpy. At most medium: an array of several
    elements fails with the same words in any numpy."""
    finding = root_cause_of(tmp_path, TRACEBACK.format(last=last))
    assert finding.cause == CauseId.dependency_version_mismatch, (finding.cause, finding.why)
    assert "numpy 2.4" in finding.message
    assert finding.confidence.value != "high"


def test_older_numpys_scalar_conversion_words_are_not_the_2_4_boundary(tmp_path):
    """numpy < 2.4 said "only size-1 arrays" for an array of several elements: a plain bug, not a version."""
    last = "TypeError: only size-1 arrays can be converted to Python scalars"
    assert root_cause_of(tmp_path, TRACEBACK.format(last=last)).cause != CauseId.dependency_version_mismatch
