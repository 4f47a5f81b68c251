"""Signatures: NCCL WARN lines, CUDA start-up, native crash stacks, spawn children, memory, ports (the signals
Paddle's handler reports are :mod:`.crashes`)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from .checks import SPAWN_SIGNAL_ROWS
from ..model import sig as _sig

NATIVE = (
    # --- NCCL's own WARN lines ------------------------------------------------------------------------------
    _sig("nccl_warn_driver", r"WARN Cuda failure '?CUDA driver version is insufficient", "cause",
         CauseId.nccl_version_mismatch, 98,
         "host:47744:47744 [0] init.cu:674 WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime "
         "version'", title="NCCL's CUDA runtime is newer than the driver: NCCL and the driver do not match",
         source="nccl-cu12 2.32.3 libnccl.so (%s:%d (%s) Cuda failure '%s' ... NCCL WARN %s) with CUDA's "
                "cudaErrorInsufficientDriver text"),
    # ncclUnhandledCudaError while the communicators are made: NCCL's CUDA call failed. The code names no
    # more than an NCCL failure (catalog/codes.toml); a version mismatch is one reason among others (a GPU
    # shared by two ranks, peer access, the driver), told apart by the NCCL and driver versions
    # (facts/versions.py), so it is the alternative, not the verdict.
    _sig("nccl_init_cuda_error", r"(?:NCCL|Nccl) error[^\n]*unhandled cuda error[^\n]*collective_helper\.cc|"
         r"ncclCommInitRank[^\n]*unhandled cuda error|ncclUnhandledCudaError[^\n]*collective_helper\.cc",
         "cause", CauseId.nccl_error, 93,
         "OSError: (External)  Nccl error, unhandled cuda error  (at /paddle/paddle/fluid/platform/"
         "collective_helper.cc:100)",
         title="NCCL failed a CUDA call while creating its communicator (ncclUnhandledCudaError)",
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
                "...]); CUDA cudaErrorMemoryAllocation at context/stream creation, before any tensor exists",
         # the same status from a cuBLAS/cuDNN handle made after 1.x's allocator took most of the GPU is the job's own
         most="medium"),
    # Paddle's own check of the GPU against the architectures the wheel was compiled for: a warning
    # that names the cause of the device errors that follow it (no kernel image, a crash in a kernel).
    # Its other branch (an architecture the name table lacks, e.g. 100/120) prints the capability instead.
    _sig("gpu_arch_warning", r"The GPU architecture in your current machine is (?P<arch>\w+), which is not compatible "
         r"with Paddle installation with arch: (?P<built>[\d ]+)|The GPU compute capability in your current machine is "
         r"(?P<cc>\d+), which is not supported by Paddle", "context", CauseId.cuda_arch_unsupported, 97,
         "W0826 15:37:30.498044  6709 gpu_resources.cc:96] The GPU architecture in your current machine is Pascal, "
         "which is not compatible with Paddle installation with arch: 70 75 80 86 , it is recommended to install the "
         "corresponding wheel package according to the installation information on the official Paddle website.",
         title="this GPU is not among the architectures the Paddle wheel was built for",
         source="pp 2.4-3.x platform/device/gpu/gpu_resources.cc CheckDeviceArch (LOG(WARNING) << \"The GPU "
                "architecture in your current machine is \" << ... << \", which is not compatible with Paddle "
                "installation with arch: \" << compile_arch_str << ...; for a capability missing from its name "
                "table: \"The GPU compute capability in your current machine is \" << *compute_capability << \", "
                "which is not supported by Paddle\")"),
    # A TensorRT build dlopens libnvinfer when it starts (and when a predictor enables TensorRT) and prints this
    # on stderr when it cannot: harmless unless the run uses TensorRT, so a warning that explains only an error of
    # TensorRT itself (never an unrelated one), or a segmentation fault (a TensorRT build's predictor that then runs
    # without the library it was built with: the crash stands, this its likeliest reason; never SIGILL or SIGBUS).
    _sig("tensorrt_lib_missing", r"TensorRT dynamic library \((?P<lib>[^)]*)\) that Paddle depends on is not configured|"
         r"The TensorRT that Paddle depends on is not configured|compiled with TensorRT, but TensorRT dynamic library is "
         r"not found", "context", CauseId.cuda_cudnn_mismatch, 80,
         "TensorRT dynamic library (libnvinfer.so) that Paddle depends on is not configured correctly. (error code is "
         "libnvinfer.so: cannot open shared object file: No such file or directory)",
         title="the TensorRT library this Paddle build uses cannot be loaded: not installed, or not on the path",
         source="pp 1.8.x fluid/platform/dynload/tensorrt.cc GetTensorRtHandle (std::cerr << \"TensorRT dynamic "
                "library (%s) that Paddle depends on is not configured correctly. (error code is %s)\"); pp 2.x "
                "platform/dynload/tensorrt.cc (You are using Paddle compiled with TensorRT, but TensorRT dynamic "
                "library is not found. Ignore this if TensorRT is not needed.; The TensorRT that Paddle depends on is "
                "not configured correctly.)", explains_only=r"(?i)tensorrt|\btrt\b|nvinfer|Segmentation fault|SIGSEGV|段错误"),
    _sig("cudnn_version_warning", r"compiled with CUDNN (?P<built>[\d.]+), but CUDNN version in your machine is "
         r"(?P<have>[\d.]+)|compiled with CUDA ?(?P<cuda>[\d.]+)/cuDNN ?[\d.]+, ?but CUDA/cuDNN version in your "
         r"machine is", "context", CauseId.cuda_cudnn_mismatch, 97,
         "W0101 10:00:00.000000  1234 device_context.cc:290] WARNING: device: 0. The installed Paddle is compiled "
         "with CUDNN 7.6, but CUDNN version in your machine is 7.3, which may cause serious incompatible bug.",
         title="cuDNN on this machine ({have}) is not the one Paddle was built with ({built})",
         source="pp 1.8.5-2.4.2 so: platform/device_context.cc / gpu_info (WARNING: device: %d. The installed "
                "Paddle is compiled with CUDNN %s, but CUDNN version in your machine is %s)"),
    # cuDNN 8 is split into sub-libraries (ops/cnn/adv, infer/train) that libcudnn.so.8 loads on first use; when
    # one is missing, or comes from another cuDNN install than its siblings (dlerror: "symbol ... version
    # libcudnn_ops_infer.so.8 not defined"), cuDNN itself prints these two lines and the process aborts.
    _sig("cudnn_sublib_load", r"(?:Could not (?:load library|locate)|Please make sure) (?P<lib>(?:lib)?cudnn_\w+(?:\.so(?:\.\d+)*|"
         r"\.dll)|zlibwapi\.dll)", "cause", CauseId.cuda_cudnn_mismatch, 95,
         "Could not load library libcudnn_cnn_train.so.8. Error: /env/lib/libcudnn_ops_train.so.8: symbol "
         "cudnnOpTensor version libcudnn_ops_infer.so.8 not defined in file libcudnn_ops_infer.so.8",
         title="cuDNN cannot load its own part {lib}: missing, or its sibling libraries come from another cuDNN",
         source="NVIDIA cuDNN (CUDA Deep Neural Network library) 8.x, libcudnn.so.8 / cudnn64_8.dll loading its "
                "sub-libraries (Could not load library %s. Error: %s / Please make sure %s is in your library "
                "path!; on Windows: Could not locate %s. Please make sure it is in your library path!), then abort(); "
                "cuDNN 8.3+ on Windows loads zlibwapi.dll the same way (cuDNN installation guide: zlib is a "
                "prerequisite)"),
    # A backend named for a device the build lacks ("not compiled with xpu but you assign 'bkcl' as backend")
    # is the launch's configuration (config_error); CUDA's is read as the missing GPU build.
    _sig("device_not_compiled", r"^(?:[\w.]*\.)?[A-Z]\w*Error:.*(?i:not compiled with (?:cuda|gpu)\b|not compiled "
         r"with (?:xpu|ipu|npu|mlu|custom ?device|custom|with_custom_device|xpu-runtime)\b(?!.* as backend))", "cause",
         CauseId.device_not_found, 90,
         "ValueError: The device should not be 'gpu', since PaddlePaddle is not compiled with CUDA",
         title="a GPU was asked for, and this Paddle build has no GPU support",
         source="pp 2.4.2-3.3.1 paddle/device/__init__.py _convert_to_place (The device should not be %s, since "
                "PaddlePaddle is not compiled with CUDA); distributed/parallel.py (your paddle is not compiled "
                "with cuda but you assign 'nccl' as backend); pp 2.6.2 so: (Paddle can't use XPU device since it's "
                "not compiled with XPU; Paddle is not compiled with CustomDevice. Cannot visit ...)"),
    _sig("device_id_out_of_range", r"exceeds (?:the )?(?:gpu card number|current device count|number of GPU devices)|"
         r"because GPU number on your machine is|Only \d+ CUDA devices found, cannot set|Device id must be less than "
         r"GPU count|Cannot f(?:ou|i)nd \S+ \d+, please check visible devices|The index exceeds the size of devices|"
         r"Invalid CUDAPlace\(\d+\), (?:device id )?must inside|id must less than GPU count|Expected id < "
         r"GetCUDADeviceCount\(\)|Device id \d+ not found in available_custom_devices", "cause", CauseId.device_not_found, 90,
         "RuntimeError: Invalid CUDAPlace(2), must inside [0, 2), because GPU number on your machine is 2",
         title="a GPU id beyond the GPUs this process sees was asked for",
         source="pp 3.x paddle/device/__init__.py (Device id {device} not found in available_custom_devices: ...); "
                "pp 2.6.2 so: platform/device/gpu/gpu_info.cc, phi/backends/gpu (Device id %d exceeds gpu card "
                "number %d; Device id %d exceeds the current device count: %d; Invalid CUDAPlace(%d), must inside "
                "[0, %d), because GPU number on your machine is %d; Only %d CUDA devices found, cannot set to %d); pp "
                "2.5-3.x phi/backends/gpu/cuda/cuda_info.cc (Device id must be less than GPU count, but received id "
                "is: %d. GPU count is: %d.); legacy v1 trainer (trainer_count * num_devices_in_model (%d*%d)=%d "
                "exceeds number of GPU devices(%d)); "
                "pp 2.4.2-3.3.1 so: phi/backends/custom/custom_device.cc PlaceToId (Cannot found %s %d, please check "
                "visible devices: a custom device id not among the visible ones); pp 2.0.2-2.6.2 so: memory/allocation "
                "GPUBuddyAllocatorList::Get (The index exceeds the size of devices, the size of devices is %d, the "
                "index is %d: a GPU id not among FLAGS_selected_gpus); pp 2.0.2-2.4.2 so strings (Can not copy Tensor "
                "to Invalid CUDAPlace(%d), device id must inside [0, %d)); pp 1.3-1.8 pybind/pybind.cc CUDAPlace "
                "__init__ (PADDLE_ENFORCE(dev_id >= 0 && dev_id < GetCUDADeviceCount(), \"Invalid CUDAPlace(%d), "
                "must inside [0, %d)\")); pp 1.x platform/gpu_info.cc SetDeviceId, GetCUDAComputeCapability "
                "(PADDLE_ENFORCE_LT(id, GetCUDADeviceCount(), \"id must less than GPU count\"), whose hint reads "
                "Expected id < GetCUDADeviceCount(), but received id:%d >= GetCUDADeviceCount():%d)"),
    _sig("no_gpu_driver_error", r"GPU Driver Version can't be detected", "cause", CauseId.device_not_found, 90,
         "RuntimeError: GPU Driver Version can't be detected. No GPU driver!",
         title="this machine has no working NVIDIA driver: no GPU is usable here",
         source="pp 2.2.2-2.6.2 so: platform/device/gpu/gpu_info.cc GetGPUDriverVersion (GPU Driver Version can't "
                "be detected. No GPU driver!)"),
    _sig("no_gpu_driver", r"libcuda\.so[.\d]*: cannot open shared object file|NVIDIA-SMI has failed because it "
         r"couldn't communicate with the NVIDIA driver|nvidia-smi: (?:command )?not found|Found no NVIDIA driver|"
         r"no NVIDIA driver (?:on|is installed)|Failed to initialize NVML(?!: Driver/library version mismatch)",
         "context", CauseId.device_not_found, 96,
         "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
         "NVIDIA driver is installed and running.",
         title="this machine has no working NVIDIA driver: no GPU is usable here",
         source="NVIDIA driver tools (nvidia-smi: NVIDIA-SMI has failed because it couldn't communicate with the "
                "NVIDIA driver); the C library loader (libcuda.so.1: cannot open shared object file) for Paddle's "
                "dynload of the driver library; CUDA then reports cudaErrorInsufficientDriver (Paddle#14625); NVML's "
                "nvmlInit failure as nvidia-smi and the DCGM metrics of Triton-based servers (fastdeployserver) print "
                "it (Failed to initialize NVML[: %s]), when no driver is reachable, e.g. a container started without "
                "--gpus (FastDeploy#1106); not its 'Driver/library version mismatch', a driver updated but not "
                "reloaded"),
    # A GPU place asked of a CPU-only build: an error in every era (1.x PADDLE_THROW, 2.x-3.x
    # PermissionDenied, or LOG(ERROR) then exit from the CUDAPlace constructor).
    _sig("cpu_build_gpu_place", r"Cannot use CUDAPlace in CPU only version|Cannot use GPU because you have installed "
         r"CPU version|[Yy]ou are using paddlepaddle cpu version|Cannot run operator on place (?:CUDAPlace|Place\(gpu)",
         "cause", CauseId.device_not_found, 92,
         "Cannot use CUDAPlace in CPU only version at [/paddle/paddle/fluid/pybind/pybind.cc:806]",
         title="a GPU was asked of a CPU-only Paddle build",
         source="pp 1.x pybind/pybind.cc CUDAPlace.__init__ (PADDLE_THROW(\"Cannot use CUDAPlace in CPU only "
                "version\")); pp 3.3.1 libpaddle.so strings (Cannot use CUDAPlace in CPU only version, Please "
                "recompile or reinstall Paddle with CUDA support.; Cannot use GPU because you have installed CPU "
                "version PaddlePaddle.); PaddleClas/PaddleDetection utils/check.py check_gpu (You are using paddlepaddle cpu "
                "version! Please try to install paddlepaddle-gpu to run model on GPU.); pp 1.x-3.x "
                "framework/operator.cc OperatorBase::Run (#ifndef PADDLE_WITH_CUDA: Cannot run operator on place %s"
                "[, please recompile paddle or reinstall Paddle with CUDA support.])"),
    _sig("not_compiled_with_gpu", r"(?i)not compiled with (?:cuda|gpu)(?: or xpu)?\b|"
         r"installed (?:the )?CPU version (?:of )?PaddlePaddle", "context", CauseId.device_not_found, 90,
         "WARNING 2021-06-09 10:59:28,075 launch.py:352] Not found distinct arguments and not compiled with cuda or "
         "xpu. Default use ps mode",
         title="this Paddle build has no GPU support (or sees no GPU), so the GPU run cannot start as asked",
         source="pp 2.0.2-2.4.2 paddle/distributed/fleet/launch.py which_distributed_mode (Not found distinct "
                "arguments and not compiled with cuda or xpu. Default use ps mode)"),
    # Printed where the device query at start-up failed or counted 0 GPUs: it reports that, and the CUDA
    # status printed with the failure says why, so it ranks below that status (refine/context.py).
    _sig("no_gpu_found_runtime", r"(?i)compiled with WITH_GPU, but no GPU found|using GPU version Paddle(?:Paddle| "
         r"Fluid)?, but (?:your CUDA device is not set properly|there is no GPU detected)", "context",
         CauseId.device_not_found, 75,
         "W0903 14:54:33.872156 29663 init.cc:141] Compiled with WITH_GPU, but no GPU found in runtime.",
         title="this GPU build found no usable GPU when it started (the device query failed)",
         source="pp 1.8.5-3.3.1 so: platform/init.cc InitDevices (try { devices = GetSelectedDevices(); } catch (...) "
                "{ LOG(WARNING) << \"Compiled with WITH_GPU, but no GPU found in runtime.\"; }); pp 2.0.2-3.0.0 "
                "fluid/framework.py, base/framework.py _current_expected_place (get_cuda_device_count() 0 or raised: "
                "You are using GPU version Paddle, but your CUDA device is not set properly. CPU device will be used "
                "by default.); pp 1.8.5-2.4.2 fluid/install_check.py (You are using GPU version Paddle Fluid, But Your "
                "CUDA Device is not set properly); pp 2.0.2-3.0.0 utils/install_check.py (You are using GPU version "
                "PaddlePaddle, but there is no GPU detected on your machine.)"),
    _sig("cuda_runtime_warning", r"The installed Paddle is compiled with CUDA (?P<built>[\d.]+), but CUDA runtime "
         r"version in your machine is (?P<have>[\d.]+)", "context", CauseId.cuda_cudnn_mismatch, 97,
         "W0101 10:00:00.000000  1234 device_context.cc:252] WARNING: device: 0. The installed Paddle is compiled "
         "with CUDA 11.2, but CUDA runtime version in your machine is 10.2, which may cause serious incompatible bug. "
         "Please recompile or reinstall Paddle with compatible CUDA version.",
         title="the CUDA runtime on this machine ({have}) is not the one Paddle was built with ({built})",
         source="pp 1.8.5-2.4.2 so: platform/device_context.cc / gpu_info (WARNING: device: %d. The installed "
                "Paddle is compiled with CUDA %d.%d, but CUDA runtime version in your machine is %d.%d)"),
    # The profiler's device tracer calls CUPTI (CUDA's profiling library, an optional part of the toolkit) through
    # dynload: a failing call means the CUPTI found does not work with this CUDA and driver (missing, or another version).
    _sig("cupti_call_failed", r"function dynload::cupti\w+\(.*\) failed with error (?P<err>CUPTI_ERROR_\w+)", "cause",
         CauseId.cuda_cudnn_mismatch, 75, "/paddle/paddle/fluid/platform/device_tracer.cc:414: error: function "
         "dynload::cuptiEnableCallback( 1, subscriber_, CUPTI_CB_DOMAIN_RUNTIME_API, cbid) failed with error "
         "CUPTI_ERROR_INVALID_PARAMETER.",
         title="the profiler's CUPTI call failed ({err}): CUDA's profiling library is missing or not of this CUDA "
               "(install the toolkit's extras/CUPTI, on LD_LIBRARY_PATH), or profile without the device tracer",
         source="pp 1.x platform/device_tracer.cc CUPTI_CALL (fprintf(stderr, \"%s:%d: error: function %s failed with "
                "error %s.\\n\", __FILE__, __LINE__, #call, errstr))", most="medium"),
    # --- native crash stacks (glog's failure writer) ----------------------------------------------------
    # A frame of glog's crash stack inside NCCL's communicator set-up or teardown: the native crash
    # happened in NCCL (Paddle#18232: SIGSEGV in commFree / ncclCommInitAll under NCCLContextMap). At most medium:
    # the same crash in another thread (Paddle#14132) was read as the crash itself, with no NCCL cause found.
    _sig("native_frame_nccl", r"^\s*(?:\S+\]\s+)?@\s+0x[0-9a-f]+\s+(?:\S*::)?(?P<fn>nccl(?:CommInit\w*|CommDestroy|"
         r"GroupEnd)|NCCLContextMap|NCCLCommContext|commFree|commAlloc|initTransportsRank)\b", "cause",
         CauseId.nccl_error, 75, "    @     0x7f54bff10cc5 ncclCommInitAll",
         title="the native crash happened inside NCCL ({fn}), while it made or freed its communicators",
         source="glog's failure signal handler (a stack frame: @ <address> <symbol>) over NCCL 2.x's init.cc "
                "(ncclCommInitAll, ncclCommInitRank, commAlloc, commFree, initTransportsRank) and pp 1.x "
                "platform/nccl_helper.h NCCLContextMap", most="medium"),
    # glog's SIGBUS line: a mapped file or shared memory the process could not access. Without a DataLoader's
    # shared memory in sight (its rows are more specific) a native crash, at most medium: /dev/shm is its near cause.
    # More specific than the stack frames glog prints after it (native_stack, 70), which would otherwise decide.
    _sig("native_stack_sigbus", r"\*\*\* SIGBUS \(@0x[0-9a-f]+\) received by PID", "cause", CauseId.segfault, 75,
         "W0430 16:08:55.097999 47477 init.cc:234] *** SIGBUS (@0x7f0f41ed000a) received by PID 47477 (TID "
         "0x7f11829d9740) from PID 11060; stack trace: ***",
         title="the process died of SIGBUS (a mapped file or shared memory it could not access), reported by glog's "
               "failure handler", source="pp 1.8.5-2.2 so: platform/init.cc SignalHandle over glog's DumpSignalInfo "
               "(*** SIGBUS (@0x%x) received by PID %d ...)", most="medium"),
    # An abort is how a failed check, an uncaught C++ exception or a Python exception a C++ caller (Qt, pybind11)
    # cannot pass on end the process: what was printed before it says more (refine/crash.py), so at most medium.
    _sig("native_stack_sigabrt", r"\*\*\* SIGABRT \(@0x[0-9a-f]+\) received by PID", "cause", CauseId.segfault, 65,
         "[SignalInfo: *** SIGABRT (@0x24d9066d001b916e) received by PID 1806702 (TID 0x7f24333f8740) from PID 1806702 ***]",
         title="the process aborted (a failed check, or an exception nothing caught), reported by Paddle's signal "
               "handler", source="pp 1.8.5-3.3.1 so: platform/init.cc SignalHandle over glog's DumpSignalInfo (*** "
               "SIGABRT (@0x%x) received by PID %d ...)", most="medium"),
    _sig("native_stack", r"\*\*\* SIG(?:SEGV|FPE|ILL) \(@0x[0-9a-f]+\) received by PID|init\.cc:\d+\]\s+@\s+0x[0-9a-f]+"
         r"(?![0-9a-f]|\s+pybind11::detail::(?:make_new_python_type|generic_type::initialize))", "cause", CauseId.segfault, 70,
         "W1130 13:01:46.076011  4278 init.cc:234]     @     0x55629a51a1ba slot_tp_init",
         title="a native crash: Paddle's signal handler printed the C++ stack",
         source="pp 1.8.5-2.2 so: platform/init.cc SignalHandle writes glog's failure stack (*** SIGSEGV (@0x%x) "
                "received by PID %d ***, then '@ 0x... symbol' frames)"),
    # glog's failure handler prints the faulting instruction's address and symbol ("PC: @ <pc> <symbol>")
    # right after its "*** Aborted at" header and before the signal's own line: a resolved, non-zero PC
    # places the fatal signal inside that native function, even when the paste cut the signal line away.
    _sig("native_fault_pc", r"^\s*PC: @\s+0x0*[1-9a-f][0-9a-f]*\s+(?!\(unknown\))(?P<fn>[A-Za-z_][\w:<>~]*)",
         "cause", CauseId.segfault, 40, "PC: @           0x7b0581 hppl::relu()",
         title="a native crash: the process stopped on a fatal signal inside {fn}",
         source="glog src/signalhandler.cc DumpTimeInfo (*** Aborted at %d (unix time) ...), then DumpStackFrame "
                "(\"PC: @ \" pc symbol), then DumpSignalInfo (*** SIG%s (@0x%x) received by PID ...); used by the "
                "pp 0.x-1.x trainers and fluid (Paddle#62)"),
    # --- multiprocessing spawn children (no __main__ guard) --------------------------------------------------
    _sig("spawn_main_frame", r'multiprocessing[/\\]spawn\.py", line \d+, in (?:spawn_main|_main|prepare)',
         "spawn_child", example='  File "/root/envs/d2l/lib/python3.8/multiprocessing/spawn.py", line 116, in '
                                "spawn_main",
         source="CPython 3.x Lib/multiprocessing/spawn.py (spawn_main -> _main -> prepare re-imports __main__ in "
                "each child)"),
    *SPAWN_SIGNAL_ROWS,
    # --- memory ---------------------------------------------------------------------------------
    _sig("shm_bus_error", r"insufficient shared (?:memory|storage space)|Unexpected BUS error encountered in DataLoader"
         r"|storage space (?:in|of) /dev/shm", "cause", CauseId.shm_too_small, 100,
         "Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient shared "
         "memory (shm)", title="DataLoader worker died of a bus error: /dev/shm is too small",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (Unexpected BUS error encountered in DataLoader "
                "worker ... insufficient shared memory (shm))"),
    _sig("kernel_oom_killer", r"Out of memory: Kill(?:ed)? process \d+|\boom-kill:|Memory cgroup out of memory|"
         r"oom_reaper: reaped process|invoked oom-killer|Task in \S+ killed as a result of limit of ", "cause", CauseId.host_oom_killed, 96,
         "[12345.678901] Out of memory: Killed process 4242 (python) total-vm:83886080kB, anon-rss:62914560kB",
         title="the kernel's OOM killer killed a process (host memory, or its container's memory limit, ran out)",
         source="Linux mm/oom_kill.c (Out of memory: Killed process %d (%s); oom-kill:constraint=...; oom_reaper: "
                "reaped process %d; %s invoked oom-killer); before 4.19 mm/memcontrol.c mem_cgroup_print_oom_info (Task in "
                "%s killed as a result of limit of %s), as dmesg / journalctl -k / a cluster's OOM report print it"),
    # gunicorn's arbiter reports a worker that died of SIGKILL it did not send (after a WORKER TIMEOUT it
    # sends SIGABRT first); services that serve a Paddle model (PaddleOCR/PaddleX) run under it.
    _sig("gunicorn_worker_sigkill", r"Worker \(pid:\s?(?P<pid>\d+)\) was sent SIGKILL! Perhaps out of memory\?",
         "cause", CauseId.host_oom_killed, 75,
         "[2025-06-23 10:58:53 +0000] [1] [ERROR] Worker (pid:8) was sent SIGKILL! Perhaps out of memory?",
         title="gunicorn's worker {pid} was killed with SIGKILL from outside (the kernel OOM killer is the usual "
               "sender)",
         source="gunicorn 20.x-23.x gunicorn/arbiter.py reap_workers (msg = \"Worker (pid:{}) was sent {}!\"; "
                "if status == signal.SIGKILL: msg += \" Perhaps out of memory?\"; self.log.error(msg))"),
    # A C++ call stack whose failing frame is the GPU allocator: a device allocation failed, even where
    # the paste stops before the message (Paddle prints the stack first, the summary after it).
    _sig("gpu_alloc_frame", r"\bpaddle::memory::(?:allocation::CUDAAllocator::AllocateImpl|detail::GPUAllocator::"
         r"Alloc)\b", "cause", CauseId.gpu_oom, 60,
         "1   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)",
         title="the GPU allocator could not allocate device memory (its frame is on the C++ stack)",
         source="pp 1.6-1.8 memory/allocation/cuda_allocator.cc CUDAAllocator::AllocateImpl (cudaMalloc failed: "
                "throw BadAlloc(\"Cannot allocate %d on GPU %d, cuda status %d, %s\")); pp 2.x-3.x same file "
                "(PADDLE_THROW_BAD_ALLOC(errors::ResourceExhausted(\"Out of memory error on GPU %d. ...\"))); "
                "pp 1.x memory/detail/system_allocator.cc GPUAllocator::Alloc (Out of memory error on GPU %d); "
                "enforce.h prints the C++ stack (\"C++ Call Stacks\" / \"C++ Traceback\") before the summary"),
    _sig("gpu_oom_nothing_free",
         # Nothing free while Paddle itself holds under 1 GB (B/kB/MB), or a figure no GPU has (TB/PB): the
         # memory is held outside this process. Any request size; GB held by Paddle is its own OOM.
         r"Out of memory error on GPU (?P<gpu>\d+)\. Cannot allocate (?P<req>[\d.]+[kKMGT]?i?B)(?: memory)? on GPU \d+,"
         r"(?: [\d.]+(?:[kKMTP]?i?B) memory has been allocated and)? available memory is only 0(?:\.0+)?B",
         "cause", CauseId.stale_process_holding_gpu, 101,
         "Out of memory error on GPU 0. Cannot allocate 2.250000kB memory on GPU 0, 127.994262TB memory has been "
         "allocated and available memory is only 0.000000B.",
         title="GPU {gpu} had no free memory at all for a {req} request: another process holds it",
         source="pp 1.8.5-3.3.1 so: memory/allocation/allocator_facade / retry_allocator (Out of memory error on "
                "GPU %d. Cannot allocate %s memory on GPU %d, %s memory has been allocated and available memory is "
                "only %s)"),
    # Some memory free, but Paddle's own allocation and what is free together under 1 GB (each in B/kB/MB): the rest
    # of any GPU Paddle runs on is held outside this process (another job, a leftover rank, a second rank placed on
    # the same GPU). Less sure than nothing free at all: a tiny or shared card comes close.
    _sig("gpu_oom_little_free",
         r"Out of memory error on GPU (?P<gpu>\d+)\. Cannot allocate (?P<req>[\d.]+[kKMGT]?i?B)(?: memory)? on GPU \d+, "
         r"(?P<held>[\d.]+[kKM]?i?B) memory has been allocated and available memory is only (?P<free>[\d.]+[kKM]?i?B)",
         "cause", CauseId.stale_process_holding_gpu, 100,
         "Out of memory error on GPU 0. Cannot allocate 130.250000MB memory on GPU 0, 471.625000MB memory has been "
         "allocated and available memory is only 84.562500MB.",
         title="GPU {gpu}: this process held only {held} and {free} was free: another process holds the rest of the "
               "card's memory", most="medium",
         source="pp 1.8.5-3.3.1 so: memory/allocation (Out of memory error on GPU %d. Cannot allocate %s memory on GPU "
                "%d, %s memory has been allocated and available memory is only %s), sizes from string::HumanReadableSize "
                "(B, kB, MB, GB, TB)"),
    _sig(CauseId.gpu_oom, r"Out of memory error on GPU (?:Virtual Memory )?(?P<gpu>\d+)|CUDA out of memory|cudaErrorMemoryAllocation"
         r"|CUDA error: out of memory|CUDA_ERROR_OUT_OF_MEMORY|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED",
         "cause", CauseId.gpu_oom, 100,
         "Out of memory error on GPU 0. Cannot allocate 80.000000MB memory on GPU 0",
         title="out of GPU memory",
         source="pp 1.8.5-3.3.1 so: memory/allocation (Out of memory error on GPU %d); CUDA runtime "
                "cudaErrorMemoryAllocation, its \"CUDA error: out of memory\" as torch/cupy print it; CUDA driver "
                "CUDA_ERROR_OUT_OF_MEMORY; cuBLAS CUBLAS_STATUS_ALLOC_FAILED; cuDNN CUDNN_STATUS_ALLOC_FAILED"),
    # The inference predictor warns when its GPU memory pool would take more than 95 % of the card.
    _sig("predictor_gpu_pool", r"Allocate too much memory for the GPU memory pool, assigned (?P<mb>\d+) MB", "cause",
         CauseId.gpu_oom, 75,
         "E0101 10:00:00.000000  1234 analysis_predictor.cc:585] Allocate too much memory for the GPU memory pool, "
         "assigned 8000 MB", title="the inference predictor asked for a GPU memory pool of {mb} MB, more than the "
         "card can give (over 95 % of it): lower gpu_mem / EnableUseGpu's first argument",
         source="pp 1.8-3.x inference/api/analysis_predictor.cc (if fraction_of_gpu_memory_for_pool() > 0.95f: "
                "LOG(ERROR) << \"Allocate too much memory for the GPU memory pool, assigned \" << "
                "config.memory_pool_init_size_mb() << \" MB\"; \"Try to shink the value by setting "
                "AnalysisConfig::EnableGpu(...)\")"),
    # A device allocator failed: Paddle throws its BadAlloc only there (PADDLE_THROW_BAD_ALLOC), the host
    # allocator raises ResourceExhausted through the enforce macros instead. Read even where the paste stops
    # before the "Out of memory error on GPU" summary (C++ prints the stack first).
    _sig("device_bad_alloc", r"\bpaddle::memory::allocation::BadAlloc\b", "cause", CauseId.gpu_oom, 80,
         "terminate called after throwing an instance of 'paddle::memory::allocation::BadAlloc'",
         title="a device memory allocation failed (Paddle's BadAlloc, thrown only by its GPU/device allocators)",
         source="pp 2.x-3.3.1 memory/allocation/allocator.h (class BadAlloc); cuda_allocator.cc, "
                "cuda_managed_allocator.cc, custom_allocator.cc, virtual memory allocators "
                "(PADDLE_THROW_BAD_ALLOC(errors::ResourceExhausted(\"Out of memory error on GPU %d. ...\"))); "
                "the host allocator (cpu_allocator.cc, system_allocator.cc) raises ResourceExhausted instead"),
    _sig("cpu_oom", r"Out of memory error on CPU|std::bad_alloc|(?:^|\W)(?:_Array)?MemoryError\b(?!:\s*$)|"
         r"ResourceExhaustedError.*(?:CPU|host)", "cause", CauseId.host_out_of_memory, 100,
         "MemoryError: (ResourceExhausted) Fail to alloc memory of 4398046511104 size.",
         title="out of host memory inside the process",
         source="pp 2.0.2-3.3.1 so: memory/allocation/cpu_allocator (Fail to alloc memory of %ld size); Python "
                "MemoryError; numpy 1.17+ core/_exceptions.py _ArrayMemoryError(MemoryError) (Unable to allocate %s for "
                "an array with shape %s and data type %s); libstdc++ std::bad_alloc"),
    # Windows' commit limit (RAM plus the paging file) reached: every DataLoader worker and every process loads
    # the CUDA/cuDNN DLLs and commits their memory, so many workers on a small paging file fail at start.
    _sig("windows_commit_limit", r"\[WinError 1455\]|paging file is too small for this operation|页面文件太小", "cause",
         CauseId.host_out_of_memory, 95, "OSError: [WinError 1455] The paging file is too small for this operation to "
         "complete. Error loading \"C:\\py\\lib\\site-packages\\paddle\\libs\\cudnn64_8.dll\" or one of its dependencies.",
         title="Windows ran out of commit memory (RAM plus the paging file): fewer workers or a larger paging file",
         source="Windows System Error Codes (ERROR_COMMITMENT_LIMIT, 1455: The paging file is too small for this "
                "operation to complete; zh-CN 页面文件太小，无法完成操作。), raised through CPython's OSError "
                "[WinError 1455] by ctypes/LoadLibrary"),
    # Paddle 2.x raises ResourceExhausted as Python's MemoryError and prints the class alone on its line, the
    # message (which memory: "Out of memory error on GPU 0", "Fail to alloc memory of N size") after the C++
    # stack: the bare class is only a hint, the block's message decides.
    _sig("memory_error_bare", r"^\s*MemoryError:\s*$", "cause", CauseId.host_out_of_memory, 45,
         "MemoryError: ", title="MemoryError (its message, further down, says which memory ran out)",
         source="pp 2.0-2.6 pybind/exception.cc (RESOURCE_EXHAUSTED -> PyExc_MemoryError, the message after the "
                "C++ Traceback and Error Message Summary blocks); CPython MemoryError"),
    _sig("omp_duplicate", r"OMP: Error #15: Initializing lib\w*omp|Initializing lib\w*omp[\w.]*, but found lib\w*omp[\w.]* "
         r"already initialized|KMP_DUPLICATE_LIB_OK", "cause",
         CauseId.duplicate_openmp_runtime, 100,
         "OMP: Error #15: Initializing libiomp5md.dll, but found libiomp5md.dll already initialized.",
         title="two OpenMP runtimes were loaded into the process; Intel's runtime aborted it",
         source="Intel OpenMP runtime (libiomp5) kmp_i18n message #15 (OMP: Error #15: Initializing %s, but found "
                "%s already initialized. ... set the environment variable KMP_DUPLICATE_LIB_OK=TRUE), PaddleOCR#1641"),
)
