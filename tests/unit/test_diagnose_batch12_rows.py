"""Issue 29, gathered batch 12: the wordings its first look missed, read by mechanism (each case is a
message of Paddle, the C library's loader, a suite or a server; the threads they came from are named
beside each), with the guards that keep the neighbouring readings as they were."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


_diagnose = root_cause_of


@pytest.mark.parametrize("lib", ["libcudart.so.10.2", "libcudnn.so.8", "libcublasLt.so.11"])
def test_importing_paddle_without_the_cuda_library_it_links_is_a_cuda_mismatch(tmp_path, lib):
    """PaddleOCR#9932: the loader names a CUDA library, not an input file."""
    rc = _diagnose(tmp_path, '  File "/env/lib/python3.8/site-packages/paddle/fluid/core.py", line 274, in <module>\n'
                   "    from . import libpaddle\n"
                   f"ImportError: {lib}: cannot open shared object file: No such file or directory\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch


def test_a_missing_data_file_is_still_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: './train_data/a.jpg'\n")
    assert rc.cause == CauseId.file_not_found


_SUMMARY = ("MemoryError: \n\n--------------------------------------\nC++ Traceback (most recent call last):\n"
            "--------------------------------------\nNot support stack backtrace yet.\n\n----------------------\n"
            "Error Message Summary:\n----------------------\nResourceExhaustedError: \n\n")


def test_paddles_memoryerror_header_lets_the_message_say_which_memory(tmp_path):
    """PaddleOCR#11266: Paddle 2.x raises ResourceExhausted as MemoryError, the GPU named below."""
    rc = _diagnose(tmp_path, _SUMMARY + "Out of memory error on GPU 0. Cannot allocate 128.000000MB memory on GPU 0, "
                   "7.995605GB memory has been allocated and available memory is only 0.000000B.\n")
    assert rc.cause == CauseId.gpu_oom and rc.confidence == "high"


def test_the_same_header_over_a_host_allocation_stays_host_memory(tmp_path):
    rc = _diagnose(tmp_path, _SUMMARY + "Fail to alloc memory of 5060694016 size, error code is 12.\n")
    assert rc.cause == CauseId.host_out_of_memory


def test_a_memoryerror_with_its_own_message_is_host_memory(tmp_path):
    rc = _diagnose(tmp_path, "numpy.core._exceptions.MemoryError: Unable to allocate 1.83 GiB for an array\n")
    assert rc.cause == CauseId.host_out_of_memory


def test_paddles_badalloc_is_a_device_allocation_that_failed(tmp_path):
    """PaddleSpeech#3404: only the device allocators throw it; the paste stops before the summary."""
    rc = _diagnose(tmp_path, "terminate called after throwing an instance of 'paddle::memory::allocation::BadAlloc'\n"
                   "  what():\n\n--------------------------------------\nC++ Traceback (most recent call last):\n"
                   "--------------------------------------\n0   scale_ad_func(paddle::experimental::Tensor const&)\n")
    assert rc.cause == CauseId.gpu_oom


@pytest.mark.parametrize("line", [
    "2021-05-13 09:55:29 [WARNING]   [SKIP] Shape of pretrained params decode.conv.weight doesn't match.(Pretrained: "
    "(256, 1024, 3, 3), Actual: [256, 640, 3, 3])",
    "[SKIP] Shape of pretrained weight ./pretrained_model/unet_bn_coco//logit/weights doesn't match.(Pretrained: "
    "(21, 64, 3, 3), Actual: (19, 64, 3, 3))",
])
def test_paddlesegs_loader_skipping_a_parameter_of_another_shape(tmp_path, line):
    """PaddleSeg#1020 (2.x wording), PaddleSeg#355 (1.x wording)."""
    assert _diagnose(tmp_path, line + "\n").cause == CauseId.state_dict_shape_mismatch


def test_gunicorns_report_of_a_worker_killed_from_outside(tmp_path):
    """PaddleOCR#15806: a PaddleOCR 3 pipeline served by gunicorn."""
    rc = _diagnose(tmp_path, "[2025-06-23 10:58:53 +0000] [1] [ERROR] Worker (pid:8) was sent SIGKILL! Perhaps out "
                   "of memory?\n[2025-06-23 10:58:53 +0000] [1864] [INFO] Booting worker with pid: 1864\n")
    assert rc.cause == CauseId.host_oom_killed


def test_gunicorns_own_sigterm_is_not_an_oom_kill(tmp_path):
    rc = _diagnose(tmp_path, "[2025-06-23 10:58:53 +0000] [1] [INFO] Worker (pid:8) was sent SIGTERM!\n")
    assert rc is None or rc.cause != CauseId.host_oom_killed


def test_a_library_status_that_names_nothing_is_not_high(tmp_path):
    """PaddleOCR#11962: cuDNN's INTERNAL_ERROR says the library failed, not why: at most medium."""
    rc = _diagnose(tmp_path, "    ExternalError: CUDNN error(4), CUDNN_STATUS_INTERNAL_ERROR.\n      [Hint: "
                   "'CUDNN_STATUS_INTERNAL_ERROR'.  An internal cuDNN operation failed.  ] (at ..\\paddle\\phi\\"
                   "kernels\\gpu\\rnn_kernel.cu.cc:88)\n      [operator < rnn > error]\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "medium"
    assert CauseId.cuda_cudnn_mismatch in [a.cause for a in rc.alternatives]


def test_a_cuda_kernel_fault_stays_high(tmp_path):
    """An illegal address is what the generic CUDA cause describes: the verdict keeps its confidence."""
    rc = _diagnose(tmp_path, "OSError: (External)  Cuda error(700), an illegal memory access was encountered.\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "high"


_IO = "/opt/conda/lib/python3.7/site-packages/paddle/framework/io.py"


def test_a_notebook_traceback_cut_at_paddle_loads_path_check(tmp_path):
    """PaddleSpeech#1532: IPython's frames, the paste stopping at the raise statement."""
    rc = _diagnose(tmp_path, "---------------------------------------------------------------------------ValueError"
                   "                                Traceback (most recent call last)/tmp/ipykernel_99/1.py in <module>\n"
                   "----> 1 model_dict = paddle.load(checkpoint_path)\n"
                   f"{_IO} in _build_load_path_and_config(path, config)\n"
                   "    160                 \"`paddle.load('model')`.\"\n"
                   "--> 161         raise ValueError(error_msg % path)\n    162     else:\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium"


def test_a_cpython_traceback_cut_at_the_launcher_variable_check(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                   "    dist.init_parallel_env()\n"
                   "  File \"/usr/lib/python3.7/site-packages/paddle/distributed/parallel.py\", line 100, in "
                   "_check_var_exists\n    raise ValueError(\n")
    assert rc.cause == CauseId.missing_dist_env


def test_a_traceback_cut_at_another_raise_stays_an_unread_exception(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n"
                   f"  File \"{_IO}\", line 152, in _build_load_path_and_config\n"
                   "    raise ValueError(\"The {}.pdmodel and {} directory exist at the same time\")\n")
    assert rc.cause == CauseId.python_exception
