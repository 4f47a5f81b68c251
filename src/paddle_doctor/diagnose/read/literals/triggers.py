"""The literals the scanner looks for: every line a signature can match contains one of them.

Kept apart from :mod:`..scan` (how a file is read) because the list grows with every signature; the
scanner builds its matchers from :data:`TRIGGERS` (and :data:`WITH_SELF_RANK` for a log whose name
gives no rank).
"""

from __future__ import annotations

from ..launches import TRIGGERS as LAUNCH_TRIGGERS
from ..runners import TRIGGERS as RUNNER_TRIGGERS
from ..selfrank import TRIGGERS as SELF_RANK_TRIGGERS

# Every line a signature can match contains one of these literals (signatures.py keeps them in
# step: a test checks that each signature example contains a trigger).
TRIGGERS: tuple[str, ...] = (
    "Error", "error", "ERROR", "Exception", "Traceback", 'File "', "TIMEOUT", "Fatal", "SIG",
    "Killed", "killed", "ABORT", "terminate", "Container rank", "Exit code", "Pod failed",
    "Pod completed", "Aborted at", "Assertion", "Retry to connect", "Skip loading", "not exists",
    "already in use", "No such file", "Out of memory", "out of memory", "NCCL", "Nccl", "nccl",
    "bootstrapping", "no kernel image", "unmatched", "Segmentation", "core dumped",
    "Blocking queue", "DataLoader", "shared memory", "/dev/shm", "Bus error", "MemoryError",
    "bad_alloc", "listen on", "Terminating", "code -", "exit code", "unused parameter",
    "not found in the provided dict", "expected shape", "CUDA_VISIBLE_DEVICES", "Exit with signal",
    "Process abort", "Local processes completed", "No stack trace", "Interrupt", "Watchdog",
    "timeout", "Timeout", "HTTPStore", "TCPStore", "ReadNextList", "Warning", "enforce fail", "Enforce failed",
    "EnforceNotMet", "preamble", "not been used", "ResourceExhausted", "nproc_per_node", "nnodes:",
    "total_size", "nranks ==", "not ready endpoints", "Device not found", "can't find PADDLE",
    "but not set", "Memory map failed", "open files", "Errno", "ancdata", "WARN", "insufficient",
    "CUDNN version", "init.cc", "received by PID", "spawn.py", "FATAL", "FAILED", "num_samples", "--ips", "of devices", "PADDLE_TRAINER", "PADDLE_CURRENT", "PADDLE_MASTER",
    "--gpus", "--devices", "--selected_gpus", "FLAGS_selected_gpus", "gpus: ", "devices: ",
    # issue 23: enforce hints, builds without GPU, our watchdog's line, the kernel OOM killer, no driver
    "[Hint:", "not compiled with", "WITH_GPU", "CPU version", "] watchdog on rank", "oom-kill", "oom_reaper",
    "NVIDIA-SMI", "nvidia-smi", "libcuda", "NVIDIA driver", "Waiting peer start", "master not ready",
    # issue 23: a file lock's wait (py-spy frames), the launcher's chosen ports
    "file_lock.py", "filelock", "master: ", "start_port: ",
    # gloo's transport errors, also as a C++ abort's `what():` line, which holds no other trigger
    "pair.cc",
    # issue 29: a CPU-only build asked for a GPU (1.x wording), glog's fatal checks, BKCL (Kunlun XPU)
    # a quoted `def` of the launcher's own functions (a report about the launcher)
    "def ",
    # an engine's start-up failure in English or Chinese (no other trigger on the line)
    " fail", "失败", "错误", "异常退出",
    # glibc's dlopen when its static TLS surplus is used up
    "static TLS",
    # paddle2onnx's list of operators it has no mapper for
    "operators not supported",
    # nvcc's own errors (a custom op's build)
    "nvcc fatal",
    # fleet.launch's own device check
    "see any accelerators", "in ips is not allowed",
    # ONNX Runtime's status prefix, TensorRT's error codes
    "ONNXRuntimeError", "Error Code", "supported IR version",
    # the kubelet's eviction, the container runtime's GPU errors, NVML's version mismatch
    "low on resource", "device driver", "nvidia-container-cli", "NVML",
    "CPU only version", "Check failed", "BKCL", "bkcl_", "not compatible with Paddle",
    # issue 29: 3.1+ wording of the GPU architecture check (gpu_resources.cc), an error since 3.1
    "Mismatched GPU Architecture", "wheel package built for your GPU",
    # issue 29, batch 3: the GPU allocator's frame on a C++ stack; a suite's loader skipping parameters
    "CUDAAllocator::AllocateImpl", "GPUAllocator::Alloc", "pretrained params", "not matched with loaded params",
    "stub version of",
    # issue 29, batch 5: phi dynload/cudnn.cc's message (no "error" in it); the device line of a CUDA runtime
    # older than Ampere (9.x/10.x: only such lines are hit, not every device line); gpu_resources.cc's other
    # architecture warning
    "Cannot load cudnn", "Can not find library", "no wheels with a matching", "Downloading paddle-", "Failed building wheel", "/paddle-1.", "/paddle-0.", "Collecting paddle", "should not be None in dygraph mode", "must be Value, but got", "Access to an undefine", "Erroneous arithmetic", "Program terminated with signal", "createCaskKernelLibraryImpl", "validateCaskKLibSize", "No device specified", "find a Cast kernel", "unsupported operators, the conversion", "FastDeploy didn", "compiled with current FastDeploy", "Backend is not available", "Can't found file from", "Fail to open file", "Failed to load yaml file", "Insufficient ", "ResolutionImpossible", "conflicting dependencies", "invalid file[", "Bad argument number for", "Failed to read model file", "the version of opt that transformed", "Unsupport opencl nb model", "warp-ctc [version", "s shape = [", "does not have kernel for", "Cannot find an available", "Unrecognized fastdeply", "Runtime API Version: 9.", "Runtime API Version: 10.", "not supported by Paddle", "is not registered on", "is no exists!", "requires a different Python", ") ... error", "Ops are not supported yet", " at [/", "object has", "naive-buffer model format", "meta_version", "[F ", "Cannot open file ", "Unexcepted situation", "Tiny-publish mode", "Read file error", "Open file: [", "find_library()", "sndfile library", "does not exist in availabel", "is not registered", "cudaGetLastError", "Exception code", "异常代码", "no enough for mallocing", "open failed", "failed with exit code", "failed with exit status", "DllNotFound", "UnsatisfiedLink", "unable to load", "bdist_wheel did not run", "SignalHandle(", "connectSlotsByName", "named 'tools.", ") received.", "optional component in", "Unknown class type", "invalid device function", "Fail to listen", "dial tcp :", "Expecting value: line 1", "compiled with tensorrt", "some conditions are not met", "ops not supported yet, list as below", "Check if the third-party dynamic", "parallel_for failed", "no Op found for", "Failed to parse ONNX model by TensorRT", "range of [0, 0", "range of [-0, 0", "range of [0,0", "egg_info did not run", "to build wheel did not run", "to build editable did not run", "generating package metadata", ") did not run successfully", "satisfies the requirement", "not found in config.", "` is not supported!", "could not determine kind of name", "cannot find -l", "undefined reference to", "Failed to postprocess", "Failed to preprocess", "Failed to process:", "server does not support GPUs", "LNK1181", "should be in AttributeMap", "No Op registered for", "cannot locate symbol", "EXC_BAD_ACCESS", "Attempted to dereference", "defined more than once", "Can't load library", "找不到 -l", "unable to find library", "library not found for", ".py](", "' not found", "has no field named", "Deadline Exceeded", "When parsing line",
    # the device line's driver and runtime versions (one line per GPU process: refine/versions.py compares them)
    "Driver API Version",
    # Paddle's dynamic loader naming the library (a paste without its "(error code is ...)" tail), and
    # enforce's error classes written as a type ("PreconditionNotMet: ...")
    "that Paddle depends on", "NotMet",
    # a row's own words, for a line pasted without the exception type or "Error" around them (each is the
    # literal core of a signature whose match holds no other trigger: test_triggers checks the list stays whole)
    "Could not load library", "Can't find your local ip", "can't be detected", "is compiled with CUDA", "BadAlloc",
    "global group is not initialized", "posix_memalign", "Shape not matching", "Deserialize to tensor failed",
    "can not parse the file", "DLL load failed", "dynamic library", "get_selected_devices", "TRAINING_ROLE",
    "CPU-only", "Failed to initialize GPU", "CUDAManagedAllocator", "binding threads and streams",
    "Fail to allocate", "is not a file", "has no attribute", "or higher is required", "Descriptors cannot",
    "GLIBC", "is already registered", "No matching distribution", "cannot import name", "Could not acquire lock",
    "failed in paddle::", "cannot find paddle.fluid", "is not supported on cuda", "_num: ",
    # issue 29, batches 120-121: Paddle's messages of a mode or dtype misuse, the sequence ops' 1.6 length check and
    # the debugger's unhandled C++ exception, pasted bare
    "in dynamic graph mode", "Tensor holds the wrong type", "Input(Length) should be", "Microsoft C++",
    "must has a batch size dimension", "TRT network should be initialized", "(fin.is_open())",
    "requires Program as its Parameter",
    # batch123: C++ builds against the inference library (compiler flags, the MSVC runtime, a library of another
    # architecture), the container toolkit's hook, Lite's quantized-scale check
    "only available with -std", "requires compiler and library support for the", "ile format not recognized", "LNK2038",
    "NVIDIA Container Runtime Hook", "HasInputScale", "UNSUPPORTED_NODE", "not found for architecture",
    # the tensor reader's version check (tensor_util.cc TensorFromStream), printed bare in a converter's output
    "Only version 0 is supported",
    # X2Paddle's PyTorch converter listing the traced ops it has no mapper for (pytorch_op_mapper.py op_checker)
    "OPs are not supported yet",
    # a signal's exit status as docker, Kubernetes and subprocess report it
    "Exit Code:", "Exited (", "exit status", "OOMKilled", "<Signals.", "with signal", "by signal",
    # glibc's ENOENT in zh_CN (a Chinese shell's cp, ls, python)
    "没有那个文件或目录",
    # issue 29, batch 35: pybind's CUDAPlace check as a glog E line, PaddleSeg 0.x's and 1.x dygraph's loaders
    "Invalid CUDAPlace", "Pretrained weight", "Parameter not found",
    # Android's linker names the library it did not find (its prefix may be cut from a paste)
    'library "',
    # batch 38: numpy's C API that an extension cannot import, a Python 2 extension of the other unicode width
    "failed to import", "undefined symbol: PyUnicode",
    # batch 39: the loss's label-range check (its Python and its kernel wordings), PaddleSeg's unregistered component
    "is out of upper bound", "is out of lower bound", "should not out of bound", "The value of label",
    "The specified component was not found", "ignore_index is not supported",
    "declarative() got an", "to_static() got an",
    # issue 29, batch 6: the inference predictor's GPU pool warning; a Windows crash status (cmd, subprocess)
    "too much memory for the GPU", "exited with code", "0xC0000", "0xc0000",
    # issue 29, batch 7: the shells' SIGILL reports; Paddle Serving's CUDA check
    "llegal instruction", "llegal hardware instruction", "CUDA not found", "segmentation fault",
    # issue 29: a flag that asked for no GPU (a device fact: CUDA's "no device" then is the host's)
    "use_gpu", "--device",
    # issue 29, batches 8-10: the shell's "Killed" in other locales; the v1 trainer's GPU count; a failed
    # open; Jupyter's notice of a dead kernel
    "已杀死", "強制終了", "Getötet", "Убито", "number of GPU devices", "Fail to open", "Failed to open",
    "kernel appears to have died",
    # issue 29: Windows' access violation as CPython's faulthandler, the MSVC debugger and the JVM print it
    "Windows fatal exception", "Access violation", "EXCEPTION_ACCESS_VIOLATION", "The memory could not be",
    # macOS's SIGABRT as its shell prints it
    "Abort trap",
    # a shell that finds no python (bash, dash, bash in zh_CN)
    "command not found", ": not found", "未找到命令",
    # issue 29, batch 25: the shells' native-crash reports in other locales (glibc's strsignal translated), numpy's
    # host-allocation message printed without its exception's name
    "段错误", "非法指令", "浮点数例外", "Speicherzugriffsfehler", "Ungültiger Maschinenbefehl", "Ошибка сегментирования",
    "セグメンテーション違反", "for an array with shape",
    # issue 29: HCCL's failed call (PaddleCustomDevice's RUNTIME_CHECK prints no "error"); XCCL's frames
    "Call Hccl", "CustomDevice::CCL", "xccl_", "HCCP process",
    # `python -m MODULE` that the interpreter cannot find (runpy's one line, no traceback)
    "No module named",
    # the shells' SIGABRT report ("Aborted", zsh's "abort" after its job and pid)
    "Aborted", "] abort",
    # the shells' other signal reports (bash's strsignal words, zsh's lowercase ones), glibc's heap checks
    "Floating point", "floating point", "bus error", "Trace/breakpoint", "trace trap", "zsh: ",
    "double free", "free(): ", "malloc(): ", "munmap_chunk", "corrupted size", "corrupted double", "realloc(): ",
    "stack smashing",
    # issue 29, batch 11: dlerror's report of a library it cannot open (a wrapped paste may cut the rest of the
    # line away); Paddle-Lite's failed open of a model file
    "cannot open shared object", "Unable to open file",
    # issue 29, batch 19: fluid's legacy GPU allocator warnings (glog W lines, no "error" in them)
    "Cannot malloc", "bytes in GPU", "B in GPU",
    # issue 29, batch 12: PaddleSeg 1.x's loader ("Shape of pretrained weight", no "params" in it)
    "Shape of pretrained",
    # a notebook traceback's frame header ("<file>.py in <function>(", a cell's in IPython 7 and 8) and its
    # current line ("----> 1 code", "--> 161 code": dashes, '>', a space, the line's number)
    ".py in ", "<ipython-input-", "Cell In[", "Cell In [", "-> ",
    # IPython 8's frame header: "File <path>:<line>, in <function>" (the path unquoted: home-relative, absolute, or
    # on a Windows drive)
    "File ~", "File /", "File c:", "File C:", "File d:", "File D:", "File e:", "File E:",
    # issue 29, batch 15: a predictor's model file it cannot open (1.x, a C++ abort's `what():` line holds no
    # other trigger), FastDeploy's deployment config; glog's failure handler's faulting-instruction line
    "Cannot open file", "Failed to load yaml", "PC: @",
    # issue 29, batch 23: .NET's failed native library load in a Chinese locale (no "Exception" in the line),
    # the HRESULT a .NET message carries for a Windows loader error
    "无法加载 DLL", "HRESULT",
    # issue 29, batch 21: cuDNN 8's loader when a sub-library is missing (Windows: "Could not locate %s. Please
    # make sure it is in your library path!", no other trigger on the line)
    "Could not locate", "in your library path",
    # issue 29, batch 22: PaddleOCR's predictor utility logging a missing model file (1.x: at INFO level, then exit)
    "not find model file", "not find params file", "compiled with TensorRT", "The TensorRT that Paddle",
    # zipfile's error for an archive that is not one (no other trigger on its line)
    "BadZip",
    # numpy 2's refusal of a 1.x extension and the dynamic loader's missing symbol version, printed bare
    "compiled using NumPy", "not found (required by",
    # 1.8-2.x's NCCL communicator set-up: a text that stops after it hung in NCCL's bootstrap
    "init nccl context",
    # issue 29, batch 26: .NET's failed native library load on Unix (and PaddleSharp's dependency listing), an
    # access violation as .NET (Chinese locale too) and ctypes word it, an engine executable that is not there
    "Unable to load shared library", "protected memory", "受保护的内存", "access violation", "executable file",
    # Paddle Serving's later GPU check (no /dev/nvidia*: no "error" on its line)
    "GPU not found",
    # issue 29, batch 28: .NET's failed DLL load as Visual Studio's exception helper shows it (the Message= line
    # holds no exception name), PaddleDetection's dataset check (a WARNING: "WARN" is a trigger already), the
    # download helpers' assertion printed bare, numpy 1.x's C-API check
    "Unable to load DLL", "not a url", "compiled against",
    # issue 29, batch 31: the v1 parameter server's warning for a port that got no parameters (a glog W line)
    "ports_num_for_sparse",
    # issue 29, batch 33: the CUDA toolkit and the driver of an environment report (summary_env.py; nvidia-smi's
    # header holds "NVIDIA-SMI")
    "CUDA version: ", "Nvidia driver version: ",
    # issue 29, batch 36: Android's linker (a CANNOT LINK or dlopen failure names the missing library, with no
    # "error" on its line), Paddle-Lite NNAdapter's device HAL library that would not load, paddle2onnx's parser
    "CANNOT LINK", "dlopen failed", "HAL library", "Failed to parse",
    # sixth session: 2.x's refusal of a static-graph API in dynamic mode, pasted without its AssertionError
    "only supported in static graph mode",
    # Windows' commit limit in its English and Chinese wording, pasted without the [WinError 1455] before it
    "paging file", "页面文件太小",
    # pip's refusal of a wheel built for another interpreter or platform; numpy's note on a removed alias
    "supported wheel", "deprecated alias",
    # macOS libc++abi's terminate handler (libstdc++'s "terminate called" holds "terminate" already)
    "terminating with uncaught",
    # issue 29, batch 41: Triton's model-config check (a glog E line whose words hold no other trigger), Java's
    # JNI library search on Android, FastDeploy's own port check
    "KIND_CPU but specifies", "couldn't find \"", "is already in use", "undefined symbol: _Z",
    # Paddle's internal-op argument check (op_function_common.cc), pasted without its ValueError
    "(): argument (position",
    # issue 29, batch 40: the v1 trainer's Parameter::load (an INFO line, then a FATAL one with no "error"), the
    # CUDA error text of an uncaught thrust::system_error on libstdc++'s what() line
    "while loading model", "missing, not allowed", "what():",
    # PARL's own GPU count falling back to the CPU (an INFO/WARN line with no "error")
    "Cannot find available GPU",
    # issue 29, batch 48: Windows' loader dialog for a DLL a program imports and cannot find (English, with a
    # straight or a curly apostrophe, and zh-CN): no "error" on its line; numpy 2.4's refused scalar conversion
    # pasted without its TypeError
    "t start because", "因为计算机中丢失", "0-dimensional arrays",
    # issue 29, batches 52-53: Paddle-TRT's dynamic-shape checks quoted without their exception name, FastDeploy's
    # backend choice, onnx's IR version check, paddle2onnx's attribute lookup (no "error" on their lines)
    "trt subgraph", "dynamic shape info", "TRT runtime input", "no valid backend", "higher than the checker",
    "Cannot found attribute", "allocating <= available", "Insufficient GPU memory", "should have the same dimension",
    "should have same dimension", "GetInputDim(", "undefined symbol: Py", "undefined symbol: _Py",
    # X2Paddle's list of PyTorch ops it cannot map, the legacy paddle2onnx's count of ops it cannot convert
    "= aten::", "= prim::", "ops are not supported yet",
    # paddle2onnx's opset check (its Assert line may be printed without "[ERROR]")
    "export to ONNX with opset", "export to onnx with opset", "Due to opset version",
    # X2Paddle's failed node (printed bare by its opset9 mapper), Paddle's CMake check of a build-time Python package
    "convert failed node", "Could NOT find PY_", "python module ",
    # Paddle-Lite's opt listing the ops it has no kernel for (its "Error:" may be cut from a paste)
    "ops are not supported on",
    # the kernel's fault reports, pip's subprocess status, nvcc's error in a header, PyMuPDF's removed names
    "segfault at", "trap invalid opcode", "trap divide error", "general protection", "exit code: -", "): error",
    "object has no attribute",
    # Qt's platform plugin, Rockchip's RKNN header, a missing tool, CMake settings
    "Qt platform plugin", "RKNN", ": not found", "command not found", "Must set ANDROID_NDK",
    "toolchain file", "bad magic number", "Model is not supported yet", "loadPlugin failed",
    # a build's compiler and linker: an id past an embedding table, protoc's generated check, the string ABI
    "#error", "std::__cxx11::", "died due to signal", "of OP(fluid.layers.embedding)",
    # fluid's op without an input its grad maker asks for; an option with a typographic dash in a quoted argv
    "cannot be found in Op", "'\u2014", "'\u2013",
    # CMake's find modules, SWIG, PaddleHub's version table and module names, PaddleNLP's config, GCC in zh_CN
    "Could NOT find", "is not found", "Unknown CMake command", "Syntax error in input", "(Mismatch)",
    "please make sure one of", "致命错误", "Can't find module", "No HubModule named",
    # gunicorn's timeout, Triton's model versions, brpc's refused connection, an xmlrpc fault, PaddleX's extras
    "WORKER TIMEOUT", "at least one version must be", "Fail to connect", "xmlrpc", "requires additional dependencies",
    "Raise_msg",
    # Visual Studio's debugger reporting a native fault (en, zh-CN)
    "Exception thrown at", "Unhandled exception at", "First-chance exception at", "引发的异常", "有未经处理的异常",
    # PaddleX 1.x-2.x: a model of another release, a script of 1.x
    "There's no attribute", "Your running script needs PaddleX",
    # nvcc's call through a dynload wrapper that fits no signature; CMake's unknown generator expression
    "dynload::DynLoad__", "Error evaluating generator expression",
    "known generator expression",
    # Paddle-Lite's naive buffer read past its end
    "should Require the memory first",
    # PyQt's sip refusing a float for an int (Python 3.10+)
    "has unexpected type 'float'",
    # X2Paddle 0.x's Caffe mapper
    "in model is not supported yet",
    # Paddle-Lite's op description without the slot a model's op names
    "Check failed: it != inputs_.end()", "Check failed: it != outputs_.end()",
    # Paddle's error summary without its exception type
    "(InvalidArgument) ", "(NotFound) ", "(OutOfRange) ", "(AlreadyExists) ", "(ResourceExhausted) ",
    "(PreconditionNotMet) ", "(PermissionDenied) ", "(ExecutionTimeout) ", "(Unimplemented) ", "(Unavailable) ",
    "(Fatal) ", "(External) ",
    # uv's resolver
    "there is no version of",
    # the profiler's CUPTI calls
    "failed with error CUPTI_ERROR_",
    # Jupyter's server restarting a kernel that died
    "KernelRestarter: restarting kernel",
    # the shells' abort and bus error in glibc's zh_CN words
    "已放弃", "总线错误",
    # Windows' loader errors through ctypes; cmd.exe's unknown command
    "[WinError 127]", "[WinError 193]", "is not recognized as an internal or external command",
    "不是内部或外部命令",
    # issue 29, batch 93: Anakin's factories' unregistered name; CPython that cannot find its standard library
    "has not been registered", "Python codec of the filesystem encoding",
    # batch 94: glibc's symbol-version lookup, macOS dyld's missing symbol (a paste without the ImportError around it)
    "with link time reference", "Symbol not found", "symbol not found in flat namespace", "paddle: line ", "defined as the delimiter",
    # batch 95: fluid's read op without its reader; PIR's attribute check (an enforce line may lose its type)
    "reader_ should not be null", "Type of attribute", "could be suggested", "未定义的引用",
    # the allocators' out-of-memory advice, the message's last lines (a paste of the tail)
    "decrease the batch size of your model", "any other process using",
    # glog's native stack frames ("    @     0x7fd5..."), the tail of a crash's paste
    "@  ", "@ 0x",
    # Paddle's allocation path on a C++ stack (a paste of its tail)
    "paddle::memory::", "GpuMaxChunkSize", "DeviceContext::Alloc",
    # sixteenth session: Paddle-Lite's kernel pick, PaddleSlim's swallowed X2Paddle exception, protobuf's parse
    "No kernels found for", "x2paddle threw an exception", "Can't parse message of type",
    # HotSpot's fatal error report; CUDA's own atomicAdd; Intel MKL's dispatcher; a JNI method; FastDeploy's backends
    ") at pc=0x", "previous declaration", "Intel MKL", "No implementation found for", "Backend doesn't support",
    "require the FastDeploy is compiled",
    # CMake without a language's compiler, make without Paddle 1.x's library, ASAN's report, cuDNN's load check
    "COMPILER could be found", "No rule to make target", "AddressSanitizer", "EnforceCUDNNLoaded",
    # PaddleOCR-json's engine that exited while starting
    "OCR init fail",
    # 1.x's out-of-memory advice; Android's and gdb's crash frames
    "Decrease the batch size", "FLAGS_fraction_of_gpu_memory_to_use is", " pc 0", "in __libc_message", "in abort (",
    "in raise (", "in __GI_raise", "in __GI_abort", "in malloc_printerr", "in _int_free", "in __assert_fail",
    "in __fortify_fail", "in __stack_chk_fail",
    # CMake's generator without platforms or toolsets; macOS's loader (dyld's own line); numpy's C API; OpenCV's failed read
    "specification, but", "Library not loaded", "PyArray_", "imread_(",
    # the Windows event log's Application Error in Chinese (its English "Exception code" is scanned as "Exception")
    "异常代码",
    # PaddleHub 2.x's check of the Paddle it imports
    "Version mismatch in PaddleHub",
    # pybind11's removed macros
    "PYBIND11_",
    # pip's conflicting pins
    "which is incompatible",
    # gdb's and a logger's signal lines; ppdet's -c check; gcc's unmatched override
    "received signal", "caught a signal", "Signal caught", "Please specify --config", "but does not override",
    # Paddle 0.x's CMake checks of its BLAS; Paddle-Lite's shape checks that return false
    "CBlas must be set", "Cannot found gfortran", " check failed!",
    # Paddle Serving's client given fetch names its config does not save
    "out of saved fetch list",
    # batch106: TensorRT 5's fixed input shape, cmake outside the source tree, a suite's -o parser, PaddleSeg's check
    "Input shapes are inconsistent", "does not appear to contain CMakeLists", "in _parse_opt",
    "label class is out of range",
    # batch107: Paddle Inference's GPU call in a CPU build, a library another library needs, numpy 1.19.4's Windows
    # check, CMake's config-mode find_package
    "to EnableGpu()", ", needed by", "fails to pass a sanity", "Could not find a package configuration file",
    "'status': '101'", '"status": "101"',
    # batch108: an x86 option on another compiler, inline assembly the compiler cannot fit, PaddleDetection's records
    "unrecognized command", "impossible constraints", "not found any ",
    # batch110: Paddle2ONNX's op its mapper refuses, PaddleSeg's dataset check, paddle-mobile's exception, RKNN's NPU memory
    "cannot be exported to ONNX", "NOT PASS ", "| [detail]", "malloc npu memory",
    # batch111: CMake's find_package without a Find module, fluid 1.x's model directory check, ppdet's config schema
    "CMAKE_MODULE_PATH", "no directory named", "param for class<", "param type for class<",
    # batch112: 1.x's glog line after a stream sync
    "cudaStreamSynchronize ", "cudaGetLastError ", "(received id: ", "exit abnormally", "exited abnormally",
    "FlashAttention is unsupported", "internal error in RPCClient", "\"syscall\":\"getaddrinfo\"",
    # batch113: 0.x's OpenBLAS without gfortran, a saved tensor's version, libprotobuf's version check
    "To build lapack in libopenblas", "Expected version == 0U", "of the Protocol Buffer runtime",
    # batch116: pip's editable install without PEP 660 (its ERROR: prefix may be another language's word)
    "'build_editable' hook", "Number of places must be", "Python object is not type of",
    # batch117: Paddle-Lite's kernel without the model's argument
    "no type registered for kernel", "Got invalid dimensions for input",
    # batch119: the dygraph setter's shape check (no error word on its line when pasted alone), Paddle's AVX import check
    "need tensor with shape", "but you have installed paddlepaddle with avx core",
    # Alternatives of rows whose words held no trigger, found by checking each top-level alternative of every row
    # (test_signatures' test_every_distinctive_branch_of_a_row_carries_a_trigger): on a line with no error word, or
    # pasted alone, they were never read. Frame paths (File " reads them), and words of healthy logs or command lines,
    # are in that test's list of the ones left out.
    "could not be acquired", "t find your local ip", "compiled with CUD",
    "because GPU number on your machine is", "CUDA devices found, cannot set", "Device id must be less than GPU count",
    ", please check visible devices", "id must less than GPU count", "Expected id < GetCUDADeviceCount()",
    "not found in available_custom_devices", "ou are using paddlepaddle cpu version", "Cannot run operator on place",
    "using GPU version Paddle", "Termination signal", "BlockingQueue<", "GlooParallelContext",
    "create_or_get_global_tcp_store", "_init_parallel_env", "river/library version mismatch",
    "trainer_endpoints size should be greater equal than accelerators size", "'s shape does not match, the Program",
    "Shape mismatch, program needs a parameter", "undefined symbol:", "core while this file exists",
    "Compressed file ended before the end-of-stream marker", "The device ID is invalid.",
    "Version tag does not match.", "is not available, please compiled with", "s are not supported yet",
    "Could not build wheels for", "did not run successfully", "library not found", "no socket interface found",
    "Bootstrap : no socket", "CUDNN_STATUS_", "CUBLAS_STATUS_", "is not compatible with the current PyTorch",
    "no CUDA-capable device is detected", "invalid device ordinal", "== cudaSuccess", "forgotten to use the proper idiom",
    "hape of pretrained", "The environment variable 'MASTER_ADDR' and 'MASTER_PORT'",
    "not supported in CPU", "only supported in XPU PaddlePaddle", "Graph is only supported on PaddlePaddle compiled with",
    "No custom device available", "no cuda device found", "since it's not support GPU",
    "Please check that your paddle compiles with WITH_", "belongs to multi", "unreasonable topogy setting",
    "is not specified in the c", "No configuration file", "should equal to the types of loss config:",
    "should equal to types in loss config:", ", dataset config is not valid",
    "GradOpMaker nor CompGradOpMaker has been registered", "grad_op_maker_ should not be null",
    "PaddlePaddle version is out of date.", "only the following paddle versions are supported:", "_ARRAY_API not found",
    "ymbol not found", "bin/paddle: line", "Bind network on", "please check it exists in apk file",
    "failed with code 404", "Downloading from", "invalid node; first invalid key",
    # ... and alternatives nested in a group that the second review's script listed, where the words are Paddle's or a
    # library's own and no healthy log holds them
    "(InvalidArgument)", "(AlreadyExists)", "(PermissionDenied)", "(Unimplemented)",
    "may indicate binary incompatibility", "has the wrong size", "FailedScheduling", "nodes are available:",
    "FastDeploy was not compiled", "FastDeploy is not compiled", "failed to find cuda library",
    "failed to find cudnn library", "cuDNN version mismatch", "cuDNN version incompatible", "zlibwapi.dll",
    "Extraneous param",
    # batch118: yaml-cpp's exceptions, PaddleSeg's C++ demo config, ONNX Runtime's C API version
    "YAML::", "invalid node; this may result", "Fail to load config file", "is supported in this build",
    # batches 124-126: CMake's compiler path, escape and regex errors and a project's own check, Visual C++'s image
    # size limit and its error list's runtime mismatch, GCC's two input files, ld's symbol of an unnamed library,
    # Apple ld64's undefined-symbol list (a literal that contains another trigger is left out: it adds nothing)
    "Invalid character escape", "Invalid escape sequence", "Nested *?+", "(message):", "LNK1248",
    "exceeds maximum allowable size", "超过允许的最大大小", "mismatch detected for", "的不匹配项", "too many filenames given",
    "给定了太多文件名", "DSO missing from command line", "ile in wrong format", "Undefined symbols for architecture",
    "Found OpenCV Android Pack", "no such label file", "Failed to load parameters of PaddlePaddle", "is not a function",
    "undefined symbol", "is not a full path", "so try adding it to the linker", "ld: Undefined symbols",
    # batches 127-128: onnxruntime's providers and unparsed model, FlashAttention's GPU check, CMake's parse error, names
    # headers lack, CUDA's host compiler check, setup.py's wheel, ccache's getopt words, the ONNX checker's context
    "This ORT build has", "INVALID_PROTOBUF", "is_sm8x", "FlashAttention only supports", "Expected a command name",
    "is not a member of", "no member named", "has no member", "unsupported Microsoft Visual Studio",
    "unsupported GNU version", "unsupported clang version", "invalid command 'bdist_wheel'", "ccache: invalid option",
    "ccache: illegal option", "ccache: unrecognized option", "Bad node spec",
    # batch129: TensorRT in a build without it, a state dict's dtype check
    "compile with TENSORRT first", "Variable dtype not match",
    # batches 130-133: an input never fed (rank -1, uninitialized), a crash in pybind11's type creation, the loader's
    # alignment check, grid_sampler's shape check, PyYAML's undefined tag
    "s dimension is -1,", "received: -1-D Tensor", "contains uninitialized", ") is not initialized", "pybind11::detail::",
    "ELF load command", "and Input(Grid) dims[", "a constructor for the tag",
    # batches 135-137: PaddleX's pipeline part its config left off
    ", but the model",
    # session 25: the same checks' other refusals
    "models have already been initialized, please set use_", "results were found",
    # live1: a rank in its backward pass when a collective's exception ended it
    "While running Node (",
    # built1: 1.x's gRPC server that cannot bind
    "can't bind to address:", "failed, selected port: 0", "started_port: ",
    # built4: a collective with no communicator
    "Communicator of ring id",
) + RUNNER_TRIGGERS + LAUNCH_TRIGGERS
# A log with no rank from its name is also scanned for the lines where a worker states its own rank
# (selfrank.py); a workerlog.N is not: each such literal costs a hit per worker log (measured on the
# 1024-rank bench: the two glog device lines added 2048 hits, +12 % of diagnose's CPU time).
WITH_SELF_RANK = TRIGGERS + SELF_RANK_TRIGGERS
