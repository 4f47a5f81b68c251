"""Where each message a signature matches is emitted (package, version, file, template)."""

from __future__ import annotations

from ...catalog.ids import CauseId

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
    "gloo_reset": "pp 2.0.2-2.6.2 so: gloo/transport/tcp/pair.cc (Read error {}: Connection reset by peer); "
                  "pp 3.3.1 libphi_core.so: gloo/transport/tcp/pair.cc (writev {peer}: {strerror}, "
                  "Read error {peer}: {strerror}, Socket closed {peer}, Socket unexpectedly closed)",
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
                        "(%s) that Paddle depends on is not configured correctly.); pp 2.6.2 so: ([%s:%d:%s] Failed "
                        "dynamic load libnccl.so; Failed to open libnccl.so[.2])",
    "nccl_version": "nccl-cu12 2.32.3 libnccl.so strings (Mismatched NCCL version detected : rank %d version %d "
                    "rank %d version %d; NCCL version mismatch with remote peer %s (local: %s, remote %s); NCCL "
                    "library is too old. This application was compiled with NCCL version %s ...)",
    "nccl_interface": "nccl-cu12 2.32.3 libnccl.so strings (Bootstrap : no socket interface found; NCCL_SOCKET_IFNAME)",
    CauseId.nccl_error: "pp 1.8.5-3.3.1 so: platform/enforce.h (NCCL error(%d), %s); nccl-cu12 libnccl.so "
                  "ncclGetErrorString (unhandled cuda error, ncclSystemError, ...); pp 1.8.5 so strings (Get NCCL "
                  "unique ID failed.; Fail to sync nccl stream: %s)",
    "cudnn_mismatch": "pp 1.8.5-3.3.1 so: platform/dynload/cudnn.cc ([cudnn init] libcudnn v%d with header v%d "
                      "unmatched!); cuDNN CUDNN_STATUS_VERSION_MISMATCH",
    "cuda_arch": "pp 2.0.2-2.6.2 so and nccl-cu12 (CUDA runtime: no kernel image is available for execution on the "
                 "device)",
    "no_device": "CUDA runtime cudaGetErrorString (cudaErrorNoDevice: no CUDA-capable device is detected; "
                 "cudaErrorInvalidDevice: invalid device ordinal), quoted by pp 1.8.5-2.0.2 so gpu_info.cc",
    "launch_device_frame": "pp 2.4.2-3.3.1 paddle/distributed/launch/context/device.py get_selected_devices",
    "cuda_other": "pp 1.8.5-3.3.1 so: platform/enforce.h (CUDA error(%d), %s); CUDA runtime error names; pp 2.6.2 "
                  "so: (ERROR: CUDA RT call \"%s\" in line %d of file %s failed with %s (%d).; Failed, cuda error "
                  "%s:%d '%s'; [%s:%d:%s] Cuda failure - %s; Check failed: e == cudaSuccess)",
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
