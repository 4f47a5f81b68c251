"""The differential diagnosis: for each cause, the causes most often mistaken for it, why they fit
the same text, and the check that tells them apart. ``rootcause`` attaches up to two to every
verdict (JSON ``root_cause.alternatives``, text "also possible").

A data table: a cause's alternatives are the ones that produce the same log lines, not the ones
that are merely related. Confidence of an alternative is always below the verdict's.
"""

from __future__ import annotations

from ..findings import Alternative, Confidence
from ..catalog.ids import CauseId

MAX_ALTERNATIVES = 2

# cause -> ((other cause, why it fits the same text, the check that tells them apart), ...)
CONFUSABLE: dict[str, tuple[tuple[str, str, str], ...]] = {
    CauseId.python_exception: (
        (CauseId.dataloader_worker_crash, "the exception may have been raised in a DataLoader worker and re-raised",
         "the traceback shows `DataLoader worker(N) caught` or `worker.py` frames"),
        (CauseId.config_error, "an exception at start-up is often a wrong argument or config value",
         "the failing frame reads a config file or argparse value"),
    ),
    CauseId.gpu_oom: (
        (CauseId.stale_process_holding_gpu, "another process may hold the GPU memory",
         "`nvidia-smi` before the run: memory used with no job of yours running"),
        (CauseId.cuda_visible_devices_misconfig, "several ranks may share one GPU",
         "print CUDA_VISIBLE_DEVICES and paddle.device.get_device() on every rank"),
    ),
    CauseId.stale_process_holding_gpu: (
        (CauseId.gpu_oom, "the job itself may need more memory than the GPU has",
         "`nvidia-smi` shows the GPU empty before the run, and the error comes after the first steps"),
        (CauseId.cuda_visible_devices_misconfig, "several ranks may be placed on one GPU",
         "print CUDA_VISIBLE_DEVICES and paddle.device.get_device() on every rank"),
    ),
    CauseId.host_oom_killed: (
        (CauseId.segfault, "a native crash also ends a process without a Python traceback",
         "`dmesg -T | grep -i -E 'killed process|segfault'` names which one"),
        (CauseId.dataloader_worker_crash, "a DataLoader worker may have died for another reason",
         "the worker's exit signal: Killed (SIGKILL, OOM) or another"),
    ),
    CauseId.shm_too_small: (
        (CauseId.dataloader_worker_crash, "a worker may have crashed for another reason",
         "`df -h /dev/shm` during the run; rerun with use_shared_memory=False"),
        (CauseId.host_oom_killed, "the host may be out of memory rather than /dev/shm",
         "`dmesg -T | grep -i 'killed process'`"),
    ),
    CauseId.dataloader_worker_crash: (
        (CauseId.shm_too_small, "a worker that dies of a bus error ran out of /dev/shm",
         "`df -h /dev/shm`; rerun with use_shared_memory=False"),
        (CauseId.host_oom_killed, "the kernel OOM killer ends workers first",
         "`dmesg -T | grep -i 'killed process'`"),
    ),
    CauseId.too_many_open_files: (
        (CauseId.dataloader_worker_crash, "the workers fail when they cannot pass a batch",
         "`ulimit -n` (raise it) and the worker's own traceback"),
    ),
    CauseId.uneven_eval_batches: (
        (CauseId.rank_divergent_collective, "the ranks may call different collectives, not only different counts",
         "print the collective sequence per rank (`paddle-doctor run --trace`)"),
        (CauseId.sampler_too_few_samples, "a sampler may give ranks different batch counts",
         "print len(loader) on every rank"),
    ),
    CauseId.rank_divergent_collective: (
        (CauseId.uneven_eval_batches, "one rank may have run one more batch (one more collective)",
         "print len(loader) on every rank"),
        (CauseId.dataloader_worker_crash, "a peer may be stuck in its DataLoader instead of elsewhere",
         "the peer's SIGTERM crash dump shows ReadNextList / BlockingQueue"),
    ),
    CauseId.collective_timeout: (
        (CauseId.rank_divergent_collective, "a peer may be in a different collective",
         "compare the last collective of every rank (`paddle-doctor run --trace`)"),
        (CauseId.dataloader_worker_crash, "a peer may be stuck reading data",
         "the peer's log or stack dump shows the DataLoader"),
    ),
    CauseId.nccl_error: (
        (CauseId.nccl_network_interface, "NCCL may use an interface the peers cannot reach",
         "rerun with NCCL_DEBUG=INFO: the `NET/Socket : Using` line names the interface; set NCCL_SOCKET_IFNAME"),
        (CauseId.nccl_version_mismatch, "NCCL, CUDA or the driver may not match",
         "NCCL_DEBUG=INFO prints `NCCL version`; compare with `nvidia-smi` and on every node"),
    ),
    CauseId.nccl_version_mismatch: (
        (CauseId.cuda_cudnn_mismatch, "the driver may be too old for the CUDA of the Paddle build itself",
         "`nvidia-smi` (driver's CUDA) vs `paddle.version.cuda()`"),
        (CauseId.nccl_error, "another NCCL failure", "NCCL_DEBUG=INFO on every rank"),
    ),
    CauseId.nccl_network_interface: (
        (CauseId.nccl_error, "another NCCL failure", "NCCL_DEBUG=INFO on every rank"),
        (CauseId.wrong_host_ip, "the ranks may have been given addresses they cannot reach",
         "compare --ips / PADDLE_TRAINER_ENDPOINTS with `hostname -I` on every node"),
    ),
    CauseId.nccl_library_missing: (
        (CauseId.windows_no_nccl, "the build may have no NCCL at all", "`paddle.is_compiled_with_cuda()`, the OS"),
    ),
    CauseId.cuda_cudnn_mismatch: (
        (CauseId.nccl_version_mismatch, "the NCCL library may be the one that does not match",
         "NCCL_DEBUG=INFO prints `NCCL version`"),
        (CauseId.cuda_error_other, "the CUDA error may have another reason", "rerun with CUDA_LAUNCH_BLOCKING=1"),
    ),
    CauseId.cuda_error_other: (
        (CauseId.cuda_cudnn_mismatch, "a driver or runtime that does not match the build fails the same way",
         "`python -c 'import paddle; paddle.utils.run_check()'`"),
        (CauseId.gpu_oom, "an allocation failure may surface as a CUDA error",
         "watch `nvidia-smi` during the run"),
    ),
    CauseId.cuda_arch_unsupported: (
        (CauseId.cuda_cudnn_mismatch, "the wheel may be built for another CUDA", "`paddle.version.cuda()`, `nvidia-smi`"),
    ),
    CauseId.device_not_found: (
        (CauseId.cuda_visible_devices_misconfig, "CUDA_VISIBLE_DEVICES may hide or renumber the GPUs",
         "`echo $CUDA_VISIBLE_DEVICES` and `nvidia-smi -L` in the same shell"),
    ),
    CauseId.cuda_visible_devices_misconfig: (
        (CauseId.device_not_found, "the machine or container may have no usable GPU at all",
         "`nvidia-smi -L`; in Docker, was it started with --gpus?"),
    ),
    CauseId.residual_dist_env: (
        (CauseId.missing_dist_env, "the launcher's variables may be missing rather than left over",
         "`env | grep -E '^(PADDLE_|FLAGS_selected)'` in the shell that ran it"),
        (CauseId.wrong_host_ip, "the peers may exist but be unreachable",
         "was this started by a launcher with several nodes?"),
    ),
    CauseId.missing_dist_env: (
        (CauseId.residual_dist_env, "some PADDLE_* variables may be left over from another job",
         "`env | grep -E '^(PADDLE_|FLAGS_selected)'`"),
    ),
    CauseId.wrong_host_ip: (
        (CauseId.residual_dist_env, "leftover PADDLE_* variables make a process wait for peers that do not exist",
         "`env | grep PADDLE_` in the shell that ran it"),
        (CauseId.port_in_use, "the store's port may be taken", "`ss -ltnp | grep PORT`"),
    ),
    CauseId.config_error: (
        (CauseId.wrong_host_ip, "the nodes may disagree on addresses", "compare the launch command on every node"),
    ),
    CauseId.port_in_use: (
        (CauseId.stale_process_holding_gpu, "a leftover process from an earlier run may hold the port",
         "`ss -ltnp | grep PORT` names the process"),
    ),
    CauseId.file_not_found: (
        (CauseId.config_error, "the path may come from a config value", "print the path the script builds"),
    ),
    CauseId.main_guard_missing: (
        (CauseId.python_exception, "the child may fail for its own reason",
         "the child's traceback past spawn_main names the error"),
    ),
    CauseId.segfault: (
        (CauseId.cuda_error_other, "a CUDA fault may end in a native crash", "rerun with CUDA_LAUNCH_BLOCKING=1"),
        (CauseId.host_oom_killed, "a killed process also ends without a Python traceback",
         "`dmesg -T | grep -i -E 'killed process|segfault'`"),
    ),
    CauseId.sampler_too_few_samples: (
        (CauseId.config_error, "the device count may be wrong rather than the dataset small",
         "print len(dataset) and the world size"),
    ),
    CauseId.windows_no_nccl: (
        (CauseId.device_not_found, "a CPU-only build has no NCCL either", "`paddle.is_compiled_with_cuda()`"),
    ),
    CauseId.launcher_bug: (
        (CauseId.python_exception, "a trainer's own exception may be what the launcher mishandled",
         "the trainer's workerlog"),
    ),
    CauseId.state_dict_prefix_mismatch: (
        (CauseId.state_dict_shape_mismatch, "shapes may differ as well as names", "compare keys and shapes"),
    ),
    CauseId.state_dict_shape_mismatch: (
        (CauseId.state_dict_prefix_mismatch, "some keys may not match at all", "compare keys"),
    ),
    CauseId.dataparallel_unused_parameters: (
        (CauseId.rank_divergent_collective, "the ranks may run different branches", "compare the forward path per rank"),
    ),
}

_LOWER = {Confidence.HIGH: Confidence.LOW, Confidence.MEDIUM: Confidence.LOW, Confidence.LOW: Confidence.LOW}


def alternatives_for(cause: str, confidence: Confidence, exclude: tuple[str, ...] = (),
                     first: tuple[Alternative, ...] = ()) -> tuple[Alternative, ...]:
    """Up to two alternatives: ``first`` (the ones the evidence itself suggests), then the table's."""
    out = list(first)
    seen = {cause, *exclude, *(a.cause for a in first)}
    for other, why, confirm in CONFUSABLE.get(cause, ()):
        if other not in seen:
            out.append(Alternative(other, _LOWER[Confidence(confidence)], why, confirm))
            seen.add(other)
    return tuple(out[:MAX_ALTERNATIVES])
