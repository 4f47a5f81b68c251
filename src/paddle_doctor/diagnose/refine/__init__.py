"""The refiners: facts that amend a chosen verdict. A rule of :mod:`..rules` picks an error line; a
refiner asks whether a fact elsewhere in the text explains it (a port the launcher chose, an earlier
warning, two NCCL versions, leftover launcher variables, a Windows host, a loopback endpoint), and
the launch's device facts re-state a generic error as the device cause they contradict. Each
refiner is declared here (:data:`REFINERS`, the protocol of :mod:`paddle_doctor.rules`) and shown
by ``paddle-doctor explain``."""

from __future__ import annotations

from ...catalog.ids import CauseId
from ..verdict import declare
from .context import explained_by_context, leftover_env, set_for_this_run
from .crash import explained_by_earlier_error
from .devices import with_device_facts
from .peers import (explained_by_child_rerun, explained_by_empty_share, explained_by_oom_kill,
                    explained_by_peers_in_backward)
from .platform import explained_by_loopback, explained_by_windows
from .ports import explained_by_port_race
from .versions import explained_by_lite_versions, explained_by_nccl_versions, explained_by_old_driver

REFINERS = (
    declare("child_reran_the_script", CauseId.main_guard_missing,
            "the process that failed to bind the rendezvous port is one of the rank's DataLoader workers: it ran the "
            "script's top level (no __main__ guard under spawn)", explained_by_child_rerun, "tests/built/live1/29729"),
    declare("oom_killed_a_worker", CauseId.host_oom_killed,
            "the kernel's OOM report (dmesg) killed a pid the rank's DataLoader lists among its dead workers",
            explained_by_oom_kill, "tests/built/built1/29633"),
    declare("empty_share_on_one_rank", CauseId.sampler_too_few_samples,
            "a ZeroDivisionError by a length on one rank while the other ranks did not divide by zero: that rank's "
            "share of the data was empty", explained_by_empty_share, "tests/built/built2/29663"),
    declare("peers_in_backward", CauseId.uneven_train_batches,
            "a rank's collective met tensors of another size while its peers were in their backward pass: it had "
            "left the training loop with fewer steps", explained_by_peers_in_backward, "tests/built/live1/29726"),
    declare("launcher_chose_the_port", CauseId.launcher_port_race,
            "the port that was in use is one the launcher chose itself (its free-port race)",
            explained_by_port_race, "tests/fixtures/wild/port_race_launch262"),
    declare("explained_by_warning", None,
            "an earlier warning names the cause of a later generic error (a version mismatch, no driver)",
            explained_by_context, "corpus:real-dev2/030",
            defers_to="the earlier warning's log signature"),
    declare("crash_after_error", None,
            "a native crash summary (segmentation fault) after an earlier error of the same process that names "
            "a specific cause: that cause, the crash as its alternative", explained_by_earlier_error,
            "tests/fixtures/gathered/batch5/501.log",
            defers_to="the earlier error's log signature or the error tables that read its structure"),
    declare("nccl_banner_mismatch", CauseId.nccl_version_mismatch,
            "the ranks' NCCL banners name two or more versions, and the later NCCL error is what that leads to",
            explained_by_nccl_versions, "NCCL INFO banners of two versions before an NCCL error"),
    declare("lite_opt_runtime_versions", CauseId.paddle_api_mismatch,
            "Paddle-Lite warned that another opt release made the model, then lacked a kernel it needs: the library "
            "and the opt are of two releases", explained_by_lite_versions,
            "tests/gathered-partial/batch53/5343.log"),
    declare("driver_older_than_cuda", CauseId.cuda_cudnn_mismatch,
            "no usable GPU (or a CUDA status with no reason) where the text's environment report pairs a CUDA "
            "toolkit with a driver older than NVIDIA's floor for it", explained_by_old_driver,
            "tests/fixtures/gathered/batch33/3310.log", also=(CauseId.device_not_found,)),
    declare("leftover_paddle_env", CauseId.residual_dist_env,
            "a process with no launcher waited for peers while the text shows leftover PADDLE_* variables",
            leftover_env, "a single process's missing-environment error after PADDLE_TRAINER_* lines"),
    declare("env_set_by_hand", CauseId.missing_dist_env,
            "Paddle found a launcher variable unset while the run's own command sets the others (a shell trace's "
            "export, a scheduler's command): set by hand and incomplete, not left over", set_for_this_run,
            "tests/built/built2/29678"),
    declare("windows_distributed", CauseId.windows_no_nccl,
            "a distributed error on a Windows host, where Paddle has no NCCL",
            explained_by_windows, "a distributed error under Windows paths"),
    declare("loopback_endpoint", CauseId.wrong_host_ip,
            "the endpoints mix loopback and real addresses: a node advertised 127.x",
            explained_by_loopback, "endpoints 127.0.1.1 and 10.x in one job before a connection error"),
    declare("launch_devices_contradict", CauseId.cuda_visible_devices_misconfig,
            "the launch's device facts (--gpus, CUDA_VISIBLE_DEVICES, the selected ids) contradict each other "
            "before a generic error", with_device_facts,
            "a CUDA error after --gpus that lists ids CUDA_VISIBLE_DEVICES does not show",
            also=(CauseId.device_not_found,)),
    declare("cpu_run_found_no_gpu", CauseId.device_not_found,
            "CUDA found no device in a run that asked for no GPU (--use_gpu=false, --device cpu) and selected "
            "none: no device list hid one it needed", with_device_facts, "tests/fixtures/gathered/batch3/318.log"),
    declare("visible_devices_hide_all", CauseId.cuda_visible_devices_misconfig,
            "CUDA found no device at all while the text shows CUDA_VISIBLE_DEVICES set: the list hid every GPU",
            with_device_facts, "tests/unit/test_diagnose_warned_crash.py"),
    declare("visible_devices_renumbered", CauseId.cuda_visible_devices_misconfig,
            "a device check refused GPU id N, which CUDA_VISIBLE_DEVICES lists as a label but not as an index "
            "(the process numbers the visible GPUs from 0)", with_device_facts,
            "tests/fixtures/gathered/batch15/1513.log"),
)
