"""Signatures: Windows' own reports of a native failure: the status a crashed process exits with (as consoles and the
event log print it), its debugger's report of a native fault, and its loader failing to find, load or start a DLL a
process or an extension module needs (in the en-US and zh-CN wordings), and Visual C++'s build errors (out of memory, an
input file it cannot open, objects of two runtime settings).

None of the crash statuses says why the process died; a row here decides only when nothing above it in the process's
output names a cause (refine/crash.py reads the error printed before a crash)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..advice import LIBRARY_CONFIRM, LIBRARY_FIX

# Visual Studio's debugger output and the statuses its reports name (Windows ntstatus.h).
_FAULTS = r"0x[Cc]0000(?:005|01[Dd]|0[Ff][Dd]|08[C-Fc-f]|09[0-5]|374)"
_MSVC_SOURCE = ("Visual Studio debugger output window (\"Unhandled exception at 0x%p (%s) in %s: 0x%08X: %s\", \"Exception "
                "thrown at 0x%p ...\"; zh-CN \"0x%p (%s)处(位于 %s 中)引发的异常: 0x%08X: %s\", \"...处有未经处理的异常: ...\"), the "
                "status from Windows ntstatus.h (STATUS_ACCESS_VIOLATION 0xC0000005, STATUS_ILLEGAL_INSTRUCTION 0xC000001D, "
                "STATUS_ARRAY_BOUNDS_EXCEEDED 0xC000008C, STATUS_FLOAT_* 0xC000008D-0xC0000093, STATUS_INTEGER_* "
                "0xC0000094-95, STATUS_STACK_OVERFLOW 0xC00000FD, STATUS_HEAP_CORRUPTION 0xC0000374)")

# Windows System Error Codes as ctypes and CPython raise them ([WinError N] <FormatMessage text>).
_WINERROR = ("Windows System Error Codes ERROR_MOD_NOT_FOUND 126 (The specified module could not be found.; zh-CN "
             "找不到指定的模块。), ERROR_PROC_NOT_FOUND 127 (The specified procedure could not be found.; 找不到指定的程序。), "
             "ERROR_BAD_EXE_FORMAT 193 (%1 is not a valid Win32 application.; %1 不是有效的 Win32 应用程序。), raised by "
             "CPython ctypes (OSError: [WinError %d] %s) and Paddle's Windows start-up")
CUDA_LIBRARIES = "cudnn|cublas|cudart|cufft|curand|cusolver|cusparse|nvrtc|nvjitlink"
_CUDA_DLLS = rf"(?:{CUDA_LIBRARIES}|nccl)\w*\.dll"

# The GPU libraries whose loading failures the libraries rows read as CUDA's, cuDNN's, TensorRT's or NCCL's (in any
# case: Windows' file names are not case-sensitive), and the driver's own library.
_GPU_LIBRARIES = rf"(?i:{CUDA_LIBRARIES}|nccl|nvinfer|libcuda\b|nvcuda)"

WINDOWS = (
    # Windows reports a process that a native fault ended by its NTSTATUS as the exit code: an IDE's console
    # prints it signed with the hex after it, cmd and subprocess unsigned.
    _sig("windows_native_crash", r"(?:exit(?:ed with)? code|returned non-zero exit status) (?:-1073741819|3221225477|"
         r"-1073741571|3221225725|-1073741676|3221225620|-1073741682|3221225614|-1073740940|"
         r"3221226356)\b|\((?P<status>0x[Cc]0000(?:005|0[Ff][Dd]|094|08[Ee]|374))\)|(?:Exception code|异常代码)\s*[:：]\s*"
         r"(?P<logged>0x[Cc]0000(?:005|0[Ff][Dd]|094|08[Ee]|374))\b",
         "cause", CauseId.segfault, 90, "Process finished with exit code -1073741819 (0xC0000005)",
         title="the process was ended by a native fault (Windows status: an access violation, a stack overflow, a "
               "division by zero or a corrupted heap), Windows' segmentation fault",
         source="Windows ntstatus.h (STATUS_ACCESS_VIOLATION 0xC0000005 = -1073741819 signed, STATUS_STACK_BUFFER_OVERRUN "
                "0xC0000409, raised by __fastfail and the CRT's abort on a security check, STATUS_STACK_OVERFLOW "
                "0xC00000FD, STATUS_INTEGER_DIVIDE_BY_ZERO 0xC0000094 (SIGFPE's), STATUS_FLOAT_DIVIDE_BY_ZERO "
                "0xC000008E, STATUS_HEAP_CORRUPTION 0xC0000374), the process exit code of a crashed process; the Windows "
                "event log's Application Error (event 1000: Exception code: 0x%x; zh-CN 异常代码： 0x%x); "
                "JetBrains' run console (Process finished with exit code %d (0x%X)), CPython subprocess (returned "
                "non-zero exit status %d)"),
    # Windows' fail-fast status: the C runtime's abort() and a failed security check end the process this way, as
    # SIGABRT does elsewhere: what failed (a glog CHECK, an uncaught C++ exception) is said before it.
    _sig("windows_fail_fast", r"(?:exit(?:ed with)? code|returned non-zero exit status) (?:-1073740791|3221226505)\b|"
         r"\(0x[Cc]0000409\)|(?:Exception code|异常代码)\s*[:：]\s*0x[Cc]0000409\b", "cause", CauseId.segfault, 45, "Process finished with exit code -1073740791 (0xC0000409)",
         title="the process was ended by Windows' fail-fast (STATUS_STACK_BUFFER_OVERRUN: abort() or a failed check), "
               "Windows' abort",
         source="Windows ntstatus.h (STATUS_STACK_BUFFER_OVERRUN 0xC0000409 = -1073740791 signed), raised by "
                "__fastfail and by the UCRT's abort(); the event log's Application Error, Exception code: 0xc0000409)"),
    # Windows' status for an instruction the CPU does not have (SIGILL's): a build or a runtime that uses AVX,
    # AVX2 or AVX-512 on a CPU (or a VM's virtual CPU) without it. A native crash, as shell_sigill's.
    _sig("windows_illegal_instruction", r"(?:exit(?:ed with)? code|returned non-zero exit status|DLL load failed with "
         r"error code) (?:-1073741795|"
         r"3221225501)\b|\(0x[Cc]000001[Dd]\)|(?:Exception code|异常代码)\s*[:：]\s*0x[Cc]000001[Dd]\b", "cause",
         CauseId.segfault, 88,
         "The program '[1520] iisexpress.exe' has exited with code 3221225501 (0xc000001d) 'Illegal Instruction'.",
         title="the process ran an instruction this CPU does not have (Windows STATUS_ILLEGAL_INSTRUCTION): a build "
               "that uses AVX/AVX2 on a CPU without it",
         source="Windows ntstatus.h (STATUS_ILLEGAL_INSTRUCTION 0xC000001D = 3221225501, -1073741795 signed), the "
                "exit code of the process; Visual Studio's output window (The program '[%d] %s' has exited with "
                "code %d (0x%x) 'Illegal Instruction'.), JetBrains' run console (Process finished with exit code %d "
                "(0x%X)) (PaddleSharp#106); CPython 3.7 Python/dynload_win.c (\"DLL load failed with error code %d\" "
                "when Windows has no message for the status: the DLL's initialisation ran the instruction); the event "
                "log's Application Error (event 1000: Exception code: 0xc000001d; zh-CN 异常代码: 0xc000001d)"),
    # Windows ends a process whose DLL initialisation routine failed while it started (the loader's dialog
    # "The application was unable to start correctly (0xc0000142)", .NET's HRESULT 0x8007045A): native code
    # failed as it loaded, for Paddle's inference DLLs most often an instruction the CPU lacks. The status
    # names no cause of its own, so it is the weakest native-crash reading.
    _sig("windows_dll_init_failed", r"\((?:0x)?[Cc]0000142\)|(?:exit(?:ed with)? code|exit status) (?:-1073741502|"
         r"3221225794)\b|HRESULT:?\s*0x8007045A\b", "cause", CauseId.segfault, 45,
         "The application was unable to start correctly (0xc0000142). Click OK to close the application.",
         title="a native library's initialisation failed as the process started (Windows STATUS_DLL_INIT_FAILED): "
               "native code failed at load, often an instruction the CPU does not have",
         source="Windows ntstatus.h (STATUS_DLL_INIT_FAILED 0xC0000142 = 3221225794, -1073741502 signed), shown by "
                "the loader's dialog (The application was unable to start correctly (0x%lx); zh-CN 应用程序无法正常"
                "启动(0x%lx)); winerror.h ERROR_DLL_INIT_FAILED 1114 as .NET's HRESULT 0x8007045A (A dynamic link "
                "library (DLL) initialization routine failed) (Umi-OCR#453, PaddleSharp#10)"),
    # PaddleOCR-json (the engine Umi-OCR and other wrappers start) exited before it said it was ready: its
    # prebuilt Paddle Inference engine needs AVX (its README's first requirement), so on a CPU without it the engine
    # dies at start (Windows shows 0xc0000142). An OS older than its build, or models it cannot find, end it too.
    _sig("ppocr_json_engine_init_failed", r"\bOCR init fail\b", "cause", CauseId.segfault, 50,
         "[Error] OCR init fail. Argd: {'enable_mkldnn': True, 'cpu_threads': 4, 'config_path': 'models/config.txt'}",
         title="the PaddleOCR-json engine exited while starting: most often a CPU without AVX, which its prebuilt "
               "Paddle Inference engine needs (use the Rapid/ONNX engine there); else a Windows older than its build, "
               "or its models not found beside it", most="medium",
         source="PaddleOCR-json api/python/PPOCR_api.py PPOCR_pipe.__init__ (raise Exception(f\"OCR init fail.\") when "
                "the engine process exits before it prints 'OCR init completed.'); its README (CPU必须具有AVX指令集); "
                "Umi-OCR's \"[Error] OCR init fail. Argd: ...\" (Umi-OCR#246, #308)"),
    # .NET's DllNotFoundException for a native library of the program's (not CUDA's: libraries' rows read
    # those): the file, or a DLL it depends on, is not where the loader looks (winerror.h ERROR_MOD_NOT_FOUND
    # 126 as HRESULT 0x8007007E), as dlopen's "cannot open shared object file" on Linux.
    _sig("windows_dll_not_found", r"(?:Unable to load DLL|无法加载 DLL)\s*['\"“](?P<lib>(?!(?:cudnn|cublas|cudart|"
         r"cufft|curand|cusolver|cusparse|nvrtc|nccl)\w*\.dll)[^'\"”]+)['\"”][^\n]*?(?:0x8007007E|The specified "
         r"module could not be found|找不到指定的模块)", "cause", CauseId.file_not_found, 85,
         "System.DllNotFoundException: Unable to load DLL 'paddle_inference_c' or one of its dependencies: The "
         "specified module could not be found. (Exception from HRESULT: 0x8007007E)",
         title="the native library {lib}, or a DLL it depends on, is not where the program looks",
         source="Windows winerror.h (ERROR_MOD_NOT_FOUND 126: The specified module could not be found.; zh-CN "
                "找不到指定的模块。) as HRESULT 0x8007007E; .NET System.DllNotFoundException (Unable to load DLL '%s' "
                "or one of its dependencies: %s; zh-CN 无法加载 DLL“%s”: %s) (PaddleSharp#52)", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # The same message wrapped before its reason (a console or a dialog breaks the line after the colon): most
    # often ERROR_MOD_NOT_FOUND, but a DLL of another architecture (0x800700C1) words its start alike.
    _sig("windows_dll_not_found_wrapped", r"Unable to load DLL\s*['\"](?P<lib>(?!(?:cudnn|cublas|cudart|cufft|curand|"
         r"cusolver|cusparse|nvrtc|nccl)\w*\.dll)[^'\"]+)['\"] or one of its dependencies:\s*$", "cause",
         CauseId.file_not_found, 70, "Error: Unable to load DLL 'PaddleOCR' or one of its dependencies:",
         title="the native library {lib}, or a DLL it depends on, could not be loaded (the reason is on the next line)",
         source="Windows winerror.h HRESULTs (0x8007007E module not found, 0x800700C1 not a valid Win32 "
                "application) as .NET System.DllNotFoundException's reason (Unable to load DLL '%s' or one of its "
                "dependencies: %s), cut to the next line", most="medium", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # Windows' loader cannot start a program one of whose imported DLLs it finds nowhere on the search path
    # (STATUS_DLL_NOT_FOUND): its dialog names the DLL. An engine exe shipped without a runtime DLL, or an
    # api-ms-win-* system DLL that an older Windows (7, Server 2008 R2) does not have. CUDA's DLLs are left
    # to the libraries' rows.
    _sig("windows_dll_missing_at_start", r"(?:The program can[\'’]t start because|无法启动此程序，因为计算机中丢失)\s*"
         r"(?P<lib>(?!(?:cudnn|cublas|cudart|cufft|curand|cusolver|cusparse|nvrtc|nccl))[\w.\-]+\.dll)|"
         r"\((?:0x)?[Cc]0000135\)|(?:exit(?:ed with)? code|exit status) (?:-1073741515|3221225781)\b", "cause",
         CauseId.file_not_found, 85,
         "The program can't start because MSVCP140.dll is missing from your computer. Try reinstalling the program "
         "to fix this problem.",
         title="Windows could not start the program: a DLL it imports ({lib}) is missing",
         source="Windows ntstatus.h (STATUS_DLL_NOT_FOUND 0xC0000135 = 3221225781, -1073741515 signed), shown by the "
                "loader's dialog (The program can't start because %s is missing from your computer. Try reinstalling "
                "the program to fix this problem.; zh-CN 无法启动此程序，因为计算机中丢失 %s。尝试重新安装该程序以解决此问题。)", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # Visual Studio's debugger names the native fault a process met by its NTSTATUS. Unhandled, it ended the process: an
    # access violation, an array-bounds or floating-point or integer fault, a stack overflow, a corrupted heap, an
    # instruction the CPU lacks. A first-chance report ("Exception thrown") only says the fault was raised: a handler
    # may take it (the CUDA driver and the CLR raise and handle access violations), so it is a weak clue on its own.
    # A C++ exception (0xE06D7363, "Microsoft C++ exception: ...") is msvc_unhandled_cpp_exception's.
    _sig("msvc_debugger_fault", rf"Unhandled exception at 0x[0-9A-Fa-f]+ (?:\([^)]*\) )?in [^:]+: (?P<code>{_FAULTS})\b|"
         rf"有未经处理的异常\s*[:：]\s*(?P<code2>{_FAULTS})\b",
         "cause", CauseId.segfault, 85,
         "Unhandled exception at 0x00007FFB037684F6 (opencv_world440.dll) in ocr_system.exe: 0xC0000005: Access "
         "violation reading location 0x0000000000000000.",
         title="native crash: the debugger shows the process met a native fault it did not handle (Windows status: an "
               "access violation, an arithmetic fault, a stack overflow or a corrupted heap)",
         source=_MSVC_SOURCE),
    _sig("msvc_debugger_first_chance", r"(?:Exception thrown at|First-chance exception at) 0x[0-9A-Fa-f]+ (?:\([^)]*\) )?"
         rf"in [^:]+: (?P<code>{_FAULTS})\b|引发的异常\s*[:：]\s*(?P<code2>{_FAULTS})\b", "cause", CauseId.segfault, 40,
         "Exception thrown at 0x00007FF6A1B2C3D4 (paddle_inference.dll) in demo.exe: 0xC00000FD: Stack overflow "
         "(parameters: 0x0000000000000001, 0x000000C1A5E03FF8).",
         title="the debugger shows a native fault raised in the process (first chance: a handler may have taken it)",
         source=_MSVC_SOURCE, most="low"),
    # An unhandled C++ exception (status 0xE06D7363) is the debugger's view of what libstdc++ prints as "terminate
    # called after throwing an instance of ..." (cpp_terminate): the same reading, the same weight. yaml-cpp's types
    # have rows of their own (tools/inference.py), which outrank this one. Not Paddle's or gloo's errors, as there: an
    # uncaught enforce is a Paddle check whose message the debugger does not show, no crash.
    _sig("msvc_unhandled_cpp_exception", r"(?:Unhandled exception at 0x[0-9A-Fa-f]+ (?:\([^)]*\) )?in [^:：\r\n]{1,260}|有未经处理的异常)\s*"
         r"[:：]\s*Microsoft C\+\+ (?:exception|异常)\s*[:：]\s*(?P<type>(?!YAML::|paddle::|phi::|common::|pir::|gloo::)[\w:<>]+)",
         "cause", CauseId.segfault, 48,
         "Unhandled exception at 0x00007FF8A2714F99 in ocr_system.exe: Microsoft C++ exception: std::length_error at "
         "memory location 0x0000008A026FF130.",
         title="an uncaught C++ exception ({type}) ended the program (shown by the debugger)",
         source="Visual Studio debugger output window (\"Unhandled exception at 0x%p in %s: Microsoft C++ exception: %s "
                "at memory location 0x%p.\"; zh-CN \"0x%p 处(位于 %s 中)有未经处理的异常: Microsoft C++ 异常: %s，位于内存位置 "
                "0x%p 处。\"), the MSVC runtime's exception code 0xE06D7363 for a C++ throw", most="low"),
    # Windows' loader found every DLL an extension module links, but one of them lacks a procedure the others import
    # (error 127): a DLL of another version was found first (a package built against another release of Paddle or
    # of a library, two installs mixed on the search path). Paddle's own core is paddle_core_unloadable's; Python 3.7's
    # form names no module (Paddle's core among them), so only 3.8+'s is read.
    _sig("extension_dll_entry_missing", r"DLL load failed while importing (?P<ext>(?!(?:core_avx|core_noavx|libpaddle|"
         r"core)\b)\w+): (?:The specified procedure could not be found|找不到指定的程序)", "cause",
         CauseId.dependency_version_mismatch, 60,
         "ImportError: DLL load failed while importing paddle2onnx_cpp2py_export: The specified procedure could not be found.",
         title="a DLL that an extension module ({ext}) loads lacks a procedure it needs: another version of that DLL was "
               "found first (a package built for another release of Paddle or of a library it links)",
         source="CPython 3.8+ Python/dynload_win.c (\"DLL load failed while importing %U: %s\", FormatMessageW of the "
                "LoadLibraryEx error); Windows System Error Codes ERROR_PROC_NOT_FOUND 127 (en-US \"The specified "
                "procedure could not be found.\", zh-CN \"找不到指定的程序。\")", most="medium"),
    # ctypes and Python's loader raise the Windows error of LoadLibrary as OSError [WinError N]: 127 a procedure a DLL
    # lacks (another version found first), 193 not a DLL for this process (32-bit against 64-bit, or not a DLL at all).
    # CUDA's libraries are win_cuda_dll_load's (the CUDA stack); 126, a DLL not found, is read by its words and by
    # whose code loads it (anatomy/installed.py).
    _sig("win_dll_entry_missing", rf"^(?!.*{_CUDA_DLLS}).*?\[WinError 127\]", "cause", CauseId.dependency_version_mismatch,
         60, "OSError: [WinError 127] The specified procedure could not be found.",
         title="a DLL the process loads lacks a procedure another one needs: a DLL of another version was found first",
         source=_WINERROR, most="medium"),
    # A WinError 126 that no exception line carries (a server's logger prints the error alone): a DLL not found, read
    # as a warning (an optional backend's probe logs it too), which explains only a later error about a DLL.
    _sig("win_dll_missing_logged", rf"^(?!.*{_CUDA_DLLS})(?!\s*[\w.]*(?:Error|Exception)\s*:).*?\[WinError 126\] (?:The specified module could not be found|"
         r"找不到指定的模块)", "context", CauseId.file_not_found, 55, "2020-06-27 22:09:59  -  [WinError 126] 找不到指定的模块。",
         title="a DLL the process loads (or one it depends on) is not where Windows looks", source=_WINERROR,
         most="medium", explains_only=r"(?i)WinError|\bDLL\b|\.dll\b", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    _sig("win_dll_wrong_architecture", r"\[WinError 193\]", "cause", CauseId.dependency_version_mismatch, 70,
         "OSError: [WinError 193] %1 is not a valid Win32 application",
         title="a DLL or program the process loads is not one this process can run: built for the other architecture "
               "(32-bit against 64-bit) or not a DLL at all", source=_WINERROR, most="medium"),
    # Paddle's loader of a third-party library other than CUDA's, TensorRT's and NCCL's (their rows name them): on
    # Windows it prints GetLastError(). 127 (a procedure) and 182 (an ordinal) not found in the DLL it loaded: another
    # version of the library (mklml, libiomp5md, a warpctc) found first on the path; 126 or dlerror's "cannot open":
    # the library is not there (the corpus's file_not_found for a library the loader cannot find).
    _sig("dynload_library_version", rf"dynamic library \((?P<lib>(?![^)]*{_GPU_LIBRARIES})[^)]{{1,120}})\) that Paddle depends on is not configured "
         r"correctly\. \(error code is (?:127|182)\b", "cause", CauseId.dependency_version_mismatch, 80,
         "RuntimeError: (PreconditionNotMet) The third-party dynamic library (mklml.dll) that Paddle depends on is not "
         "configured correctly. (error code is 182)",
         title="{lib} was loaded but is another version than Paddle was built with (a procedure or ordinal Paddle needs "
               "is not in it): another copy of it earlier on the PATH", most="medium",
         source="pp 2.0-3.3.1 so: platform/dynload/dynamic_loader.cc GetDsoHandleFromSearchPath (\"The third-party "
                "dynamic library (%s) that Paddle depends on is not configured correctly. (error code is %s)\", the "
                "Windows GetLastError(): 127 ERROR_PROC_NOT_FOUND, 182 ERROR_INVALID_ORDINAL)"),
    _sig("dynload_library_missing", rf"dynamic library \((?P<lib>(?![^)]*{_GPU_LIBRARIES})[^)]{{1,120}})\) that Paddle depends on is not configured "
         r"correctly\. \(error code is (?:126\b|[^)\n]*cannot open shared object)", "cause", CauseId.file_not_found, 80,
         "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libwarpctc.so) that Paddle depends on is "
         "not configured correctly. (error code is libwarpctc.so: cannot open shared object file: No such file or "
         "directory)", title="{lib}, which Paddle loads, is not found: not installed, or its folder not on the loader's "
         "path", most="medium",
         source="pp 2.0-3.3.1 so: platform/dynload/dynamic_loader.cc GetDsoHandleFromSearchPath (error code: dlerror() "
                "on Linux, GetLastError() on Windows, 126 ERROR_MOD_NOT_FOUND)", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # The suggestions Paddle's loader prints under that error: a paste that kept only them still says a library it
    # needs did not load (a GPU library most often, the one its first suggestion names); weaker than the error itself.
    _sig("dynload_suggestions", r"Check if the third-party dynamic library \(e\.g\. CUDA, CUDNN\) is installed correctly",
         "cause", CauseId.cuda_cudnn_mismatch, 40,
         "  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly and its version is "
         "matched with paddlepaddle you installed.",
         title="Paddle could not load a dynamic library it needs (its name is on the error line before these "
               "suggestions, not in the text): a CUDA or cuDNN library most often", most="medium",
         source="pp 1.8.5-2.6 so: platform/dynload/dynamic_loader.cc (\"  1. Check if the third-party dynamic library "
                "(e.g. CUDA, CUDNN) is installed correctly and its version is matched with paddlepaddle you installed.\")"),
    # MSVC's linker or compiler out of memory: the build's processes, not the job's.
    _sig("msvc_out_of_memory", r"fatal error (?:LNK1102: out of memory|C1060: compiler is out of heap space|C1076: "
         r"compiler limit: internal heap limit reached)", "cause", CauseId.host_out_of_memory, 85,
         "LINK : fatal error LNK1102: out of memory [D:\\b\\paddle_fluid_c_shared.vcxproj]",
         title="Visual C++'s linker or compiler ran out of memory while building (fewer parallel jobs, a 64-bit "
               "toolset, or a larger paging file)",
         source="Microsoft C++ build errors LNK1102 (out of memory), C1060 (compiler is out of heap space), C1076 "
                "(compiler limit: internal heap limit reached)"),
    # MSVC's linker cannot open a library the project lists (a Linux name such as libmklml_intel in a demo's CMakeLists,
    # or a path the package does not have).
    _sig("msvc_input_file_unopened", r"\bLNK1181\b[^\n]{0,40}?(?:cannot open input file|无法打开输入文件)\s*[“\"'](?P<path>"
         r"[^”\"'\n]{1,300})", "cause", CauseId.file_not_found, 75,
         "错误\tLNK1181\t无法打开输入文件“E:\\fluid_inference_install_dir\\third_party\\install\\mklml\\lib\\"
         "libmklml_intel.dll”\tthread_mobilenet_test",
         title="the linker cannot open {path}: the project links a file that is not there (a name or path of another "
               "platform's package, or not installed)", most="medium",
         source="Windows Microsoft C++ linker tools error LNK1181 (\"cannot open input file 'filename'\"; zh-CN "
                "\"无法打开输入文件“%s”\"), as Visual Studio's error list and msbuild print it"),
    # MSVC refuses to link objects built with different C runtime settings (/MT vs /MD) or configurations (Debug
    # against a Release library: _ITERATOR_DEBUG_LEVEL): the program's build settings do not fit the library's. Visual
    # Studio's error list copies the description without its code: the words alone are MSVC's.
    _sig("msvc_runtime_mismatch", r"mismatch detected for '(?P<what>RuntimeLibrary|_ITERATOR_DEBUG_LEVEL)'|检测到“(?P<what2>"
         r"RuntimeLibrary|_ITERATOR_DEBUG_LEVEL)”的不匹配项", "cause", CauseId.config_error, 80,
         "error LNK2038: mismatch detected for 'RuntimeLibrary': value 'MT_StaticRelease' doesn't match value "
         "'MD_DynamicRelease' in test_seg.obj",
         title="the objects linked were built with different {what}{what2} settings: build the program with the runtime "
               "library (/MT or /MD) and configuration (Release or Debug) of the Paddle library it links", most="medium",
         source="Microsoft C++ linker tools error LNK2038 (\"mismatch detected for '%s': value '%s' doesn't match value "
                "'%s' in %s\"; zh-CN \"检测到“%s”的不匹配项: 值“%s”不匹配值“%s”(%s 中)\")"),
    # MSVC's linker refuses an image over its size limit (2 GB for an executable or DLL, 4 GB for a library): a
    # Debug build of Paddle's whole inference library, or a build without the options that keep its image small.
    _sig("msvc_image_too_large", r"\berror LNK1248\b|\tLNK1248\t|image size \([0-9A-Fa-f]{1,16}\) exceeds maximum allowable size|映像大小\("
         r"[0-9A-Fa-f]{1,16}\)超过允许的最大大小", "cause", CauseId.config_error, 75,
         "libpaddle_inference_dummy_1.lib : fatal error LNK1248: image size (1002F8BB5) exceeds maximum allowable size "
         "(FFFFFFFF)",
         title="Visual C++'s linker refuses an image over its size limit: build in Release (a Debug build of Paddle's "
               "libraries is too large) or with the build options that keep the image small", most="medium",
         source="Microsoft C++ linker tools error LNK1248 (\"image size 'size' exceeds maximum allowable size (80000000)\"; "
                "zh-CN \"映像大小(%s)超过允许的最大大小(%s)\")"),
)
