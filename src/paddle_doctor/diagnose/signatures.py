"""Log signatures: what a line means, as data.

Each signature is a regular expression over one log line, what it points to (a cause id from the
catalog, or a role such as "a peer died"), and how specific it is. They follow Paddle's own message
formats (gloo, the launchers, the C++ enforce and signal handlers, the DataLoader), from Paddle 1.x
to 3.x. The first signature that matches a line wins, so the specific ones come first.

Roles:
- ``cause``: this line is evidence of a root cause on the rank that printed it.
- ``exception``: an uncaught exception line with nothing more specific (fallback ``python_exception``).
- ``peer_closed``: a collective failed because a peer process closed its connection (it died).
- ``real_timeout``: a collective really waited out gloo's 30 s: peers are alive but elsewhere.
- ``terminated``: this rank was killed by SIGTERM (the launcher or a timeout): a victim.
- ``launcher_failed`` / ``launcher_abort`` / ``launcher_exit``: what the launcher says about ranks.
- ``rendezvous_retry`` / ``listen``: store connection attempts during initialisation.
- ``hang_site``: a frame in a SIGTERM crash dump that says where the rank was stuck.
- ``traceback`` / ``frame`` / ``signal_time``: structure, used to read blocks.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..errors import CAUSE_BY_NAME
from ..catalog.ids import CauseId


@dataclass(frozen=True)
class Signature:
    name: str
    pattern: re.Pattern
    role: str
    cause: str | None = None
    specificity: int = 0  # higher wins when one rank shows several causes
    example: str = ""  # a line built from the emitting code's template (tests check every example)
    title: str = ""  # short human label; may use named groups, e.g. "{exc}"
    source: str = ""  # where the message is emitted: "package version, file" (tests require it)


# What a survivor prints when another rank failed: never a cause by itself.
VICTIM_ROLES = ("peer_closed", "real_timeout", "terminated")


def _sig(name, pattern, role, cause=None, specificity=0, example="", title="", flags=0, source=""):
    return Signature(name, re.compile(pattern, flags), role, cause, specificity, example, title,
                     source or SOURCES.get(name, ""))


# Where each message is emitted. "pp" = the paddlepaddle-gpu wheels of those versions (2.x read from
# the cp38 wheels, 3.3.1 from the CPU wheel); "so" = the text is in the core library's strings
# (core_avx.so, libpaddle.so, libphi_core.so); NCCL from the nvidia-nccl-cu12 2.32.3 wheel.
_LAUNCH = "pp 2.4.2-3.3.1, paddle/distributed/launch/"
_FLEET = "pp 1.8.5 paddle/distributed/utils.py; pp 2.0.2-3.3.1 paddle/distributed/fleet/launch_utils.py"
SOURCES: dict[str, str] = {
    "launch_container_failed": _LAUNCH + "job/container.py (Container rank {} status {} cmd {} code {} log {})",
    "fleet_abort": _FLEET + " (ABORT!!! Out of all {} trainers ...)",
    "launch_exit_code": _LAUNCH + "controllers/controller.py (Exit code {})",
    "launch_config": _LAUNCH + "context/__init__.py (prints every argument: key: value)",
    "launch_pod_failed": _LAUNCH + "controllers/controller.py (Pod failed / Container failed !!!)",
    "launch_pod_completed": _LAUNCH + "controllers/controller.py (Pod completed)",
    "launch_killed": _LAUNCH + "main.py and controllers/controller.py (Terminating with signal {})",
    "fleet_terminate": _FLEET + " terminate_local_procs (terminate all the procs)",
    "gloo_size_mismatch": "pp 2.0.2-3.3.1 so: gloo/transport/tcp/pair.cc (enforce op.preamble.length <= op.nbytes)",
    "gloo_peer_closed": "pp 2.0.2-3.3.1 so: gloo/transport/tcp/pair.cc:584 (TIMEOUT self_rank = {} pair_rank = {})",
    "gloo_reset": "pp 2.0.2-2.6.2 so: gloo/transport/tcp/pair.cc (Read error {}: Connection reset by peer)",
    "gloo_real_timeout": "pp 2.0.2-3.3.1 so: gloo/transport/tcp/unbound_buffer.cc:80/133 (TIMEOUT)",
    "nccl_async_timeout": "pp 2.5-3.x GPU so: phi/core/distributed/comm_task_manager.cc (Find timeout start but "
                          "not finish task); NCCL watchdog wording of ProcessGroupNCCL",
    "shm_bus_error": "pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (Unexpected BUS error encountered in "
                     "DataLoader worker ... insufficient shared memory (shm))",
    "gpu_oom_nothing_free": "pp 1.8.5-3.3.1 so: memory/allocation/allocator_facade / retry_allocator (Out of memory "
                            "error on GPU %d. Cannot allocate %s memory on GPU %d, %s memory has been allocated and "
                            "available memory is only %s)",
    CauseId.gpu_oom: "pp 1.8.5-3.3.1 so: memory/allocation (Out of memory error on GPU %d); CUDA runtime "
               "cudaErrorMemoryAllocation; cuBLAS CUBLAS_STATUS_ALLOC_FAILED",
    "cpu_oom": "pp 2.0.2-3.3.1 so: memory/allocation/cpu_allocator (Fail to alloc memory of %ld size); "
               "Python MemoryError; libstdc++ std::bad_alloc",
    CauseId.segfault: "pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (FatalError: `%s` is detected by the "
                "operating system.); glibc strsignal(SIGSEGV)",
    "sigbus": "pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (`Bus error` is detected ...)",
    "libuv_port_busy": "pp 3.x so: third_party/libuv/src/unix/core.c uv__finish_close assertion (measured on 3.3.1)",
    "sigterm": "pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (`Termination signal` is detected ...)",
    "sigabrt": "pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (`Process abort signal` is detected ...)",
    "signal_time": "pp 1.8.5-3.3.1 so: platform/init.cc (*** Aborted at %ld (unix time) ...)",
    "hang_dataloader": "pp 2.x-3.3.1 so: operators/reader/buffered_reader / MultiDeviceFeedReader::ReadNextList frames",
    "hang_rendezvous": "pp 2.x-3.3.1 so: gloo rendezvous HTTPStore / phi TCPStore frames in a SIGTERM dump",
    CauseId.port_in_use: "pp 2.4.2-3.3.1 so: phi/core/distributed/store/tcp_utils.cc (Bind network on %s failed.); "
                   "Python errno EADDRINUSE ([Errno 98] Address already in use)",
    "listen": "pp 2.4.2-3.3.1 so: store/tcp_utils.cc (The server starts to listen on %s); 3.3.1 tcp_store.cc "
              "(create libuv server at port)",
    "rendezvous_retry": "pp 2.4.2-3.3.1 so: store/tcp_utils.cc (Retry to connect to %s while the server is not yet "
                        "listening.)",
    "store_timeout": "pp 2.4.2-3.3.1 so: phi/core/distributed/store/tcp_store.cc:433 (_timeout:%d elapsed:%d)",
    "no_global_group": "pp 2.0.2-3.3.1 paddle/distributed/parallel.py (Currently not a parallel execution "
                       "environment); 2.4.2-3.3.1 communication/group.py (The global group is not initialized)",
    CauseId.windows_no_nccl: "pp 1.8.5-3.3.1 paddle/fluid/dygraph/parallel.py, distributed/collective.py (core."
                       "NCCLParallelContext / core.ProcessGroupNCCL exist only in Linux GPU builds); "
                       "pp 2.0.2 paddle/fluid/framework.py (is not compiled with)",
    "nccl_lib_missing": "pp 1.8.5-3.3.1 so: platform/dynload/dynamic_loader.cc (The third-party dynamic library "
                        "(%s) that Paddle depends on is not configured correctly.)",
    "nccl_version": "nccl-cu12 2.32.3 libnccl.so strings (Mismatched NCCL version detected : rank %d version %d "
                    "rank %d version %d; NCCL version mismatch with remote peer %s (local: %s, remote %s); NCCL "
                    "library is too old. This application was compiled with NCCL version %s ...)",
    "nccl_interface": "nccl-cu12 2.32.3 libnccl.so strings (Bootstrap : no socket interface found; NCCL_SOCKET_IFNAME)",
    CauseId.nccl_error: "pp 1.8.5-3.3.1 so: platform/enforce.h (NCCL error(%d), %s); nccl-cu12 libnccl.so "
                  "ncclGetErrorString (unhandled cuda error, ncclSystemError, ...)",
    "cudnn_mismatch": "pp 1.8.5-3.3.1 so: platform/dynload/cudnn.cc ([cudnn init] libcudnn v%d with header v%d "
                      "unmatched!); cuDNN CUDNN_STATUS_VERSION_MISMATCH",
    "cuda_arch": "pp 2.0.2-2.6.2 so and nccl-cu12 (CUDA runtime: no kernel image is available for execution on the "
                 "device)",
    "no_device": "CUDA runtime cudaGetErrorString (cudaErrorNoDevice: no CUDA-capable device is detected; "
                 "cudaErrorInvalidDevice: invalid device ordinal), quoted by pp 1.8.5-2.0.2 so gpu_info.cc",
    "launch_device_frame": "pp 2.4.2-3.3.1 paddle/distributed/launch/context/device.py get_selected_devices",
    "cuda_other": "pp 1.8.5-3.3.1 so: platform/enforce.h (CUDA error(%d), %s); CUDA runtime error names",
    "dl_worker_caught": "pp 1.8.5-2.4.2 paddle/fluid/dataloader/worker.py, 2.6.2-3.3.1 paddle/io/dataloader/"
                        "worker.py (DataLoader worker(%d) caught %s with message)",
    "dl_worker_signal": "pp 1.8.5-3.3.1 paddle/{fluid,io}/dataloader/dataloader_iter.py (DataLoader %d workers "
                        "exit unexpectedly, pids: %s)",
    "dl_reader_thread": "pp 1.8.5-3.3.1 paddle/fluid/reader.py, base/reader.py (DataLoader reader thread raised an "
                        "exception!)",
    "dl_blocking_queue": "pp 1.8.5-3.3.1 so: operators/reader/blocking_queue.h (Blocking queue is killed because "
                         "the data reader raises an exception.)",
    "main_guard": "CPython 3.x Lib/multiprocessing/spawn.py _check_not_importing_main (current process has "
                  "finished its bootstrapping phase)",
    "state_shape": "pp 2.x-3.3.1 paddle/nn/layer/layers.py set_state_dict (Skip loading for {}. {} receives a shape "
                   "{}, but the expected shape is {}.)",
    "state_missing_key": "pp 2.x-3.3.1 paddle/nn/layer/layers.py set_state_dict (Skip loading for {}. {} is not "
                         "found in the provided dict.)",
    "load_not_exists": "pp 2.x-3.3.1 paddle/framework/io.py load (The ``path`` (%s) to load model not exists.); "
                       "Python FileNotFoundError / errno ENOENT",
    "unused_params": "pp 2.4.2 so: imperative/reducer.cc (Please set find_unused_parameters=True ...); "
                     "pp 2.4.2 paddle/fluid/dygraph/parallel.py (find_unused_parameters)",
    "launcher_frame": "pp 1.8.5-3.3.1 paddle/distributed/{utils.py,launch/,fleet/launch*.py} (the launcher's own "
                      "frames: a traceback inside it is its own crash)",
    "traceback": "CPython traceback.py (Traceback (most recent call last):)",
    "frame": "CPython traceback.py (  File \"%s\", line %d, in %s)",
    "exception": "CPython traceback.py (the last line: <qualified type>: <message>); pp enforce.h error types "
                 "(InvalidArgument, PreconditionNotMet, ...) are raised as ValueError, RuntimeError, ...",
}


# A victim's own exception (another rank failed first) must not outrank the real cause.
_VICTIM_EXCEPTIONS = {"PeerFailedError": 45}


def _our_exceptions() -> tuple[Signature, ...]:
    """paddle-doctor's own exceptions name their cause id (``errors.CAUSE_BY_NAME``)."""
    return tuple(
        _sig(f"ours_{name}", rf"(?:^|[\s.:'\"])(?P<exc>{name})(?::\s?(?P<msg>.*))?$", "cause", cause,
             _VICTIM_EXCEPTIONS.get(name, 90), f"paddle_doctor.errors.{name}: ranks disagree (rank 1 differs)",
             title="{exc}: {msg}", source="paddle-doctor, src/paddle_doctor/errors.py")
        for name, cause in sorted(CAUSE_BY_NAME.items()))


# Ordered: the first match wins. Keep specific before generic.
SIGNATURES: tuple[Signature, ...] = (
    # --- launchers -------------------------------------------------------------------------
    _sig("launch_container_failed",
         r"Container rank (?P<rank>\d+) status failed cmd .*? code (?P<code>-?\d+)(?: log (?P<log>\S+))?",
         "launcher_failed",
         example="Container rank 0 status failed cmd ['python', '-u', 't.py'] code -9 log log/workerlog.0"),
    _sig("fleet_abort",
         r"ABORT!!! Out of all (?P<world>\d+) trainers, the trainer process with rank=\[(?P<ranks>[\d, ]*)\]",
         "launcher_abort",
         example="ABORT!!! Out of all 2 trainers, the trainer process with rank=[0] was aborted."),
    _sig("launch_exit_code", r"LAUNCH INFO .* Exit code (?P<code>-?\d+)", "launcher_exit",
         example="LAUNCH INFO 2026-11-29 21:41:00,263 Exit code 1"),
    _sig("launch_config", r"LAUNCH INFO .* (?P<key>nproc_per_node|nnodes): (?P<val>\d+)", "launcher_config",
         example="LAUNCH INFO 2026-11-29 21:40:54,230 nproc_per_node: 2"),
    _sig("launch_pod_failed", r"LAUNCH (?:INFO|ERROR) .* (?:Pod failed|Container failed !!!)", "launcher_note",
         example="LAUNCH ERROR 2024-03-10 00:35:50,216 Container failed !!!"),
    _sig("launch_pod_completed", r"LAUNCH INFO .* Pod completed", "launcher_ok",
         example="LAUNCH INFO 2026-11-29 21:41:00,262 Pod completed"),
    _sig("launch_killed", r"(?:Terminating with signal|Exit with signal) (?P<sig>\d+)", "launcher_killed",
         example="LAUNCH INFO 2026-11-29 21:41:00,263 Terminating with signal 15"),
    _sig("fleet_terminate", r"terminate all the procs", "launcher_note",
         example="INFO 2020-07-21 14:44:20,106 launch_utils.py:322] terminate all the procs"),
    # --- gloo / collectives --------------------------------------------------------------------
    _sig("gloo_size_mismatch",
         r"op\.preamble\.length <= op\.nbytes\. (?P<a>\d+) vs (?P<b>\d+)", "cause", CauseId.uneven_eval_batches, 100,
         "what():  [enforce fail at /paddle/third_party/gloo/gloo/transport/tcp/pair.cc:495] "
         "op.preamble.length <= op.nbytes. 8 vs 4",
         title="tensor sizes differ across ranks in one collective ({a} vs {b} bytes)"),
    _sig("gloo_peer_closed",
         r"pair\.cc:\d+\] TIMEOUT self_rank = (?P<self>-?\d+) pair_rank = (?P<peer>-?\d+)", "peer_closed",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT "
                 "self_rank = 0 pair_rank = 1 peer_str = [127.0.0.1]:2981"),
    _sig("gloo_reset", r"(?:Read|Write) error \[?[\d.:\[\]]*\]?:? ?Connection reset by peer|Connection closed by peer",
         "peer_closed",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:576] Read error "
                 "[127.0.0.1]:24502: Connection reset by peer"),
    _sig("gloo_real_timeout", r"unbound_buffer\.cc:\d+\] TIMEOUT", "real_timeout",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:80] TIMEOUT "
                 "self_rank = none pair_rank = -1 peer_str = none"),
    # Not "NCCL ... timeout" in general: start-up lines print the timeout setting
    # ("process_group_nccl.cc:155] ProcessGroupNCCL pg_timeout_ 1800000").
    _sig("nccl_async_timeout", r"Find timeout start but not finish task|Watchdog caught collective operation timeout|"
         r"(?:NCCL|nccl)\w* (?:communicator|operation|collective|work)\b[^\n]{0,60}\btimed out", "cause",
         CauseId.collective_timeout, 70,
         "Find timeout start but not finish task: group_key:0,group_ranks:0;1,global_rank:1,comm_count:5"),
    # --- shared memory, DataLoader worker deaths by signal -----------------------------------------------
    _sig("shm_mmap_failed", r"Memory map failed when (?:create|rebuild) shared memory", "cause", CauseId.shm_too_small, 100,
         "ERROR:root:DataLoader reader thread failed((Unavailable) Memory map failed when rebuild shared memory. "
         "[Hint: Expected ptr != ((void *) -1), but received ptr == ((void *) -1).] "
         "(at /paddle/paddle/fluid/memory/allocation/mmap_allocator.cc:97)",
         title="creating a shared-memory block for a DataLoader batch failed: /dev/shm is full or too small",
         source="pp 1.8.5-3.3.1 so: memory/allocation/mmap_allocator.cc (Memory map failed when create|rebuild "
                "shared memory.)"),
    _sig("dl_killed_bus", r"DataLoader (?:process|worker) \(pid\S* ?[\d, ]*\) (?:exited )?is killed by signal: "
         r"Bus error|workers are out of shared memory", "cause", CauseId.shm_too_small, 100,
         "RuntimeError: DataLoader worker (pid 3002) is killed by signal: Bus error. It is possible that "
         "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
         title="a DataLoader worker died of a bus error: shared memory (/dev/shm) ran out",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (DataLoader process (pid %ld) exited is killed "
                "by signal: %s.) with strsignal(SIGBUS) = Bus error; PyTorch torch/csrc/DataLoader.cpp (DataLoader "
                "worker (pid %ld) is killed by signal: %s. It is possible that dataloader's workers are out of "
                "shared memory.)"),
    _sig("dl_killed_kill", r"DataLoader (?:process|worker) \(pid\S* ?[\d, ]*\) (?:exited )?is killed by signal: "
         r"Killed", "cause", CauseId.host_oom_killed, 95,
         "SystemError: (Fatal) DataLoader process (pid 1104) exited is killed by signal: Killed. "
         "(at /paddle/paddle/fluid/imperative/data_loader.cc:181)",
         title="a DataLoader worker was killed by SIGKILL: the kernel OOM killer is the usual sender",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (... is killed by signal: %s.) with "
                "strsignal(SIGKILL) = Killed"),
    _sig("dl_killed_other", r"DataLoader (?:process|worker) \(pid\S* ?[\d, ]*\) (?:exited )?is killed by signal: "
         r"(?P<signal>[A-Z][\w -]*\w)", "cause", CauseId.dataloader_worker_crash, 85,
         "SystemError: (Fatal) DataLoader process (pid 2730) exited is killed by signal: Segmentation fault. "
         "(at /paddle/paddle/fluid/imperative/data_loader.cc:188)",
         title="a DataLoader worker was killed by signal: {signal}",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (... is killed by signal: %s.)"),
    _sig(CauseId.too_many_open_files, r"Too many open files|\[Errno 24\]|received 0 items of ancdata", "cause",
         CauseId.too_many_open_files, 95,
         "OSError: [Errno 24] Too many open files: '/dev/shm/paddle_1234_5678'",
         title="the process ran out of file descriptors (DataLoader workers pass batches as open files)",
         source="C library strerror(EMFILE) = Too many open files ([Errno 24]); CPython Lib/multiprocessing/"
                "reduction.py recvfds (received %d items of ancdata)"),
    # --- distributed environment: missing, leftover, contradictory ------------------------------------------
    _sig("trainer_endpoints_missing", r"can't find PADDLE_TRAINER_ENDPOINTS|can't find PADDLE_TRAINERS_NUM|"
         r"can't find PADDLE_TRAINER_ID|PADDLE_TRAINER_ENDPOINTS (?:is|was) not set", "cause", CauseId.missing_dist_env, 95,
         "AssertionError: can't find PADDLE_TRAINER_ENDPOINTS",
         title="the script expects the launcher's PADDLE_* variables and was started without the launcher",
         source="pp 1.8.5-2.4.2 paddle/fluid/incubate/fleet/base/role_maker.py, 3.3.1 paddle/incubate/distributed/"
                "fleet/role_maker.py (assert ..., \"can't find PADDLE_TRAINER_ENDPOINTS\")"),
    _sig("selected_devices_not_set", r"environment variable (?P<var>FLAGS_selected_\w+|PADDLE_\w+) is needed, but "
         r"not set", "cause", CauseId.residual_dist_env, 95,
         "ValueError: paddle.distributed initialize error, environment variable FLAGS_selected_gpus is needed, "
         "but not set.",
         title="init_parallel_env saw a multi-process world from leftover variables, but {var} is not set",
         source="pp 2.0.2-3.3.1 paddle/distributed/parallel.py _check_var_exists (paddle.distributed initialize "
                "error, environment variable %s is needed, but not set.), reached only when PADDLE_TRAINERS_NUM > 1"),
    _sig("launch_device_not_found", r"Device not found (?P<dev>\S+) from (?P<arg>\S+)", "cause",
         CauseId.device_not_found, 95,
         "LAUNCH ERROR 2024-10-23 18:26:56,091 Device not found 1 from 0,1,2,3 for setting ['0']",
         title="the launcher was given device {dev}, which is not visible here",
         source="pp 2.4.2-3.3.1 paddle/distributed/launch/plugins/__init__.py (Device not found {d} from {argdev} "
                "for setting {labels})"),
    _sig("fleet_gpus_not_visible", r"Can't find your (?:gpus|selected_gpus) (?P<dev>[\d,]+) in CUDA_VISIBLE_DEVICES"
         r"\[(?P<visible>[^\]]*)\]", "cause", CauseId.device_not_found, 96,
         "AssertionError: Can't find your gpus 2 in CUDA_VISIBLE_DEVICES[0,1].",
         title="--gpus asks for GPU {dev}, which CUDA_VISIBLE_DEVICES ({visible}) does not show",
         source="pp 2.4.2 paddle/distributed/fleet/launch_utils.py get_gpus (assert x in cuda_visible_devices_list, "
                "\"Can't find your gpus %s in CUDA_VISIBLE_DEVICES[%s].\")"),
    _sig("fleet_local_ip_loopback", r"Can't find your local ip \{(?P<ip>127\.[\d.]+)\} in node_ips", "cause",
         CauseId.wrong_host_ip, 96, "AssertionError: Can't find your local ip {127.0.1.1} in node_ips: {['10.0.0.1', "
         "'10.0.0.2']}", title="this node found its own address as {ip} (a loopback entry for its hostname), "
         "which is not in --ips",
         source="pp 2.4.2 paddle/distributed/fleet/launch.py, launch_utils.py get_cluster_from_args (assert node_ip "
                "in node_ips, \"Can't find your local ip {%s} in node_ips: {%s}\"; node_ip from get_host_name_ip)"),
    _sig("fleet_local_ip_not_in_ips", r"Can't find your local ip \{(?P<ip>[^}]*)\} in (?:node_ips|args\.servers)",
         "cause", CauseId.config_error, 92, "AssertionError: Can't find your local ip {10.0.0.3} in node_ips: "
         "{['10.0.0.1', '10.0.0.2']}", title="this node ({ip}) is not in the --ips list it was launched with",
         source="pp 2.4.2 paddle/distributed/fleet/launch.py, launch_utils.py get_cluster_from_args and "
                "ParameterServerLauncher (Can't find your local ip {%s} in node_ips: {%s})"),
    _sig("fleet_server_not_ready", r"not ready endpoints:\s*\[", "rendezvous_retry",
         example="not ready endpoints:['0.1.68.146:38149', '0.1.68.146:35087', '0.1.68.146:56455']",
         source="pp 2.0.2-2.6.2 paddle/distributed/fleet/base/private_helper_function.py wait_server_ready "
                "(server not ready, wait 3 sec to retry... / not ready endpoints:%s)"),
    _sig("launch_cmd_ips", r"(?:paddle\.distributed\.(?:fleet\.)?launch|fleetrun)\b.*?--ips[= ]['\"]?(?P<ips>[\w.,:-]+)",
         "launch_cmd", example='python -m paddle.distributed.launch --ips="192.168.0.1,192.168.0.2" --gpus=0,1 train.py',
         source="pp 1.8.5 paddle/distributed/launch.py, 2.0.2-3.3.1 paddle/distributed/fleet/launch.py, "
                "launch_utils.py get_cluster (node_rank = "
                "node_ips.index(node_ip): the order of --ips is the order of the nodes' ranks)"),
    _sig("paddle_env_var", r"\bPADDLE_(?:TRAINERS_NUM|TRAINER_ENDPOINTS|CURRENT_ENDPOINT|TRAINER_ID|MASTER)"
         r"['\"]?\s*[=:]\s*['\"]?[\w.:,\[]", "env_fact",
         example="export PADDLE_TRAINERS_NUM=2 PADDLE_TRAINER_ENDPOINTS=127.0.0.1:6170,127.0.0.1:6171",
         source="pp 1.8.5-3.3.1 launchers set these for each worker (paddle/distributed/launch/controllers/"
                "collective.py, fleet/launch_utils.py); init_parallel_env reads them (distributed/parallel.py)"),
    # --- samplers: fewer samples than devices -------------------------------------------------------------
    _sig("sampler_total_size", r"assert len\(indices\) == self\.total_size|"
         r"assert last_batch_size % self\.nranks == 0|assert len\(indices\) == self\.num_samples", "cause",
         CauseId.sampler_too_few_samples, 95, "    assert len(indices) == self.total_size",
         title="DistributedBatchSampler: the dataset has too few samples for this many ranks",
         source="pp 2.0.2-2.4.2 paddle/fluid/dataloader/batch_sampler.py, 2.6.2-3.3.1 paddle/io/dataloader/"
                "batch_sampler.py DistributedBatchSampler.__iter__ (assert len(indices) == self.total_size)"),
    _sig("feed_fewer_samples_than_devices", r"samples\[[^\]]*\] of (?:the )?current batch is less than the "
         r"count\(\d+\) of devices", "cause", CauseId.sampler_too_few_samples, 95,
         "InvalidArgumentError: The number(1) of samples[image] of current batch is less than the count(2) of "
         "devices(GPU), currently, it is not allowed.",
         title="a batch has fewer samples than there are devices (the last batch of a small dataset)",
         source="pp 1.8.5-2.4.2 so: framework/parallel_executor.cc FeedAndSplitTensorIntoLocalScopes (The "
                "number(%d) of samples[%s] of current batch is less than the count(%d) of devices(%s))"),
    # --- builds without NCCL ------------------------------------------------------------------------------
    _sig("no_nccl_context", r"has no attribute '(?:NCCLParallelContext|NCCLCommContext)\b", "cause",
         CauseId.windows_no_nccl, 100,
         "AttributeError: module 'paddle.fluid.core_avx' has no attribute 'NCCLParallelContext'",
         title="this Paddle build has no NCCL (CPU and Windows builds never do)",
         source="pp 1.8.5-2.4.2 paddle/fluid/dygraph/parallel.py, 2.6.2-3.3.1 paddle/distributed/collective.py "
                "(core.NCCLParallelContext exists only in Linux GPU builds)"),
    # --- NCCL's own WARN lines ------------------------------------------------------------------------------
    _sig("nccl_warn_driver", r"WARN Cuda failure '?CUDA driver version is insufficient", "cause",
         CauseId.nccl_version_mismatch, 98,
         "host:47744:47744 [0] init.cu:674 WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime "
         "version'", title="NCCL's CUDA runtime is newer than the driver: NCCL and the driver do not match",
         source="nccl-cu12 2.32.3 libnccl.so (%s:%d (%s) Cuda failure '%s' ... NCCL WARN %s) with CUDA's "
                "cudaErrorInsufficientDriver text"),
    _sig("nccl_init_cuda_error", r"(?:NCCL|Nccl) error[^\n]*unhandled cuda error[^\n]*collective_helper\.cc|"
         r"ncclCommInitRank[^\n]*unhandled cuda error|ncclUnhandledCudaError[^\n]*collective_helper\.cc",
         "cause", CauseId.nccl_version_mismatch, 93,
         "OSError: (External)  Nccl error, unhandled cuda error  (at /paddle/paddle/fluid/platform/"
         "collective_helper.cc:100)",
         title="NCCL failed a CUDA call while creating its communicator: NCCL does not match this CUDA/driver",
         source="pp 1.8.5-2.6.2 so: platform/collective_helper.cc CreateComm (ncclCommInitRank, enforced as "
                "' Nccl error, ' + ncclGetErrorString = unhandled cuda error)"),
    _sig("nccl_warn_connect", r"WARN (?:Call to connect failed|\w*[Cc]onnect(?: to)? \S+ failed|"
         r"Connection closed by remote peer)", "cause", CauseId.nccl_error, 92,
         "instance-a:454:484 [0] include/socket.h:185 WARN Call to connect failed : Connection refused",
         title="NCCL could not connect to a peer during bootstrap (connection refused or closed)",
         source="NCCL 2.x include/socket.h (WARN Call to connect failed : %s); nccl-cu12 2.32.3 libnccl.so "
                "(%s: connect to %s failed : %s)"),
    _sig("driver_insufficient", r"CUDA driver version is insufficient for CUDA runtime version|"
         r"cudaErrorInsufficientDriver", "cause", CauseId.cuda_cudnn_mismatch, 96,
         "ExternalError: CUDA error(35), CUDA driver version is insufficient for CUDA runtime version.",
         title="the GPU driver is older than the CUDA runtime this Paddle build needs",
         source="CUDA runtime cudaGetErrorString(cudaErrorInsufficientDriver), quoted by pp 2.0.2-2.6.2 so "
                "platform/enforce.h (CUDA error(%d), %s)"),
    _sig("cuda_init_error", r"(?:Cuda|CUDA) error\(3\)|cudaErrorInitializationError|CUDA_ERROR_NOT_INITIALIZED",
         "cause", CauseId.cuda_error_other, 85, "ExternalError: Cuda error(3), initialization error.",
         title="CUDA could not initialise in this process (driver, or CUDA used in a forked worker)",
         source="CUDA runtime error 3 (cudaErrorInitializationError: initialization error), quoted by pp 1.8.5-2.6.2 "
                "so platform/enforce.h (Cuda error(%d), %s)"),
    _sig("cuda_oom_at_start", r"(?:cuda|CUDA) error\(2\)\.? ?,? ?out of memory[^\n]*|"
         r"out of memory[^\n]*(?:cuda_stream\.cc|gpu_info\.cc|CUDAStream|cuda_device_context)", "cause",
         CauseId.stale_process_holding_gpu, 99,
         "cuda error(2).out of memory. [Advise:The API call failed because it was unable to allocate enough memory "
         "to perform the requested operation.](at /paddle/paddle/fluid/platform/stream/cuda_stream.cc:49)",
         title="the GPU had no memory left when CUDA set up its context or stream: another process holds it",
         source="pp 2.1-2.4 so: platform/stream/cuda_stream.cc, platform/gpu_info.cc (cuda error(%d).%s. [Advise: "
                "...]); CUDA cudaErrorMemoryAllocation at context/stream creation, before any tensor exists"),
    _sig("cudnn_version_warning", r"compiled with CUDNN (?P<built>[\d.]+), but CUDNN version in your machine is "
         r"(?P<have>[\d.]+)|compiled with CUDA ?(?P<cuda>[\d.]+)/cuDNN ?[\d.]+, ?but CUDA/cuDNN version in your "
         r"machine is", "context", CauseId.cuda_cudnn_mismatch, 97,
         "W0101 10:00:00.000000  1234 device_context.cc:290] WARNING: device: 0. The installed Paddle is compiled "
         "with CUDNN 7.6, but CUDNN version in your machine is 7.3, which may cause serious incompatible bug.",
         title="cuDNN on this machine ({have}) is not the one Paddle was built with ({built})",
         source="pp 1.8.5-2.4.2 so: platform/device_context.cc / gpu_info (WARNING: device: %d. The installed "
                "Paddle is compiled with CUDNN %s, but CUDNN version in your machine is %s)"),
    _sig("cuda_runtime_warning", r"The installed Paddle is compiled with CUDA (?P<built>[\d.]+), but CUDA runtime "
         r"version in your machine is (?P<have>[\d.]+)", "context", CauseId.cuda_cudnn_mismatch, 97,
         "W0101 10:00:00.000000  1234 device_context.cc:252] WARNING: device: 0. The installed Paddle is compiled "
         "with CUDA 11.2, but CUDA runtime version in your machine is 10.2, which may cause serious incompatible bug. "
         "Please recompile or reinstall Paddle with compatible CUDA version.",
         title="the CUDA runtime on this machine ({have}) is not the one Paddle was built with ({built})",
         source="pp 1.8.5-2.4.2 so: platform/device_context.cc / gpu_info (WARNING: device: %d. The installed "
                "Paddle is compiled with CUDA %d.%d, but CUDA runtime version in your machine is %d.%d)"),
    # --- native crash stacks (glog's failure writer) ----------------------------------------------------
    _sig("native_stack", r"\*\*\* SIG(?:SEGV|BUS|ABRT|FPE|ILL) \(@0x[0-9a-f]+\) received by PID|"
         r"init\.cc:\d+\]\s+@\s+0x[0-9a-f]+", "cause", CauseId.segfault, 70,
         "W1130 13:01:46.076011  4278 init.cc:234]     @     0x55629a51a1ba slot_tp_init",
         title="a native crash: Paddle's signal handler printed the C++ stack",
         source="pp 1.8.5-2.2 so: platform/init.cc SignalHandle writes glog's failure stack (*** SIGSEGV (@0x%x) "
                "received by PID %d ***, then '@ 0x... symbol' frames)"),
    # --- multiprocessing spawn children (no __main__ guard) --------------------------------------------------
    _sig("spawn_main_frame", r'multiprocessing[/\\]spawn\.py", line \d+, in (?:spawn_main|_main|prepare)',
         "spawn_child", example='  File "/root/envs/d2l/lib/python3.8/multiprocessing/spawn.py", line 116, in '
                                "spawn_main",
         source="CPython 3.x Lib/multiprocessing/spawn.py (spawn_main -> _main -> prepare re-imports __main__ in "
                "each child)"),
    # --- memory ---------------------------------------------------------------------------------
    _sig("shm_bus_error", r"insufficient shared (?:memory|storage space)|Unexpected BUS error encountered in DataLoader"
         r"|storage space (?:in|of) /dev/shm", "cause", CauseId.shm_too_small, 100,
         "Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient shared "
         "memory (shm)", title="DataLoader worker died of a bus error: /dev/shm is too small"),
    _sig("gpu_oom_nothing_free",
         # Nothing free while Paddle itself holds under 1 GB (B/kB/MB), or a figure no GPU has (TB/PB): the
         # memory is held outside this process. Any request size; GB held by Paddle is its own OOM.
         r"Out of memory error on GPU (?P<gpu>\d+)\. Cannot allocate (?P<req>[\d.]+[kMGT]?B)(?: memory)? on GPU \d+,"
         r"(?: [\d.]+(?:[kMTP]?B) memory has been allocated and)? available memory is only 0(?:\.0+)?B",
         "cause", CauseId.stale_process_holding_gpu, 101,
         "Out of memory error on GPU 0. Cannot allocate 2.250000kB memory on GPU 0, 127.994262TB memory has been "
         "allocated and available memory is only 0.000000B.",
         title="GPU {gpu} had no free memory at all for a {req} request: another process holds it"),
    _sig(CauseId.gpu_oom, r"Out of memory error on GPU (?P<gpu>\d+)|CUDA out of memory|cudaErrorMemoryAllocation"
         r"|CUBLAS_STATUS_ALLOC_FAILED", "cause", CauseId.gpu_oom, 100,
         "Out of memory error on GPU 0. Cannot allocate 80.000000MB memory on GPU 0",
         title="out of GPU memory"),
    _sig("cpu_oom", r"Out of memory error on CPU|std::bad_alloc|(?:^|\W)MemoryError\b|"
         r"ResourceExhaustedError.*(?:CPU|host)", "cause", CauseId.host_out_of_memory, 100,
         "MemoryError: (ResourceExhausted) Fail to alloc memory of 4398046511104 size.",
         title="out of host memory inside the process"),
    # --- native crashes ---------------------------------------------------------------------------
    _sig(CauseId.segfault, r"`Segmentation fault` is detected|\bSIGSEGV\b|Segmentation fault \(core dumped\)",
         "cause", CauseId.segfault, 100,
         "FatalError: `Segmentation fault` is detected by the operating system.", title="segmentation fault"),
    _sig("sigbus", r"`Bus error` is detected|\bSIGBUS\b", "cause", CauseId.shm_too_small, 90,
         "FatalError: `Bus error` is detected by the operating system.",
         title="bus error (usually shared memory exhausted)"),
    _sig("libuv_port_busy", r"uv__finish_close: Assertion", "cause", CauseId.port_in_use, 100,
         "python: /paddle/third_party/libuv/src/unix/core.c:314: uv__finish_close: Assertion "
         "`handle->flags & UV_HANDLE_CLOSING' failed.",
         title="the TCP store could not bind its port (libuv assertion)"),
    _sig("sigterm", r"`Termination signal` is detected|\bSIGTERM \(@", "terminated",
         example="FatalError: `Termination signal` is detected by the operating system."),
    _sig("sigabrt", r"`Process abort signal` is detected|\bSIGABRT\b", "cause", CauseId.segfault, 45,
         "FatalError: `Process abort signal` is detected by the operating system.",
         title="native abort (SIGABRT)"),
    _sig("signal_time", r"Aborted at (?P<unix>\d{9,11}) \(unix time\)", "signal_time",
         example="[TimeInfo: *** Aborted at 1764452457 (unix time) try \"date -d @1764452457\" if you are using GNU date ***]"),
    _sig("hang_dataloader", r"ReadNextList|BlockingQueue<.*>::Receive", "hang_site",
         example="3   paddle::operators::reader::MultiDeviceFeedReader<...>::ReadNextList()"),
    _sig("hang_rendezvous", r"HTTPStore|TCPStore::(?:wait|get)|GlooParallelContext|create_or_get_global_tcp_store"
         r"|CheckKeys|_init_parallel_env", "hang_site",
         example="2   gloo::rendezvous::HTTPStore::wait(std::vector<...> const&)"),
    # --- ports, rendezvous, environment ---------------------------------------------------------------
    _sig(CauseId.port_in_use, r"Address already in use|Bind network on \S+ failed|\[Errno 98\]", "cause", CauseId.port_in_use, 100,
         "socket.error: [Errno 98] Address already in use", title="port already in use"),
    _sig("listen", r"starts to listen on (?P<host>[^:\s]+):(?P<port>\d+)|create libuv server at port: (?P<port2>\d+)",
         "listen", example="I0524 11:30:40.681471  4352 tcp_utils.cc:181] The server starts to listen on IP_ANY:52031"),
    _sig("rendezvous_retry", r"Retry to connect to (?P<host>[^:\s]+):(?P<port>\d+)", "rendezvous_retry",
         example="I0524 11:30:43.735888  4352 tcp_utils.cc:107] Retry to connect to 192.168.9.17:52031 while the "
                 "server is not yet listening."),
    _sig("store_timeout", r"_timeout:\d+ elapsed:\d+ \(elapsed > _timeout\)", "cause", CauseId.missing_dist_env, 60,
         "SystemError: (Fatal) _timeout:900 elapsed:901 (elapsed > _timeout)=1 (at /paddle/paddle/phi/core/distributed/"
         "store/tcp_store.cc:433)", title="the rendezvous store timed out waiting for the other ranks"),
    _sig("no_global_group", r"The global group is not initialized|Currently not a parallel execution environment",
         "cause", CauseId.missing_dist_env, 60, "RuntimeError: The global group is not initialized.",
         title="collective called without a parallel environment"),
    _sig(CauseId.windows_no_nccl, r"has no attribute 'ProcessGroupNCCL'|not compiled with (?:NCCL|nccl)", "cause",
         CauseId.windows_no_nccl, 100, "AttributeError: module 'paddle.base.libpaddle' has no attribute 'ProcessGroupNCCL'",
         title="this Paddle build has no NCCL (Windows builds never do)"),
    # --- NCCL / CUDA --------------------------------------------------------------------------------------
    _sig("nccl_lib_missing", r"libnccl\.so[^\n]*(?:cannot open|No such file|not configured)|"
         r"dynamic library \(libnccl", "cause", CauseId.nccl_library_missing, 100,
         "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that Paddle depends on is "
         "not configured correctly. (error code is libnccl.so: cannot open shared object file: No such file or directory)",
         title="libnccl.so cannot be loaded"),
    _sig("nccl_version", r"Mismatched NCCL version detected|NCCL version mismatch|nccl version (?:mismatch|not match)|"
         r"ncclInvalidUsage.*version|NCCL library is (?:too old|not backwards compatible)|"
         r"compiled with too old version of NCCL", "cause", CauseId.nccl_version_mismatch, 95,
         "host-b:2201:2201 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 0 version 21803 rank 1 "
         "version 21602", title="NCCL versions differ"),
    # With NCCL_DEBUG=INFO (or VERSION) each rank prints the NCCL it loaded; a fact, not an error.
    # versions.py compares them across ranks. After nccl_version: "compiled with NCCL version 2.x, but
    # is running with NCCL library version 2.y" is a cause by itself.
    _sig("nccl_banner", r"(?:(?P<host>[\w.-]+):\d+:\d+ \[\d+\] NCCL INFO )?NCCL version (?P<version>\d+\.\d+\.\d+)"
         r"(?P<build>\+cuda[\d.]+)?", "version_banner",
         example="host-a:4015:4015 [0] NCCL INFO NCCL version 2.18.3+cuda12.2",
         source="nccl-cu12 2.32.3 libnccl.so strings (NCCL version 2.32.3+cuda12.9; the log prefix "
                "%s:%d:%d [%d] NCCL INFO %s), printed by init.cc with NCCL_DEBUG=INFO in NCCL 2.x"),
    _sig("nccl_interface", r"no socket interface found|NCCL_SOCKET_IFNAME|Bootstrap : no socket|"
         r"ncclSystemError.*socket", "cause", CauseId.nccl_network_interface, 95,
         "NCCL WARN Bootstrap : no socket interface found", title="NCCL found no usable network interface"),
    _sig(CauseId.nccl_error, r"(?:NCCL|Nccl|nccl) error|ncclUnhandledCudaError|ncclSystemError|ncclInternalError|"
         r"ncclRemoteError", "cause", CauseId.nccl_error, 90,
         "OSError: (External) NCCL error(1), unhandled cuda error.", title="NCCL error"),
    _sig("cudnn_mismatch", r"libcudnn v\d+ with header v\d+ unmatched|CUDNN_STATUS_VERSION_MISMATCH|"
         r"cuDNN version (?:mismatch|incompatible)", "cause", CauseId.cuda_cudnn_mismatch, 100,
         "[cudnn init] libcudnn v5 with header v7 unmatched!", title="cuDNN library and build do not match"),
    _sig("cuda_arch", r"no kernel image is available for execution|cudaErrorNoKernelImageForDevice|"
         r"is not compatible with the current PyTorch|sm_\d+ is not (?:supported|compatible)", "cause",
         CauseId.cuda_arch_unsupported, 100,
         "cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device",
         title="this Paddle build has no kernels for this GPU"),
    _sig("no_device", r"no CUDA-capable device is detected|cudaErrorNoDevice|invalid device ordinal|"
         r"cudaErrorInvalidDevice", "cause", CauseId.cuda_visible_devices_misconfig, 95,
         "cudaErrorNoDevice: no CUDA-capable device is detected", title="the requested GPU is not visible"),
    _sig("launch_device_frame", r'launch/context/device\.py", line \d+, in get_selected_devices', "cause",
         CauseId.device_not_found, 95,
         'File ".../paddle/distributed/launch/context/device.py", line 86, in get_selected_devices',
         title="the launcher was given a device id that is not visible"),
    _sig("cuda_other", r"\bcudaError\w+|CUDA error\b|CUDA_ERROR_\w+|CUBLAS_STATUS_\w+|CUDNN_STATUS_\w+", "cause",
         CauseId.cuda_error_other, 80, "ExternalError: CUDA error(719), unspecified launch failure.", title="CUDA error"),
    # --- DataLoader --------------------------------------------------------------------------------------
    _sig("dl_worker_caught", r"DataLoader worker\((?P<worker>\d+)\) caught (?P<exc>\w+)", "cause",
         CauseId.dataloader_worker_crash, 85,
         "KeyError: 'DataLoader worker(1) caught KeyError with message:\\nTraceback (most recent call last):",
         title="a DataLoader worker raised {exc}"),
    _sig("dl_worker_signal", r"DataLoader \d+ workers exit unexpectedly", "cause", CauseId.dataloader_worker_crash, 80,
         "[ WARNING] dataloader_iter.py:733 - DataLoader 1 workers exit unexpectedly, pids: 18554",
         title="a DataLoader worker process died"),
    _sig("dl_reader_thread", r"DataLoader reader thread (?:raised an exception|failed)|"
         r"DygraphDataLoader reader thread raised", "cause", CauseId.dataloader_worker_crash, 55,
         "DataLoader reader thread raised an exception!", title="the DataLoader reader failed"),
    _sig("dl_blocking_queue", r"Blocking queue is killed because the data reader raises an exception", "cause",
         CauseId.dataloader_worker_crash, 55,
         "SystemError: (Fatal) Blocking queue is killed because the data reader raises an exception.",
         title="the DataLoader's data reader failed (the real exception is above it)"),
    # Python wraps this message over several lines; its second half is the part that always holds.
    _sig("main_guard", r"current process has finished its bootstrapping phase|forgotten to use the proper idiom",
         "cause", CauseId.main_guard_missing, 100,
         "        current process has finished its bootstrapping phase.", title="worker processes started without an `if __name__ == \"__main__\":` guard"),
    # --- checkpoints and files ---------------------------------------------------------------------------
    _sig("state_shape", r"Skip loading for (?P<key>\S+?)\.? \S+ receives a shape (?P<got>\[[^\]]*\]), but the "
         r"expected shape is (?P<want>\[[^\]]*\])", "cause", CauseId.state_dict_shape_mismatch, 90,
         "Skip loading for classifier.weight. classifier.weight receives a shape [768, 2], but the expected shape "
         "is [312, 2].", title="checkpoint shape {got} does not fit parameter {key} {want}"),
    _sig("state_missing_key", r"Skip loading for (?P<key>\S+?)\.? \S+ is not found in the provided dict", "cause",
         CauseId.state_dict_prefix_mismatch, 40,
         "UserWarning: Skip loading for fc1.weight. fc1.weight is not found in the provided dict.",
         title="checkpoint keys do not match the model ({key} not found): it keeps random weights"),
    _sig("load_not_exists", r"The ``path`` \((?P<path>[^)]*)\) to load model not exists|"
         r"(?:^|\W)FileNotFoundError\b|No such file or directory|\[Errno 2\]", "cause", CauseId.file_not_found, 95,
         "ValueError: The ``path`` (output/best_model/model.pdparams) to load model not exists.",
         title="a file the script needs does not exist"),
    _sig("unused_params", r"(?:has|have) not been used in (?:the )?(?:forward|loss)|find_unused_parameters", "cause",
         CauseId.dataparallel_unused_parameters, 75,
         "RuntimeError: Some parameters have not been used in forward. set find_unused_parameters=True",
         title="DataParallel found parameters unused in forward"),
    # --- launcher's own traceback frames -------------------------------------------------------------------
    _sig("launcher_frame", r'paddle/distributed/(?:utils\.py|launch/|fleet/launch(?:_utils)?\.py)", line \d+, in '
         r'(?!main\b|launch\b|run\b|_run_\w+|<module>)', "cause", CauseId.launcher_bug, 65,
         'File "/home/x/paddle/distributed/utils.py", line 257, in terminate_local_procs',
         title="the launcher itself crashed"),
    # --- paddle-doctor's own exceptions --------------------------------------------------------------------
    *_our_exceptions(),
    # --- structure and the generic fallback ------------------------------------------------------------------
    _sig("traceback", r"Traceback \(most recent call last\)", "traceback",
         example="Traceback (most recent call last):"),
    _sig("frame", r'^\s*File "(?P<path>[^"]+)", line (?P<lineno>\d+), in (?P<func>\S+)', "frame",
         example='  File "/tmp/probe/t.py", line 5, in <module>'),
    _sig("exception", r"^(?:\[[^\]]*\]\s*)?(?:[\w.]*\.)?(?P<exc>[A-Z]\w*(?:Error|Exception|Exit|Interrupt|"
         r"NotMet|Exhausted))(?::\s?(?P<msg>.*))?$", "exception", CauseId.python_exception, 50,
         "ValueError: boom on rank 1", title="{exc}"),
    # Last: a line that says an error happened, with nothing above to explain it. Never a cause by
    # itself; it keeps diagnose from calling a failed run "no failure found".
    _sig("error_line", r"^(?!\[paddle-doctor\]).*?(?:(?:^|[\s\[(|:])(?:ERROR|Error|error|FATAL|Fatal)(?:[\s:\]!,(]|$)|EnforceNotMet|"
         r"\b[A-Z]\w*(?:Error|Exception)\b:|"
         r"ABORT!!!|\bWARN\b|\bFAILED\b)", "error_line",
         example="E1129 21:40:56.031740  4601 something.cc:12] ERROR: the reader stopped",
         source="glog severity E/F lines (paddle 1.x-3.x), NCCL's 'NCCL WARN', Paddle's enforce 'Error' headers"),
    # --- device facts (devices.py checks them against each other); after everything else: a line
    # that says an error is read as that error first ----------------------------------------------------
    _sig("launch_cmd_devices", r"--(?:gpus|devices|selected_gpus)(?:[= ]+|['\"],\s*)['\"]?\d+(?:\s*,\s*\d+)*",
         "device_fact", example='python -m paddle.distributed.launch --gpus 0,1,2,3 train.py',
         source="pp 2.4.2 paddle/distributed/fleet/launch.py (--gpus, alias --selected_gpus) and launch/context/"
                "args_envs.py (--devices, alias --gpus)"),
    _sig("launch_args_devices", r"(?:^|\s)(?:gpus|devices|selected_gpus): \d+(?:,\d+)*\s*$", "device_fact",
         example="LAUNCH INFO 2024-10-23 18:26:56,088 devices: 0,1,2,3",
         source="pp 2.4.2 paddle/distributed/launch/context/__init__.py print_config (ctx.logger.info('%s: %s')) "
                "and fleet/launch.py _print_arguments (print('%s: %s' % (arg, value)))"),
    _sig("visible_devices_env", r"CUDA_VISIBLE_DEVICES['\"]?\s*[=:]\s*['\"]?\d", "device_fact",
         example="export CUDA_VISIBLE_DEVICES=0,1",
         source="CUDA runtime (CUDA_VISIBLE_DEVICES); read by pp 2.4.2 launch/context/device.py parse_device and "
                "fleet/launch_utils.py get_gpus"),
    _sig("selected_gpus_env", r"FLAGS_selected_gpus(?:['\"]?\s*[=:]\s*['\"]?|', current_value=')\d", "device_fact",
         example="FLAGS(name='FLAGS_selected_gpus', current_value='3', default_value='')",
         source="pp 2.4.2 launch/controllers/collective.py and fleet/launch_utils.py set FLAGS_selected_gpus per "
                "worker; pp 3.x prints it in the 'Modified FLAGS detected' banner (FLAGS(name=..., current_value=...))"),
)


def signature_table() -> list[dict]:
    """The signatures as plain data (name, role, cause id, source, example): the catalog's
    ``signatures`` back-links are derived from it."""
    return [{"name": s.name, "role": s.role, "cause": s.cause, "specificity": s.specificity,
             "source": s.source, "example": s.example} for s in SIGNATURES]


def signatures_by_cause() -> dict[str, list[str]]:
    """cause id -> names of the signatures that point to it."""
    out: dict[str, list[str]] = {}
    for s in SIGNATURES:
        if s.cause and s.role in ("cause", "exception"):
            out.setdefault(s.cause, []).append(s.name)
    return out


@functools.lru_cache(maxsize=16384)
def match_line(text: str) -> tuple[Signature, re.Match] | None:
    """The first signature matching ``text``, with its match object. Cached: the ranks of one job
    print the same lines (a victim's traceback, the launcher's banner) hundreds of times, and the
    same line with other numbers (its rank, its time) a thousand times: see :func:`_shape_hint`."""
    shape = text.translate(_DIGITS_TO_ZERO)
    first = _FIRST_BY_SHAPE.get(shape)
    if first is None:
        found = _search(text, range(len(SIGNATURES)))
        if len(_FIRST_BY_SHAPE) >= _SHAPES_KEPT:
            _FIRST_BY_SHAPE.clear()
        _FIRST_BY_SHAPE[shape] = found[0] if found else len(SIGNATURES)
    else:
        found = _search(text, _shape_hint(first))
    return (SIGNATURES[found[0]], found[1]) if found else None


def _search(text: str, order) -> tuple[int, re.Match] | None:
    for i in order:
        m = SIGNATURES[i].pattern.search(text)
        if m:
            return i, m
    return None


# Two lines with the same shape (equal but for which ASCII digits they hold) match the same
# signatures, except signatures whose pattern tells digits apart: a literal digit ("pair.cc:584",
# "Errno 98", "[1-9]") or a back-reference. Every other construct (\d, \w, \S, ., [^x]) treats all
# digits alike. So once a shape's first matching signature is known, a new line of that shape can
# only match earlier at a digit-sensitive signature; those are tried, then the known one (and, if
# that one tells digits apart and fails, everything after it). The answer is the one a full search
# would give; it costs ~10 searches instead of ~70 for the 1023 ranks' variants of one line.
_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")
_SHAPES_KEPT = 65536
_FIRST_BY_SHAPE: dict[str, int] = {}  # shape -> index of the first signature that matched it (len: none)


def _tells_digits_apart(pattern: str) -> bool:
    bare = re.sub(r"\{\d+(?:,\d*)?\}", "", pattern)  # quantifiers' digits count repeats, not text
    return "(?P=" in bare or any(c.isdigit() for c in bare)


_DIGIT_SENSITIVE = tuple(i for i, sig in enumerate(SIGNATURES) if _tells_digits_apart(sig.pattern.pattern))


@functools.lru_cache(maxsize=None)
def _shape_hint(first: int) -> tuple[int, ...]:
    """The signatures to try, in order, for a line whose shape first matched ``SIGNATURES[first]``."""
    earlier = tuple(i for i in _DIGIT_SENSITIVE if i < first)
    if first == len(SIGNATURES):
        return earlier
    later = tuple(range(first + 1, len(SIGNATURES))) if first in _DIGIT_SENSITIVE else ()
    return earlier + (first,) + later
