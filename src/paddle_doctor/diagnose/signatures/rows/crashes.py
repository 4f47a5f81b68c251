"""Signatures: ports, rendezvous and the parallel environment (a busy port, the TCP store's listen, retry and timeout,
no global group, a build without NCCL); the signals a process died of, as Paddle's own handler (platform/init.cc) and
gdb report them, and the frames of a hang's stack dump (where a stuck process waits), and libuv's assertion when the
TCP store cannot bind. Joined right after :mod:`.native` in the match order."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

CRASHES = (
    # --- ports, rendezvous, environment ---------------------------------------------------------------
    _sig(CauseId.port_in_use, r"Address already in use|Bind network on \S+ failed|\[Errno 98\]|"
         r"The parameter `\w+`:\d+ is already in use", "cause", CauseId.port_in_use, 100,
         "socket.error: [Errno 98] Address already in use", title="port already in use",
         source="pp 2.4.2-3.3.1 so: phi/core/distributed/store/tcp_utils.cc (Bind network on %s failed.); Python "
                "errno EADDRINUSE ([Errno 98] Address already in use); FastDeploy 2.x fastdeploy/entrypoints/openai/"
                "api_server.py launch_api_server (if not is_port_available(args.host, args.port): raise Exception("
                "f\"The parameter `port`:{args.port} is already in use.\"), the same for its metrics port)"),
    # 1.x's gRPC server (gen_nccl_id's and the parameter server's): it retries a bind every 3 s, then gives up.
    _sig("grpc_bind_failed", r"can't bind to address:(?P<ep>\S+)|Server listening on (?P<ep2>\S+) failed, selected "
         r"port: 0\b", "cause", CauseId.port_in_use, 95, "Error: can't bind to address:10.255.74.12:6172",
         title="the gRPC server (1.x) could not bind its port: another process holds it",
         source="pp 1.8.5 so: operators/distributed/grpc/grpc_server.cc AsyncGRPCServer::StartServer (Server listening "
                "on %s failed, selected port: %d, retry after 3 seconds!; can't bind to address:%s)"),
    _sig("listen", r"starts to listen on (?P<host>[^:\s]+):(?P<port>\d+)|create libuv server at port: (?P<port2>\d+)",
         "listen", example="I0524 11:30:40.681471  4352 tcp_utils.cc:181] The server starts to listen on IP_ANY:52031",
         source="pp 2.4.2-3.3.1 so: store/tcp_utils.cc (The server starts to listen on %s); 3.3.1 tcp_store.cc "
                "(create libuv server at port)"),
    _sig("rendezvous_retry", r"Retry to connect to (?P<host>[^:\s]+):(?P<port>\d+)", "rendezvous_retry",
         example="I0524 11:30:43.735888  4352 tcp_utils.cc:107] Retry to connect to 192.168.9.17:52031 while the "
                 "server is not yet listening.",
         source="pp 2.4.2-3.3.1 so: store/tcp_utils.cc (Retry to connect to %s while the server is not yet "
                "listening.)"),
    _sig("store_timeout", r"_timeout:\d+ elapsed:\d+ \(elapsed > _timeout\)", "cause", CauseId.missing_dist_env, 60,
         "SystemError: (Fatal) _timeout:900 elapsed:901 (elapsed > _timeout)=1 (at /paddle/paddle/phi/core/distributed/"
         "store/tcp_store.cc:433)", title="the rendezvous store timed out waiting for the other ranks",
         source="pp 2.4.2-3.3.1 so: phi/core/distributed/store/tcp_store.cc:433 (_timeout:%d elapsed:%d)"),
    # Not init_parallel_env's "Currently not a parallel execution environment, ... will not do anything": a single-card
    # run's harmless warning (its only emitter, pp 2.0-3.x distributed/parallel.py), which read as a cause misled.
    _sig("no_global_group", r"The global group is not initialized",
         "cause", CauseId.missing_dist_env, 60, "RuntimeError: The global group is not initialized.",
         title="collective called without a parallel environment",
         source="pp 2.4.2-3.3.1 communication/group.py (The global group is not initialized)"),
    # A collective op found no communicator for its ring: nothing set up the parallel environment in this process (no
    # launcher, init_parallel_env or fleet.init never called), or the ring (a group) was never created on this rank.
    _sig("comm_ring_uninitialized", r"Communicator of ring id (?P<ring>\d+) has not been initialized", "cause",
         CauseId.missing_dist_env, 70, "ValueError: (InvalidArgument) Communicator of ring id 0 has not been initialized.",
         title="a collective ran before the communicator of ring {ring} was set up: no parallel environment (no "
               "launcher, or init_parallel_env / fleet.init not called)", most="medium",
         source="pp 2.0.2-3.3.1 so: platform/collective_helper.h NCCLCommContext::Get (Communicator of ring id %d has "
                "not been initialized.)"),
    _sig(CauseId.windows_no_nccl, r"has no attribute 'ProcessGroupNCCL'|not compiled with (?:NCCL|nccl)", "cause",
         CauseId.windows_no_nccl, 100, "AttributeError: module 'paddle.base.libpaddle' has no attribute 'ProcessGroupNCCL'",
         title="this Paddle build has no NCCL (Windows builds never do)",
         source="pp 1.8.5-3.3.1 paddle/fluid/dygraph/parallel.py, distributed/collective.py "
                "(core.NCCLParallelContext / core.ProcessGroupNCCL exist only in Linux GPU builds); pp 2.0.2 "
                "paddle/fluid/framework.py (is not compiled with)"),
    # gdb reading a core file: the signal that ended the process, in gdb's two spellings (number or name), first so
    # that both spellings read alike. An abort (6) is also how a C++ exception nobody caught, or a failed check,
    # ends: at most medium.
    _sig("gdb_core_signal", r"Program terminated with signal (?P<sig>SIG(?:SEGV|BUS|FPE|ILL)|11|7|8|4), "
         r"(?P<what>[A-Za-z ]+)\.", "cause", CauseId.segfault, 85, "Program terminated with signal 11, Segmentation fault.",
         title="native crash: the core file gdb read shows the process ended by signal {sig} ({what})",
         source="gdb corelow.c core_target_open (\"Program terminated with signal %s, %s.\": gdb 7.x the number, "
                "gdb 8+ the name)"),
    _sig("gdb_core_abort", r"Program terminated with signal (?:SIGABRT|6), Aborted\.", "cause", CauseId.segfault, 60,
         "Program terminated with signal 6, Aborted.",
         title="native abort: the core file gdb read shows the process ended by SIGABRT (heap corruption, a failed "
               "check, or an uncaught C++ exception)",
         source="gdb corelow.c core_target_open (\"Program terminated with signal %s, %s.\")", most="medium"),
    # A build with AddressSanitizer (Paddle's WITH_ASAN, a CI job) stops the process at the first bad access it sees:
    # a native memory fault, as a crash would be without it.
    _sig("asan_memory_error", r"==\d{1,10}==ERROR: AddressSanitizer: (?!out of memory|requested allocation size|"
         r"allocation-size-too-big|allocator is out of memory)(?P<kind>[\w -]{3,60}?)(?= on | \(|:|$)", "cause",
         CauseId.segfault, 85,
         "==1816849==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x625000a4bff8 at pc 0x7f",
         title="AddressSanitizer stopped the process at a native memory error ({kind}): a bad access in native code, "
               "which a build without it may crash on or corrupt memory with",
         source="LLVM compiler-rt lib/asan/asan_errors.cpp (Report(\"ERROR: AddressSanitizer: %s on address %p ...\"), "
                "each line prefixed \"==%d==\" with the pid)"),
    # The same report of an allocation the host cannot give: memory, not a bad access.
    _sig("asan_allocation_failed", r"==\d{1,10}==ERROR: AddressSanitizer: (?:out of memory|requested allocation size|"
         r"allocation-size-too-big|allocator is out of memory)", "cause", CauseId.host_out_of_memory, 80,
         "==12==ERROR: AddressSanitizer: out of memory: allocator is trying to allocate 0x10000000000 bytes",
         title="AddressSanitizer found an allocation the host cannot give (out of memory, or a size past its limit): "
               "a huge or runaway allocation", most="medium",
         source="LLVM compiler-rt lib/asan/asan_errors.cpp (ErrorOutOfMemory \"out of memory: allocator is trying to "
                "allocate 0x%zx bytes\", ErrorAllocationSizeTooBig \"requested allocation size 0x%zx ... exceeds "
                "maximum supported size\")"),
    # HotSpot's fatal error report (hs_err): a Java program (a Solr plugin, an Android or JNI app) that loads Paddle's
    # native library and dies in it. Its signal line, then "Problematic frame: # C  [libpaddle_fluid.so+0x...]".
    _sig("jvm_native_crash", r"^#\s+(?P<sig>SIG(?:SEGV|ILL|BUS|FPE|ABRT)|EXCEPTION_[A-Z_]{4,40}) \(0x[0-9a-fA-F]{1,8}\) at "
         r"pc=0x[0-9a-fA-F]{1,16}", "cause", CauseId.segfault, 90,
         "#  SIGILL (0x4) at pc=0x00007feb1f99806e, pid=25314, tid=0x00007feb349b8700",
         title="native crash ({sig}) in a Java process, in native code (the JVM's report names the library under "
               "'Problematic frame'; SIGILL: a build for CPU instructions this machine lacks, such as AVX)",
         source="OpenJDK hotspot/share/utilities/vmError.cpp VMError::report (\"#  %s (0x%x) at pc=\" PTR_FORMAT "
                "\", pid=%d, tid=\" ...), under \"# A fatal error has been detected by the Java Runtime Environment:\""),
    _sig(CauseId.segfault, r"`?Segmentation fault`? is detected|\bSIGSEGV\b|Segmentation fault \(core dumped\)",
         "cause", CauseId.segfault, 100,
         "FatalError: `Segmentation fault` is detected by the operating system.", title="segmentation fault",
         source="pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (FatalError: `%s` is detected by the operating "
                "system.); glibc strsignal(SIGSEGV)"),
    _sig("sigbus", r"`?Bus error`? is detected|\bSIGBUS\b", "cause", CauseId.segfault, 75,
         "Thread 1 \"python\" received signal SIGBUS, Bus error.",
         title="bus error: a native crash (in a Paddle job most often shared memory, /dev/shm, exhausted)",
         source="gdb infrun.c live stop (\"Thread %d \\\"%s\\\" received signal %s, %s.\"), any other line naming SIGBUS (Paddle's "
                "own [SignalInfo: *** SIGBUS ...] is native_stack's); a wrapper's \"`Bus error` is detected\""),
    # gdb's live stop, or a logger's signal handler, on the other native faults (SIGSEGV and SIGBUS have rows above).
    _sig("gdb_fault_signal", r"received signal (?P<sig>SIGFPE|SIGILL), |(?:caught a signal|Signal caught): (?P<sig2>SIGFPE|SIGILL)\b",
         "cause", CauseId.segfault, 75, "Thread 1 \"benchmark\" received signal SIGFPE, Arithmetic exception.",
         title="native crash: {sig}{sig2} (an arithmetic fault, or an instruction this CPU lacks)",
         source="gdb infrun.c live stop (\"Thread %d \\\"%s\\\" received signal %s, %s.\"); a C++ logger's signal handler "
                "(logger caught a signal: %s; Signal caught: %s) as Anakin's (Anakin#516)"),
    _sig("libuv_port_busy", r"uv__finish_close: Assertion", "cause", CauseId.port_in_use, 100,
         "python: /paddle/third_party/libuv/src/unix/core.c:314: uv__finish_close: Assertion "
         "`handle->flags & UV_HANDLE_CLOSING' failed.",
         title="the TCP store could not bind its port (libuv assertion)",
         source="pp 3.x so: third_party/libuv/src/unix/core.c uv__finish_close assertion (measured on 3.3.1)"),
    _sig("sigterm", r"`?Termination signal`? is detected|\bSIGTERM \(@", "terminated",
         example="FatalError: `Termination signal` is detected by the operating system.",
         source="pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (`Termination signal` is detected ...)"),
    _sig("sigabrt", r"`?Process abort signal`? is detected|\bSIGABRT\b", "cause", CauseId.segfault, 45,
         "FatalError: `Process abort signal` is detected by the operating system.",
         title="native abort (SIGABRT)",
         source="pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (`Process abort signal` is detected ...)"),
    _sig("signal_time", r"Aborted at (?P<unix>\d{9,11}) \(unix time\)", "signal_time",
         example="[TimeInfo: *** Aborted at 1764452457 (unix time) try \"date -d @1764452457\" if you are using GNU date ***]",
         source="pp 1.8.5-3.3.1 so: platform/init.cc (*** Aborted at %ld (unix time) ...)"),
    # Paddle 1.x's handler opens every failure dump with this warning, once, before glog names the signal: a paste
    # cut after it still says a fatal signal ended the process. glog's handler also takes SIGTERM, whose own line
    # (the sigterm row) outweighs this one, so alone it is a native crash at most at medium.
    _sig("paddle_failure_signal_header", r"PaddlePaddle catches a failure signal", "cause", CauseId.segfault, 30,
         "W0902 21:18:45.540113 67477504 init.cc:209] Warning: PaddlePaddle catches a failure signal, it may not work "
         "properly", title="a fatal signal, caught by Paddle's handler (the signal's own line is not in the text)",
         source="pp 1.8.5 so: platform/init.cc SignalHandle (Warning: PaddlePaddle catches a failure signal, it may not "
                "work properly), glog InstallFailureSignalHandler (SIGSEGV, SIGILL, SIGFPE, SIGABRT, SIGBUS, SIGTERM)",
         most="medium"),
    # Paddle 2.x-3.x's handler prints the C++ stack it was called on before its error summary: its own frame there
    # says a fatal signal arrived, even in a paste cut before the summary's `FatalError` line. A SIGTERM prints the
    # same frame; ranks.cause_events leaves it out when the summary after it names the termination signal.
    _sig("paddle_signal_handle_frame", r"^\s*\d+\s+paddle::framework::SignalHandle\(", "cause", CauseId.segfault, 30,
         "0   paddle::framework::SignalHandle(char const*, int)",
         title="a fatal signal, caught by Paddle's handler (its C++ stack shown; the signal's own line is not in the "
               "text)", most="medium",
         source="pp 2.0.2-3.3.1 so: platform/init.cc SignalHandle (GetCurrentTraceBackString(), then the Error Message "
                "Summary's FatalError: `%s` is detected by the operating system.)"),
    # Triton Inference Server's own handler (the FastDeploy and Paddle backends run inside it) names the signal by
    # number before its stack: 11 SIGSEGV, 7 SIGBUS, 4 SIGILL, 8 SIGFPE are a native crash, 6 SIGABRT an abort.
    _sig("triton_fatal_signal", r"^Signal \((?P<sig>11|7|4|8)\) received\.", "cause", CauseId.segfault, 80,
         "Signal (11) received.",
         title="native crash: the server died of signal {sig} (a fault in a backend's or library's native code)",
         source="Triton Inference Server src/main.cc / signal.cc ErrorSignalHandler (std::cerr << \"Signal (\" << "
                "signum << \") received.\" << std::endl, then the boost stacktrace)"),
    _sig("hang_dataloader", r"ReadNextList|BlockingQueue<.*>::Receive", "hang_site",
         example="3   paddle::operators::reader::MultiDeviceFeedReader<...>::ReadNextList()",
         source="pp 2.x-3.3.1 so: operators/reader/buffered_reader / MultiDeviceFeedReader::ReadNextList frames"),
    _sig("hang_rendezvous", r"HTTPStore|TCPStore::(?:wait|get)|GlooParallelContext|create_or_get_global_tcp_store"
         r"|CheckKeys|\b_init_parallel_env", "hang_site",
         example="2   gloo::rendezvous::HTTPStore::wait(std::vector<...> const&)",
         source="pp 2.x-3.3.1 so: gloo rendezvous HTTPStore / phi TCPStore frames in a SIGTERM dump"),
    # Paddle's handler names SIGBUS by POSIX's description (its table: {SIGBUS, "SIGBUS", "Access to an undefined
    # portion of a memory object"}). Without a DataLoader's shared memory in sight (its rows are more specific) it
    # is a native crash: medium, the shared-memory reading its near cause.
    _sig("paddle_sigbus", r"`?Access to an undefined? ?(?:portion|$)", "cause", CauseId.segfault, 60,
         "FatalError: `Access to an undefined portion of a memory object` is detected by the operating system.",
         title="the process died of SIGBUS (a mapped file or shared memory it could not access), reported by Paddle's "
               "signal handler", source="pp 2.0.2-3.3.1 so: platform/init.cc kFailureSignals ({SIGBUS, \"SIGBUS\", "
               "\"Access to an undefined portion of a memory object\"}) and SignalHandle (FatalError: `%s` is detected "
               "by the operating system.)", most="medium"),
    _sig("paddle_fatal_signal", r"`(?P<what>Erroneous arithmetic operation|Illegal instruction)` is detected", "cause",
         CauseId.segfault, 90, "FatalError: `Erroneous arithmetic operation` is detected by the operating system.",
         title="native crash: {what}, reported by Paddle's signal handler",
         source="pp 2.0.2-3.3.1 so: platform/init.cc kFailureSignals ({SIGFPE, \"SIGFPE\", \"Erroneous arithmetic "
                "operation\"}, {SIGILL, \"SIGILL\", \"Illegal instruction\"}) and SignalHandle"),

    # A native crash while pybind11 creates a Python type: every extension built with a compatible pybind11 shares one
    # registry of types (its internals); a second extension whose pybind11 lays it out otherwise (torch 1.0 beside
    # Paddle 1.x, PaddleSpeech#434) crashes there at import: two packages that cannot share one process. A frame
    # alone is no crash (a hang's backtrace): refine/crash.py reads it only within a crash's own stack, before or
    # after its summary; native_stack leaves such frames to this row.
    _sig("pybind11_internals_crash", r"(?:^|\])\s*(?:@\s+0x[0-9a-f]{4,16}\s+|#\d{1,3}\s+(?:0x[0-9a-f]+ in )?|\d{1,3}\s{2,})"
         r"(?:pybind11::detail::(?:make_new_python_type|generic_type::initialize)\b|_ZN8pybind116detail(?:20make_new_"
         r"python_type|12generic_type10initialize))", "crash_frame",
         CauseId.dependency_version_mismatch, 70, "    @     0x7fd7e91a01aa pybind11::detail::make_new_python_type()",
         title="a native crash while a pybind11 type was being created: two native packages in one process whose "
               "pybind11 builds cannot share its registry (import them in separate processes, or versions built alike)",
         source="pybind11 include/pybind11/detail/class.h make_new_python_type, pybind11.h generic_type::initialize "
                "(PYBIND11_INTERNALS_ID shared by builds of one internals version), as glog's, gdb's or Paddle 2.x's "
                "C++ traceback frame prints them", most="medium"),
    # glog's native stack ("    @     0x7fd5... paddle::Trainer::train()"), printed after a fatal signal (its failure
    # handler) or a failed CHECK ("*** Check failure stack trace: ***"): a paste of its tail alone still shows the
    # process died in native code. The weakest reading: any line that says more decides.
    _sig("glog_stack_frame", r"^\s*@\s+0x[0-9a-f]{4,16}\s+(?:\(unknown\)|[A-Za-z_~][\w:<>~,*&() .\[\]-]{0,300})$", "cause",
         CauseId.segfault, 30, "    @     0x7fe350b92ed5  hl_create_global_resources()",
         title="a native stack as glog prints it after a fatal signal or a failed check: the process died in native "
               "code (the lines before the stack say why)", most="low",
         source="glog src/signalhandler.cc DumpStackFrame and src/logging.cc (a failed CHECK: \"*** Check failure "
                "stack trace: ***\"), each frame \"    @ %*p  %s\"; used by pp 0.x-3.x (platform/init.cc)"),
    # Android's crash dump (debuggerd's tombstone, logcat's "backtrace:"): its frames alone still show a native crash.
    _sig("android_crash_frame", r"^\s*#\d{2,3} pc [0-9a-f]{8,16}\s+\S", "cause", CauseId.segfault, 30,
         "      #00 pc 000000000004a5c0  /apex/com.android.runtime/lib64/bionic/libc.so (memset+256)",
         title="a native crash: Android's crash dump lists the frames (the lines before it say which signal)",
         most="low", source="Android system/core debuggerd libunwindstack (\"    #%02d pc %016\" PRIx64 \"  %s (%s+%d)\"), "
                            "in a tombstone and in logcat's DEBUG lines after \"backtrace:\""),
    # gdb's backtrace of a process stopped in glibc's abort path (a heap check, a failed assert, abort()): the
    # process was ending on a signal. A gdb backtrace of any other frame may be a hang, not read here.
    _sig("gdb_abort_frame", r"^#\d{1,3}\s+(?:0x[0-9a-f]+ in )?(?:__GI_)?(?:raise|abort|__libc_message|malloc_printerr|"
         r"_int_free|__fortify_fail|__stack_chk_fail|__assert_fail(?:_base)?)\s*\(", "cause", CauseId.segfault, 30,
         "#2  0x00007f3ddd5a4ed7 in __libc_message () from /lib64/libc.so.6",
         title="a native abort: gdb shows the process in glibc's abort path (a heap check, a failed assertion)",
         most="low", source="gdb stack.c print_frame (\"#%-2d 0x%016lx in %s (...) from %s\"); glibc abort(), "
                            "__libc_message, malloc_printerr, __assert_fail"),
)
