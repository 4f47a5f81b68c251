"""Two readings of issue 29's "read the whole error": a YAML configuration that does not parse (PyYAML's
errors, by their module-qualified type) is ``config_error``; ``import paddle`` whose core extension cannot
be loaded (the Windows loader's "DLL load failed while importing libpaddle", core.py's "Can not import ...
core while this file exists") is a library it links that the loader cannot find (``file_not_found``, CUDA's
reading its near alternative), never surer than medium."""

from __future__ import annotations

import pytest

from pastes import root_cause_of
from paddle_doctor.catalog.ids import CauseId

YAML_SCANNER = """\
Traceback (most recent call last):
  File "tools/train.py", line 40, in <module>
    config = load_config(FLAGS.config)
  File "/usr/local/lib/python3.8/site-packages/yaml/scanner.py", line 577, in fetch_value
    self.get_mark())
yaml.scanner.ScannerError: mapping values are not allowed here
  in "configs/rec/rec_icdar15_train.yml", line 22, column 14
"""


@pytest.mark.parametrize("text", [
    YAML_SCANNER,
    "yaml.parser.ParserError: while parsing a block mapping\n  in \"configs/det/det_r50.yml\", line 1, column 1\n",
])
def test_a_yaml_file_that_does_not_parse_is_a_config_error(tmp_path, text):
    finding = root_cause_of(tmp_path, text)
    assert finding.cause == CauseId.config_error and finding.confidence == "medium"


def test_a_yaml_tag_the_installed_suite_does_not_register_is_another_release_with_the_config_next(tmp_path):
    # the suites register their operators as YAML tags: a config of another release (PaddleDetection#3522; twenty-third
    # session, tests/unit/test_diagnose_session23_rows.py), or a misspelt tag, the first alternative
    text = "yaml.constructor.ConstructorError: could not determine a constructor for the tag '!PiecewiseDecay'\n"
    finding = root_cause_of(tmp_path, text)
    assert (finding.cause, finding.confidence) == (CauseId.paddle_api_mismatch, "medium")
    assert finding.alternatives[0].cause == CauseId.config_error


def test_another_librarys_parser_error_is_not_read_as_yaml(tmp_path):
    text = "pandas.errors.ParserError: Error tokenizing data. C error: Expected 3 fields in line 7, saw 4\n"
    assert root_cause_of(tmp_path, text).cause == CauseId.python_exception


@pytest.mark.parametrize("text", [
    "ImportError: DLL load failed while importing libpaddle: The specified module could not be found.\n",
    "Traceback (most recent call last):\n  File \"C:\\\\Python38\\\\lib\\\\site-packages\\\\paddle\\\\fluid\\\\core.py\", "
    "line 217, in <module>\n    from . import core_avx\n"
    "ImportError: DLL load failed while importing core_avx: The specified module could not be found.\n",
    "Error: Can not import paddle core while this file exists: C:\\\\Python37\\\\lib\\\\site-packages\\\\paddle\\\\"
    "fluid\\\\libpaddle.pyd\nImportError: DLL load failed: The specified module could not be found.\n",
])
def test_paddles_core_that_cannot_load_is_a_library_not_found_at_most_medium(tmp_path, text):
    finding = root_cause_of(tmp_path, text)
    assert finding.cause == CauseId.file_not_found and finding.confidence == "medium"


def test_another_modules_dll_failure_is_not_paddles_core(tmp_path):
    text = "ImportError: DLL load failed while importing cv2: The specified module could not be found.\n"
    assert root_cause_of(tmp_path, text).cause != CauseId.cuda_cudnn_mismatch


@pytest.mark.parametrize("text", [
    "tarfile.ReadError: unexpected end of data\n",
    "zipfile.BadZipFile: File is not a zip file\n",
    "Traceback (most recent call last):\n  File \"/usr/lib/python3.8/tarfile.py\", line 2289, in next\n"
    "    raise ReadError(str(e))\ntarfile.ReadError: file could not be opened successfully\n",
])
def test_an_archive_that_cannot_be_read_is_a_corrupt_download_at_most_medium(tmp_path, text):
    finding = root_cause_of(tmp_path, text)
    assert finding.cause == CauseId.checkpoint_corrupt and finding.confidence == "medium"


def test_numpys_array_memory_error_is_host_memory(tmp_path):
    text = ("numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.20 GiB for an array with shape "
            "(1000, 3, 640, 640) and data type float32\n")
    assert root_cause_of(tmp_path, text).cause == CauseId.host_out_of_memory


@pytest.mark.parametrize("line", [
    "socket.gaierror: [Errno -2] Name or service not known",
    "cv2.error: OpenCV(4.5.5) /io/opencv/modules/imgproc/src/color.cpp:182: error: (-215:Assertion failed) "
    "!_src.empty() in function 'cvtColor'",
    "socket.timeout: timed out",
])
def test_an_exception_class_named_in_lower_case_is_still_an_exception(tmp_path, line):
    finding = root_cause_of(tmp_path, line + "\n")
    assert finding is not None and finding.cause == CauseId.python_exception


def test_a_log_line_that_only_mentions_an_error_word_is_not_one_of_them(tmp_path):
    finding = root_cause_of(tmp_path, "INFO socket.setup: error budget is 3 retries\n")
    assert finding is None or finding.code != "exception_lowercase_class"
