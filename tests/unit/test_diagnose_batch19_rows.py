"""Issue 29, after gathered batch 19: four readings by the emitting code, none fitted to a corpus log.

- fluid's OperatorBase::Run raises "Cannot run operator on place %s" only in a build without CUDA
  (#ifndef PADDLE_WITH_CUDA): a GPU place asked of a CPU-only build.
- v1's hl_dso_loader.cc names the CUDA library it cannot load ("Failed to find cuda library: %s").
- fluid's legacy allocator only warns when cudaMalloc fails ("Cannot malloc %g MB GPU memory",
  "Cannot allocate %d bytes in GPU %d, available %d bytes") and returns no block: what breaks next may not
  say "memory" at all.
- Paddle Serving's check_cuda prints one line for three failed checks (no cudart in the server binary's ldd,
  SERVING_BIN pointing at another binary, no /dev/nvidia*): the line alone is at most medium.
"""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.findings import Confidence
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "paddle.fluid.core.EnforceNotMet: Cannot run operator on place CUDAPlace(0) at "
    "[/paddle/paddle/fluid/framework/operator.cc:145]",
    "OSError: (Unavailable) Cannot run operator on place Place(gpu:0), please recompile paddle or reinstall Paddle "
    "with CUDA support. (at /paddle/paddle/fluid/framework/operator.cc:1100)",
])
def test_an_operator_that_cannot_run_on_a_gpu_place_means_a_cpu_only_build(tmp_path, line):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 30, in train\n"
                             "    exe.run(fluid.default_startup_program())\n" + line + "\n")
    assert rc is not None and rc.cause == CauseId.device_not_found, (rc and rc.cause, rc and rc.why)


def test_an_xpu_place_is_not_read_as_a_missing_gpu(tmp_path):
    rc = _diagnose(tmp_path, "OSError: (Unavailable) Cannot run operator on place Place(xpu:0), please recompile "
                             "paddle or reinstall Paddle with XPU support.\n")
    assert rc is None or rc.code != "cpu_build_gpu_place", (rc.code, rc.why)


@pytest.mark.parametrize("lib", ["libcudart.so", "libcudnn.so", "libcublas.so"])
def test_the_v1_loader_naming_a_cuda_library_it_cannot_find(tmp_path, lib):
    rc = _diagnose(tmp_path, f"F0301 11:05:13.781890 50448 hl_dso_loader.cc:97] Check failed: nullptr != "
                             f"*dso_handle Failed to find cuda library: {lib}\n"
                             "Please specify its path correctly using one of the following ideas: \n")
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch and lib in rc.message, (rc and rc.cause,
                                                                                           rc and rc.message)


@pytest.mark.parametrize("warning", [
    "W0613 10:18:30.682221   182 system_allocator.cc:100] Cannot malloc 20031.3 MB GPU memory. Please shrink "
    "FLAGS_fraction_of_gpu_memory_to_use environment variable to a lower value. Current value is 0.92",
    "W0613 10:18:30.684809   182 malloc.cc:99] Cannot allocate 102760448 bytes in GPU 0, available 2650865664 bytes",
    "W0521 09:01:02.000000  1234 legacy_allocator.cc:210] Cannot allocate 97.656250MB in GPU 1, available "
    "12.500000MB",
])
def test_the_legacy_allocator_warning_outranks_the_error_it_leads_to(tmp_path, warning):
    rc = _diagnose(tmp_path, warning + "\nTraceback (most recent call last):\n  File \"bench.py\", line 216, in "
                                       "test\n    return accuracy_evaluator.eval()\n"
                                       "ValueError: There is no data in Accuracy Metrics.\n")
    assert rc is not None and rc.cause == CauseId.gpu_oom, (rc and rc.cause, rc and rc.why)


def test_the_modern_out_of_memory_message_is_not_this_row(tmp_path):
    rc = _diagnose(tmp_path, "Out of memory error on GPU 0. Cannot allocate 4.000244MB memory on GPU 0, available "
                             "memory is only 3.349999MB.\n")
    assert rc is not None and rc.cause == CauseId.gpu_oom and rc.code != "legacy_gpu_alloc_failed", (rc.code,)


def test_servings_cuda_check_alone_is_at_most_medium(tmp_path):
    rc = _diagnose(tmp_path, "python -m paddle_serving_server_gpu.serve --model serving_model --port 9292 "
                             "--gpu_ids 0\nCUDA not found, please check your environment or use cpu version by "
                             "\"pip install paddle_serving_server\"\n")
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch, (rc and rc.cause,)
    assert rc.confidence == Confidence.MEDIUM, rc.confidence
