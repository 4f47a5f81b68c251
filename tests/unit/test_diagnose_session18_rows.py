"""Readings changed in issue 29's eighteenth session: a shared library the loader cannot find, with the advice of a
library (its row's own confirm and fix) rather than the missing path's; Paddle's core that will not import."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


@pytest.mark.parametrize("line, lib", [
    ("ImportError: libGL.so.1: cannot open shared object file: No such file or directory", "libGL.so.1"),
    ("OSError: libsndfile.so: cannot open shared object file: No such file or directory", "libsndfile.so"),
    ("./ocr_system: error while loading shared libraries: libpaddle_inference.so: cannot open shared object file: "
     "No such file or directory", "libpaddle_inference.so"),
])
def test_a_shared_library_not_found_is_a_missing_library_with_a_librarys_advice(tmp_path, line, lib):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.file_not_found, "shared_library_not_found", "medium")
    assert lib in rc.message
    assert "apt-file search" in rc.fix and "LD_LIBRARY_PATH" in rc.fix and "absolute paths" not in rc.fix
    assert "ldd" in rc.facts["confirm"]
    # the catalog's "the path may come from a config value" is no near cause of a library
    assert CauseId.config_error not in [a.cause for a in rc.alternatives]


@pytest.mark.parametrize("line, cause", [
    ("OSError: libcudnn.so.8: cannot open shared object file: No such file or directory", CauseId.cuda_cudnn_mismatch),
    ("error while loading shared libraries: libcrypto.so.10: cannot open shared object file: No such file or directory",
     CauseId.dependency_version_mismatch),
])
def test_gpu_and_versioned_system_libraries_keep_their_own_rows(tmp_path, line, cause):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and rc.code != "shared_library_not_found", (rc.cause, rc.code)


def test_a_missing_file_keeps_the_catalogs_advice(tmp_path):
    rc = _diagnose(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: 'data/train_list.txt'\n")
    assert rc.cause == CauseId.file_not_found and "absolute paths" in rc.fix
    assert CauseId.config_error in [a.cause for a in rc.alternatives]


def test_the_loaders_line_after_paddles_core_line_decides(tmp_path):
    """core.py names the core file; the ImportError raised after it names why (here a symbol of another library)."""
    rc = _diagnose(tmp_path, "Error: Can not import avx core while this file exists: /usr/lib/python3.7/site-packages/"
                             "paddle/fluid/core_avx.so\nImportError: /usr/lib/python3.7/site-packages/paddle/fluid/"
                             "core_avx.so: undefined symbol: _ZN5baidu3xpu3api11sparse_adamIfEEiPNS1_7ContextE\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.code)


def test_paddles_core_lacking_a_procedure_is_a_library_of_another_version(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: DLL load failed while importing libpaddle: 找不到指定的程序。\n")
    assert (rc.cause, rc.code) == (CauseId.cuda_cudnn_mismatch, "paddle_core_procedure_missing")
