"""Issue 29, after gathered batch 11: a library the loader cannot load is the install's fault, not a
missing data file; a file Paddle-Lite cannot open is named before the abort it causes. Every line
follows the emitting code's template (cited in the signatures: Paddle's custom-device loader, glibc's
dlerror, Paddle-Lite's model file reader and writer); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

PLUGIN = "/usr/local/lib/python3.10/dist-packages/paddle_custom_device/libpaddle-custom-npu.so"


_diagnose = root_cause_of


@pytest.mark.parametrize("dlerror", [
    "libatb.so: cannot open shared object file: No such file or directory",
    "/usr/local/Ascend/ascend-toolkit/latest/lib64/libruntime.so: undefined symbol: _ZN12ErrorManager3GetEv",
])
def test_a_device_plugin_that_cannot_load_is_a_toolkit_mismatch_not_a_missing_file(tmp_path, dlerror):
    """platform/init.cc LoadCustomDevice: "Fail to open library: %s with error: %s" (path, dlerror())."""
    rc = _diagnose(tmp_path, "    core.init_devices()\n"
                             f"ValueError: (InvalidArgument) Fail to open library: {PLUGIN} with error: {dlerror}\n"
                             "  [Hint: dso_handle should not be null.] (at /paddle/paddle/fluid/platform/init.cc:152)\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "device_lib_load_failed", (rc.cause, rc.why)


def test_the_plugin_message_is_read_when_the_paste_breaks_the_line_after_its_first_words(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: (InvalidArgument) Fail to open library: \n"
                             f"{PLUGIN} \nwith error: /opt/atb/lib/libtbe_adapter.so: \n"
                             "undefined symbol: _ZN3Mki2DlC1ERKNSt7__cxx1112basic_stringEb\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("lib", ["libcudnn.so", "libcudnn.so.8", "libcublasLt.so.11", "libcudart.so.10.1",
                                 "libnvrtc-builtins.so.11.2"])
def test_dlerror_naming_a_cuda_library_is_the_library_not_a_missing_file(tmp_path, lib):
    rc = _diagnose(tmp_path, f"OSError: {lib}: cannot open shared object file: No such file or directory\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "cuda_lib_dlerror", (rc.cause, rc.why)


def test_a_glog_check_wrapped_by_the_paste_is_read_from_its_dlerror_line(tmp_path):
    """The 0.x loader's CHECK, pasted with every line cut at a fixed width: only the dlerror part of
    the message stays whole on one line."""
    rc = _diagnose(tmp_path, "F0101 00:00:01.000000  2382 DynamicLoader.cpp:104] Check faile\n"
                             "d: nullptr != *dso_handle Failed to find dynamic library: libc\n"
                             "udnn.so (libcudnn.so: cannot open shared object file: No such \n"
                             "file or directory) \n")
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch, rc and (rc.cause, rc.why)


def test_the_driver_and_nccl_keep_their_own_libraries(tmp_path):
    driver = _diagnose(tmp_path, "OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n")
    assert driver.code != "cuda_lib_dlerror", (driver.cause, driver.why)  # no driver: native.py's no_gpu_driver
    nccl = _diagnose(tmp_path, "OSError: libnccl.so.2: cannot open shared object file: No such file or directory\n")
    assert nccl.cause == CauseId.nccl_library_missing, (nccl.cause, nccl.why)


def test_a_library_that_is_not_cudas_is_not_read_as_cudas(tmp_path):
    rc = _diagnose(tmp_path, "    import cv2\n"
                             "ImportError: libGL.so.1: cannot open shared object file: No such file or directory\n")
    assert rc.cause != CauseId.cuda_cudnn_mismatch, (rc.cause, rc.why)


def test_a_model_file_paddle_lite_cannot_read_explains_the_abort_after_it(tmp_path):
    """lite/model_parser/base/io.cc BinaryFileReader: CHECK(file_) << "Unable to open file: " << path."""
    line = ("[F  1/ 1  0: 0: 0.  0 ...Paddle-Lite/lite/model_parser/base/io.cc:46 BinaryFileReader] Check failed: "
            "file_: Unable to open file: /data/user/0/com.example/cache/models/det/model.nb")
    rc = _diagnose(tmp_path, f"A/Paddle-Lite: {line}\n"
                             "E/libc++abi: terminating with uncaught exception of type paddle::lite::PaddleLiteException\n"
                             "A/libc: Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 19042 (.det), pid 19042 (.det)\n")
    assert rc.cause == CauseId.file_not_found and rc.code == "open_failed_path", (rc.cause, rc.why)


def test_an_output_file_paddle_lites_optimizer_cannot_create_is_a_missing_path(tmp_path):
    """lite/model_parser/base/io.h BinaryFileWriter: the directory of --optimize_out does not exist."""
    rc = _diagnose(tmp_path, "1. Model is successfully loaded!\n"
                             "[F  1/ 1  0: 0: 0.  0 .../Paddle-Lite/lite/model_parser/base/io.h:152 BinaryFileWriter] "
                             "Check failed: file_: Unable to open file: out/model.nb\n"
                             "Aborted (core dumped)\n")
    assert rc is not None and rc.cause == CauseId.file_not_found, rc and (rc.cause, rc.why)


def test_cudnn_ccs_own_wording_names_the_library_in_the_verdict(tmp_path):
    """platform/dynload/cudnn.cc (1.x-3.x): "Cannot load cudnn shared library. Cannot invoke method
    cudnnGetVersion." The verdict names the library it could not load, as it does for the loader's wording."""
    rc = _diagnose(tmp_path, "Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion.\n"
                             "[Hint: cudnn_dso_handle should not be null.] (at /paddle/paddle/phi/backends/dynload/"
                             "cudnn.cc:59)\n  [operator < uniform_random > error]\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "cuda_lib_missing", (rc.cause, rc.why)
    assert "(cudnn)" in rc.message and "()" not in rc.message, rc.message


def test_a_title_aside_whose_group_took_no_part_is_dropped_not_printed_empty():
    """A signature title's "({group})" with no value would print as "()"; the sentence reads without it."""
    from types import SimpleNamespace

    from paddle_doctor.diagnose.signatures.rows.libraries import LIBRARIES
    from paddle_doctor.diagnose.verdict import _title

    sig = next(s for s in LIBRARIES if s.name == "cuda_lib_missing")
    text = _title(sig.cause, [SimpleNamespace(sig=sig, groups={})], "unused default")
    assert "()" not in text and text.startswith("a CUDA library this Paddle build needs cannot be loaded"), text
