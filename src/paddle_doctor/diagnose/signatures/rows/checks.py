"""Signatures: Paddle's own checks of its environment, its build, its devices and its topology.

Each row reads a family of messages that Paddle raises itself (the coverage review of issue 29 found
them in the templates of the 1.8.5-3.3.1 wheels, ``tests/fixtures/templates``): the launcher's
variables a role maker or ``init_parallel_env`` cannot find, a GPU asked of a build without one,
hybrid-parallel degrees that do not fit the world, a device's allocator out of memory, a host
allocation that failed, a spawned child ended by a signal. ``CHECKS`` sits after the NCCL/CUDA rows
of ``libraries`` (a line that names a CUDA error is read as that error first) and before the
structure rows; ``SPAWN_SIGNAL_ROWS`` sits in ``native`` before the rows that read a signal's name
anywhere on a line (spawn's line says whose signal it is). ``API_VERSION_ROWS`` (code and libraries of
another version) is spliced into ``libraries``' order the same way (and :mod:`..exception_forms`' rows).

Specificity follows the catalog's rule: a row that names its cause outright (a missing variable, a
device's OOM) is as strong as its siblings elsewhere; a host allocation that failed (often after
the real failure, or in a helper) stays low, so a real root cause on the same rank outranks it.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..tools.suite_data import SUITE_DATA_ROWS

# A spawned child's signal, as paddle.distributed.spawn names it (signal.Signals(-exitcode).name), to
# the cause the catalog's signal table gives it (catalog/codes.toml [signal]; a test keeps them equal).
SPAWN_SIGNAL_CAUSES: dict[str, CauseId] = {
    "SIGKILL": CauseId.host_oom_killed, "SIGSEGV": CauseId.segfault, "SIGABRT": CauseId.segfault,
    "SIGILL": CauseId.segfault, "SIGFPE": CauseId.segfault, "SIGBUS": CauseId.segfault,
}
_SPAWN_SOURCE = ("pp 2.0.2-3.3.1 paddle/distributed/spawn.py MultiprocessContext._throw_exception (Process %d "
                 "terminated with signal %s., the name from signal.Signals(-exitcode).name); the cause per signal "
                 "from catalog/codes.toml [signal]")


def _spawn_signal_rows() -> tuple:
    by_cause: dict[CauseId, list[str]] = {}
    for name, cause in SPAWN_SIGNAL_CAUSES.items():
        by_cause.setdefault(cause, []).append(name)
    return tuple(
        _sig(f"spawn_child_{cause.value}", rf"Process (?P<proc>\d+) terminated with signal (?P<signal>{'|'.join(names)})\b",
             "cause", cause, 85, f"Exception: Process 1 terminated with signal {names[0]}.",
             title="spawned process {proc} was ended by {signal}", source=_SPAWN_SOURCE)
        for cause, names in by_cause.items())


CHECKS = (
    # Paddle 0.14-1.x's parameter-server RPCs (fluid's gRPC client): the pserver did not answer within the deadline. In
    # synchronous training it waits at a barrier for every trainer, so one that finished early (fewer batches) or died
    # leaves the others' sends and gets to time out. The corpus's such logs: a trainer that finished its data first 2
    # times (one file split unevenly, one trainer reaching its end), the servers stuck at a barrier once.
    _sig("pserver_rpc_deadline", r"grpc_client\.cc:\d+\][^\n]{0,400}?(?:grpc error:|error_message:) ?Deadline Exceeded",
         "cause", CauseId.uneven_train_batches, 70, "E0615 07:36:18.786679  3867 grpc_client.cc:248] var: name:[fc_18.w_0] "
         "ep:[127.0.0.1:5002] grpc error:Deadline Exceeded",
         title="an RPC to the parameter server timed out: a synchronous server answers only when every trainer has sent, "
               "so a trainer that ran out of batches and finished (or died) leaves the others waiting; give the "
               "trainers shards of one size (or check the server's own log)", most="medium",
         source="pp 0.14-1.8 paddle/fluid/operators/distributed/grpc/grpc_client.cc (LOG(ERROR) << \"proc param error:name:"
                "[\" ... \"] grpc error:\" << status.error_message(); GRPCClient::Proceed LOG(FATAL) << \"... meets grpc "
                "error, error_code:\" << error_code << \" error_message:\" ...); gRPC StatusCode DEADLINE_EXCEEDED (4, "
                "\"Deadline Exceeded\")"),
    # The same wait seen from a sync barrier: the trainer's barrier RPC failed because the servers stopped answering
    # (another trainer ran out of batches and finished, or died).
    _sig("pserver_barrier_failed", r"internal error in RPCClient at \[[^\]\n]{0,200}(?:fetch|send)_barrier_op\.cc",
         "cause", CauseId.uneven_train_batches, 70,
         "paddle.fluid.core.EnforceNotMet: internal error in RPCClient at [/paddle/paddle/fluid/operators/"
         "fetch_barrier_op.cc:43]",
         title="a trainer's barrier RPC to the parameter servers failed: in sync mode they answer only when every "
               "trainer reaches the barrier, so a trainer that ran out of batches (or died) leaves the others; give "
               "the trainers shards of one size (or check the servers' logs)", most="medium",
         source="pp 1.x paddle/fluid/operators/fetch_barrier_op.cc and send_barrier_op.cc (later under distributed_ops/) "
                "(PADDLE_ENFORCE(rpc_client->Wait(), \"internal error in RPCClient\"))"),
    # The v1/v2 trainer (paddle_trainer's ParameterClient2) dialled its parameter servers until it gave up: none listens
    # at the endpoint its "pserver N host:port" line names (a run meant to be local still set for a cluster, or the
    # pservers not started); a pserver that died says so in its own log, the near cause.
    _sig("v1_pserver_unreachable", r"LightNetwork\.cpp:\d+\] connection refused by pserver, maybe pserver failed",
         "cause", CauseId.config_error, 70,
         "F1222 11:33:01.649802 23753 LightNetwork.cpp:399] connection refused by pserver, maybe pserver failed!",
         title="the trainer found no parameter server where it dials (the 'pserver N host:port' line above): start the "
               "pservers first, or run the job locally without remote parameter updates", most="medium",
         source="pp 0.x (v1/v2 API) paddle/pserver/LightNetwork.cpp SocketClient (LOG(WARNING) << \"connection refused "
                "by pserver, try again!\", then LOG(FATAL) << \"connection refused by pserver, maybe pserver failed!\")"),
    # A pserver endpoint with no host (":6174"): gRPC cannot resolve it, and the server binds no port.
    _sig("grpc_endpoint_without_host", r"\"syscall\":\"getaddrinfo\",\"target_address\":\":(?P<port>\d+)\"",
         "cause", CauseId.config_error, 80,
         "E0725 06:46:35.291726032    5849 server_chttp2.cc:38]        {\"os_error\":\"Name or service not known\","
         "\"syscall\":\"getaddrinfo\",\"target_address\":\":6174\"}",
         title="an endpoint has no host (\":{port}\"): gRPC cannot resolve it, so the server listens nowhere; give each "
               "pserver endpoint as ip:port", most="medium",
         source="gRPC core src/core/lib/iomgr/resolve_address_posix.cc (the getaddrinfo error's JSON with "
                "\"target_address\"), logged by server_chttp2.cc when a pserver's grpc_server.cc (pp 0.14-1.x) binds "
                "its endpoint"),
    # PaddleOCR's dataset logs a label-file line it could not read, with the traceback: an image that is not there (its
    # __getitem__ raises Exception("{} does not exist!".format(img_path)); FileNotFoundError is read by the rows of a
    # missing file before these), or anything else: the line's form. Read in the one-line form the logger's repr gives
    # (its "\n" escaped; the traceback printed as such is read by its structure, a path named "None" as an empty setting).
    # PaddleOCR's inference scripts and wheel read each image with cv2.imread (or imdecode) and log the path when it
    # gives None: the file is not there, is not an image cv2 decodes, or (Windows) its path holds characters outside
    # the ANSI code page, which cv2.imread cannot open.
    _sig("ppocr_image_unloaded", r"error in loading image:\s*(?P<path>\S[^\n]{0,300})", "cause", CauseId.file_not_found, 72,
         "[2020/12/31 11:11:56] root ERROR: error in loading image:F:\\DataSets\\车牌\\藏ED2029.jpg",
         title="PaddleOCR could not read the image {path}: it is not there, is not an image, or (on Windows) its path "
               "holds non-ASCII characters cv2.imread cannot open", most="medium",
         source="PaddleOCR 2.x-3.x tools/infer/predict_det.py, predict_rec.py, predict_system.py, ppstructure/"
                "predict_system.py and paddleocr.py (img = cv2.imread(image_file); if img is None: logger.error/info("
                "\"error in loading image:{}\".format(image_file)))"),
    # OpenCV's warning when imread cannot open the file (cv2.imread then returns None, and the first use of the
    # image fails on None: the error it explains).
    _sig("cv2_imread_unopened", r"cv::findDecoder imread_\(|imread_\('[^\n]{0,300}'\): can't open/read file", "context",
         CauseId.file_not_found, 60,
         "[ WARN:0@370.018] global loadsave.cpp (239) cv::findDecoder imread_('D:/img/1.jpg'): can't open/read file: "
         "check file path/integrity",
         title="OpenCV could not open an image file (cv2.imread gave None): it is not there, or (on Windows) its path "
               "holds characters cv2.imread cannot open", most="medium",
         explains_only=r"'NoneType' object (?:has no attribute '(?:shape|copy|astype|size|ndim|dtype|transpose|reshape)'|is "
                      r"not subscriptable)",
         source="OpenCV 4.x modules/imgcodecs/src/loadsave.cpp findDecoder (CV_LOG_WARNING(NULL, \"imread_('\" << "
                "filename << \"'): can't open/read file: check file path/integrity\"))"),
    *SUITE_DATA_ROWS,
    # Python's os.makedirs raises EEXIST for a directory that is there; code that checks first (Paddle's and the
    # suites' save functions: if not os.path.isdir(d): os.makedirs(d)) meets it only when another process made it
    # between the two: ranks or workers saving to one path at once.
    # A plain os.mkdir on a rerun, or copytree onto a folder that is there, says the same: at most low.
    _sig("makedirs_exists_race", r"(?:OSError|FileExistsError): \[Errno 17\] File exists", "cause",
         CauseId.concurrent_checkpoint_write, 45, "OSError: [Errno 17] File exists: 'cluster_model/epoch_5'",
         title="a directory the run creates already exists: another process (a rank, a trainer on the same host) may "
               "have created it between the check and the call, or an earlier run left it; save from one rank, or "
               "create it with exist_ok=True", most="low", source="CPython Lib/os.py makedirs (mkdir raises FileExistsError, errno EEXIST 17, for a "
                               "directory that exists; Python 2: OSError [Errno 17]); pp 1.x fluid/io.py "
                               "save_inference_model (if not os.path.isdir(dirname): os.makedirs(dirname))"),
    # Paddle 0.x's parameter server and trainer look up the IPv4 address of the interface --nics names (SIOCGIFADDR,
    # 0x8915): the check fails when this host has no interface of that name, or it has no IPv4 address.
    _sig("v1_nics_interface_missing", r"LightNetwork\.cpp:\d+\] Check failed: ioctl\(sock, (?:0x8915|SIOCGIFADDR)",
         "cause", CauseId.config_error, 80, "F0909 14:42:51.584151 15056 LightNetwork.cpp:71] Check failed: ioctl(sock, "
         "0x8915, &ifr) >= 0 (-1 vs. 0)",
         title="the network interface --nics names has no IPv4 address on this host (no such interface): give one of "
               "this host's interfaces (ip addr)", most="medium",
         source="pp 0.9-0.14 paddle/pserver/LightNetwork.cpp getIpAddr (CHECK_GE(ioctl(sock, SIOCGIFADDR, &ifr), 0) for "
                "FLAGS_nics; SIOCGIFADDR is 0x8915 in linux/sockios.h), printed by glog as a Check failed line"),
    # --- the launcher's environment, read by a role maker or init_parallel_env -------------------------
    _sig("role_maker_env_missing", r"Can not [Ff]ind (?P<var>[A-Z][A-Z0-9_]+)(?:, please check your environment| in env)|"
         r"please set the (?P<var2>[A-Z][A-Z0-9_]+) variable|The environment variable 'MASTER_ADDR' and 'MASTER_PORT' "
         r"must be specified", "cause", CauseId.missing_dist_env, 92,
         "ValueError: Can not find PADDLE_TRAINER_ID, please check your environment.",
         title="a variable the launcher sets ({var}) is not set: the script was started without the launcher",
         source="pp 2.0.2-3.3.1 paddle/distributed/fleet/base/role_maker.py PaddleCloudRoleMaker._ps_env / "
                "_collective_env (Can not find %s, please check your environment.; Can not Find %s in env or its "
                "format doesn't match the requirement); pp 2.4.2 distributed/collective.py (please set the "
                "CLUSTER_ID variable.); pp 2.4.2-3.3.1 distributed/parallel.py (The environment variable "
                "'MASTER_ADDR' and 'MASTER_PORT' must be specified)"),
    _sig("training_role_invalid", r"TRAINING_ROLE must be PSERVER or TRAINER[\w ]*, but get (?P<role>\S+?),",
         "cause", CauseId.config_error, 88,
         "ValueError: TRAINING_ROLE must be PSERVER or TRAINER or HETER_TRAINER or COORDINATOR, but get WORKER, "
         "please check your environment.",
         title="TRAINING_ROLE is set to {role}, which no role maker knows",
         source="pp 2.0.2-3.3.1 paddle/distributed/fleet/base/role_maker.py PaddleCloudRoleMaker._ps_env "
                "(TRAINING_ROLE must be PSERVER or TRAINER or HETER_TRAINER[ or COORDINATOR], but get %s, please "
                "check your environment.)"),
    # --- a GPU (or another device) asked of a build that has none ---------------------------------------
    _sig("cpu_only_build", r"not supported in CPU(?:-only)? PaddlePaddle|only supported in XPU PaddlePaddle|"
         r"CPU-only version|Graph is only supported on PaddlePaddle compiled with|No custom device available|"
         r"\bno cuda device found\b|since it's not support GPU, please recompile or reinstall|Place \S+ is not supported\. "
         r"Please check that your paddle compiles with WITH_", "cause",
         CauseId.device_not_found, 90,
         "ValueError: The API paddle.device.cuda.get_device_properties is not supported in CPU-only PaddlePaddle. "
         "Please reinstall PaddlePaddle with GPU support to call this API.",
         title="a device API or backend was asked of a Paddle build that has no such device",
         source="pp 2.2.2-3.3.1 paddle/device/cuda/__init__.py, device/cpu.py, device/xpu/__init__.py (The API %s is "
                "not supported in CPU-only PaddlePaddle. Please reinstall PaddlePaddle with GPU support ...); pp "
                "2.0.2-3.3.1 distributed/parallel.py (Cannot initialize parallel environment in CPU-only version; If "
                "you want to use CPU-only version, please use 'gloo' as backend); pp 2.2.2-3.3.1 "
                "distributed/collective.py (no cuda device found); pp 2.4.2-3.3.1 device/cuda/graphs.py (CUDA Graph is "
                "only supported on PaddlePaddle compiled with NVIDIA GPU.); pp 3.3.1 device/custom_device.py (No "
                "custom device available, ...) and libpaddle.so (Paddle can't concat tensor since it's not support "
                "GPU, please recompile or reinstall Paddle with GPU support.); pp 2.x platform/device_context.cc "
                "DeviceContextPool::Get (Place %s is not supported. Please check that your paddle compiles with "
                "WITH_GPU, WITH_XPU or WITH_IPU option or check that your train process set the correct device id if "
                "you use Executor.; 2.6.2 win libpaddle.pyd strings)"),
    # Paddle Serving's later GPU check looks only for the device nodes (its earlier one also for CUDA:
    # libraries.py serving_cuda_not_found): no /dev/nvidia* in the server's environment (a container
    # started without the GPU, a host without the driver).
    _sig("serving_gpu_not_found", r"GPU not found, please check your environment or use cpu version", "cause",
         CauseId.device_not_found, 88,
         "GPU not found, please check your environment or use cpu version by \"pip install paddle_serving_server\"",
         title="Paddle Serving's GPU server found no NVIDIA device (/dev/nvidia*) in its environment",
         source="Paddle Serving python/paddle_serving_server(_gpu)/server.py Server.check_cuda (os.system(\"ls /dev/ | "
                "grep nvidia > /dev/null\") != 0: raise SystemExit(\"GPU not found, please check your environment or "
                "use cpu version by ...\")); Serving doc/FAQ (check for an NVIDIA card: ls /dev/ | grep nvidia)"),
    _sig("gpu_runtime_unavailable", r"Failed to get the number of GPU devices|Failed to initialize GPU device #",
         "cause", CauseId.device_not_found, 80,
         "Failed to initialize GPU device #0: unknown error",
         title="the CUDA runtime could not count or open the GPUs: no usable GPU in this process",
         source="pp 2.0.2-2.6.2 so: Eigen's unsupported/Eigen/CXX11/src/Tensor/TensorDeviceGpu.h initializeDeviceProp "
                "(std::cerr << \"Failed to get the number of GPU devices: \" << gpuGetErrorString(status); \"Failed to "
                "initialize GPU device #\" << i << \": \" ...; then gpu_assert aborts)"),
    # From 3.1 the same architecture check is an error (E-level log, then RuntimeError) naming the capability.
    _sig("gpu_arch_mismatch", r"Mismatched GPU Architecture: The installed PaddlePaddle package was compiled for|your "
         r"current GPU is \d+ Solution: Install the correct wheel package built for your GPU", "cause",
         CauseId.cuda_arch_unsupported, 95,
         "E0628 11:38:05.609311 27896 gpu_resources.cc:98] Mismatched GPU Architecture: The installed PaddlePaddle "
         "package was compiled for 75 80 86 89 ,but your current GPU is 120 Solution: Install the correct wheel "
         "package built for your GPU from the official PaddlePaddle website: https://www.paddlepaddle.org.cn/",
         title="this GPU is not among the architectures the Paddle wheel was built for",
         source="pp 3.1-3.x platform/device/gpu/gpu_resources.cc CheckDeviceArch (LOG(ERROR) << \"Mismatched GPU "
                "Architecture: The installed PaddlePaddle package was compiled for \" << ... << \"but your current GPU "
                "is \" << ... << \" Solution: Install the correct wheel package built for your GPU ...\"; then "
                "RuntimeError: Unsupported GPU architecture) (Paddle#73687, #76037)"),
    _sig("fleet_python_visible_devices", r"CUDA_VISIBLE_DEVICES shoule? be set only 1 card", "cause",
         CauseId.cuda_visible_devices_misconfig, 90,
         "ValueError: CUDA_VISIBLE_DEVICES shoule be set only 1 card if you use `python` to launch fleet program.",
         title="a fleet program started with `python` sees several GPUs: CUDA_VISIBLE_DEVICES must name one",
         source="pp 2.0.2-2.2.2 paddle/distributed/fleet/base/fleet_base.py Fleet.init (CUDA_VISIBLE_DEVICES shoule "
                "be set only 1 card if you use `python` to launch fleet program.)"),
    # --- hybrid parallelism: degrees that do not fit the world ------------------------------------------
    _sig("hybrid_degrees_mismatch", r"Rank \d+ belongs to multi \w+ groups|unreasonable topogy setting|"
         r"\bmp_num: \d+, sharding_num: \d+, pp_num: \d+, dp_num: \d+", "cause", CauseId.config_error, 88,
         "AssertionError: nranks: 8, mp_num: 2, sharding_num: 1, pp_num: 2, dp_num: 1, sep_num: 1",
         title="the hybrid-parallel degrees (dp x mp x pp x sharding) do not fit the number of ranks",
         source="pp 2.2.2-2.4.2 paddle/distributed/fleet/base/topology.py (Here is an unreasonable topogy setting. "
                "world_size: %d, but mp_num: ...); pp 2.6.2-3.3.1 topology.py (assert nranks == product, "
                "\"[nranks: %d, ]mp_num: %d, sharding_num: %d, pp_num: %d, dp_num: %d, sep_num: %d\"); "
                "strategy_group.py (Rank %d belongs to multi dp|mp|pp|sharding groups)"),
    _sig("managed_memory_unsupported", r"Failed to create CUDAManagedAllocator on GPU (?P<gpu>\d+)", "cause",
         CauseId.config_error, 85, "RuntimeError: (Unavailable) Failed to create CUDAManagedAllocator on GPU 0.",
         title="FLAGS_use_cuda_managed_memory is on, and GPU {gpu} cannot allocate managed memory",
         source="pp 2.4.2-2.6.2 so: memory/allocation/allocator_facade.cc (Failed to create CUDAManagedAllocator on "
                "GPU %d. You have enabled CUDA managed memory, but the gpu device does not support ...)"),
    _sig("predictor_stream_binding", r"When binding threads and streams, the use of process-level allocators",
         "cause", CauseId.config_error, 80,
         "RuntimeError: (Fatal) When binding threads and streams, the use of process-level allocators will result "
         "in undefined result errors due to memory asynchronous operations.",
         title="inference predictors of one process disagree on thread/stream binding",
         source="pp 2.0.2-3.3.1 so: inference/api/analysis_predictor.cc CreatePaddlePredictor (PADDLE_THROW Fatal: "
                "When binding threads and streams, the use of process-level allocators ...)"),
    _sig("bf16_shuffle_old_cuda", r"with bfloat16 is not supported on cuda <= (?P<cuda>\d+)", "cause",
         CauseId.cuda_cudnn_mismatch, 80,
         "RuntimeError: Error: block_reduce.h:42 Assertion `false` failed. __shfl_xor_sync with bfloat16 is not "
         "supported on cuda <= 11.",
         title="a bfloat16 kernel needs a newer CUDA than this build's (CUDA {cuda} or older)",
         source="pp 2.4.2 so strings (Error: %s:%d Assertion `%s` failed. __shfl_down_sync|__shfl_xor_sync with "
                "bfloat16 is not supported on cuda <= 11.: a check in device code, raised when the kernel runs)"),
    # --- memory -----------------------------------------------------------------------------------------
    # A custom device's or XPU's allocator: the GPU's own wording is read first (native.py).
    _sig("device_oom", r"Out of memory error on (?P<dev>\w+)[: ](?P<id>\d+)\. (?:Cannot allocate|total memory is)",
         "cause", CauseId.gpu_oom, 95,
         "RuntimeError: (ResourceExhausted) Out of memory error on npu:0. Cannot allocate 1.5GB memory on npu:0, "
         "available memory is only 512MB.",
         title="out of device memory on {dev} {id}",
         source="pp 2.4.2-3.3.1 so strings (custom device / XPU allocators: Out of memory error on %s:%d. "
                "Cannot allocate %s memory on %s:%d, available memory is only %s.; Out of memory error on %s %d. "
                "total memory is %s, used memory is %s, available memory is only %s.)"),
    # The advice that closes the allocators' out-of-memory message, alone at the end of a paste that cut its first line.
    _sig("device_oom_advice", r"Please check whether there is any other process using (?P<dev>GPU|NPU|XPU|MLU) (?P<id>\d+)\.|"
         r"^\s*2\. If no, please decrease the batch size of your model\b|^\s*Please decrease the batch size of your "
         r"model\.|^\s*1\) Decrease the batch size of your model\.|FLAGS_fraction_of_gpu_memory_to_use is [\d.]+ now, "
         r"please set it to a higher value", "cause", CauseId.gpu_oom, 90, "2. If no, please decrease the batch size of your model.",
         title="out of device memory (the allocator's advice that ends its out-of-memory message)",
         source="pp 2.0-3.3.1 memory/allocation/cuda_allocator.cc, cuda_managed_allocator.cc, cuda_malloc_async_allocator"
                ".cc, npu_allocator.cc (PADDLE_THROW_BAD_ALLOC(errors::ResourceExhausted(\"\\n\\nOut of memory error on GPU %d. "
                "... Please check whether there is any other process using GPU %d.\\n1. If yes, please stop them, or "
                "start PaddlePaddle on another GPU.\\n2. If no, please decrease the batch size of your model. %s\\n\"))); "
                "cuda_virtual_mem_allocator.cc (\"Please decrease the batch size of your model.\"); pp 1.6-1.8 "
                "memory/detail/system_allocator.cc GPUAllocator::Alloc (\"2. If no, please try one of the following "
                "suggestions:\\n   1) Decrease the batch size of your model.\\n   2) FLAGS_fraction_of_gpu_memory_to_use is "
                "%.2lf now, please set it to a higher value but less than 1.0.\")"),
    # A C++ stack in Paddle's allocation path (the numbered frames enforce prints before its message; a paste of the
    # tail keeps only them): an allocation failed. On the host when the frame names CPUPlace, else on the device. The
    # weakest reading of memory (a CUDA error raised while allocating reads the same frames): any message decides.
    _sig("host_alloc_frames", r"\bpaddle::memory::(?:\w+::)*(?:Alloc(?:Shared)?|Allocate(?:Impl)?)\s*<\s*paddle::platform::"
         r"CPUPlace\b|\bpaddle::memory::detail::BuddyAllocator::RefillPool\(\).*CPUPlace", "cause",
         CauseId.host_out_of_memory, 47,  # above the device's: a CPUPlace frame names the place of the whole path
         "5  0x7fdd810c1e25p void* paddle::memory::legacy::Alloc<paddle::platform::CPUPlace>(paddle::platform::"
         "CPUPlace const&, unsigned long) + 117",
         title="a host allocation failed (Paddle's allocator for CPUPlace is on the C++ stack)", most="low",
         source="pp 1.x memory/malloc.cc legacy::Alloc<CPUPlace>, memory/detail/buddy_allocator.cc RefillPool, "
                "system_allocator.cc CPUAllocator::Alloc; enforce.h prints the stack (\"PaddlePaddle Call Stacks\" / "
                "\"C++ Traceback\") before the message"),
    _sig("device_alloc_frames", r"^(?!.*(?:: In (?:member |static member )?function |: In instantiation of |\brequired from |"
         r"在函数|在成员函数)).*?(?:\bpaddle::memory::(?:\w+::)*(?:Alloc(?:Shared)?|Allocate(?:Impl)?|RefillPool|"
         r"GetGPUBuddyAllocator)\b(?!\s*<\s*paddle::platform::CPUPlace)|\bpaddle::platform::GpuMaxChunkSize\(\)|"
         r"\bphi::DeviceContext::Alloc\s*<)", "cause", CauseId.gpu_oom, 45,
         "6   paddle::memory::allocation::AllocatorFacade::Alloc(paddle::platform::Place const&, unsigned long)",
         title="a device allocation failed (Paddle's allocation path is on the C++ stack)", most="low",
         source="pp 1.x-3.x memory/allocation (AllocatorFacade::Alloc, RetryAllocator::AllocateImpl, Allocator::"
                "Allocate), memory/malloc.cc AllocShared, legacy::Alloc<CUDAPlace>, detail/buddy_allocator.cc, "
                "platform/gpu_info.cc GpuMaxChunkSize, phi/core/device_context.cc DeviceContext::Alloc; enforce.h "
                "prints the stack before the message; not GCC's \"In function '...':\" line above a compile error"),
    # Fluid's legacy (buddy) allocator warns and returns nullptr when cudaMalloc fails: the warnings come before
    # whatever the null block then breaks (an enforce, an empty metric), which may not say "memory" at all.
    _sig("legacy_gpu_alloc_failed", r"Cannot malloc [\d.]+ MB GPU memory|Cannot allocate (?P<req>[\d.]+ ?(?:bytes|"
         r"[kKMGT]i?B)) in GPU (?P<gpu>\d+), available", "cause", CauseId.gpu_oom, 85,
         "W0613 10:18:30.684809   182 malloc.cc:99] Cannot allocate 102760448 bytes in GPU 0, available 2650865664 "
         "bytes",
         title="the GPU allocator could not get device memory (cudaMalloc failed) and returned no block",
         source="pp 0.11-1.3 memory/detail/system_allocator.cc GPUAllocator::Alloc (cudaMalloc failed: LOG(WARNING) "
                "<< \"Cannot malloc \" << size / 1024.0 / 1024.0 << \" MB GPU memory. Please shrink "
                "FLAGS_fraction_of_gpu_memory_to_use ...\"; return nullptr); memory/malloc.cc Alloc<CUDAPlace> (the "
                "buddy allocator gave nullptr: LOG(WARNING) << \"Cannot allocate \" << size << \" bytes in GPU \" << "
                "device << \", available \" << avail << \" bytes\"; 1.4-1.5 legacy_allocator.cc the same with "
                "HumanReadableSize)"),
    _sig("gpu_oom_hint", r"If the above ways do not solve the out of memory problem", "cause", CauseId.gpu_oom, 60,
         "If the above ways do not solve the out of memory problem, you can try to use CUDA managed memory. The "
         "command is `export FLAGS_use_cuda_managed_memory=false`.",
         title="the GPU out-of-memory message's hint (its first line is above it)",
         source="pp 2.4.2 so strings (the GPU out-of-memory message's last hint: "
                "If the above ways do not solve the out of memory problem, you can try to use CUDA managed memory.)"),
    _sig("host_alloc_failed", r"Fail(?:ed)? to allocate (?:jitcode generator \(GenBase\) |GenBase )?(?:CPU memory|"
         r"memory for \S+)|Jitcode generator \(GenBase\) allocate \d+ memory error", "cause",
         CauseId.host_out_of_memory, 60,
         "RuntimeError: (ResourceExhausted) Fail to allocate jitcode generator (GenBase) CPU memory: size = 4096 .",
         title="a host memory allocation failed inside Paddle",
         source="pp 1.8.5-3.3.1 so strings, the JIT code generator's buffers (Fail to allocate [jitcode generator "
                "(GenBase) |GenBase ]CPU memory: size = %d .; Jitcode generator (GenBase) allocate %ld memory "
                "error!); pp 3.3.1 libpaddle.so strings (Failed to allocate memory for VectorTypeStorage::data_, "
                "requested size = %d bytes.; Failed to allocate memory for poly.hole.)"),
    # numpy's own message for an array it cannot allocate in host memory (printed with or without the
    # exception's name: a suite's logger or a notebook may keep the message alone).
    _sig("numpy_array_alloc_failed", r"Unable to allocate (?P<size>[\d.]+ (?:[KMGTPE]i)?B) for an array with shape",
         "cause", CauseId.host_out_of_memory, 80,
         "Unable to allocate 5.15 GiB for an array with shape (1759, 512, 512, 3) and data type float32",
         title="numpy could not allocate {size} of host memory for an array",
         source="numpy 1.17+ numpy/core/_exceptions.py _ArrayMemoryError.__str__ (\"Unable to allocate {} for an "
                "array with shape {} and data type {}\", the size from _size_to_string; a subclass of CPython's "
                "MemoryError) (PaddleGAN#722)"),
    # --- collectives -------------------------------------------------------------------------------------
    _sig("process_group_keys_timeout", r"Timeout while initializing process group \d+\.\s*Keys .* are not ready",
         "cause", CauseId.collective_timeout, 75,
         "RuntimeError: Timeout while initializing process group 3.Keys /process_group/3/0 are not ready sinck rank "
         "1 is waiting them.",
         title="a process group was not created by every rank in time (new_group called on some ranks only, or "
               "too late)",
         source="pp 2.4.2 paddle/distributed/collective.py _new_process_group_impl (Timeout while initializing "
                "process group {}.Keys {} are not ready sinck rank {} is waiting them.Two reason may cause this "
                "error: 1. The create process group api should be called by all ranks. 2. ...)"),
    # --- a suite's check of its configuration file ---------------------------------------------------------
    # PaddleSeg's tools check that the YAML declares what they need and that its loss section fits the model:
    # a config that does not fit the tool or the model, before any data is read.
    _sig("paddleseg_config_check", r"(?P<what>(?:training|verification|validation) dataset) is not specified in the "
         r"c;?onfiguration file|(?P<what2>No configuration file) specified\.|The length of (?P<what3>logits_list) "
         r"should equal to the types of loss config: \d+ != \d+|The length of (?P<what4>coef) should equal to types "
         r"in loss config: \d+ != \d+", "cause", CauseId.config_error, 85,
         "RuntimeError: The length of logits_list should equal to the types of loss config: 4 != 1.",
         title="the configuration does not fit the tool or the model (PaddleSeg's check of the config file)",
         source="PaddleSeg 2.x train.py / val.py / predict.py (RuntimeError('The training dataset is not specified in "
                "the configuration file.'), ('The verification dataset is not specified in the configuration "
                "file.'), ('No configuration file specified.')), paddleseg/core/train.py check_logits_losses "
                "(RuntimeError('The length of logits_list should equal to the types of loss config: {} != {}.')), "
                "paddleseg/cvlibs/config.py Config.loss ('The length of coef should equal to types in loss config: "
                "{} != {}.') (PaddleSeg#860, #2092)"),
    # PaddleDetection checks the dataset its config names before it reads it, and logs which part is not on disk
    # (then it looks in its cache or downloads a known dataset, else raises): a custom dataset whose dataset_dir,
    # annotation file or image folder is not where the config says. A warning (a dataset found in the cache after
    # it runs on), so it is the verdict only where no error explains more, and at most medium.
    _sig("ppdet_dataset_config_invalid", r"Config (?P<what>dataset_dir|annotation|image_dir) (?P<path>\S+) is not "
         r"(?:exits|exists|a file|a directory), dataset config is not valid", "cause", CauseId.file_not_found, 40,
         "[02/23 09:40:23] ppdet.utils.download WARNING: Config annotation dataset/coco/annotations/"
         "instances_train2017.json is not a file, dataset config is not valid",
         title="the dataset's {what} the config names ({path}) is not on disk (PaddleDetection's dataset check)",
         source="PaddleDetection 0.x-2.x ppdet/utils/download.py _dataset_exists (logger.warning('Config dataset_dir "
                "{} is not exits, dataset config is not valid'), ('Config annotation {} is not a file, dataset config "
                "is not valid'), ('Config image_dir {} is not a directory, dataset config is not valid')), then "
                "get_dataset_path searches the cache or downloads (PaddleDetection#5246, #6982)", most="medium"),
    # fluid 1.x's read op takes batches from a py_reader/DataLoader whose reader the feeding thread resets when the
    # user's reader raises: the op then finds no reader. The reader's own error came earlier in the output.
    _sig("fluid_reader_gone", r"reader_ should not be null", "cause", CauseId.dataloader_worker_crash, 70,
         "  [Hint: reader_ should not be null.] at (/paddle/paddle/fluid/framework/reader.h:110)",
         title="the read op found no reader: the thread feeding the py_reader/DataLoader stopped (its reader raised: "
               "look for its error earlier in the output), or the reader was not started", most="medium",
         source="pp 1.5-2.x paddle/fluid/framework/reader.h ReaderHolder::ReadNext (PADDLE_ENFORCE_NOT_NULL(reader_, "
                "\"reader_ should not be null\")); operators/reader/read_op.cc"),
    # Backward was asked through an operator that has no gradient (a random op, a cast of labels, an index): the
    # registry has the op, not its grad maker. Paddle's own advice is in the user's network: stop_gradient on its
    # inputs and outputs. 1.4 printed the enforce without the op's name ("Operator GradOpMaker has not been ...").
    _sig("grad_op_maker_missing", r"(?:[Oo]perator (?:(?P<op>\w+)'s )?GradOpMaker (?:nor CompGradOpMaker )?has not been "
         r"registered|Neither operator (?P<op2>\w+)'s GradOpMaker nor CompGradOpMaker has been registered|"
         r"grad_op_maker_ should not be null)", "cause", CauseId.python_exception, 75,
         "Operator gaussian_random's GradOpMaker has not been registered.",
         title="the network takes a gradient through an operator that has none (a random, cast or index op): set "
               "stop_gradient=True on its input and output variables, or build that tensor outside the graph the "
               "loss differentiates", most="medium",
         source="pp 1.4-3.3.1 paddle/fluid/framework/op_info.h OpInfo::GradOpMaker (PADDLE_ENFORCE_NOT_NULL("
                "grad_op_maker_, \"Operator %s's GradOpMaker has not been registered.\\nPlease check whether (%s) "
                "operator has gradient operator.\\nIf not, please set stop_gradient to be True ...\"); 3.x "
                "\"Neither operator %s's GradOpMaker nor CompGradOpMaker has been registered.\"; 1.4's enforce "
                "\"grad_op_maker_ should not be null\" without the op's name)"),
    # The hint of Paddle's check that a file opened, pasted without the message that names the file ("Cannot open file
    # %s, please confirm whether the file is normal", model_file_unopened's): a file did not open; which one, the hint
    # does not say (a model's most often; DistModel's communication config is one too).
    _sig("file_open_check_hint", r"Expected static_cast<bool>\(fin\.is_open\(\)\) == true, but received", "cause",
         CauseId.file_not_found, 80, "[Hint: Expected static_cast<bool>(fin.is_open()) == true, but received "
         "static_cast<bool>(fin.is_open()):0 != true:1.] (at ...\\paddle\\fluid\\inference\\api\\analysis_predictor.cc:1116)",
         title="a file Paddle opens did not open (the line naming it is not in the text): a wrong path, a missing file, "
               "or a Windows path with non-ASCII characters", most="medium",
         source="pp 2.x-3.x inference/api/analysis_predictor.cc, framework/io and others: PADDLE_ENFORCE_EQ(static_cast"
                "<bool>(fin.is_open()), true, NotFound(\"Cannot open file %s, please confirm whether the file is "
                "normal.\")), its hint line ([Hint: Expected static_cast<bool>(fin.is_open()) == true, but received "
                "...]; 2.6.2's libpaddle.so)"),
)
# Read before the native rows that name a signal anywhere on a line (native.py): spawn's line says whose it is.
SPAWN_SIGNAL_ROWS = _spawn_signal_rows()
