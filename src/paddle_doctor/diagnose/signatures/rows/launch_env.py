"""Signatures: launchers, gloo, shared memory, the distributed environment, samplers, labels and config components
the run cannot take, builds without NCCL."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..tools.commands import COMMAND_LINE_ROWS

LAUNCH_ENV = (
    # --- launchers -------------------------------------------------------------------------
    _sig("launch_container_failed",
         r"Container rank (?P<rank>\d+) status failed cmd .*? code (?P<code>-?\d+)(?: log (?P<log>\S+))?",
         "launcher_failed",
         example="Container rank 0 status failed cmd ['python', '-u', 't.py'] code -9 log log/workerlog.0",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/job/container.py (Container rank {} status {} cmd {} "
                "code {} log {})"),
    _sig("fleet_abort",
         r"ABORT!!! Out of all (?P<world>\d+) trainers, the trainer process with rank=\[(?P<ranks>[\d, ]*)\]",
         "launcher_abort",
         example="ABORT!!! Out of all 2 trainers, the trainer process with rank=[0] was aborted.",
         source="pp 1.8.5 paddle/distributed/utils.py; pp 2.0.2-3.3.1 paddle/distributed/fleet/launch_utils.py "
                "(ABORT!!! Out of all {} trainers ...)"),
    # Paddle 0.x's `paddle` command (train, pserver, merge_model) is a bash script: bash reporting an error at one of
    # its lines is the launcher script itself failing (its version check, its first-run install), before any job.
    _sig("v1_paddle_script_error", r"^(?:\S*/)?bin/paddle: line (?P<line>\d+): (?!.*(?:command not found|No such file or "
         r"directory)$)(?P<said>.{1,300})$", "cause",
         CauseId.launcher_bug, 60, "/usr/local/bin/paddle: line 82: [: 1.0.2: binary operator expected",
         title="Paddle 0.x's `paddle` launcher script fails at its line {line} ({said}) before starting the job: "
               "the script of this install (update or reinstall it)", most="medium",
         source="pp 0.10-0.14 paddle/scripts/submit_local.sh.in (installed as bin/paddle: ver2num's version check "
                "`[ \"$(ver2num ...)\" -lt $(ver2num $SERVER_VER) ]`, the LooseVersion check piped to python); bash "
                "error format (\"%s: line %d: %s\")"),
    # A report that quotes the launcher's own code (a `def` of its functions) is about the launcher itself.
    _sig("launcher_source_quoted", r"^\s*def (?:watch_local_trainers|start_local_trainers|terminate_local_procs|"
         r"pull_worker_log|launch_collective|launch_ps|get_cluster_from_args|which_distributed_mode|"
         r"get_mapped_cluster_\w+|_prepare_trainer_env|get_device_proc_info|cpuonly_check)\(", "cause",
         CauseId.launcher_bug, 45, "def watch_local_trainers(procs, nranks):",
         title="the text quotes the launcher's own code: a report about the launcher",
         source="pp 1.8.5 paddle/distributed/utils.py; 2.0-3.3.1 paddle/distributed/fleet/launch_utils.py, "
                "utils/launch_utils.py, fleet/launch.py (the functions that start, watch and end the trainers; "
                "Paddle#44583 quotes watch_local_trainers to report its exit code 0)", most="low"),
    _sig("elastic_rank_failed", r"\bERROR rank (?P<rank>\d+) error with exit code (?P<code>-?\d+)", "launcher_failed",
         example="ELASTIC ERROR 2022-03-01 10:22:41,007 ERROR rank 1 error with exit code 1, check log for detail.",
         source="pp 2.2.2-3.3.1 paddle/distributed/fleet/elastic/manager.py LauncherInterface._check_procs "
                "(logger.error('ERROR rank {} error with exit code {}, check log for detail.') for each failed "
                "process, its global rank; logger 'ELASTIC', fmt '%(name)s %(levelname)s %(asctime)s %(message)s')"),
    _sig("launch_exit_code", r"LAUNCH INFO .* Exit code (?P<code>-?\d+)", "launcher_exit",
         example="LAUNCH INFO 2026-11-29 21:41:00,263 Exit code 1",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/controllers/controller.py (Exit code {})"),
    _sig("launch_config", r"LAUNCH INFO .* (?P<key>nproc_per_node|nnodes): (?P<val>\d+)", "launcher_config",
         example="LAUNCH INFO 2026-11-29 21:40:54,230 nproc_per_node: 2",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/context/__init__.py (prints every argument: key: value)"),
    _sig("launch_pod_failed", r"LAUNCH (?:INFO|ERROR) .* (?:Pod failed|Container failed !!!)", "launcher_note",
         example="LAUNCH ERROR 2024-03-10 00:35:50,216 Container failed !!!",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/controllers/controller.py (Pod failed / Container failed "
                "!!!)"),
    _sig("launch_pod_completed", r"LAUNCH INFO .* Pod completed", "launcher_ok",
         example="LAUNCH INFO 2026-11-29 21:41:00,262 Pod completed",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/controllers/controller.py (Pod completed)"),
    _sig("launch_killed", r"(?:Terminating with signal|Exit with signal) (?P<sig>\d+)", "launcher_killed",
         example="LAUNCH INFO 2026-11-29 21:41:00,263 Terminating with signal 15",
         source="pp 2.4.2-3.3.1, paddle/distributed/launch/main.py and controllers/controller.py (Terminating with "
                "signal {})"),
    _sig("fleet_terminate", r"terminate all the procs", "launcher_note",
         example="INFO 2020-07-21 14:44:20,106 launch_utils.py:322] terminate all the procs",
         source="pp 1.8.5 paddle/distributed/utils.py; pp 2.0.2-3.3.1 paddle/distributed/fleet/launch_utils.py "
                "terminate_local_procs (terminate all the procs)"),
    # --- gloo / collectives --------------------------------------------------------------------
    # An observation, no error of its own: the rank was in its backward pass when an exception (a collective's,
    # under DataParallel) ended it. refine/peers.py reads it beside another rank's size mismatch.
    _sig("grad_node_raised", r"While running Node \((?P<node>[^)\n]{1,80})\) raises (?:a std::exception|an unknown "
         r"exception)", "in_backward",
         example="W1207 05:02:03.441653 32202 backward.cc:697] While running Node (GradNodeAccumulation) raises a "
                 "std::exception: gloo::IoException",
         source="pp 3.3.1 so: fluid/eager/backward.cc RunBackward (While running Node (%s) raises a std::exception: "
                "%s)"),
    # Sizes differ in one collective: an uneven last evaluation batch (case 03), but as well a rank that left the
    # training loop early meeting its peers' gradient all-reduce (live1 29726, refine/peers.py), or a broadcast only
    # one rank calls paired with a peer's other collective (live3 30016): medium, the near causes as alternatives.
    _sig("gloo_size_mismatch",
         r"op\.preamble\.length <= op\.nbytes\. (?P<a>\d+) vs (?P<b>\d+)", "cause", CauseId.uneven_eval_batches, 100,
         "what():  [enforce fail at /paddle/third_party/gloo/gloo/transport/tcp/pair.cc:495] "
         "op.preamble.length <= op.nbytes. 8 vs 4", most="medium",
         title="tensor sizes differ across ranks in one collective ({a} vs {b} bytes)",
         source="pp 2.0.2-3.3.1 so: gloo/transport/tcp/pair.cc (enforce op.preamble.length <= op.nbytes)"),
    _sig("gloo_peer_closed",
         r"pair\.cc:\d+\] TIMEOUT self_rank = (?P<self>-?\d+) pair_rank = (?P<peer>-?\d+)", "peer_closed",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT "
                 "self_rank = 0 pair_rank = 1 peer_str = [127.0.0.1]:2981",
         source="pp 2.0.2-3.3.1 so: gloo/transport/tcp/pair.cc:584 (TIMEOUT self_rank = {} pair_rank = {})"),
    # A peer that died mid-transfer: the reading side sees a reset or a closed socket, the sending
    # side writev's errno (a run of case 08 showed "writev ...: Broken pipe", tests/fixtures/variants/).
    _sig("gloo_reset", r"(?:Read|Write) error \[?[\d.:\[\]]*\]?:? ?Connection reset by peer|Connection closed by peer|"
         r"\bwritev \S+: (?:Broken pipe|Connection reset by peer)|pair\.cc:\d+\] Socket (?:unexpectedly )?closed\b",
         "peer_closed",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:576] Read error "
                 "[127.0.0.1]:24502: Connection reset by peer",
         source="pp 2.0.2-2.6.2 so: gloo/transport/tcp/pair.cc (Read error {}: Connection reset by peer); pp 3.3.1 "
                "libphi_core.so: gloo/transport/tcp/pair.cc (writev {peer}: {strerror}, Read error {peer}: "
                "{strerror}, Socket closed {peer}, Socket unexpectedly closed)"),
    # gloo's I/O thread found an error already set on a pair (peer closed, read/write failed) and
    # aborted the process: the same dead connection, then a SIGABRT (tests/fixtures/variants/, case 22).
    _sig("gloo_pair_error_set", r"pair\.cc:\d+\] ex_ == nullptr", "peer_closed",
         example="  what():  [enforce fail at /paddle/third_party/gloo/gloo/transport/tcp/pair.cc:1195] ex_ == nullptr. ",
         source="pp 3.3.1 libphi_core.so strings: gloo/transport/tcp/pair.cc (GLOO_ENFORCE(ex_ == nullptr) in the "
                "device thread's event handler: an exception is already set on the pair)"),
    _sig("gloo_real_timeout", r"unbound_buffer\.cc:\d+\] TIMEOUT", "real_timeout",
         example="RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:80] TIMEOUT "
                 "self_rank = none pair_rank = -1 peer_str = none",
         source="pp 2.0.2-3.3.1 so: gloo/transport/tcp/unbound_buffer.cc:80/133 (TIMEOUT)"),
    # gloo closes a pair whose peer sent nothing within the context's timeout: the same wait as above.
    _sig("gloo_application_timeout", r"Application timeout caused pair closure|Application timeout caused pair "
         r"N4gloo9transport", "real_timeout",
         example="RuntimeError: Application timeout caused pair closure",
         source="pp 3.3.1 libphi_core.so strings: gloo/transport/tcp/pair.cc (Application timeout caused pair "
                "...: gloo closes a pair whose read or write waited out the context's timeout; strings shows the text "
                "run into the type name N4gloo9transport7ContextE beside it)"),
    # Not "NCCL ... timeout" in general: start-up lines print the timeout setting
    # ("process_group_nccl.cc:155] ProcessGroupNCCL pg_timeout_ 1800000").
    _sig("nccl_async_timeout", r"Find timeout start but not finish task|Watchdog caught collective operation timeout|"
         r"(?:NCCL|nccl)\w* (?:communicator|operation|collective|work)\b[^\n]{0,60}\btimed out", "cause",
         CauseId.collective_timeout, 70,
         "Find timeout start but not finish task: group_key:0,group_ranks:0;1,global_rank:1,comm_count:5",
         source="pp 2.5-3.x GPU so: phi/core/distributed/comm_task_manager.cc (Find timeout start but not finish "
                "task); NCCL watchdog wording of ProcessGroupNCCL"),
    # --- file locks of an earlier run (PaddleNLP's downloads and JIT-built extensions) -------------------
    _sig("lock_wait_frame", r"[/\\](?:file_lock\.py|filelock[/\\]_api\.py)\"?,? line \d+, in acquire\b|"
         r"\bacquire \(\S*(?:file_lock\.py|filelock[/\\]_api\.py):\d+\)", "hang_site",
         example='  File "/usr/local/lib/python3.8/site-packages/paddlenlp/utils/file_lock.py", line 72, in acquire',
         source="paddlenlp 2.4.0-2.4.2 paddlenlp/utils/file_lock.py FileLock.acquire (os.open(O_CREAT | O_EXCL) in a "
                "loop, time.sleep(self.delay), timeout=-1: waits forever while the file exists); filelock 3.x "
                "filelock/_api.py BaseFileLock.acquire (paddlenlp 2.5.2 utils/downloader.py); py-spy dump frames "
                "(acquire (path:line))"),
    _sig("lock_timeout", r"Could not acquire lock on (?P<path>\S+)|The file lock '(?P<path2>[^']+)' could not be "
         r"acquired|FileLockException: Timeout occured", "cause", CauseId.stale_download_lock, 88,
         "paddlenlp.utils.file_lock.FileLockException: Could not acquire lock on /root/.paddlenlp/load_ext.lock",
         title="a file lock could not be taken: a lock file (or a process) of an earlier run holds it",
         source="paddlenlp 2.4.0-2.4.2 paddlenlp/utils/file_lock.py (FileLockException('Could not acquire lock on "
                "{}'), FileLockException('Timeout occured.')); filelock 3.x filelock/_error.py Timeout (The file "
                "lock '{}' could not be acquired.)"),
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
         r"(?P<signal>[A-Z][\w -]*\w|\d+)", "cause", CauseId.dataloader_worker_crash, 85,
         "SystemError: (Fatal) DataLoader process (pid 2730) exited is killed by signal: Segmentation fault. "
         "(at /paddle/paddle/fluid/imperative/data_loader.cc:188)",
         title="a DataLoader worker was killed by signal: {signal}",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (... is killed by signal: %s.)"),
    _sig("dl_worker_exited", r"DataLoader (?:process|worker) \(pid\S* ?[\d, ]*\) exited unexpectedly|"
         r"Unexpected (?P<what>segmentation fault|floating-point exception) encountered in DataLoader worker",
         "cause", CauseId.dataloader_worker_crash, 82,
         "SystemError: (Fatal) DataLoader process (pid 3021) exited unexpectedly with code 1. Error detailed are "
         "lost due to multiprocessing.",
         title="a DataLoader worker process died",
         source="pp 1.8.5-3.3.1 so: fluid/imperative/data_loader.cc (DataLoader process (pid %ld) exited unexpectedly "
                "with code %d. Error detailed are lost due to multiprocessing.); fluid/imperative/data_loader.cc "
                "signal handlers (ERROR: Unexpected segmentation fault encountered in DataLoader workers.)"),
    # The DataLoader's default collate stacks a batch's numpy samples with np.stack, which refuses samples of
    # different shapes (images of several sizes, sequences of several lengths without padding). Medium: user code
    # that calls np.stack itself raises the same words.
    _sig("collate_shapes_differ", r"\bValueError: all input arrays must have the same shape", "cause",
         CauseId.dataloader_worker_crash, 72,
         "ValueError: all input arrays must have the same shape",
         title="the DataLoader could not stack a batch: its samples have different shapes",
         source="pp 2.0-3.3.1 paddle/io/dataloader/collate.py (1.8.5-2.4 fluid/dataloader/collate.py) "
                "default_collate_fn (np.stack(batch, axis=0)); numpy 1.10-2.x numpy/(_)core/shape_base.py stack "
                "(ValueError('all input arrays must have the same shape'))", most="medium"),
    _sig("launcher_python_missing", r"No such file or directory: '(?:[\w./\\:-]*[/\\])?python[\d.]*(?:\.exe)?'",
         "cause", CauseId.launcher_python_not_found, 97,
         "FileNotFoundError: [Errno 2] No such file or directory: 'python'",
         title="the launcher could not start a worker: no `python` interpreter on PATH",
         source="pp 2.4.2-3.3.1 paddle/distributed/launch/job/container.py and fleet/launch_utils.py "
                "start_local_trainers (subprocess.Popen of the worker command); CPython FileNotFoundError "
                "([Errno 2] No such file or directory: %r) for the missing executable (Paddle#47559)"),
    # The shell that was to run a worker finds no python on PATH.
    _sig("shell_python_not_found", r"(?:^|\s)(?:/bin/)?(?:ba|da|z)?sh(?:: line \d+|: \d+)?:\s*(?:\d+:\s*)?python[\d.]*\s*"
         r"[:：]\s*(?:command not found|not found|未找到命令)|^'python[\d.]*(?:\.exe)?' (?:is not recognized as an "
         r"internal or external command|不是内部或外部命令)", "cause", CauseId.launcher_python_not_found, 90,
         "bash: python: command not found",
         title="the shell that runs the worker found no `python` on PATH",
         source="bash 5 execute_cmd.c (%s: command not found; zh_CN: %s：未找到命令), dash (%s: %d: %s: not found), as "
                "the workers' shells print them (Paddle#47559's workerlog); Windows cmd.exe ('%s' is not recognized as "
                "an internal or external command, ...; zh-CN '%s' 不是内部或外部命令，也不是可运行的程序)"),
    # A start script's own line ("./run.sh: line 12: python3: command not found") or zsh's order ("zsh: command not
    # found: python"): as often a user's first try, followed by one that ran, so below any error that comes after it.
    _sig("script_python_not_found", r"(?:^|\s)[^\s:]{1,200}: line \d+: python[\d.]*: command not found|(?:^|\s)(?:zsh|"
         r"[^\s:]{0,200}\.sh)(?::\d+)?: command not found: python[\d.]*\s*$", "cause", CauseId.launcher_python_not_found,
         45, "./run.sh: line 12: python3: command not found",
         title="the script found no `python` on PATH (if a later command ran it, look past this line)", most="medium",
         source="bash 5 execute_cmd.c (a script's \"%s: line %d: %s: command not found\"), zsh (\"zsh: command not "
                "found: %s\"; a script's \"<name>:<line>: command not found: %s\")"),
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
    # os.environ[...] of an unset variable raises KeyError naming it: the variable says whose setting is missing
    # (the launcher's own variables, FLAGS_selected_gpus included, are read by anatomy's TYPE_BY_MODULE).
    _sig("device_env_keyerror", r"\bKeyError: (?:\\?['\"])(?P<var>CUDA_VISIBLE_DEVICES)\\?['\"]",
         "cause", CauseId.cuda_visible_devices_misconfig, 90, "KeyError: 'CUDA_VISIBLE_DEVICES'",
         title="the code reads {var} from its environment, and this process has no such variable",
         source="CPython Lib/os.py _Environ.__getitem__ (raise KeyError(key) from None for an unset variable); "
                "PaddleHub 1.x-2.x modules/*/module.py read os.environ[\"CUDA_VISIBLE_DEVICES\"] when use_gpu=True"),
    _sig("selected_devices_not_set", r"environment variable (?P<var>\S+) is needed, but "
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
    _sig("fleet_local_ip_loopback", r"(?i)can.t find your local ip \{(?P<ip>127\.[\d.]+)\} in "
         r"(?:node_ips|args\.servers)", "cause",
         CauseId.wrong_host_ip, 96, "AssertionError: Can't find your local ip {127.0.1.1} in node_ips: {['10.0.0.1', "
         "'10.0.0.2']}", title="this node found its own address as {ip} (a loopback entry for its hostname), "
         "which is not in --ips",
         source="pp 2.4.2 paddle/distributed/fleet/launch.py, launch_utils.py get_cluster_from_args (assert node_ip "
                "in node_ips, \"Can't find your local ip {%s} in node_ips: {%s}\"; node_ip from get_host_name_ip); "
                "pp 2.1-2.4 launch_utils.py ParameterServerLauncher (... in args.servers and args.workers ips)"),
    _sig("fleet_local_ip_not_in_ips", r"(?i)can.t find your local ip \{(?P<ip>[^}]*)\} in (?:node_ips|args\.servers)",
         "cause", CauseId.config_error, 92, "AssertionError: Can't find your local ip {10.0.0.3} in node_ips: "
         "{['10.0.0.1', '10.0.0.2']}", title="this node ({ip}) is not in the --ips list it was launched with",
         source="pp 2.4.2 paddle/distributed/fleet/launch.py, launch_utils.py get_cluster_from_args and "
                "ParameterServerLauncher (Can't find your local ip {%s} in node_ips: {%s})"),
    _sig("fleet_server_not_ready", r"not ready endpoints:\s*\[", "rendezvous_retry",
         example="not ready endpoints:['0.1.68.146:38149', '0.1.68.146:35087', '0.1.68.146:56455']",
         source="pp 2.0.2-2.6.2 paddle/distributed/fleet/base/private_helper_function.py wait_server_ready "
                "(server not ready, wait 3 sec to retry... / not ready endpoints:%s)"),
    _sig("launch_peer_wait", r"LAUNCH (?:INFO|WARNING) .* (?P<what>Waiting peer start|master not ready)", "peer_wait",
         example="LAUNCH WARNING 2024-05-24 11:30:40,681 master not ready",
         source="pp 2.4.2-3.3.1 paddle/distributed/launch/controllers/master.py sync_peers (logger.info('Waiting "
                "peer start...'); logger.warning('master not ready') while the master's store does not answer)"),
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
    # --- ports the launcher chose (its env table, its configuration block) --------------------------------
    _sig("fleet_env_endpoints", r"^\s*\|\s*(?P<key>PADDLE_TRAINER_ENDPOINTS|PADDLE_CURRENT_ENDPOINT)\s+"
         r"(?P<eps>(?:\.\.\. )?[\w.\-]+:\d+(?:,[\w.\-]+:\d+)*)\s*\|", "launcher_ports",
         example="    |                PADDLE_TRAINER_ENDPOINTS  127.0.0.1:45785,127.0.0.1:36721     |",
         source="pp 2.0.2-2.6.2 paddle/distributed/fleet/launch_utils.py pretty_print_envs (the 'Distributed Envs' "
                "table of the first process: '|{:>40s}{}{:^45s}|', values of 45 characters or more cut to '... ' + "
                "their last 41)"),
    _sig("launch_master_config", r"LAUNCH INFO .* (?P<key>master|start_port): (?P<val>\S+)\s*$", "launcher_ports",
         example="LAUNCH INFO 2024-05-24 11:30:40,681 master: None",
         source="pp 2.4.2-3.3.1 paddle/distributed/launch/context/__init__.py print (logger.info(f'{arg}: {value}') "
                "for every argument; --master default None, --start_port default 6070 in context/args_envs.py)"),
    _sig("launch_started_port", r"^started_port: (?P<val>\S+)\s*$", "launcher_ports",
         example="started_port: None",
         source="pp 1.8.5-2.0 paddle/distributed/launch.py _print_arguments (print(\"%s: %s\" % (arg, value))); with "
                "started_port None, get_cluster_from_args takes find_free_ports(len(selected_gpus)) (utils.py)"),
    # Paddle 0.x splits the parameters into blocks over every pserver port; a port that gets no block warns, then waits
    # forever for gradients (the job hangs, this its only sign): more ports or pservers than the parameters fill.
    _sig("pserver_port_without_parameters", r"--ports_num or --ports_num_for_sparse might be too large, or total "
         r"dense parameter size or sparse parameters size might be too small", "context", CauseId.config_error, 80,
         "W0522 12:00:09.495564 35864 ParameterServer2.cpp:269] --ports_num or --ports_num_for_sparse might be too "
         "large, or total dense parameter size or sparse parameters size might be too small, this psever doesn't "
         "store any parameter.",
         title="a parameter server port got no parameters: --ports_num / --ports_num_for_sparse (or the number of "
               "pservers) is too large for the model",
         source="pp 0.10-0.11 paddle/pserver/ParameterServer2.cpp ParameterServer2::setParameter (if "
                "(!request.blocks().size()) { LOG(WARNING) << \"--ports_num or --ports_num_for_sparse might be too "
                "large, \" << \"or total dense parameter size or sparse parameters size \" << \"might be too small, "
                "this psever doesn't store any parameter.\"; return; }), then addGradient waits for a pass that "
                "never comes (the code as quoted in Paddle#2224)"),
    # --- samplers: fewer samples than devices -------------------------------------------------------------
    _sig("sampler_total_size", r"assert len\(indices\) == self\.total_size|"
         r"assert last_batch_size % self\.nranks == 0|assert len\(indices\) == self\.num_samples", "cause",
         CauseId.sampler_too_few_samples, 95, "    assert len(indices) == self.total_size",
         title="DistributedBatchSampler: the dataset has too few samples for this many ranks",
         source="pp 2.0.2-2.4.2 paddle/fluid/dataloader/batch_sampler.py, 2.6.2-3.3.1 paddle/io/dataloader/"
                "batch_sampler.py DistributedBatchSampler.__iter__ (assert len(indices) == self.total_size)"),
    _sig("feed_fewer_samples_than_devices", r"(?i)samples(?:\[[^\]]*\])? of (?:the )?current batch is less "
         r"than the count(?:\(\d+\))? of devices", "cause", CauseId.sampler_too_few_samples, 95,
         "InvalidArgumentError: The number(1) of samples[image] of current batch is less than the count(2) of "
         "devices(GPU), currently, it is not allowed.",
         title="a batch has fewer samples than there are devices (the last batch of a small dataset)",
         source="pp 1.8.5-2.4.2 so: framework/parallel_executor.cc FeedAndSplitTensorIntoLocalScopes (The "
                "number(%d) of samples[%s] of current batch is less than the count(%d) of devices(%s)); pp 0.14-1.5 "
                "parallel_executor.cc (The number of samples of current batch is less than the count of devices, "
                "currently, it is not allowed. (%d vs %d))"),
    # --- the data or the config the run was given: labels beyond the classes, a component no one registered ----
    # The loss checks each target against the logits' classes: labels >= num_classes (masks saved as 0/255 or as JPEG,
    # ids from 1) that ignore_index does not cover. Medium: the data or num_classes may be the fault.
    _sig("label_beyond_classes", r"\bTarget .{0,120}?is out of (?:class_dimension's )?(?:upper|lower) bound|label "
         r"should not out of bound, but got|The value of label(?:\[\d+\])? expected >= 0 and < \d+, or == -?\d+",
         "cause", CauseId.config_error, 85, "ValueError: Target 2 is out of upper bound.",
         title="a label is outside [0, num_classes): the labels do not fit the configured number of classes",
         source="pp 2.3-2.6 python/paddle/nn/functional/loss.py cross_entropy (raise ValueError(\"Target {} is out of "
                "upper bound.\".format(label_max.item()))); pp 2.1-2.2 loss.py (\"label should not out of bound, but "
                "got{}\".format(label_max)); pp 2.3+ phi/kernels/gpu/cross_entropy_kernel.cu (The value of label "
                "expected >= 0 and < %ld, or == %ld, but got %ld. Please check label value.); pp 1.8-2.2 fluid/"
                "operators/softmax_with_cross_entropy_op.cu (The value of label[%d] expected >= 0 and < %ld, or == "
                "%ld,but got %ld. Please check input value.)", most="medium"),
    # PaddleSeg's AUC-ROC metric refuses labels it cannot score: an ignore_index passed, or more distinct values
    # in the label images than num_classes (a background class not counted, masks saved as 0/255).
    _sig("seg_auc_labels_unsupported", r"labels with ignore_index is not supported yet", "cause",
         CauseId.config_error, 85, "RuntimeError: labels with ignore_index is not supported yet.",
         title="the AUC-ROC metric got labels it cannot score: more label values than num_classes, or an "
               "ignore_index", source="PaddleSeg 2.1-2.10 paddleseg/utils/metrics.py auc_roc (if ignore_index or "
         "len(np.unique(label)) > num_classes: raise RuntimeError('labels with ignore_index is not supported yet.'))",
         most="medium"),
    # A config naming a component (dataset, model, loss, transform) the running suite never registered: another
    # suite's or a contrib folder's component (run from the wrong tools/), a misspelt type, an older release.
    _sig("config_component_unregistered", r"The specified component was not found (?P<com>\w+)|\b(?P<item>\w+) does not "
         r"exist in availabel (?P<kind>\w+)", "cause",
         CauseId.config_error, 85, "RuntimeError: The specified component was not found MattingDataset.",
         title="the config names a component ({com}{item}) the running suite has not registered (PaddleDetection's: "
               "tools/suite_data.py)",
         source="PaddleSeg 2.x paddleseg/cvlibs/config.py Config._load_component (raise RuntimeError('The specified "
                "component was not found {}.'.format(com_name)) when no manager of paddleseg.cvlibs.manager holds it), "
                "cvlibs/manager.py ComponentManager.__getitem__ (KeyError(\"{} does not exist in availabel {}\"))",
         most="medium"),
    # --- builds without NCCL ------------------------------------------------------------------------------
    _sig("no_nccl_context", r"has no attribute '(?:NCCLParallelContext|NCCLCommContext)\b", "cause",
         CauseId.windows_no_nccl, 100,
         "AttributeError: module 'paddle.fluid.core_avx' has no attribute 'NCCLParallelContext'",
         title="this Paddle build has no NCCL (CPU and Windows builds never do)",
         source="pp 1.8.5-2.4.2 paddle/fluid/dygraph/parallel.py, 2.6.2-3.3.1 paddle/distributed/collective.py "
                "(core.NCCLParallelContext exists only in Linux GPU builds)"),
    # The dygraph communicator set-up of 1.8-2.x prints this once per rank before the first collective: a job
    # whose text stops here never finished it (rules/setup.py stopped_at_nccl_init).
    _sig("nccl_comm_init", r"init nccl context nranks: (?P<nranks>\d+) local rank: (?P<local>[\d/]+)", "nccl_init", None,
         0, "I0302 02:01:36.274989 31267 nccl_context.cc:83] init nccl context nranks: 4 local rank: 0 gpu id: 0 "
         "ring id: 0", title="NCCL communicator set-up ({nranks} ranks)",
         source="pp 1.8-2.x fluid/imperative/nccl_context.cc NCCLParallelContext::Init (VLOG(0) << \"init nccl "
                "context nranks: \" << strategy_.nranks_ << \" local rank: \" << strategy_.local_rank_ << ...)"),
    # --- the environment a report shows: facts, not errors (refine/versions.py compares them) --------------------
    # tools/summary_env.py's report (Paddle's issue template): "CUDA version" is nvcc's, the driver nvidia-smi's. Anchored:
    # the first match wins; errors that print a version ("CUDA Driver Version: 10.1" after error 35) have rows of their own.
    _sig("env_report_cuda", r"^\s*CUDA version: (?P<cuda>\d+\.\d+)(?:\.\d+)?\s*$", "version_banner",
         example="CUDA version: 11.2.142",
         source="pp 2.x-3.x tools/summary_env.py envs_template ('CUDA version: {cuda_version}', from `nvcc --version`)"),
    _sig("env_report_driver", r"(?:^\s*Nvidia driver version: |NVIDIA-SMI [\d.]+\s+Driver Version: )"
         r"(?P<driver>\d+\.\d+(?:\.\d+)?)(?=\s|$)",
         "version_banner", example="Nvidia driver version: 440.33.01",
         source="pp 2.x-3.x tools/summary_env.py envs_template ('Nvidia driver version: {nvidia_driver_version}', "
                "read from nvidia-smi's 'Driver Version: %s' header)"),
    *COMMAND_LINE_ROWS,
)
