"""Paddle's own checks that the coverage review of issue 29 found unread (the 217 `gap:` rows of
tests/fixtures/templates), and the collective libraries beside NCCL (RCCL, HCCL, XCCL): each log line is
built from the emitting code's template (the source each signature cites), with values a real run
prints, under the frame of the file that raises it where it is a Python site. Each is named with its
cause; a generic allocation line does not outrank a real root cause on the same rank."""

import pytest

from paddle_doctor.catalog.codes import signal_of
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.signatures.rows.checks import SPAWN_SIGNAL_CAUSES

SITE = "/usr/local/lib/python3.8/site-packages/paddle/"


def _cause(text: str):
    rc = diagnose_paths(["-"], stdin=text.encode()).root_cause
    return rc.cause if rc is not None else None


def _raised(source: str, line: str) -> str:
    return f'Traceback (most recent call last):\n  File "{SITE}{source}", line 912, in _ps_env\n{line}\n'


@pytest.mark.parametrize("source, line, cause", [
    # role_maker.py PaddleCloudRoleMaker: the launcher's variables, one per check
    ("distributed/fleet/base/role_maker.py", "ValueError: Can not find PADDLE_TRAINERS_NUM, please check your "
     "environment.", CauseId.missing_dist_env),
    ("distributed/fleet/base/role_maker.py", "ValueError: Can not find POD_IP, please check your environment.",
     CauseId.missing_dist_env),
    ("distributed/fleet/base/role_maker.py", "ValueError: Can not Find PADDLE_NEXT_HETER_TRAINER_IP_PORT_LIST in env "
     "or its format doesn't match the requirement: 'IP:PORT,IP:PORT' .", CauseId.missing_dist_env),
    ("distributed/collective.py", "AssertionError: please set the CLUSTER_ID variable.", CauseId.missing_dist_env),
    ("distributed/parallel.py", "AssertionError: The environment variable 'MASTER_ADDR' and 'MASTER_PORT' must be "
     "specified, for example 'export MASTER_ADDR=127.0.0.1' and 'export MASTER_ADDR=54612'.", CauseId.missing_dist_env),
    ("distributed/fleet/base/role_maker.py", "ValueError: TRAINING_ROLE must be PSERVER or TRAINER or HETER_TRAINER, "
     "but get WORKER, please check your environment.", CauseId.config_error),
    # parallel.py _check_var_exists, for any variable of the leftover world (not only FLAGS_selected_*)
    ("distributed/parallel.py", "ValueError: paddle.distributed initialize error, environment variable "
     "PADDLE_CURRENT_ENDPOINT is needed, but not set.", CauseId.residual_dist_env),
    # builds without the device asked of them
    ("device/cuda/__init__.py", "ValueError: The API paddle.device.cuda.get_device_properties is not supported in "
     "CPU-only PaddlePaddle. Please reinstall PaddlePaddle with GPU support to call this API.", CauseId.device_not_found),
    ("device/cpu.py", "ValueError: The API paddle.device.max_memory_allocated is not supported in CPU PaddlePaddle. "
     "Please reinstall PaddlePaddle with GPU or XPU support to call this API.", CauseId.device_not_found),
    ("distributed/parallel.py", "NotImplementedError: If you want to use CPU-only version, please use 'gloo' as "
     "backend", CauseId.device_not_found),
    ("distributed/collective.py", "AssertionError: no cuda device found", CauseId.device_not_found),
    ("device/cuda/graphs.py", "AssertionError: CUDA Graph is only supported on PaddlePaddle compiled with NVIDIA GPU.",
     CauseId.device_not_found),
    ("device/custom_device.py", "Exception: No custom device available, please install paddle with custom device "
     "support", CauseId.device_not_found),
    ("distributed/fleet/base/fleet_base.py", "ValueError: CUDA_VISIBLE_DEVICES shoule be set only 1 card if you use "
     "`python` to launch fleet program.", CauseId.cuda_visible_devices_misconfig),
    # hybrid-parallel degrees
    ("distributed/fleet/base/topology.py", "AssertionError: nranks: 8, mp_num: 2, sharding_num: 1, pp_num: 2, "
     "dp_num: 1, sep_num: 1", CauseId.config_error),
    ("distributed/fleet/base/strategy_group.py", "AssertionError: Rank 3 belongs to multi dp groups",
     CauseId.config_error),
    ("distributed/collective.py", "RuntimeError: Timeout while initializing process group 3.Keys /process_group/3/0 "
     "are not ready sinck rank 1 is waiting them.Two reason may cause this error: 1. The create process group api "
     "should be called by all ranks. 2. Try to increase the waiting time.", CauseId.collective_timeout),
    # paddle.distributed.spawn: the child's signal by name, the cause from the signal table
    ("distributed/spawn.py", "Exception: Process 1 terminated with signal SIGKILL.", CauseId.host_oom_killed),
    ("distributed/spawn.py", "Exception: Process 0 terminated with signal SIGSEGV.", CauseId.segfault),
    ("distributed/spawn.py", "Exception: Process 1 terminated with signal SIGBUS.", CauseId.segfault),
])
def test_python_site_names_its_cause(source, line, cause):
    assert _cause(_raised(source, line)) == cause


@pytest.mark.parametrize("line, cause", [
    ("RuntimeError: (Unavailable) Failed to create CUDAManagedAllocator on GPU 0.", CauseId.config_error),
    ("RuntimeError: (Fatal) When binding threads and streams, the use of process-level allocators will result in "
     "undefined result errors due to memory asynchronous operations.", CauseId.config_error),
    ("Failed to initialize GPU device #0: unknown error", CauseId.device_not_found),
    ("RuntimeError: (PermissionDenied) Paddle can't concat tensor since it's not support GPU, please recompile or "
     "reinstall Paddle with GPU support.", CauseId.device_not_found),
    ("RuntimeError: (NotFound) Cannot find gpu 3, please check visible devices.", CauseId.device_not_found),
    ("RuntimeError: (OutOfRange) The index exceeds the size of devices, the size of devices is 2, the index is 2",
     CauseId.device_not_found),
    ("RuntimeError: Error: block_reduce.h:42 Assertion `false` failed. __shfl_down_sync with bfloat16 is not "
     "supported on cuda <= 11.", CauseId.cuda_cudnn_mismatch),
    ("RuntimeError: (ResourceExhausted) Out of memory error on xpu 0. total memory is 32GB, used memory is 31.5GB, "
     "available memory is only 500MB.", CauseId.gpu_oom),
    ("RuntimeError: (ResourceExhausted) Fail to allocate jitcode generator (GenBase) CPU memory: size = 4096 .",
     CauseId.host_out_of_memory),
    ("RuntimeError: (Fatal) DataLoader process (pid 4121) exited is killed by signal: 7.",
     CauseId.dataloader_worker_crash),
    ("RuntimeError: (Unavailable) Get NCCL unique ID failed.", CauseId.nccl_error),
    ("RuntimeError: Fail to sync nccl stream: unhandled cuda error", CauseId.nccl_error),
])
def test_core_library_message_names_its_cause(line, cause):
    assert _cause(line + "\n") == cause


@pytest.mark.parametrize("text", [
    # ROCm: Paddle's enforce for RCCL (build_rocm_error_msg)
    "Traceback (most recent call last):\n  File \"train.py\", line 30, in <module>\n"
    "    dist.init_parallel_env()\nOSError: (External)  Rccl error, unhandled system error  (at /paddle/paddle/fluid/"
    "platform/collective_helper.cc:94)\n",
    # Ascend NPU through PaddleCustomDevice: RUNTIME_CHECK of an HCCL call, then exit(-1)
    "I1205 10:00:01.000000  4242 process_group_custom.cc:120] ProcessGroupCustom init\n"
    "Call HcclCommInitRootInfo(nranks, reinterpret_cast<HcclRootInfo *>(unique_id->data), rank, "
    "reinterpret_cast<HcclComm *>(comm)) failed : 7 at file /PaddleCustomDevice/backends/npu/runtime/runtime.cc "
    "line 1060\n",
    # Ascend NPU in Paddle's own NPU builds (2.1-2.4): enforce_npu.h's prefix for an HcclResult
    "Traceback (most recent call last):\n  File \"train.py\", line 30, in <module>\n"
    "    dist.init_parallel_env()\nRuntimeError: (External)  HCCL error, the error code is : 7.  (at /paddle/paddle/"
    "fluid/platform/collective_helper_npu.cc:79)\n",
    # Ascend CANN's own log line (printed to stdout under any framework when its logs go there)
    "[ERROR] HCCL(36035,python):2025-05-13-02:25:58.068.817 [op_base.cc:974][36818][Init][CommRootInfoConfig]"
    "errNo[0x0000000005000002]HcclCommInitRootInfo failed.\n",
    # Cambricon MLU in Paddle's MLU builds (2.3-2.4): build_mlu_error_msg(cnclResult_t)
    "ExternalError: MLU CNCL error(7), CNCL_RET_ERR_SYSTEM.  (at /paddle/paddle/fluid/platform/collective_helper.cc"
    ":356)\n",
    # a custom device's XCCL: the generic status, with the collective's frame on the C++ stack
    "C++ Traceback (most recent call last):\n--------------------------------------\n"
    "0   paddle::distributed::ProcessGroupCustom::CreateXCCLEnvCache(phi::Place const&, std::string const&)\n"
    "1   phi::DeviceManager::CCLCommInitRank(std::string const&, unsigned long, std::vector<unsigned char>*, "
    "unsigned long, void**)\n"
    "2   phi::CustomDevice::CCLCommInitRank(unsigned long, std::vector<unsigned char>*, unsigned long, void**)\n\n"
    "----------------------\nError Message Summary:\n----------------------\n"
    "ExternalError:  CustomDevice error, the error code is : 1.  (at /paddle/paddle/phi/backends/custom/"
    "custom_device.cc:826)\n",
])
def test_collective_libraries_beside_nccl_are_the_collective_family(text):
    assert _cause(text) == CauseId.nccl_error


def test_an_npu_held_by_an_earlier_run_is_the_leftover_process():
    """CANN's EJ0001 says what the HCCL failure before it comes from: an earlier run still holds the NPU."""
    text = ("RuntimeError: (External)  HCCL error, the error code is : 7.  (at /paddle/paddle/fluid/platform/"
            "collective_helper_npu.cc:79)\n"
            "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last "
            "training process is running.\n"
            "        Solution: Wait for 10s after killing the last training process and try again.\n")
    assert _cause(text) == CauseId.stale_process_holding_gpu


def test_a_generic_allocation_line_does_not_outrank_the_real_cause():
    """A host allocation that failed beside the device's own OOM (or an NCCL error) on the same rank:
    the specific cause wins, the allocation line is not the verdict."""
    oom = ("RuntimeError: (ResourceExhausted) Out of memory error on GPU 0. Cannot allocate 2.0GB memory on GPU 0, "
           "30.5GB memory has been allocated and available memory is only 1.2GB.\n")
    host = "RuntimeError: Fail to allocate CPU memory: size = 1048576 .\n"
    nccl = "OSError: (External) NCCL error(2), unhandled system error.\n"
    assert _cause(host + oom) == CauseId.gpu_oom
    assert _cause(oom + host) == CauseId.gpu_oom
    assert _cause(host + nccl) == CauseId.nccl_error
    xccl = "2   phi::CustomDevice::CCLAllReduce(void*, void*, unsigned long, phi::ccl::CCLDataType)\n"
    assert _cause(xccl + oom) == CauseId.gpu_oom


def test_spawn_signal_causes_follow_the_signal_table():
    """The spawn rows give each signal the cause catalog/codes.toml gives it; the signals without one
    (SIGHUP, SIGTERM, SIGINT) stay unread there, as the coverage table's reason says."""
    import signal

    for name, cause in SPAWN_SIGNAL_CAUSES.items():
        assert signal_of(int(signal.Signals[name])).cause == cause, name
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        assert name not in SPAWN_SIGNAL_CAUSES
        assert _cause(_raised("distributed/spawn.py", f"Exception: Process 1 terminated with signal {name}.")) in (
            CauseId.python_exception, CauseId.unknown, None)


def test_look_alikes_do_not_fire():
    """Lines that share words with the new rows but say something else."""
    from paddle_doctor.diagnose.signatures import match_line

    for line in ("I1205 10:00:00 role_maker.py:540] find PADDLE_TRAINER_ID=0 in env",
                 "Allocation failed because of timeout when allocating 1024 bytes.",
                 "hccl_comm.h: HcclCommInitRootInfo returned HCCL_SUCCESS",
                 "The maximum gpu memory limit that the process can allocate. If it is equal to 0, there would be "
                 "no limit"):
        matched = match_line(line)
        assert matched is None or not matched[0].points_at_cause, (line, matched[0].name)


@pytest.mark.parametrize("text, cause", [
    # pp 3.1+ gpu_resources.cc CheckDeviceArch: an error line, then RuntimeError (Paddle#73687); a paste may keep its tail
    ("E0628 11:38:05.609311 27896 gpu_resources.cc:98] Mismatched GPU Architecture: The installed PaddlePaddle package "
     "was compiled for 75 80 86 89 ,but your current GPU is 120 Solution: Install the correct wheel package built for "
     "your GPU from the official PaddlePaddle website: https://www.paddlepaddle.org.cn/\nRuntimeError: Unsupported GPU "
     "architecture\n", CauseId.cuda_arch_unsupported),
    ("your current GPU is 120 Solution: Install the correct wheel package built for your GPU from the official "
     "PaddlePaddle website: https://www.paddlepaddle.org.cn/\n", CauseId.cuda_arch_unsupported),
    # PaddleTS's own check of the installed Paddle
    ("ValueError: only the following paddle versions are supported: {'2.2.0', '2.3.0'}, current paddle version: "
     "2.4.0\n", CauseId.paddle_api_mismatch),
])
def test_gpu_arch_error_and_suite_version_check(text, cause):
    assert _cause(text) == cause
