"""Signatures: NCCL/CUDA errors, DataLoader, checkpoints, launcher frames, our exceptions, structure, device facts; and
a shared library the loader found nowhere (:data:`LIBRARY_NOT_FOUND`, placed in the table before the others)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ....errors import CAUSE_BY_NAME
from ...anatomy.parts import GLOG_HEADER, GLUED, NOTEBOOK_FRAME, NOTEBOOK_LINE
from .api_versions import API_VERSION_ROWS
from ..exception_forms import EXCEPTION_LINE_FORMS, RUN_TOGETHER_ROWS
from .checks import CHECKS
from ..advice import LIBRARY_CONFIRM, LIBRARY_FIX
from .devices import OTHER_COLLECTIVES
from .windows import CUDA_LIBRARIES
from ..model import Signature, sig as _sig

# A victim's own exception (another rank failed first) must not outrank the real cause.
_VICTIM_EXCEPTIONS = {"PeerFailedError": 45}


def _our_exceptions() -> tuple[Signature, ...]:
    """paddle-doctor's own exceptions name their cause id (``errors.CAUSE_BY_NAME``)."""
    return tuple(
        _sig(f"ours_{name}", rf"(?:^|[\s.:'\"])(?P<exc>{name})(?::\s?(?P<msg>.*))?$", "cause", cause,
             _VICTIM_EXCEPTIONS.get(name, 90), f"paddle_doctor.errors.{name}: ranks disagree (rank 1 differs)",
             title="{exc}: {msg}", source="paddle-doctor, src/paddle_doctor/errors.py")
        for name, cause in sorted(CAUSE_BY_NAME.items()))


LIBRARIES = (
    # --- NCCL / CUDA --------------------------------------------------------------------------------------
    _sig("nccl_lib_missing", r"libnccl\.so[^\n]*(?:cannot open|No such file|not configured)|"
         r"dynamic library \(libnccl|[Ff]ailed (?:dynamic load|to open) libnccl", "cause", CauseId.nccl_library_missing, 100,
         "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that Paddle depends on is "
         "not configured correctly. (error code is libnccl.so: cannot open shared object file: No such file or directory)",
         title="libnccl.so cannot be loaded",
         source="pp 1.8.5-3.3.1 so: platform/dynload/dynamic_loader.cc (The third-party dynamic library (%s) that "
                "Paddle depends on is not configured correctly.); pp 2.6.2 so: ([%s:%d:%s] Failed dynamic load "
                "libnccl.so; Failed to open libnccl.so[.2])"),
    # The library's file name in either OS's spelling: libcudnn.so.8 (Linux) or cudnn64_8.dll,
    # "cublas64_118.dll;cublas64_11.dll" (Windows: the candidates Paddle tried, joined by ';').
    # cudnn.cc's own wording ("Cannot load cudnn shared library") and 1.x's warning name it too: every wording says which.
    _sig("cuda_lib_missing", r"(?i)(?:(?:failed to find (?:dynamic|cuda|cudnn) library|dynamic library \()\s*:?\s*|"
         r"Cannot load (?=cudnn shared library)|Can not find library:\s*)(?P<lib>(?:lib)?(?:cudnn|cublas\w*|cudart|cusolver|cufft|curand|cusparse|nvrtc|"
         r"nvjitlink)(?:[\w;]|\.(?=\w))*)",
         "cause", CauseId.cuda_cudnn_mismatch, 95,
         "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libcudnn.so) that Paddle depends on is "
         "not configured correctly. (error code is libcudnn.so: cannot open shared object file)",
         title="a CUDA library this Paddle build needs ({lib}) cannot be loaded: not installed, or another version",
         source="pp 1.8.5-3.3.1 so: platform/dynload/dynamic_loader.cc GetCUDNNDsoHandle / GetCublasDsoHandle / "
                "GetCUDARTDsoHandle (Failed to find dynamic library: %s; The third-party dynamic library (%s) that "
                "Paddle depends on is not configured correctly.); platform/dynload/cudnn.cc (Cannot load cudnn "
                "shared library. Cannot invoke method cudnnGetVersion.); the Windows names, same file "
                "(win_cudnn_lib = \"cudnn64_\" CUDNN_MAJOR_VERSION \".dll\", win_cublas_lib = \"cublas64_\" "
                "CUDA_VERSION_MAJOR CUDA_VERSION_MINOR \".dll;cublas64_\" CUDA_VERSION_MAJOR \".dll\"); pp 1.5-1.8 "
                "dynamic_loader.cc (LOG(WARNING) << \"Can not find library: \" << dso_path << ...); v1 cuda/src/"
                "hl_dso_loader.cc (Check failed: nullptr != *dso_handle Failed to find cuda library: %s)"),
    # dlerror()'s own report names the library, whoever called dlopen (Paddle's loaders of every era, ctypes, an
    # import): a CUDA library the build needs is not on the loader's path; read before "No such file" below.
    _sig("cuda_lib_dlerror", r"(?P<lib>lib(?:cudnn|cublas\w*|cudart|cusolver|cufft|curand|cusparse|nvrtc|nvjitlink)"
         r"[\w.-]*): cannot open shared object file", "cause", CauseId.cuda_cudnn_mismatch, 95,
         "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory",
         title="a CUDA library this Paddle build needs ({lib}) cannot be loaded: not installed, or not on the path",
         source="C library: glibc elf/dl-load.c _dl_map_object (N_(\"cannot open shared object file\")), reported by "
                "dlerror() as \"<name>: cannot open shared object file: <strerror>\""),
    # At start-up Paddle dlopens every plugin of a custom device (Ascend NPU, MLU, ...); the plugin fails to load
    # when a library of the device's toolkit it links is missing or of another version (dlerror: "libatb.so:
    # cannot open shared object file", "undefined symbol: ..."): the installed toolkit does not fit the build. A
    # plugin built for another Paddle release fails the same way (its symbols), so medium.
    _sig("device_lib_load_failed", r"Fail to open library:\s*(?P<path>\S*)", "cause", CauseId.cuda_cudnn_mismatch,
         95, "ValueError: (InvalidArgument) Fail to open library: /py/site-packages/paddle_custom_device/"
         "libpaddle-custom-npu.so with error: libatb.so: cannot open shared object file: No such file or directory",
         title="a device plugin library cannot be loaded at start-up: a library of the device's toolkit it needs is "
               "missing or of another version",
         source="pp 2.5-3.3.1 so: platform/init.cc LoadCustomDevice and framework/custom_kernel.cc "
                "LoadCustomKernelLib (dlopen; PADDLE_ENFORCE_NOT_NULL(dso_handle, InvalidArgument(\"Fail to open "
                "library: %s with error: %s\", lib_path, dlerror())))", most="medium"),
    # Paddle's Windows start-up (as torch's) loads each DLL of the pip nvidia-* packages and of paddle/libs
    # itself and raises the Windows error with the file it could not load: a CUDA library that cannot load
    # (WinError 126 missing, 127 a missing entry point: another version of it or of a dependency is found first).
    _sig("win_cuda_dll_load", r"Error loading \"(?P<path>[^\"]*?(?P<lib>(?:cudnn|cublas|cudart|cufft|curand|cusolver|"
         r"cusparse|nvrtc|nvjitlink|nccl)\w*\.dll))\" or one of its dependencies", "cause", CauseId.cuda_cudnn_mismatch, 95,
         "OSError: [WinError 127] The specified procedure could not be found. Error loading \"C:\\py\\lib\\"
         "site-packages\\paddle\\..\\nvidia\\cudnn\\bin\\cudnn_ops64_9.dll\" or one of its dependencies.",
         title="a CUDA library ({lib}) cannot be loaded: missing, or another version of it or of a dependency "
               "is found first",
         source="pp 3.0.0 win_amd64 paddle/__init__.py (for dll in dlls: kernel32.LoadLibraryExW(dll, ...); "
                "err = ctypes.WinError(last_error); err.strerror += f' Error loading \"{dll}\" or one of its "
                "dependencies.'; raise err), after torch/__init__.py _load_dll_libraries"),
    # Paddle Serving's GPU server checks for CUDA before it starts (nvcc on the path; later: its binary's
    # libcudart resolves and /dev/nvidia* exists) and exits with this line: one line, three checks, at most medium.
    _sig("serving_cuda_not_found", r"CUDA not found, please check your environment or use cpu version", "cause",
         CauseId.cuda_cudnn_mismatch, 80,
         "CUDA not found, please check your environment or use cpu version by \"pip install paddle_serving_server\"",
         title="Paddle Serving's GPU server found no CUDA (no nvcc / libcudart for it, or no /dev/nvidia* device)",
         source="Paddle Serving 0.3-0.9 python/paddle_serving_server(_gpu)/server.py check_cuda (os.system(\"nvcc "
                "--version\") != 0, later ldd <serving bin> | grep cudart and ls /dev/ | grep nvidia: raise "
                "SystemExit(\"CUDA not found, please check your environment or use cpu version by ...\")); "
                "check_local_bin (bin_path = os.environ[\"SERVING_BIN\"])", most="medium"),
    # CUDA's link-time stub libraries (lib64/stubs) say so when a program loads one at run time: every
    # call then fails (cuFFT's error 50, cudaErrorStubLibrary): the real library is not on the path.
    _sig("cuda_stub_library", r"You are running using the stub version of (?P<lib>\w+)", "cause",
         CauseId.cuda_cudnn_mismatch, 92, "You are running using the stub version of cufft",
         title="the {lib} library loaded is CUDA's link-time stub, not the real one: every call into it fails",
         source="CUDA toolkit lib64/stubs/lib*.so (the link-time stubs print \"You are running using the stub "
                "version of %s\" and fail every call; the runtime reports cudaErrorStubLibrary, 'CUDA driver is a "
                "stub library')"),
    _sig("nccl_version", r"Mismatched NCCL version detected|NCCL version mismatch|nccl version (?:mismatch|not match)|"
         r"ncclInvalidUsage.*version|NCCL library is (?:too old|not backwards compatible)|"
         r"compiled with too old version of NCCL", "cause", CauseId.nccl_version_mismatch, 95,
         "host-b:2201:2201 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 0 version 21803 rank 1 "
         "version 21602", title="NCCL versions differ",
         source="nccl-cu12 2.32.3 libnccl.so strings (Mismatched NCCL version detected : rank %d version %d rank %d "
                "version %d; NCCL version mismatch with remote peer %s (local: %s, remote %s); NCCL library is too "
                "old. This application was compiled with NCCL version %s ...)"),
    # With NCCL_DEBUG=INFO (or VERSION) each rank prints the NCCL it loaded; a fact, not an error.
    # versions.py compares them across ranks. After nccl_version: "compiled with NCCL version 2.x, but
    # is running with NCCL library version 2.y" is a cause by itself.
    # the host starts where no host character precedes it: tried once per run, not at each of its characters
    # Not on a line that reports an error: such a line quotes the version beside its error (torch-style
    # "NCCL error in: <file>:<line>, unhandled system error, NCCL version 2.8.4"), and the error is what it says.
    _sig("nccl_banner", r"^(?!.*\b(?i:error)\b).*?(?:(?<![\w.-])(?P<host>[\w.-]+):\d+:\d+ \[\d+\] NCCL INFO )?NCCL version "
         r"(?P<version>\d+\.\d+\.\d+)"
         r"(?P<build>\+cuda[\d.]+)?", "version_banner",
         example="host-a:4015:4015 [0] NCCL INFO NCCL version 2.18.3+cuda12.2",
         source="nccl-cu12 2.32.3 libnccl.so strings (NCCL version 2.32.3+cuda12.9; the log prefix "
                "%s:%d:%d [%d] NCCL INFO %s), printed by init.cc with NCCL_DEBUG=INFO in NCCL 2.x"),
    _sig("nccl_interface", r"no socket interface found|NCCL_SOCKET_IFNAME|Bootstrap : no socket|"
         r"ncclSystemError.*socket", "cause", CauseId.nccl_network_interface, 95,
         "NCCL WARN Bootstrap : no socket interface found", title="NCCL found no usable network interface",
         source="nccl-cu12 2.32.3 libnccl.so strings (Bootstrap : no socket interface found; NCCL_SOCKET_IFNAME)"),
    _sig(CauseId.nccl_error, r"(?:NCCL|Nccl|nccl) error|ncclUnhandledCudaError|ncclSystemError|ncclInternalError|"
         r"ncclRemoteError|failed to get NCCL unique ID|Get NCCL unique ID failed|Fail to sync nccl stream", "cause", CauseId.nccl_error, 90,
         "OSError: (External) NCCL error(1), unhandled cuda error.", title="NCCL error",
         source="pp 1.8.5-3.3.1 so: platform/enforce.h (NCCL error(%d), %s); nccl-cu12 libnccl.so "
                "ncclGetErrorString (unhandled cuda error, ncclSystemError, ...); pp 1.8.5 so strings (Get NCCL "
                "unique ID failed.; Fail to sync nccl stream: %s)"),
    *OTHER_COLLECTIVES,  # BKCL, RCCL, HCCL, CNCL, XCCL: after NCCL's own rows, as they were
    _sig("cudnn_mismatch", r"libcudnn v\d+ with header v\d+ unmatched|CUDNN_STATUS_VERSION_MISMATCH|"
         r"cuDNN version (?:mismatch|incompatible)", "cause", CauseId.cuda_cudnn_mismatch, 100,
         "[cudnn init] libcudnn v5 with header v7 unmatched!", title="cuDNN library and build do not match",
         source="pp 1.8.5-3.3.1 so: platform/dynload/cudnn.cc ([cudnn init] libcudnn v%d with header v%d "
                "unmatched!); cuDNN CUDNN_STATUS_VERSION_MISMATCH"),
    _sig("cuda_arch", r"no kernel image is available for execution|cudaErrorNoKernelImageForDevice|"
         r"is not compatible with the current PyTorch|sm_\d+ is not (?:supported|compatible)", "cause",
         CauseId.cuda_arch_unsupported, 100,
         "cudaErrorNoKernelImageForDevice: no kernel image is available for execution on the device",
         title="this Paddle build has no kernels for this GPU",
         source="pp 2.0.2-2.6.2 so and nccl-cu12 (CUDA runtime: no kernel image is available for execution on the "
                "device)"),
    # No GPU the driver sees, as against an id past the visible ones (CUDA_VISIBLE_DEVICES hiding all: refine/near.py).
    _sig("no_device", r"no CUDA-capable device is detected|cudaErrorNoDevice", "cause", CauseId.device_not_found, 95,
         "cudaErrorNoDevice: no CUDA-capable device is detected", title="CUDA sees no GPU at all",
         source="CUDA runtime cudaGetErrorString (cudaErrorNoDevice: no CUDA-capable device is detected), quoted by "
                "pp 1.8.5-2.0.2 so gpu_info.cc (cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount)"),
    _sig("invalid_device", r"invalid device ordinal|cudaErrorInvalidDevice\b", "cause", CauseId.cuda_visible_devices_misconfig,
         95, "cudaErrorInvalidDevice: invalid device ordinal", title="the requested GPU is not visible",
         source="CUDA runtime cudaGetErrorString (cudaErrorInvalidDevice: invalid device ordinal), pp 1.8.5-2.0.2 gpu_info.cc"),
    _sig("launch_device_frame", r'launch/context/device\.py", line \d+, in get_selected_devices', "cause",
         CauseId.device_not_found, 95,
         'File ".../paddle/distributed/launch/context/device.py", line 86, in get_selected_devices',
         title="the launcher was given a device id that is not visible",
         source="pp 2.4.2-3.3.1 paddle/distributed/launch/context/device.py get_selected_devices"),
    _sig("cuda_other", r"\bcudaError\w+|CUDA error\b|CUDA_ERROR_\w+|CUBLAS_STATUS_\w+|CUDNN_STATUS_\w+|"
         r"(?i:\bcuda (?:error|failure)\b)|CUDA RT call|== cudaSuccess|\bcuda[A-Z]\w* (?:failed in paddle::|raises error\b)", "cause",
         CauseId.cuda_error_other, 80, "ExternalError: CUDA error(719), unspecified launch failure.", title="CUDA error",
         source="pp 1.8.5-3.3.1 so: platform/enforce.h (CUDA error(%d), %s); pp 1.6-1.8 (%s failed in paddle::platform::%s ... "
                "error code : %d; cudaStreamSynchronize raises error: %s, errono: %d); pp 2.6.2 so: (ERROR: CUDA RT call \"%s\" "
                "in line %d of file %s failed with %s (%d).; Failed, cuda error %s:%d '%s'; [%s:%d:%s] Cuda failure - %s; "
                "Check failed: e == cudaSuccess)"),
    # --- DataLoader --------------------------------------------------------------------------------------
    _sig("dl_worker_caught", r"DataLoader worker\((?P<worker>\d+)\) caught (?P<exc>\w+)", "cause",
         CauseId.dataloader_worker_crash, 85,
         "KeyError: 'DataLoader worker(1) caught KeyError with message:\\nTraceback (most recent call last):",
         title="a DataLoader worker raised {exc}",
         source="pp 1.8.5-2.4.2 paddle/fluid/dataloader/worker.py, 2.6.2-3.3.1 paddle/io/dataloader/worker.py "
                "(DataLoader worker(%d) caught %s with message)"),
    _sig("dl_worker_signal", r"DataLoader \d+ workers exit unexpectedly", "cause", CauseId.dataloader_worker_crash, 80,
         "[ WARNING] dataloader_iter.py:733 - DataLoader 1 workers exit unexpectedly, pids: 18554",
         title="a DataLoader worker process died",
         source="pp 1.8.5-3.3.1 paddle/{fluid,io}/dataloader/dataloader_iter.py (DataLoader %d workers exit "
                "unexpectedly, pids: %s)"),
    _sig("dl_reader_thread", r"DataLoader reader thread (?:raised an exception|failed)|"
         r"DygraphDataLoader reader thread raised", "cause", CauseId.dataloader_worker_crash, 55,
         "DataLoader reader thread raised an exception!", title="the DataLoader reader failed",
         source="pp 1.8.5-3.3.1 paddle/fluid/reader.py, base/reader.py (DataLoader reader thread raised an "
                "exception!)"),
    _sig("dl_blocking_queue", r"Blocking queue is killed because the data reader raises an exception", "cause",
         CauseId.dataloader_worker_crash, 55,
         "SystemError: (Fatal) Blocking queue is killed because the data reader raises an exception.",
         title="the DataLoader's data reader failed (the real exception is above it)",
         source="pp 1.8.5-3.3.1 so: operators/reader/blocking_queue.h (Blocking queue is killed because the data "
                "reader raises an exception.)"),
    # Python wraps this message over several lines; its second half is the part that always holds.
    _sig("main_guard", r"current process has finished its bootstrapping phase|forgotten to use the proper idiom",
         "cause", CauseId.main_guard_missing, 100,
         "        current process has finished its bootstrapping phase.", title="worker processes started without an `if __name__ == \"__main__\":` guard",
         source="CPython 3.x Lib/multiprocessing/spawn.py _check_not_importing_main (current process has finished "
                "its bootstrapping phase)"),
    # --- checkpoints and files ---------------------------------------------------------------------------
    _sig("state_shape", r"Skip loading for (?P<key>\S+?)\.? \S+ receives a shape (?P<got>\[[^\]]*\]), but the "
         r"expected shape is (?P<want>\[[^\]]*\])", "cause", CauseId.state_dict_shape_mismatch, 90,
         "Skip loading for classifier.weight. classifier.weight receives a shape [768, 2], but the expected shape "
         "is [312, 2].", title="checkpoint shape {got} does not fit parameter {key} {want}",
         source="pp 2.x-3.3.1 paddle/nn/layer/layers.py set_state_dict (Skip loading for {}. {} receives a shape "
                "{}, but the expected shape is {}.)"),
    _sig("state_missing_key", r"Skip loading for (?P<key>\S+?)\.? \S+ is not found in the provided dict", "cause",
         CauseId.state_dict_prefix_mismatch, 40,
         "UserWarning: Skip loading for fc1.weight. fc1.weight is not found in the provided dict.",
         title="checkpoint keys do not match the model ({key} not found): it keeps random weights",
         source="pp 2.x-3.3.1 paddle/nn/layer/layers.py set_state_dict (Skip loading for {}. {} is not found in the "
                "provided dict.)"),
    # A suite's own loader (PaddleOCR's load_pretrained_params) skips what does not fit and warns once
    # per parameter; the run goes on with random weights for those.
    _sig("ppocr_params_shape", r"The shape of model params (?P<key>\S+) (?P<want>\[[^\]]*\]) not matched with loaded "
         r"params \S+ (?P<got>\[[^\]]*\])", "cause", CauseId.state_dict_shape_mismatch, 85,
         "[2022/06/10 12:01:44] ppocr WARNING: The shape of model params head.fc.weight [96, 6625] not matched with "
         "loaded params head.fc.weight [96, 6623] !",
         title="pretrained parameter {key} has shape {got}, the model's is {want}: it was not loaded",
         source="PaddleOCR 2.x-3.x ppocr/utils/save_load.py load_pretrained_params (logger.warning(\"The shape of "
                "model params {} {} not matched with loaded params {} {} !\"))"),
    _sig("ppocr_params_not_in_model", r"The pretrained params (?P<key>\S+) not in model", "cause",
         CauseId.state_dict_shape_mismatch, 40,
         "[2024/04/05 00:45:30] ppocr WARNING: The pretrained params conv1_weights not in model",
         title="pretrained parameters (such as {key}) have no place in the model: they were not loaded",
         source="PaddleOCR 2.x-3.x ppocr/utils/save_load.py load_pretrained_params (logger.warning(\"The pretrained "
                "params {} not in model\".format(k1)))"),
    # PaddleSeg's loader (copied by PaddleRS, PaddleMIX, ...) skips a parameter of another shape and goes on: a warning
    # (a fine-tune to another class count prints it for the head, and trains), which explains a later error.
    _sig("seg_params_shape", r"\[SKIP\] [Ss]hape of pretrained (?:params|weight) (?P<key>\S+) doesn't match\.?\s*"
         r"\(Pretrained: ?(?P<got>.+?), Actual: ?(?P<want>.+?)\)\s*$", "context", CauseId.state_dict_shape_mismatch, 85,
         "[SKIP] Shape of pretrained params decode.conv.weight doesn't match.(Pretrained: (256, 1024, 3, 3), Actual: "
         "[256, 640, 3, 3])", title="pretrained parameter {key} has shape {got}, the model's is {want}: it was skipped",
         source="PaddleSeg 2.x paddleseg/utils/utils.py load_pretrained_model ([SKIP] Shape of pretrained params {} "
                "doesn't match.(Pretrained: {}, Actual: {})); PaddleSeg 1.x ([SKIP] Shape of pretrained weight {} ...)"),
    # At most medium: a file that is not there says what failed, not why (a wrong path in the config, the user's code,
    # a library or model never installed); when first looks said high here they were right 17 times in 27 (batches
    # 52-86, bench/results/29-session14.md).
    _sig("load_not_exists", r"The `{0,2}path`{0,2} \((?P<path>[^)]*)\) to load model not exists|"
         r"(?:^|\W)(?<!raise )FileNotFoundError\b|No such file or directory|没有那个文件或目录|\[Errno 2\]", "cause", CauseId.file_not_found, 95,
         "ValueError: The ``path`` (output/best_model/model.pdparams) to load model not exists.",
         title="a file the script needs does not exist",
         source="pp 2.x-3.3.1 paddle/framework/io.py load (The ``path`` (%s) to load model not exists.); Python "
                "FileNotFoundError / errno ENOENT", most="medium"),
    _sig("open_failed_path", r"\b(?:Fail(?:ed)? to open (?:file:? )?|Unable to open file: )['\"]?(?P<path>\S*[/\\]\S+)",
         "cause", CauseId.file_not_found, 85,
         "Check failed: is Fail to open ./train_data_dir/20171016/dnn_instance_007855",
         title="a file the run opens could not be opened ({path})",
         source="pp 0.x-1.x trainer data providers (CHECK(is) << \"Fail to open \" << path; Paddle#5384); "
                "Paddle-Lite 2.x lite/model_parser/base/io.cc BinaryFileReader and io.h BinaryFileWriter "
                "(CHECK(file_) << \"Unable to open file: \" << path); FastDeploy 1.x fastdeploy/utils/utils.cc "
                "ReadBinaryFromFile (FDERROR << \"Failed to open file: \" << file << \" to read.\"; a Windows path "
                "as well) (genshin_impact_assistant#34)"),
    _sig("unused_params", r"(?:has|have) not been used in (?:the )?(?:forward|loss)|find_unused_parameters", "cause",
         CauseId.dataparallel_unused_parameters, 75,
         "RuntimeError: Some parameters have not been used in forward. set find_unused_parameters=True",
         title="DataParallel found parameters unused in forward",
         source="pp 2.4.2 so: imperative/reducer.cc (Please set find_unused_parameters=True ...); pp 2.4.2 "
                "paddle/fluid/dygraph/parallel.py (find_unused_parameters)"),
    # --- Paddle's own checks of environment, build, devices, topology (checks.py) ------------------------
    *CHECKS,
    # --- launcher's own traceback frames -------------------------------------------------------------------
    _sig("launcher_frame", r'paddle/distributed/(?:utils\.py|launch/|fleet/launch(?:_utils)?\.py)", line \d+, in '
         r'(?!main\b|launch\b|run\b|_run_\w+|<module>)', "cause", CauseId.launcher_bug, 65,
         'File "/home/x/paddle/distributed/utils.py", line 257, in terminate_local_procs',
         title="the launcher itself crashed",
         source="pp 1.8.5-3.3.1 paddle/distributed/{utils.py,launch/,fleet/launch*.py} (the launcher's own frames: "
                "a traceback inside it is its own crash)"),
    # paddle-doctor's watchdog ends a rank after a peer failed: a victim's line, the cause is the peer's.
    _sig("ours_watchdog_ended", r"^\[paddle-doctor\] watchdog on rank (?P<self>\d+): (?:rank (?P<peer>\d+) )?.*"
         r"Ending this rank", "terminated",
         example="[paddle-doctor] watchdog on rank 0: rank 1 ended with an error (see its log). Ending this rank "
                 "(exit code 86)",
         source="paddle-doctor, src/paddle_doctor/runtime/guards/watchdog.py fatal_line"),
    # --- paddle-doctor's own exceptions --------------------------------------------------------------------
    *_our_exceptions(),
    # --- code written for another Paddle version ---------------------------------------------------------
    *API_VERSION_ROWS, *RUN_TOGETHER_ROWS,  # before the traceback rows: a run-together line starts like one
    # --- start-up configuration rejected -------------------------------------------------------------------
    _sig("argparse_usage", r"^\S+: error: (?P<msg>unrecognized arguments|the following arguments are required|"
         r"argument \S+: (?:invalid|expected|not allowed|ignored)|one of the arguments)", "cause", CauseId.config_error, 90,
         "train.py: error: unrecognized arguments: --gpus [2,3,4,6]",
         title="the script's command line was rejected at start-up ({msg})",
         source="CPython Lib/argparse.py ArgumentParser.error ('%(prog)s: error: %(message)s' with 'unrecognized "
                "arguments: %s', 'the following arguments are required: %s', 'argument %s: invalid choice: ...')"),
    # --- a Paddle check that failed, without its exception line (a paste from the hint; 1.x's line after C++ Callstacks;
    # 0.x's comparison, as a pserver's glog line prints it)
    _sig("enforce_hint", r"\[\s*Hint\s*:\s*(?P<hint>Expected\b.{0,400}?)\](?:\s*\(?\s*at\s*[\[(]?\s*[^\s\])]{1,300}\.(?:cc|cu|h):\d+|"
         r"\s*$|\s*at\s*\(\s*/[\w./-]*$)|^\s*Enforce failed\. (?P<bare>Expected\b.*)|\[\s*Hint\s*:\s*(?P<said>[^\]]{1,200})\]\s*at\s*\(\s*\S+"
         r"\.(?:cc|cu|h):\d+\)|^" + GLOG_HEADER + r"(?P<said1x>\S.{0,300}?) at \[(?=[^\]\s]*paddle/)[^\]\s]*\.(?:cc|cu|h):\d+\]$|"
         r"\benforce (?P<old>\S[^\n]{0,200}? failed, [^\n]{1,80}? (?:!=|==|<=|>=|<|>) \S[^\n]{0,80})",
         "exception",
         CauseId.python_exception, 50, "[Hint: Expected x == y, but received x:6 != y:1.] at (/paddle/paddle/fluid/framework/"
         "lod_tensor.cc:400)", title="a Paddle check failed: {hint}{bare}{said}{said1x}{old}", source="pp 1.8.5-3.3.1 so: "
         "platform/enforce.h PADDLE_ENFORCE_* ([Hint: %s] at (%s:%d)); pp 1.0-1.8 __PADDLE_BINARY_COMPARE (\"Enforce failed. "
         "Expected %s == %s, but received ...\"); pp 0.x (2018) __PADDLE_BINARY_COMPARE (\"enforce %s \" #__CMP \" %s failed, "
         "%s \" #__INV_CMP \" %s\\n%s\"); pp 1.0-1.5 EnforceNotMet (string::Sprintf(\"%s at [%s:%d]\", ...))"),
    # Paddle 2.x-3.x's error summary "(Class) message" whose exception type was cut off the paste, or printed by
    # libstdc++'s terminate handler as an uncaught EnforceNotMet's what(): still an exception.
    _sig("enforce_class_line", r"^(?:\s*what\(\):\s+)?\((?P<cls>InvalidArgument|NotFound|OutOfRange|AlreadyExists|ResourceExhausted|"
         r"PreconditionNotMet|PermissionDenied|ExecutionTimeout|Unimplemented|Unavailable|Fatal|External)\) (?P<said>\S.*)$",
         "exception", CauseId.python_exception, 50, "(Unimplemented) ConvertPirAttribute2RuntimeAttribute not support",
         title="a Paddle check failed ({cls}): {said}", source="pp 2.0-3.3.1 so: platform/errors.h ErrorSummary::to_string "
         "(\"(\" + error_name + \") \" + msg), the exception's message without its type; libstdc++ "
         "vterminate.cc (terminate called after throwing an instance of '%s' /   what():  %s)"),
    # glog's CHECK message pasted without its F-line header (a post that quotes the message alone): still the check.
    _sig("check_failed_bare", r"^\s*Check failed: (?P<msg>\S.*)$", "exception", CauseId.python_exception, 48,
         "Check failed: input_names_.size() > offset: The network has 1 inputs, the offset should be less than this.",
         title="a C++ check failed: {msg}", source="glog logging.h CHECK (\"Check failed: %s \"), Paddle-Lite 2.x "
         "lite/utils/log/logging.h (the same words), pasted without the line's header"),
    # --- structure and the generic fallback ------------------------------------------------------------------
    _sig("traceback", r"Traceback \(most recent call last\)", "traceback",
         example="Traceback (most recent call last):",
         source="CPython traceback.py (Traceback (most recent call last):)"),
    _sig("frame", r'^\s*(?:>\s*)?File "(?P<path>[^"]+)", line (?P<lineno>\d+), in (?P<func>\S+)', "frame",
         example='  File "/tmp/probe/t.py", line 5, in <module>',
         source="CPython traceback.py (  File \"%s\", line %d, in %s)"),
    # A notebook's (IPython's) frame "<path> in <function>(<args>)" (a cell's: <ipython-input-N-hash>; IPython 8: "Cell In[N], line M") and its current line "--> N <code>".
    _sig("ipython_frame", NOTEBOOK_FRAME, "frame", example="/opt/conda/lib/python3.7/site-packages/paddle/framework/io.py in load(path, **configs)",
         source="Jupyter (IPython core/ultratb.py VerboseTB: a frame's header \"<file> in <function>(<args>)\"; 8.x \"Cell In[%s], line %s\")"),
    _sig("ipython_current_line", NOTEBOOK_LINE, "frame", example="--> 161         raise "
         "ValueError(error_msg % path)", source="Jupyter (IPython core/ultratb.py VerboseTB: the current line, \"--> N\")"),
    # glog's fatal check (CHECK/CHECK_EQ; Paddle-Lite's logger too): the process aborts after it; read as an exception.
    _sig("glog_check_failed", rf"^(?:{GLUED}F\d{{4}} [\d:.]+\s+\d+ (?P<file>\S+):\d+\]|\[F\s+\d+/\s?\d+ [\d: .]+ \S*?(?P<lite>[\w.]+):"
         r"\d+ \w+\])\s*(?P<exc>Check failed):\s*(?P<msg>.*)$", "exception", CauseId.python_exception, 50,
         "F1125 15:44:39.266677 200102 nccl_helper.h:62] Check failed: dynload::ncclGroupEnd() == ncclSuccess (1 vs. 0)",
         title="a C++ check failed in {file}{lite}: {msg}",
         source="glog logging.h CHECK / CHECK_EQ (F<mmdd> <time> <tid> <file>:<line>] Check failed: <cond> (<a> vs. <b>)), "
                "pp 0.x-1.x's own checks (nccl_helper.h, ...); Paddle-Lite 2.x lite/utils/log/logging.h ([F m/ d time "
                "file:line func] Check failed: ...)"),
    # A fatal log line with no "Check failed" (LOG(FATAL) << ...): glog's F line, Paddle-Lite's [F ...] line. The process
    # aborts after it: read as an exception, so its words and codes (anatomy) can say more.
    _sig("fatal_log_line", rf"^(?:{GLUED}F\d{{4}} [\d:.]+\s+\d+ (?P<file>\S+):\d+\]|\[F\s+\d+/\s?\d+ [\d: .]+ \S*?(?P<lite>[\w.]+):\d+ "
         r"\w+\])\s*(?P<said>\S.*)$", "exception", CauseId.python_exception, 48,
         "[F  1/ 1  1: 1: 1.000 ...lite/core/op_registry.cc:12 Create] Unknown supported target: X",
         title="a fatal error in {file}{lite}: {said}",
         source="glog logging.h LOG(FATAL) (F<mmdd> <time> <tid> <file>:<line>] <message>); Paddle-Lite 2.x "
                "lite/utils/log/logging.h ([F m/ d time file:line func] <message>)"),
    # Any other status ONNX Runtime raises (INVALID_ARGUMENT, RUNTIME_EXCEPTION, NOT_IMPLEMENTED, ...): the runtime
    # refused the model or its input. Generic, so beside `exception` (the rows above read the statuses' messages
    # that name a cause: a CUDA error, an op the opset lacks) and refinable like it.
    _sig("ort_status_error", r"\[ONNXRuntimeError\] : (?P<code>\d+) : (?P<name>[A-Z_]+) : (?P<msg>\S.{0,200})", "exception",
         CauseId.python_exception, 50,
         "onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : "
         "Non-zero status code returned while running BatchNormalization node.",
         title="ONNX Runtime refused the model or its input ({name}): {msg}",
         source="ONNX Runtime 1.x onnxruntime/python/onnxruntime_pybind_exceptions.cc ([ONNXRuntimeError] : %d : %s : "
                "%s), include/onnxruntime/core/common/status.h (StatusCode: FAIL 1, INVALID_ARGUMENT 2, ...)"),
    # Paddle 1.6-1.8's error summary for an enforce without a typed error (the LEGACY code has no name, so the
    # summary reads "Error: <message>" and the enforce adds its place): the generic reading, as for a typed one.
    _sig("enforce_legacy_summary", r"^Error: (?P<msg>\S.{0,300}?)\s*at ?\(/paddle/\S+:\s?\d+\)\s*$", "exception",
         CauseId.python_exception, 50,
         "Error: Cannot get attribute groups by type int ,its type is bool at(/paddle/paddle/fluid/framework/attribute.h:42)",
         title="Paddle's check failed: {msg}",
         source="pp 1.6-1.8 platform/errors.cc ErrorSummary::ToString (error_name(code) + \"Error: \" + msg; LEGACY has "
                "no name) and enforce.h EnforceNotMet (\"%s at (%s:%d)\")"),
    _sig("exception", r"^(?:\[[^\]]*\]\s*|[^\x00-\x7f]{1,12}[：:]\s*|(?i:error):\s+(?!Exception:?\s*$))?(?:[\w.]*\.)?(?P<exc>Exception|_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|"
         r"NotMet|Exhausted))(?::\s?(?P<msg>.*))?$", "exception", CauseId.python_exception, 50,
         "ValueError: boom on rank 1", title="{exc}",
         source="CPython traceback.py (the last line: <qualified type>: <message>); pp enforce.h error types "
                "(InvalidArgument, PreconditionNotMet, ...) are raised as ValueError, RuntimeError, ..."),
    *EXCEPTION_LINE_FORMS,
    # Last: a line that says an error happened, nothing above explaining it. Never a cause; it keeps "no failure found" away.
    _sig("error_line", r"^(?!\[paddle-doctor\]).*?(?:(?:^|[\s\[(|:]|(?<=:\d\d[,.]\d\d\d)-)\**(?:ERROR|Error|error|FATAL|Fatal)(?!\s+rates?\b|:\s*[-+]?\d+(?:\.\d+)?"
         r"%?\s*(?:$|[,;|]))\**(?:[\s:\]!,(]|$)|EnforceNotMet|\b(?:Exception|[A-Z]\w*(?:Error|Exception))\b:|"
         r"ABORT!!!|\bWARN\b|\bFAILED\b|失败|错误[:：]|异常退出|\b(?:init|start|load)\w* fail(?:ed)?\b)", "error_line",
         example="E1129 21:40:56.031740  4601 something.cc:12] ERROR: the reader stopped",
         source="glog E/F lines (pp 1.x-3.x), 'NCCL WARN', enforce 'Error' headers, 'init fail', 失败, 错误:, 异常退出; a "
                "level glued to a timestamp by a hyphen (PaddleSlim's '%(asctime)s-%(levelname)s: %(message)s')"),
)


# Matched after the tools' rows (a Qt plugin's load failure quotes the loader's line) and before the missing-file rows
# of :data:`LIBRARIES`, which would read the line's "No such file or directory" as a path (see :mod:`..table`).
# The GPU stack's libraries (CUDA's, NCCL's, TensorRT's): their own rows read them, not this one. In the 1.x loader's
# warning, not the optional ones it warns about and goes on without either (CUPTI for the profiler, nvJPEG, cuSPARSELt).
_GPU_LIBRARY = rf"lib(?:{CUDA_LIBRARIES}|cuda\b|nccl|nvinfer)"
_OPTIONAL_GPU_LIBRARY = r"lib(?:cupti|nvjpeg|cusparseLt)"
LIBRARY_NOT_FOUND = (
    # The loader names a shared library it found nowhere on its search path (libGL for OpenCV, libgomp for Paddle's
    # core, a library an app ships): the corpus's file_not_found, ranked as a missing file is, with the advice
    # of a library rather than of a path. GPU libraries (CUDA's, NCCL's, TensorRT's) have their own rows, and so has
    # a device plugin whose load failed ("... with error: <library>: cannot open shared object file"). Paddle 1.x's
    # loader warns so before a custom op's library it cannot find fails load_op_library with a bare EnforceNotMet.
    _sig("shared_library_not_found", rf"(?<!with error: )(?P<lib>(?<![\w.+-])(?!{_GPU_LIBRARY})[\w.+-]{{1,80}}"
         r"\.(?:so(?:\.\d[\w.]*)?|dylib)): cannot open shared object file|dynamic_loader\.cc:\d+\] Can not find library: "
         rf"(?:\S*/)?(?P<lib2>(?!{_GPU_LIBRARY}|{_OPTIONAL_GPU_LIBRARY})[\w.+-]{{1,80}}?\.so(?:\.\d+)*)", "cause",
         CauseId.file_not_found, 95,
         "ImportError: libGL.so.1: cannot open shared object file: No such file or directory",
         title="the shared library {lib}{lib2} is not found: not installed, or its folder not on the loader's path",
         source="glibc elf/dl-load.c _dl_map_object (N_(\"cannot open shared object file\")), reported by dlerror() "
                "as \"<name>: cannot open shared object file: <strerror>\" (CPython's importer, ctypes.CDLL, dlopen); pp "
                "1.5-1.8 platform/dynload/dynamic_loader.cc (LOG(WARNING) << \"Can not find library: \" << dso_path << "
                "\". The process maybe hang. Please try to add the lib path to LD_LIBRARY_PATH.\")",
         most="medium", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
)
