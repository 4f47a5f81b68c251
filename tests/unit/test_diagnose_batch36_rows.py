"""Issue 29, after gathered batch 36: the loaders' own words for a library that is not there (Android's linker,
a versioned system library, Paddle-Lite NNAdapter's device HAL library), paddle2onnx's parser given a file that
is no program, the Paddle libraries' APIs (PaddleHub, PARL, PGL, ...) and PGL's own version warning. Every line
follows the emitting code's template cited in the signatures; none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "AttributeError: module 'paddlehub' has no attribute 'RunConfig'",
    "AttributeError: module 'parl' has no attribute 'Agent'",
    "ImportError: cannot import name 'GraphWrapper' from 'pgl.graph_wrapper' (/py/site-packages/pgl/graph_wrapper.py)",
])
def test_a_name_missing_from_a_paddle_library_is_code_for_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
                             "    agent = build()\n" + line + "\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "paddle_api_missing", (rc.cause, rc.why)


def test_a_paddle_library_shadowed_by_the_users_own_file_stays_the_users_error(tmp_path):
    """anatomy/installed.py: a script named like the package imports itself, not the installed release."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/home/u/work/parl.py", line 1, in <module>\n'
                             "    import parl\nAttributeError: module 'parl' has no attribute 'Agent'\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    'CANNOT LINK EXECUTABLE "./ocr_db_crnn": library "libpaddle_light_api_shared.so" not found',
    'java.lang.UnsatisfiedLinkError: dlopen failed: library "libc++_shared.so" not found',
])
def test_androids_linker_naming_a_missing_library_is_a_missing_file(tmp_path, line):
    """bionic linker.cpp: DL_ERR("library \\"%s\\" not found", name)."""
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is not None and rc.cause == CauseId.file_not_found and rc.code == "android_library_not_found", rc


def test_a_versioned_system_library_missing_is_another_version_with_the_missing_file_next(tmp_path):
    rc = _diagnose(tmp_path, "./serving: error while loading shared libraries: libssl.so.1.1: cannot open shared "
                             "object file: No such file or directory\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert rc.alternatives[0].cause == CauseId.file_not_found


def test_an_unversioned_library_the_package_ships_stays_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "./build/model_test: error while loading shared libraries: libiomp5.so: cannot open "
                             "shared object file: No such file or directory\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_nnadapter_cannot_find_a_device_sdks_library_is_a_missing_file(tmp_path):
    """Paddle-Lite nnadapter runtime/device.cc Find: the dlerror() of the HAL library's dlopen. A library the loader
    cannot find is a missing file, as the corpus labels its three such logs (issue 29, sixteenth session)."""
    rc = _diagnose(tmp_path, "[F  3/ 2 10:01:02.123 ...nnadapter/src/runtime/device.cc:529 Find] Failed to load the "
                             "nnadapter device HAL library for 'kunlunxin_xtcl' from libkunlunxin_xtcl.so, libxtcl.so: "
                             "cannot open shared object file: No such file or directory\n")
    assert rc.cause == CauseId.file_not_found and rc.code == "nnadapter_hal_library_missing", (rc.cause, rc.why)


def test_paddle2onnx_given_a_file_that_is_no_program_is_a_config_error_near_a_format_mismatch(tmp_path):
    """paddle2onnx parser.cc PaddleParser::LoadProgram: ParseFromString fails on the file's content."""
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Start to parse PaddlePaddle model...\n"
                             "[Paddle2ONNX] Failed to parse paddlepaddle model from read content.\n"
                             "[Paddle2ONNX] Paddle model convert failed.\n")
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert rc.alternatives[0].cause == CauseId.paddle_api_mismatch


def test_pgls_version_warning_names_the_paddle_it_needs(tmp_path):
    rc = _diagnose(tmp_path, "/py/site-packages/pgl/__init__.py:25: UserWarning: The PaddlePaddle version is out of "
                             "date. Your version is 2.0.2, while we need at least 2.2.0.\n  % paddle.__version__)\n")
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, rc
