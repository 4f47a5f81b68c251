"""A driver older than the CUDA it runs (issue 29, batch 33): Paddle only warns that it found no GPU, while
the environment report the issue template asks for (tools/summary_env.py) shows the CUDA toolkit and the
driver. Against NVIDIA's floor per CUDA release the pair explains the missing GPU: ``cuda_cudnn_mismatch``,
medium, the device verdict as its alternative. A driver new enough, or nvidia-smi's own "CUDA Version" (the
newest the driver runs), leaves the verdict alone."""

from __future__ import annotations

import pytest

from pastes import root_cause_of
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose.refine.versions import min_driver

REPORT = """\
W0324 15:29:02.249459  3747 init.cc:182] Compiled with WITH_GPU, but no GPU found in runtime.
UserWarning: You are using GPU version Paddle, but your CUDA device is not set properly. CPU device will be used by default.

Paddle version: 2.4.2
Paddle With CUDA: True

CUDA version: {cuda}
cuDNN version: 8.1.1
Nvidia driver version: {driver}
"""


def test_a_driver_older_than_the_cuda_floor_explains_no_gpu(tmp_path):
    finding = root_cause_of(tmp_path, REPORT.format(cuda="11.2.142", driver="440.33.01"))
    assert finding.cause == CauseId.cuda_cudnn_mismatch
    assert finding.confidence == "medium"
    assert "450.80.02" in finding.message
    assert finding.alternatives[0].cause == CauseId.device_not_found


@pytest.mark.parametrize("cuda, driver", [("11.2.142", "470.82.01"), ("10.2.89", "440.33.01"),
                                          ("12.0.76", "525.60.13")])
def test_a_driver_at_or_past_the_floor_leaves_the_verdict(tmp_path, cuda, driver):
    assert root_cause_of(tmp_path, REPORT.format(cuda=cuda, driver=driver)).cause == CauseId.device_not_found


def test_nvidia_smis_own_cuda_version_is_not_the_toolkit(tmp_path):
    text = ("W0324 15:29:02.249459  3747 init.cc:182] Compiled with WITH_GPU, but no GPU found in runtime.\n"
            "| NVIDIA-SMI 440.33.01    Driver Version: 440.33.01    CUDA Version: 10.2     |\n")
    assert root_cause_of(tmp_path, text).cause == CauseId.device_not_found


@pytest.mark.parametrize("cuda, floor", [("13.0", "580.65.06"), ("12.4.131", "525.60.13"), ("11.8", "450.80.02"),
                                         ("11.0.221", "450.36.06"), ("10.2", "440.33"), ("9.0", "384.81"),
                                         ("8.0", None)])
def test_nvidias_floor_per_cuda_release(cuda, floor):
    assert min_driver(cuda) == floor


DEVICE_LINE = ("W1204 12:00:00.000  1 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 7.5, "
               "Driver API Version: {driver}, Runtime API Version: {runtime}\n"
               "OSError: (External) CUDA error(999), unknown error.\n")


@pytest.mark.parametrize(("driver", "runtime"), [("11.4", "12.0"), ("10.1", "10.2"), ("11.8", "12.3")])
def test_paddles_device_line_with_a_driver_below_its_runtime(tmp_path, driver, runtime):
    finding = root_cause_of(tmp_path, DEVICE_LINE.format(driver=driver, runtime=runtime))
    assert finding.cause == CauseId.cuda_cudnn_mismatch
    assert finding.confidence.value == "medium"
    assert finding.alternatives[0].cause == CauseId.cuda_error_other


@pytest.mark.parametrize(("driver", "runtime"), [("12.2", "11.8"), ("11.4", "11.8"), ("12.0", "12.0")])
def test_a_driver_that_serves_its_runtime_leaves_the_verdict(tmp_path, driver, runtime):
    # 11.4 serves 11.8: CUDA 11.1+ minor version compatibility
    assert root_cause_of(tmp_path, DEVICE_LINE.format(driver=driver, runtime=runtime)).cause == CauseId.cuda_error_other
