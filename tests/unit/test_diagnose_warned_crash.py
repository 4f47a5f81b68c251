"""Issue 29: a warning that names a cause decides when no error names another (never ``high``); a
native crash summary after an earlier error of the same process that names a specific cause takes
that cause (the crash its alternative); CUDA's "no device" in a run that asked for no GPU is the
host's (``device_not_found``), not a device list hiding one. Synthetic texts: the mechanisms, not
one log's words."""

from __future__ import annotations

import pytest

from paddle_doctor.diagnose import diagnose_paths

ARCH = ("W0101 10:00:00.000000  1234 gpu_resources.cc:106] The GPU compute capability in your current machine is "
        "120, which is not supported by Paddle, it is recommended to install the corresponding wheel package.")
CUDNN = ("W0101 10:00:00.000000  1234 device_context.cc:290] WARNING: device: 0. The installed Paddle is compiled "
         "with CUDNN 8.2, but CUDNN version in your machine is 7.6, which may cause serious incompatible bug.")
TRACEBACK = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    main()\n'
CRASH = ("FatalError: `Segmentation fault` is detected by the operating system.\n"
         "  [SignalInfo: *** SIGSEGV (@0x0) received by PID 42 (TID 0x7f) from PID 0 ***]\n")
NO_DEVICE = ("F0101 10:00:01.000000  1234 hl_cuda_device.cc:566] Check failed: cudaSuccess == cudaStat (0 vs. 38) "
             "Cuda Error: no CUDA-capable device is detected\n")


def _root(tmp_path, text: str):
    log = tmp_path / "run.log"
    log.write_text(text)
    return diagnose_paths([str(log)]).root_cause


@pytest.mark.parametrize("warning, cause", [(ARCH, "cuda_arch_unsupported"), (CUDNN, "cuda_cudnn_mismatch")])
def test_a_lone_warning_that_names_a_cause_is_the_verdict_at_low(tmp_path, warning, cause):
    root = _root(tmp_path, warning + "\nsome output\n")
    assert (root.code, root.cause, root.confidence) == ("warning_names_cause", cause, "low")


def test_a_warning_followed_by_an_error_it_explains_is_medium_never_high(tmp_path):
    root = _root(tmp_path, ARCH + "\n" + TRACEBACK)
    assert (root.code, root.cause, root.confidence) == ("warning_names_cause", "cuda_arch_unsupported", "medium")
    assert root.alternatives[0].cause == "unknown"


def test_an_error_that_names_its_own_cause_is_not_overruled_by_a_warning(tmp_path):
    root = _root(tmp_path, ARCH + "\nOSError: [Errno 2] No such file or directory: 'data/train.txt'\n")
    assert root.cause == "file_not_found" and root.code != "warning_names_cause"


def test_a_crash_after_a_specific_error_of_the_same_process_takes_that_cause(tmp_path):
    root = _root(tmp_path, "OSError: [Errno 2] No such file or directory: 'data/train.txt'\n" + CRASH)
    assert (root.code, root.cause, root.confidence) == ("crash_after_error", "file_not_found", "medium")
    assert root.alternatives[0].cause == "segfault"


def test_a_crash_after_an_error_read_by_its_structure_takes_the_structure_s_cause(tmp_path):
    root = _root(tmp_path, "(External) CUDNN error(1), CUDNN_STATUS_NOT_INITIALIZED.\n" + CRASH)
    assert (root.code, root.cause) == ("crash_after_error", "cuda_cudnn_mismatch")


def test_a_crash_after_a_generic_error_stays_a_crash(tmp_path):
    root = _root(tmp_path, "ValueError: boom\n" + CRASH)
    assert root.cause == "segfault"


def test_no_device_in_a_run_that_asked_for_no_gpu_is_the_host_s(tmp_path):
    root = _root(tmp_path, "commandline: paddle_trainer --config=conf.py --use_gpu=false\n" + NO_DEVICE)
    assert (root.code, root.cause, root.confidence) == ("cpu_run_found_no_gpu", "device_not_found", "medium")
    assert root.alternatives[0].cause == "cuda_visible_devices_misconfig"


def test_no_device_without_that_fact_is_no_gpu_with_the_device_list_near(tmp_path):
    root = _root(tmp_path, NO_DEVICE)
    assert root.code != "cpu_run_found_no_gpu" and root.cause == "device_not_found"
    assert root.alternatives[0].cause == "cuda_visible_devices_misconfig"


@pytest.mark.parametrize("before", ["export CUDA_VISIBLE_DEVICES=3\ncommandline: train.py --use_gpu=false\n",
                                    "CUDA_VISIBLE_DEVICES=2,3\n"])
def test_no_device_under_a_device_list_is_the_list(tmp_path, before):
    """CUDA saw no device while the text shows the list it was given: the list hid every GPU."""
    root = _root(tmp_path, before + NO_DEVICE)
    assert (root.code, root.cause, root.confidence) == ("visible_devices_hide_all", "cuda_visible_devices_misconfig",
                                                        "medium")
    assert root.alternatives[0].cause == "device_not_found"
