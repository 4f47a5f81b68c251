"""Signatures: a process's death by a signal, as whoever saw it reports it (the shells, CPython's
faulthandler, libstdc++'s terminate handler, glibc's heap checks, IDE consoles, Jupyter; Windows' are :mod:`.windows`),
and a loader failing to load or initialise a native library the process needs (Android's linker,
glibc's for a versioned system library, Paddle-Lite's for a device's HAL library), or an executable it runs
that is not there.
None of them says why the process died; a row here decides only when nothing above it in the
process's output names a cause (refine/crash.py reads the error printed before a crash)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

# What precedes the shells' report of a child's death: bash "<script>: line N: <pid> ", zsh's job line
# "[job]  + <pid> " (the current-job mark optional, and the job spec left out when a paste keeps only "<pid> ")
# or "zsh: " (zsh prints its own lowercase signal names), or bash's notice of a background job that ended
# ("[1]+  Killed  nohup python train.py &": no pid).
_SHELL = r"^(?:\S+: line \d+:\s+\d+\s+|(?:\[\d+\]\s+(?:[+-]\s+)?)?\d+\s+|zsh: |\[\d+\][+-]?\s+)?"

SIGNALS = (
    _sig("shell_killed", r"^(?:\S+: line \d+:\s+\d+\s+|\[\d+\][+-]?\s+)?(?:Killed|已杀死|強制終了|Getötet|Убито)(?:\s+\S.*)?$", "cause",
         CauseId.host_oom_killed, 75, "run.sh: line 3: 12345 Killed                  python train.py",
         title="the shell reports the process was killed (SIGKILL; the kernel OOM killer is the usual sender)",
         source="bash jobs.c / sh: a foreground job ended by SIGKILL is reported as 'Killed' (strsignal(SIGKILL)), "
                "in the locale's words where glibc translates it (zh_CN 已杀死, ja 強制終了, de Getötet, ru Убито: "
                "PaddleOCR#528)"),
    # GCC's driver reports a compiler pass that a signal ended; while building Paddle or a custom op with many jobs
    # (make -jN), SIGKILL is the kernel's OOM killer (each cc1plus of the Eigen/CUDA kernels takes GBs).
    _sig("compiler_killed", r"(?:(?:fatal|internal compiler) error: |(?:致命错误|编译器内部错误|内部编译器错误) ?[:：] ?)"
         r"(?:Killed|已杀死|強制終了|Getötet|Убито)(?: signal terminated program | ?[(（](?:program|程序) )(?P<prog>[\w+.-]+)", "cause",
         CauseId.host_oom_killed, 75, "c++: fatal error: Killed signal terminated program cc1plus",
         title="the compiler ({prog}) was killed (SIGKILL) during the build: the machine ran out of memory; build "
               "with fewer parallel jobs (make -j2) or add memory/swap",
         source="GCC gcc/gcc.c execute (GCC >= 9: fatal_error (\"%s signal terminated program %s\", strsignal "
                "(sig), prog); earlier: internal_error_no_backtrace (\"%s (program %s)\", ...) as \"internal compiler "
                "error: Killed (program cc1plus)\")", most="medium"),
    # The Linux kernel logs a user process's fatal fault (dmesg, journalctl -k): the signal is what ended it.
    _sig("kernel_user_fault", r"\[\d+\]: segfault at [0-9a-f]+ ip |\[\d+\] (?:trap (?:invalid opcode|divide error)|"
         r"general protection(?: fault)?) ip:", "cause", CauseId.segfault, 85,
         "traps: python3.8[66885] trap invalid opcode ip:73c69f6f9a77 sp:7ffe36ecd478 error:0 in libpaddle.so[73c6+d79a000]",
         title="the kernel logged a fatal fault of the process (a segfault, an illegal instruction or a division by "
               "zero in native code)",
         source="Linux kernel arch/x86/mm/fault.c show_signal_msg (\"%s%s[%d]: segfault at %lx ip %px sp %px error %lx\"), "
                "arch/x86/kernel/traps.c do_trap/show_signal (\"%s[%d] trap %s ip:%lx sp:%lx error:%lx\"), "
                "do_general_protection (\"%s[%d] general protection fault ip:%lx ...\")"),
    # ONNX Runtime (the runtime of Paddle2ONNX's exports, PaddleOCR's and FastDeploy's ORT backends) raises its status
    # as "[ONNXRuntimeError] : <code> : <NAME> : <message>": the name says the kind, the message the object.
    _sig("ort_model_file_missing", r"\[ONNXRuntimeError\] : 3 : NO_SUCHFILE : (?P<msg>.*)", "cause",
         CauseId.file_not_found, 90, "onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : "
         "NO_SUCHFILE : Load model from ./inference/det.onnx failed:Load model ./inference/det.onnx failed. File doesn't "
         "exist", title="ONNX Runtime found no file to load: {msg}",
         source="ONNX Runtime 1.x onnxruntime/python/onnxruntime_pybind_exceptions.cc ([ONNXRuntimeError] : %d : %s : "
                "%s), include/onnxruntime/core/common/status.h (NO_SUCHFILE = 3)"),
    # A file that does not parse at all (INVALID_PROTOBUF) is no ONNX model: tools/converters.py ort_model_unparsed.
    _sig("ort_model_newer", r"Unsupported model IR version: (?P<ir>\d+), max supported IR version: (?P<max>\d+)", "cause",
         CauseId.dependency_version_mismatch, 75,
         "[ONNXRuntimeError] : 1 : FAIL : Load model from model.onnx failed:Unsupported model IR version: 9, max "
         "supported IR version: 8",
         title="the installed ONNX Runtime is older than the onnx that wrote the model",
         source="ONNX Runtime 1.x onnxruntime/core/graph/model.cc Model::Model (\"Unsupported model IR version: \", "
                "ir_version, \", max supported IR version: \", ...)", most="medium"),
    # TensorRT (Paddle Inference's TRT subgraphs) logs a failed CUDA call by cudaGetErrorString's text.
    _sig("trt_cuda_out_of_memory", r"Error Code \d+: Cuda Runtime \(out of memory\)", "cause", CauseId.gpu_oom, 90,
         "[TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)",
         title="TensorRT could not allocate GPU memory (its builder or engine)",
         source="TensorRT 8.x-10.x logger (Error Code %d: Cuda Runtime (%s), the %s being CUDA's cudaGetErrorString: "
                "out of memory = cudaErrorMemoryAllocation), as Paddle Inference's TRT engine logs it"),
    # .NET on Linux and macOS (and loaders built on NativeLibrary, as PaddleSharp's) words the same failure
    # "Unable to load shared library": dlopen found no file, or one the library depends on is missing.
    _sig("dotnet_shared_library_not_loaded", r"Unable to load shared library ['\"](?P<lib>(?!(?:lib)?(?:cudnn|cublas|"
         r"cudart|cufft|curand|cusolver|cusparse|nvrtc|nccl))[^'\"]+)['\"]", "cause", CauseId.file_not_found, 80,
         "System.DllNotFoundException: Unable to load shared library 'paddle_inference_c' or one of its dependencies.",
         title="the native library {lib}, or a library it depends on, could not be loaded (not where the loader "
               "looks)",
         source=".NET runtime System.DllNotFoundException on Unix, when the C library's dlopen fails (Unable to load "
                "shared library '%s' or one of its dependencies. In order to help diagnose loading problems, consider "
                "setting the LD_DEBUG environment variable: %s); PaddleSharp's loader listing each dependency (Unable to load shared library '%s', "
                "dependencies load status: ... FAIL) (PaddleSharp#156, #168)"),
    # Docker (or any runner) told to execute an option: `docker run IMAGE -p 80:80` takes everything after the image as
    # the container's command, so "-p" is looked up as a program. The command line's order, not a missing file.
    _sig("option_run_as_command", r"exec: \\?\"(?P<opt>-[^\"\\\s]{1,40})\\?\": executable file not found", "cause",
         CauseId.config_error, 85, 'starting container process caused "exec: \\"-p\\": executable file not found in $PATH": '
         "unknown.",
         title="the option {opt} was run as the command: it stands after the image (or program) name, where the "
               "command's own arguments go (put the runner's options before the image)",
         source="Go os/exec LookPath ('exec: %q: executable file not found in $PATH'), reached through runc's "
                "container_linux.go (starting container process caused %q) when docker run's arguments after the "
                "image name become the container's command (Docker run reference: docker run [OPTIONS] IMAGE "
                "[COMMAND] [ARG...])"),
    # A program that runs an engine binary (Go's os/exec, wrappers around PaddleOCR-json) cannot find it.
    _sig("executable_not_found", r"\bexecutable file (?:(?P<path>\S+) )?not found\b", "cause", CauseId.file_not_found,
         75, 'exec: "PaddleOCR-json.exe": executable file not found in %PATH%',
         title="an executable the program runs ({path}) is not where it looks",
         source="Go os/exec LookPath (ErrNotFound: executable file not found in $PATH, %PATH% on Windows, as "
                "'exec: %q: %v', when stat finds no such file: the C library's ENOENT); engine wrappers' own check (executable file %s not found) (suifei/ocr-server#4)"),
    # .NET raises AccessViolationException (and CPython's ctypes an OSError) when native code it called read
    # or wrote memory it does not own: Windows' access violation, a native crash as 0xC0000005's.
    _sig("access_violation_exception", r"System\.AccessViolationException|Attempted to read or write protected "
         r"memory|尝试读取或写入受保护的内存|exception: access violation (?:reading|writing) 0x|^Windows fatal exception: "
         r"access violation\b|\bAccess violation (?:reading|writing|executing) location 0x|\bEXCEPTION_ACCESS_VIOLATION\b|"
         r"referenced memory at 0x[0-9a-fA-F]+\. The memory could not be (?:read|written)",
         "cause",
         CauseId.segfault, 85,
         "Unhandled exception. System.AccessViolationException: Attempted to read or write protected memory. This is "
         "often an indication that other memory is corrupt.",
         title="native code read or wrote memory it does not own (an access violation): a native crash",
         source=".NET System.AccessViolationException (Attempted to read or write protected memory. This is often an "
                "indication that other memory is corrupt.; zh-CN 尝试读取或写入受保护的内存。这通常指示其他内存已损坏。) "
                "(PaddleSharp#96); CPython Modules/_ctypes/callproc.c SetException (exception: access violation "
                "reading/writing %p); CPython Modules/faulthandler.c on Windows (Windows fatal exception: access violation); "
                "the MSVC debugger's first-chance report (Access violation reading location 0x...); the JVM's "
                "hs_err header (EXCEPTION_ACCESS_VIOLATION (0xc0000005)); Windows' application error dialog (The instruction "
                "at 0x%p referenced memory at 0x%p. The memory could not be %s.)"),
    # The shell's report of a child it ran that SIGSEGV ended (the same report as shell_killed's).
    _sig("shell_segfault", _SHELL + r"(?:Segmentation|segmentation) fault\b", "cause",
         CauseId.segfault, 90,
         "./train.sh: line 207: 10558 Segmentation fault      ./paddle_trainer --config=conf/trainer_config.conf",
         title="the shell reports the process died of a segmentation fault (SIGSEGV)",
         source="bash jobs.c / sh: a job ended by SIGSEGV is reported as '<script>: line N: <pid> Segmentation "
                "fault <command>' (strsignal(SIGSEGV)), or 'Segmentation fault (core dumped)' in the foreground; zsh "
                "signames: '[job]  pid segmentation fault (core dumped)  <command>', or 'zsh: segmentation fault  "
                "<command>' for a foreground job (PPOCRLabel#196)"),
    # The shell's report of a child that SIGILL ended (an instruction this CPU lacks: an AVX build on a CPU
    # without AVX): bash prints strsignal's "Illegal instruction", zsh its own "illegal hardware instruction"
    # after the job number and pid. A native crash, as SIGSEGV's.
    _sig("shell_sigill", _SHELL + r"(?:Illegal instruction|illegal hardware instruction)\b", "cause",
         CauseId.segfault, 88, "Illegal instruction (core dumped)",
         title="the process was killed by SIGILL: it ran an instruction this CPU does not have (an AVX build on a "
               "CPU without AVX, or a binary built for a newer CPU)",
         source="bash 5 siglist.c / strsignal(SIGILL) (\"Illegal instruction\", with \" (core dumped)\" from "
                "jobs.c), zsh signames (\"illegal hardware instruction\", after [job] pid or 'zsh: ' for a foreground "
                "job: traffic_llm#42, an x86 build under Rosetta on Apple silicon); CPython's import of an "
                "extension built with AVX on a CPU without it"),
    # Jupyter's notice that the kernel process is gone: it died of a signal (a native crash, or a kill by
    # the OOM killer); the notebook does not say which. The weakest native-crash reading.
    _sig("jupyter_kernel_died", r"The kernel appears to have died\. It will restart automatically|KernelRestarter: "
         r"restarting kernel \(\d+/\d+\)", "cause",
         CauseId.segfault, 40, "The kernel appears to have died. It will restart automatically.",
         title="the Jupyter kernel process died (a native crash or a kill; the notebook does not say which)",
         source="Jupyter notebook static/notebook/js/kernelselector / services kernel.js (\"The kernel appears to "
                "have died. It will restart automatically.\"); jupyter_client restarter.py (the server's log: "
                "\"KernelRestarter: restarting kernel (%d/%d)\")"),
    # The shell's report of a child that SIGABRT ended ("Aborted", zsh's "abort"), and libstdc++'s verbose
    # terminate handler before it: a native abort with nothing more specific above it (as sigabrt's).
    _sig("shell_sigabrt", r"^Aborted(?: \(core dumped\))?\s*$|^\S+: line \d+:\s+\d+\s+Aborted\b|"
         r"^(?:\[\d+\]\s+\d+\s+|zsh: )abort\b|^Abort trap: 6\s*$", "cause", CauseId.segfault, 45, "Aborted (core dumped)",
         title="the process was ended by SIGABRT (a native abort: a failed check or an uncaught C++ exception)",
         source="bash 5 siglist.c / strsignal(SIGABRT) (\"Aborted\", with \" (core dumped)\" from jobs.c, after "
                "'<script>: line N: <pid>' for a script's child), zsh signames (\"abort\", after [job] pid or 'zsh: '); macOS libc's strsignal (\"Abort trap: 6\", as bash there prints it)"),
    # Not for gloo's and Paddle's own exception types: their what() line is read by its own rows (a gloo
    # TIMEOUT is a victim's line, Paddle's errors carry their summary); nor yaml-cpp's with rows (inference.py).
    _sig("cpp_terminate", r"terminate called (?:after throwing an instance of '(?P<type>(?!gloo::|paddle::|common::|pir::|YAML::(?:BadFile|"
         r"InvalidNode|ParserException|(?:Typed)?BadConversion|(?:Typed)?KeyNotFound|BadSubscript|InvalidScalar|"
         r"NonUniqueMapKey)\b)[^']+)'|without an active "
         r"exception|recursively)|terminating with uncaught exception of type (?P<type2>(?!gloo::|paddle::|common::|pir::|"
         r"YAML::(?:BadFile|InvalidNode|ParserException|(?:Typed)?BadConversion|(?:Typed)?KeyNotFound|BadSubscript|"
         r"InvalidScalar|NonUniqueMapKey)\b)\S+?)(?=:\s|$)",
         "cause", CauseId.segfault, 48, "terminate called after throwing an instance of 'std::runtime_error'",
         title="an uncaught C++ exception ({type}{type2}) aborted the process",
         source="libstdc++ vterminate.cc __verbose_terminate_handler (\"terminate called after throwing an "
                "instance of '%s'\", \"terminate called without an active exception\", \"terminate called "
                "recursively\"), then abort(); LLVM libc++abi cxa_default_handlers.cpp (macOS: \"libc++abi: "
                "terminating with uncaught exception of type %s: %s\")"),
    _sig("zsh_killed", r"^(?:zsh: |\[\d+\]\s+\d+\s+)killed\s", "cause", CauseId.host_oom_killed, 75,
         "zsh: killed     python train.py",
         title="the shell reports the process was killed (SIGKILL; the kernel OOM killer is the usual sender)",
         source="zsh Src/signames2.awk / signals.c sigmsg (\"killed\" for SIGKILL, after 'zsh: ' or the job "
                "number and pid), as bash jobs.c reports it"),
    _sig("shell_sigfpe", _SHELL + r"(?:Floating point exception|floating point exception)\b", "cause",
         CauseId.segfault, 88, "Floating point exception (core dumped)",
         title="the process died of SIGFPE (an arithmetic fault in native code: an integer division by zero)",
         source="bash 5 siglist.c / strsignal(SIGFPE) (\"Floating point exception\", \" (core dumped)\" from "
                "jobs.c); zsh signames (\"floating point exception\")"),
    _sig("shell_sigbus", _SHELL + r"(?:Bus error|bus error)\b", "cause", CauseId.segfault, 48,
         "Bus error (core dumped)",
         title="the process died of SIGBUS (a bus error: in a Paddle job most often shared memory, /dev/shm, "
               "exhausted by DataLoader workers)",
         source="bash 5 siglist.c / strsignal(SIGBUS) (\"Bus error\", \" (core dumped)\" from jobs.c); zsh signames "
                "(\"bus error\")"),
    _sig("shell_sigtrap", _SHELL + r"(?:Trace/breakpoint trap|trace trap)\b", "cause", CauseId.segfault, 45,
         "Trace/breakpoint trap (core dumped)",
         title="the process died of SIGTRAP (a native trap: a failed assertion in a library built to trap)",
         source="bash 5 siglist.c / strsignal(SIGTRAP) (\"Trace/breakpoint trap\"); zsh signames (\"trace trap\")"),
    # CPython's faulthandler (PYTHONFAULTHANDLER, -X faulthandler, paddle-doctor's guards) names the signal.
    _sig("faulthandler_segv", r"^Fatal Python error: Segmentation fault\b", "cause", CauseId.segfault, 90,
         "Fatal Python error: Segmentation fault", title="segmentation fault (CPython's faulthandler)",
         source="CPython Modules/faulthandler.c faulthandler_handlers (\"Segmentation fault\" for SIGSEGV), "
                "printed as 'Fatal Python error: %s'"),
    _sig("faulthandler_fpe_ill", r"^Fatal Python error: (?P<sig>Floating point exception|Illegal instruction)\b",
         "cause", CauseId.segfault, 88, "Fatal Python error: Illegal instruction",
         title="{sig} (CPython's faulthandler): a native crash",
         source="CPython Modules/faulthandler.c faulthandler_handlers (SIGFPE \"Floating point exception\", SIGILL "
                "\"Illegal instruction\")"),
    _sig("faulthandler_bus", r"^Fatal Python error: Bus error\b", "cause", CauseId.segfault, 48,
         "Fatal Python error: Bus error",
         title="the process died of SIGBUS (CPython's faulthandler; most often /dev/shm exhausted)",
         source="CPython Modules/faulthandler.c faulthandler_handlers (SIGBUS \"Bus error\")"),
    _sig("faulthandler_abort", r"^Fatal Python error: Aborted\b", "cause", CauseId.segfault, 45,
         "Fatal Python error: Aborted", title="the process aborted (SIGABRT, CPython's faulthandler)",
         source="CPython Modules/faulthandler.c faulthandler_handlers (SIGABRT \"Aborted\")"),
    # glibc's heap and stack checks abort the process on memory corruption in native code.
    _sig("glibc_heap_corruption", r"double free or corruption|free\(\): invalid (?:pointer|size|next size)|"
         r"malloc\(\): (?:corrupted|memory corruption|unaligned|invalid)|munmap_chunk\(\): invalid pointer|"
         r"corrupted size vs\. prev_size|corrupted double-linked list|realloc\(\): invalid|"
         r"\*\*\* stack smashing detected \*\*\*", "cause", CauseId.segfault, 48,
         "double free or corruption (!prev)",
         title="glibc found native memory corrupted and aborted the process (a bug in native code: a custom op, "
               "conflicting libraries)",
         source="C library glibc malloc/malloc.c malloc_printerr (\"double free or corruption (!prev)\", \"free(): "
                "invalid pointer\", \"malloc(): corrupted top size\", \"munmap_chunk(): invalid pointer\", ...; before "
                "2.26 as '*** Error in `%s': %s: 0x%s ***'), debug/stack_chk_fail.c (\"*** stack smashing detected "
                "***\")"),
    # JetBrains' run console: a process a signal ended.
    _sig("ide_sigkill", r"exit code 137 \(interrupted by signal 9: SIGKILL\)", "cause", CauseId.host_oom_killed, 75,
         "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)",
         title="the process was killed (SIGKILL; the kernel OOM killer is the usual sender)",
         source="C library strsignal(SIGKILL) in JetBrains' run console (Process finished with exit code %d "
                "(interrupted by signal %d: %s))"),
    # The same console for a process a native fault ended: the exit code is 128 + the signal's number.
    _sig("ide_native_signal", r"exit code 1(?:32|36|39) \(interrupted by signal (?:4|8|11): (?P<sig>SIGILL|SIGFPE|"
         r"SIGSEGV)\)", "cause", CauseId.segfault, 88,
         "Process finished with exit code 132 (interrupted by signal 4: SIGILL)",
         title="the process was ended by {sig} (a native crash: an instruction the CPU lacks, an arithmetic fault "
               "or a segmentation fault)",
         source="JetBrains' run console (Process finished with exit code %d (interrupted by signal %d: %s)), the "
                "signal's name from the C library's signal.h (SIGILL 4, SIGFPE 8, SIGSEGV 11; a shell's exit status 128 + n) "
                "(PaddleSpeech#60)"),
    # A signal's exit status as the tools that ran the process report it, without the signal's name: a shell's,
    # docker's and an IDE's 128 + n, Kubernetes' "Exit Code:", Python's subprocess (-n, or its Signals enum).
    _sig("exit_status_native_signal", r"(?:exit(?:ed)? (?:with )?(?:code|status)|Exit Code:|Exited \(|non-zero exit "
         r"status)\s*(?P<code>139|136|132|-11|-8|-4)\b(?! \(interrupted)|died with <Signals\.(?P<sig>SIGSEGV|SIGILL|SIGFPE|"
         r"SIGBUS): \d+>|(?:exited|killed|terminated) (?:with|by) signal (?P<num>11|4|8)\b", "cause", CauseId.segfault, 70,
         "Process finished with exit code 139",
         title="the process ended by a native crash's signal (exit status {code}{sig}{num}: 128 + SIGSEGV 11, SIGFPE 8 "
               "or SIGILL 4)",
         source="bash and sh (a child's exit status 128 + n for signal n), docker ps (Exited (139)), Kubernetes "
                "(Last State: Terminated, Exit Code: 139), JetBrains' run console (Process finished with exit code "
                "%d), CPython subprocess (returncode -n; CalledProcessError: died with <Signals.SIGSEGV: 11>)"),
    _sig("exit_status_killed", r"(?:exit(?:ed)? (?:with )?(?:code|status)|Exit Code:|Exited \(|non-zero exit status)"
         r"\s*(?:137|-9)\b(?! \(interrupted)|died with <Signals\.SIGKILL: 9>|\bOOMKilled\b(?!\"?:\s*false)|"
         r"(?:exited|killed|terminated) (?:with|by) signal 9\b", "cause", CauseId.host_oom_killed, 70,
         "      Reason:       OOMKilled",
         title="the process was killed (SIGKILL, exit status 137; the kernel OOM killer is the usual sender)",
         source="bash and sh (exit status 128 + 9), docker ps (Exited (137)), docker inspect (\"OOMKilled\": true), "
                "Kubernetes (Last State: Terminated, Reason: OOMKilled, Exit Code: 137; kubectl get pods' STATUS "
                "OOMKilled), CPython subprocess (returncode -9; died with <Signals.SIGKILL: 9>)"),
    # The kubelet evicts a pod when its node runs short of memory: the pod is killed as the OOM killer would.
    _sig("k8s_evicted_memory", r"The node was low on resource: memory\b", "cause", CauseId.host_oom_killed, 85,
         "Message: The node was low on resource: memory. Container trainer was using 30Gi, which exceeds its request "
         "of 16Gi.",
         title="Kubernetes evicted the pod: its node ran short of memory",
         source="Kubernetes pkg/kubelet/eviction/helpers.go (nodeLowMessageFmt = \"The node was low on resource: %v. \", "
                "containerMessageFmt \"Container %s was using %s, which exceeds its request of %s. \")"),
    # A container started with --gpus where the NVIDIA container toolkit is missing, or cannot reach a driver.
    _sig("container_gpu_runtime_missing", r"could not select device driver \S* with capabilities: \[\[gpu\]\]|"
         r"nvidia-container-cli: initialization error(?!.*version mismatch)|(?:OCI runtime create failed|error modifying OCI "
         r"spec)[^\n]{0,300}?failed to locate NVIDIA Container Runtime Hook", "cause", CauseId.device_not_found, 85,
         "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].",
         title="the container was started without a usable GPU: the NVIDIA container toolkit is missing here, or finds "
               "no driver",
         source="Docker daemon/devices.go (could not select device driver %q with capabilities: %v); NVIDIA "
                "libnvidia-container nvc.c (nvidia-container-cli: initialization error: %s); nvidia-container-toolkit "
                "1.x runtime modifier (\"failed to locate NVIDIA Container Runtime Hook: %v\", the hook not on the path)"),
    # NVML finds the kernel module of one driver release and the user-space library of another: a driver upgraded
    # without reloading its module (until a reboot, no process can use the GPU).
    _sig("nvml_driver_library_mismatch", r"(?:Failed to initialize NVML|nvml error): [Dd]river/library version "
         r"mismatch", "cause",
         CauseId.cuda_cudnn_mismatch, 80, "Failed to initialize NVML: Driver/library version mismatch",
         title="the NVIDIA driver's kernel module and its library are of two releases (upgraded, not yet reloaded)",
         source="NVIDIA NVML nvmlInit (NVML_ERROR_LIB_RM_VERSION_MISMATCH: nvmlErrorString \"Driver/library version "
                "mismatch\"), as nvidia-smi prints it (Failed to initialize NVML: %s) and libnvidia-container "
                "(nvidia-container-cli: initialization error: nvml error: %s)", most="medium"),
    # Android's C library logs a native crash of an app (a Paddle-Lite demo, a mobile OCR app) in logcat before
    # debuggerd dumps it; the signal's name says which fault it was. SIGABRT (6) is left out: it follows an
    # abort (a failed CHECK, an uncaught C++ exception) whose own line says more.
    _sig("android_fatal_signal", r"\bFatal signal (?:4|8|11) \((?P<sig>SIGILL|SIGFPE|SIGSEGV)\)", "cause",
         CauseId.segfault, 88, "A/libc: Fatal signal 4 (SIGILL), code 1 (ILL_ILLOPC), fault addr 0x792adca3c4 in tid "
         "17318 (o.ssd_detection), pid 17318 (o.ssd_detection)",
         title="the Android process was ended by {sig} (a native crash: an instruction the CPU lacks, an arithmetic "
               "fault or a segmentation fault)",
         source="Android bionic libc debuggerd_handler.cpp debuggerd_signal_handler: async_safe_format_log("
                "ANDROID_LOG_FATAL, \"libc\", \"Fatal signal %d (%s), code %d (%s%s)...\") with the signal's "
                "name from signal.h (SIGILL 4, SIGFPE 8, SIGSEGV 11)"),
    # Android's dynamic linker (bionic) when a program, or an app's JNI library, needs a shared library that is not
    # on the device where it looks (not pushed with the program, not in the APK's jniLibs for this ABI).
    # Android's linker found the library but not a symbol it uses: the device's system libraries are older than the
    # ones it was built against (an API level the device lacks), or another build of a library it links came first.
    _sig("android_symbol_missing", r"cannot locate symbol \"(?P<sym>[^\"]{1,200})\" referenced by \"(?P<lib>[^\"]{1,200})\"",
         "cause", CauseId.dependency_version_mismatch, 80, "dlopen failed: could not load library \"libhiai.so\" needed by "
         "\"libpaddle_lite_jni.so\"; caused by cannot locate symbol \"__register_atfork\" referenced by \"libhiai.so\"...",
         title="{lib} uses {sym}, which the device's libraries lack: it was built for a newer Android (API level) or "
               "against another build of a library it links", most="medium",
         source="Android bionic linker/linker_relocate.cpp / linker.cpp (DL_ERR(\"cannot locate symbol \\\"%s\\\" "
                "referenced by \\\"%s\\\"...\", ...)), shown in dlopen's error and Java's UnsatisfiedLinkError"),
    # An iOS app's crash report: the Mach exception of a bad memory access, or the reporter's reading of its address.
    _sig("ios_bad_access", r"\bEXC_BAD_ACCESS\b|Attempted to dereference (?:garbage|null)\b", "cause", CauseId.segfault, 80,
         "Caused by:Attempted to dereference garbage pointer 0x10.",
         title="the iOS app died of a bad memory access (a native crash)", most="medium",
         source="Apple crash reports (Exception Type: EXC_BAD_ACCESS (SIGSEGV|SIGBUS), Mach exception EXC_BAD_ACCESS); "
                "KSCrash's crash doctor, as Bugsnag's and Sentry's iOS reporters ship it (\"Attempted to dereference "
                "null pointer.\", \"Attempted to dereference garbage pointer %p.\")"),
    # Java's System.load of a path where no file is (a library a wrapper was to download or unpack first).
    _sig("java_library_path_missing", r"UnsatisfiedLinkError: Can't load library: (?P<path>\S{1,300})", "cause",
         CauseId.file_not_found, 80, "java.lang.UnsatisfiedLinkError: Can't load library: C:\\Users\\a\\.djl.ai\\paddle\\"
         "paddle_fluid.dll", title="the JVM found no library at {path}", most="medium",
         source="OpenJDK java/lang/ClassLoader.java loadLibrary (throw new UnsatisfiedLinkError(\"Can't load library: \" "
                "+ file) when the file at an absolute path does not exist; a file whose dependencies are missing says "
                "\"Can't find dependent libraries\")"),
    # The JNI library loaded, but lacks the native method a Java class declares: the jar and the .so come from
    # different releases (Paddle Lite's PaddlePredictor.jar beside another release's libpaddle_lite_jni.so).
    _sig("jni_method_missing", r"No implementation found for [^\n]{0,200}?\b(?P<cls>com\.baidu\.paddle\.[\w.$]{1,200})\.\w+\(",
         "cause", CauseId.paddle_api_mismatch, 75,
         "java.lang.UnsatisfiedLinkError: No implementation found for boolean com.baidu.paddle.lite.Tensor.nativeSetData("
         "long[]) (tried Java_com_baidu_paddle_lite_Tensor_nativeSetData and ...)",
         title="no native method that {cls} declares was found: the jar and the JNI library come from different Paddle "
               "releases (use the .jar and .so of one package), or that library was never loaded", most="medium",
         source="Android art/runtime/jni/java_vm_ext.cc FindNativeMethod (\"No implementation found for %s (tried %s "
                "and %s)\", thrown as UnsatisfiedLinkError); Paddle-Lite lite/api/android/jni (PaddlePredictor.jar, "
                "libpaddle_lite_jni.so)"),
    # adb given a device serial that is not connected (a command copied with another device's serial).
    _sig("adb_device_not_found", r"(?<![\w-])(?:error|adb): device '(?P<serial>[^']{1,80})' not found", "cause", CauseId.config_error, 75,
         "error: device 'a133d8abb26137b2' not found",
         title="adb has no connected device {serial}: the command names another device (adb devices lists this one's)",
         most="medium", source="Android platform/packages/modules/adb transport.cpp acquire_one_transport (\"device '%s' "
                               "not found\"), printed by the adb client as error: %s"),
    _sig("android_library_not_found", r"library \"(?P<lib>[^\"]+)\" not found|UnsatisfiedLinkError: no (?P<jni>\S+) in "
         r"java\.library\.path", "cause", CauseId.file_not_found, 85,
         "CANNOT LINK EXECUTABLE \"./mobilenetv1_light_api\": library \"libc++_shared.so\" not found",
         title="the shared library {lib}{jni} is not where the linker (Android's, or the JVM's library path) looks",
         source="Android bionic linker/linker.cpp load_library (DL_ERR(\"library \\\"%s\\\" not found\", name)), "
                "shown as CANNOT LINK EXECUTABLE \"%s\": %s (linker_main.cpp) or as dlopen failed: %s (Java's "
                "UnsatisfiedLinkError); OpenJDK java/lang/ClassLoader.loadLibrary (UnsatisfiedLinkError(\"no \" + "
                "name + \" in java.library.path\"), a JNI library System.loadLibrary cannot find)"),
    # Java's System.loadLibrary on Android looks for the app's JNI library in the APK's native-library folder of
    # the device's ABI (lib/arm64, lib/x86, ...): none there (not packed for that ABI, an emulator's x86) is this.
    _sig("android_jni_library_missing", r"couldn't find \"(?P<lib>lib[\w.+-]+\.so)\"", "cause", CauseId.file_not_found,
         85, "java.lang.UnsatisfiedLinkError: dalvik.system.PathClassLoader[DexPathList[[zip file \"/data/app/com.demo-1/"
         "base.apk\"],nativeLibraryDirectories=[/data/app/com.demo-1/lib/x86, /system/lib]]] couldn't find "
         "\"libpaddle_lite_jni.so\"",
         title="the app's JNI library {lib} is not in the APK's native-library folder for this device's ABI",
         source="Android libcore ojluni java/lang/Runtime.java loadLibrary0 (throw new UnsatisfiedLinkError(loader + "
                "\" couldn't find \\\"\" + System.mapLibraryName(libname) + \"\\\"\"))"),
    # Paddle-Lite's Android demos (PaddleOCR's among them) wrap System.loadLibrary's failure in their own words.
    _sig("lite_demo_library_unloaded", r"Load (?P<lib>lib[\w.+-]+\.so) failed, please check it exists in apk file",
         "cause", CauseId.file_not_found, 80,
         "java.lang.RuntimeException: Load libNative.so failed, please check it exists in apk file.",
         title="the demo's native library {lib} could not be loaded from the APK (not packed for this ABI, or missing)",
         source="Android Paddle-Lite demos' OCRPredictorNative.loadLibrary (PaddleOCR deploy/android_demo and "
                "Paddle-Lite-Demo: catch (Throwable e) { throw new RuntimeException(\"Load libNative.so failed, please "
                "check it exists in apk file.\", e); } around System.loadLibrary(\"Native\"))"),
    # A versioned soname names the ABI version the binary was linked against (OpenSSL 1.0.2 is libcrypto.so.10
    # on RHEL/CentOS 7, 1.1 libcrypto.so.1.1, 3.x libcrypto.so.3): when the loader finds none, the system has
    # another version of the library, and a binary built on another distribution needs the one it was built with.
    _sig("system_lib_version_missing", r"(?P<lib>lib(?:crypto|ssl)\.so\.\d[\d.]*|libffi\.so\.\d+|libgfortran\.so\."
         r"\d+): cannot open shared object file", "cause", CauseId.dependency_version_mismatch, 80,
         "error while loading shared libraries: libcrypto.so.10: cannot open shared object file: No such file or "
         "directory", title="the system has another version of {lib} than the binary was built against",
         source="glibc elf/dl-load.c (\"cannot open shared object file\"), for a soname that carries its library's "
                "version: OpenSSL 1.0.2 libcrypto.so.10/libssl.so.10 (RHEL/CentOS 7), 1.1 .so.1.1, 3.x .so.3; "
                "libffi.so.6/.7/.8; libgfortran.so.3/.4/.5 (Paddle Serving's CentOS 7 builds: Serving#583)"),
    # Paddle-Lite's NNAdapter dlopens the device's HAL library (Huawei Ascend NPU, Kunlunxin XTCL, Rockchip NPU,
    # ...) built against the vendor's SDK; dlerror says why it failed: a library of the SDK is missing, or a
    # symbol is undefined (the HAL library was built against another SDK version than the one installed).
    # dlerror's tail says which: a library the loader cannot find (the HAL itself, or the SDK's runtime it links, not
    # on the library path) is a file not found, as the corpus labels missing shared libraries (3 of 3 logs; CUDA's,
    # TensorRT's and NCCL's have their own causes); a symbol the HAL needs and the SDK lacks is the SDK's version (the
    # row after).
    _sig("nnadapter_hal_library_missing", r"Failed to load the nnadapter device HAL library for '(?P<device>\w+)' from "
         r"[^,\s]{1,300}, (?P<lib>(?![^:\s]*(?:cudnn|cublas|cudart|nvinfer|nccl|libcuda\.))[^:\s]{1,300}): cannot open "
         r"shared object file", "cause", CauseId.file_not_found, 90,
         "Failed to load the nnadapter device HAL library for 'huawei_ascend_npu' from libhuawei_ascend_npu.so, "
         "libascendcl.so: cannot open shared object file: No such file or directory",
         title="Paddle-Lite cannot load the {device} HAL library: the loader does not find {lib} (put the HAL's and the "
               "device SDK's library folders on LD_LIBRARY_PATH, or copy the whole lib folder of the package)",
         most="medium",
         source="Paddle-Lite 2.10-2.13 lite/backends/nnadapter/nnadapter/src/runtime/device.cc Find (dlopen(path, "
                "RTLD_NOW); NNADAPTER_LOG(FATAL) << \"Failed to load the nnadapter device HAL library for '\" << name "
                "<< \"' from \" << path << \", \" << dlerror()); glibc dlerror (\"%s: cannot open shared object file\")"),
    _sig("nnadapter_hal_load_failed", r"Failed to load the nnadapter device HAL library for '(?P<device>\w+)'", "cause",
         CauseId.cuda_cudnn_mismatch, 90,
         "Failed to load the nnadapter device HAL library for 'huawei_ascend_npu' from libhuawei_ascend_npu.so, "
         "libhuawei_ascend_npu.so: undefined symbol: _ZN2ge8Operator7SetAttrEPKcb",
         title="Paddle-Lite cannot load the {device} HAL library: a library of the device's SDK it needs is missing "
               "or of another version",
         source="Paddle-Lite 2.10-2.13 lite/backends/nnadapter/nnadapter/src/runtime/device.cc Find (dlopen(path, "
                "RTLD_NOW); NNADAPTER_LOG(FATAL) << \"Failed to load the nnadapter device HAL library for '\" << name "
                "<< \"' from \" << path << \", \" << dlerror())"),
)
