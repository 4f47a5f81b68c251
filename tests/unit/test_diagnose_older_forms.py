"""Issue 29, after gathered batch 13: older and translated wordings of known causes. Paddle 0.x-1.x's
"cudaXxx failed in paddle::platform::Func: <CUDA text>" and its host allocator's posix_memalign ENOMEM,
modprobe's missing NVIDIA module, bash's kill report in a translated locale, PaddleHub's check of
CUDA_VISIBLE_DEVICES. Every line follows the emitting code's template (cited in
diagnose/signatures/rows/older_forms.py); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

FLUID_TRACE = ("Traceback (most recent call last):\n"
               '  File "train.py", line 207, in train\n'
               "    exe.run(main_program, feed=feeder.feed(data), fetch_list=[avg_cost])\n"
               '  File "/usr/local/lib/python2.7/site-packages/paddle/fluid/executor.py", line 290, in run\n'
               "    self.executor.run(program.desc, scope, 0, True, True)\n")


_diagnose = root_cause_of


@pytest.mark.parametrize("call,func,text", [
    ("cudaMemcpyAsync", "GpuMemcpyAsync", "an illegal memory access was encountered"),
    ("cudaGetDeviceCount", "GetCUDADeviceCount", "unknown error"),
    ("cudaSetDevice", "SetDeviceId", "all CUDA-capable devices are busy or unavailable"),
])
def test_a_fluid_cuda_call_failure_is_a_cuda_error(tmp_path, call, func, text):
    rc = _diagnose(tmp_path, FLUID_TRACE + f"paddle.fluid.core.EnforceNotMet: {call} failed in paddle::platform::"
                                           f"{func}: {text} at [/paddle/paddle/fluid/platform/gpu_info.cc:97]\n"
                                           "PaddlePaddle Call Stacks: \n")
    assert rc.cause == CauseId.cuda_error_other and rc.code == "fluid_cuda_call_failed", (rc.cause, rc.why)


def test_a_fluid_cuda_call_that_found_no_device_is_left_to_the_no_device_reading(tmp_path):
    rc = _diagnose(tmp_path, FLUID_TRACE + "paddle.fluid.core.EnforceNotMet: cudaGetDeviceCount failed in "
                                           "paddle::platform::GetCUDADeviceCount: no CUDA-capable device is detected "
                                           "at [/paddle/paddle/fluid/platform/gpu_info.cc:32]\n")
    assert rc.code != "fluid_cuda_call_failed" and rc.cause != CauseId.cuda_error_other, (rc.code, rc.cause)


def test_posix_memalign_enomem_is_out_of_host_memory(tmp_path):
    rc = _diagnose(tmp_path, FLUID_TRACE + "paddle.fluid.core.EnforceNotMet: Enforce failed. Expected "
                                           "posix_memalign(&p, alignment, size) == 0, but received "
                                           "posix_memalign(&p, alignment, size):12 != 0:0.\n"
                                           "Alloc 1073741824 error! at [/paddle/paddle/fluid/memory/detail/"
                                           "system_allocator.cc:51]\n")
    assert rc.cause == CauseId.host_out_of_memory, (rc.cause, rc.why)


def test_posix_memalign_with_another_error_number_is_not_read_as_memory(tmp_path):
    rc = _diagnose(tmp_path, FLUID_TRACE + "paddle.fluid.core.EnforceNotMet: Enforce failed. Expected "
                                           "posix_memalign(&p, alignment, size) == 0, but received "
                                           "posix_memalign(&p, alignment, size):22 != 0:0.\n")
    assert rc is None or rc.cause != CauseId.host_out_of_memory, rc.cause


def test_a_missing_nvidia_kernel_module_outranks_the_no_device_error_it_causes(tmp_path):
    rc = _diagnose(tmp_path, "modprobe: FATAL: Module nvidia not found in directory /lib/modules/5.4.0-42-generic\n"
                             "F0801 10:00:00.000000  4242 hl_cuda_device.cc:453] Check failed: cudaSuccess == "
                             "cudaStat (0 vs. 38) Cuda Error: no CUDA-capable device is detected\n")
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "run.sh: 行 12: 4242 已杀死                  python train.py",
    "./train.sh: Zeile 7: 31337 Getötet                 python -u train.py",
    "train.sh: строка 3: 999 Убито",
    "script/run.sh: 行 30: 23195 已杀死",
])
def test_a_translated_shell_kill_report_is_read_as_the_english_one(tmp_path, line):
    rc = _diagnose(tmp_path, "[INFO] epoch 0 step 120 loss 2.31\n" + line + "\n")
    assert rc.cause == CauseId.host_oom_killed, (rc.cause if rc else None)


def test_paddlehub_gpu_check_is_a_visible_devices_problem(tmp_path):
    rc = _diagnose(tmp_path, '  File "/root/.paddlehub/modules/stylepro_artistic/module.py", line 156, in '
                             "style_transfer\n    raise RuntimeError(\n"
                             "RuntimeError: Attempt to use GPU for prediction, but environment variable "
                             "CUDA_VISIBLE_DEVICES was not set correctly.\n")
    assert rc.cause == CauseId.cuda_visible_devices_misconfig and rc.code == "hub_gpu_env_unset", (rc.cause, rc.why)


def test_a_teamcity_build_log_is_read_without_its_prefix(tmp_path):
    """TeamCity's downloaded build log: "[HH:MM:SS]<status>:<tab> [<block>] " before each line."""
    lines = FLUID_TRACE.splitlines() + ["EnforceNotMet: cudaMemcpyAsync failed in paddle::platform::GpuMemcpyAsync: "
                                        "an illegal memory access was encountered at [/paddle/paddle/fluid/platform/"
                                        "gpu_info.cc:97]"]
    rc = _diagnose(tmp_path, "".join(f"[21:12:11] :\t [Step 1/1] {line}\n" for line in lines))
    assert rc.cause == CauseId.cuda_error_other and rc.evidence[0].text.startswith("EnforceNotMet:"), rc.evidence
