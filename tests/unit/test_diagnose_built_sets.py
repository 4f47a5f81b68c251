"""Readings made for the sets built blind (tests/built: live1, live reproductions under Paddle 3.3.1's real launchers;
built2, logs of Paddle 2.5.2 and 3.3.1), on the cases' own logs and on edits of them that take away the one fact
each reading rests on."""

import shutil
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

BUILT = Path(__file__).resolve().parents[2] / "tests" / "built"
LIVE1, BUILT2 = BUILT / "live1", BUILT / "built2"


def _verdict(path: Path):
    rc = diagnose_paths([str(path)]).root_cause
    return rc.cause, rc.ranks[0] if rc.ranks else None, rc.confidence.value, rc.code


def _edited(tmp_path: Path, case: str, log: str, old: str, new: str, folder: Path = LIVE1) -> Path:
    """A copy of the case with ``old`` replaced by ``new`` in one of its files (asserting it was there)."""
    out = tmp_path / case
    shutil.copytree(folder / case, out, ignore=shutil.ignore_patterns("script"))
    text = (out / log).read_text()
    assert old in text
    (out / log).write_text(text.replace(old, new))
    return out


def test_a_size_mismatch_while_the_peers_are_in_their_backward_pass_is_uneven_training():
    # 5 training files split [rank::3]: rank 2 leaves the epoch first and meets its peers' gradient all-reduce
    assert _verdict(LIVE1 / "29726") == ("uneven_train_batches", 2, "medium", "peers_in_backward")


def test_a_size_mismatch_with_no_peer_in_its_backward_pass_stays_an_uneven_evaluation(tmp_path):
    case = _edited(tmp_path, "29726", "log/workerlog.0", "While running Node (GradNodeAccumulation) raises", "x")
    victim = case / "log" / "workerlog.1"
    victim.write_text(victim.read_text().replace("While running Node (GradNodeAccumulation) raises", "x"))
    assert _verdict(case)[:2] == ("uneven_eval_batches", 2)


def test_a_size_mismatch_on_a_rank_itself_in_its_backward_pass_is_not_read_as_having_left(tmp_path):
    line = ("W1207 05:02:03.441000 32204 backward.cc:697] While running Node (GradNodeAccumulation) raises a "
            "std::exception: gloo::EnforceNotMet\n")
    case = _edited(tmp_path, "29726", "log/workerlog.2", "terminate called after", line + "terminate called after")
    assert _verdict(case)[3] != "peers_in_backward"


def test_a_dataloader_worker_that_binds_the_rendezvous_port_is_a_missing_main_guard():
    assert _verdict(LIVE1 / "29729") == ("main_guard_missing", 0, "high", "child_reran_the_script")


def test_a_bind_failure_of_a_process_no_dataloader_lists_is_no_missing_guard(tmp_path):
    case = _edited(tmp_path, "29729", "log/workerlog.0", "pids: 32675, 32676", "pids: 41001, 41002")
    assert _verdict(case)[0] != "main_guard_missing"


def test_a_peer_that_exited_before_a_once_called_collective_never_called_it():
    # rank 1 alone calls broadcast_object_list after rank 0 finished and exited
    assert _verdict(LIVE1 / "29707") == ("rank_divergent_collective", 1, "medium",
                                         "exited_before_a_once_called_collective")


def test_a_peer_that_exited_before_a_per_batch_collective_ran_fewer_batches(tmp_path):
    case = _edited(tmp_path, "29707", "log/workerlog.1", "in broadcast_object_list\n", "in all_gather\n")
    assert _verdict(case)[:2] == ("uneven_eval_batches", 1)


def test_a_barrier_that_timed_out_while_the_peer_was_busy_is_a_collective_timeout():
    # rank 0 copies a checkpoint for 40 s; rank 1 waits in barrier() (gloo's fixed 30 s)
    # the rank named is the busy one the other waited for
    assert _verdict(LIVE1 / "29718") == ("collective_timeout", 0, "medium", "timed_out_waiting_for_busy_peer")


@pytest.mark.parametrize("old, new", [
    ("in barrier\n", "in all_reduce\n"),  # a per-batch collective: the peer may never call it
])
def test_a_timeout_in_another_collective_stays_a_divergent_collective(tmp_path, old, new):
    case = _edited(tmp_path, "29718", "log/workerlog.1", old, new)
    assert _verdict(case)[:2] == ("rank_divergent_collective", 1)


def test_a_barrier_timeout_whose_peer_also_waited_is_not_a_busy_peer(tmp_path):
    case = _edited(tmp_path, "29718", "log/workerlog.0", "[rank 0] copying ckpt/ to remote storage ...",
                   "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:80] TIMEOUT "
                   "self_rank = none pair_rank = -1 peer_str = none")
    assert _verdict(case)[3] != "timed_out_waiting_for_busy_peer"


def test_a_silent_rank_with_no_exit_code_may_have_ended_on_its_own():
    # rank 1 calls os._exit(0) after training while rank 0 all-reduces in its evaluation; the launcher names rank 0
    # its last line ("training done, leaving evaluation to rank 0") says it ends: no SIGKILL
    rc = diagnose_paths([str(LIVE1 / "29710")]).root_cause
    assert rc.code == "peer_said_it_ends" and rc.confidence.value == "medium"
    assert "rank_divergent_collective" in (rc.cause, rc.alternatives[0].cause)


def test_a_silent_rank_left_after_a_per_batch_collective_may_have_run_fewer_batches():
    # built2 29655: rank 1 ran 10 eval batches and ended; rank 0 waits in its 11th all_reduce
    rc = diagnose_paths([str(BUILT2 / "29655")]).root_cause
    assert [a.cause for a in rc.alternatives[:2]] == ["uneven_eval_batches", "segfault"]


def test_launcher_variables_set_by_the_runs_own_command_are_missing_not_left_over():
    # built2 29678: srun exports PADDLE_* by hand (bash -x trace) and never sets FLAGS_selected_gpus
    assert _verdict(BUILT2 / "29678") == ("missing_dist_env", 0, "medium", "env_set_by_hand")


def test_the_same_error_with_no_command_setting_them_stays_left_over(tmp_path):
    case = _edited(tmp_path, "29678", "terminal.out", "+ export PADDLE_", "PADDLE_", folder=BUILT2)
    term = case / "terminal.out"
    term.write_text(term.read_text().replace("PADDLE_TRAINER_ID=$SLURM_PROCID PADDLE_CURRENT_ENDPOINT", "X"))
    assert _verdict(case)[0] == "residual_dist_env"


@pytest.mark.parametrize("line, cause, level", [
    # this process held under 1 GB and little was free: the card's memory is elsewhere (MB, and MiB as some print it)
    ("Out of memory error on GPU 0. Cannot allocate 130.250000MB memory on GPU 0, 471.625000MB memory has been "
     "allocated and available memory is only 84.562500MB.", "stale_process_holding_gpu", "medium"),
    ("Out of memory error on GPU 1. Cannot allocate 130.250000MiB memory on GPU 1, 471.625000MiB memory has been "
     "allocated and available memory is only 84.562500MiB.", "stale_process_holding_gpu", "medium"),
    # nothing free at all: as before, high
    ("Out of memory error on GPU 0. Cannot allocate 2.250000kB memory on GPU 0, 127.994262MB memory has been "
     "allocated and available memory is only 0.000000B.", "stale_process_holding_gpu", "high"),
    # the job's own: gigabytes held, or a request far over what is free
    ("Out of memory error on GPU 0. Cannot allocate 165.586182MB memory on GPU 0, 5.866455GB memory has been "
     "allocated and available memory is only 67.937500MB.", "gpu_oom", "high"),
    ("Out of memory error on GPU 0. Cannot allocate 30.5GB memory on GPU 0, 500.0MB memory has been allocated and "
     "available memory is only 20.2GB.", "gpu_oom", "high"),
])
def test_an_oom_with_little_held_and_little_free_is_another_process(tmp_path, line, cause, level):
    log = tmp_path / "train.log"
    log.write_text("MemoryError: (ResourceExhausted) " + line + "\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert (rc.cause, rc.confidence.value) == (cause, level)


BUILT1 = BUILT / "built1"


def test_the_utc_stamp_of_a_crash_dump_is_no_new_launch_in_a_log_of_local_times():
    # built1 29620: glog and progress lines in the host's local time (UTC+8), the SIGTERM dump's "Aborted at <unix>"
    # in UTC: 8 h "back", which was read as a second launch that cut every progress line off
    d = diagnose_paths([str(BUILT1 / "29620")])
    assert not any("launches in" in n for n in d.notes)
    assert (d.root_cause.cause, d.root_cause.ranks[0]) == ("uneven_train_batches", 1)


def test_a_clock_that_goes_back_in_the_logs_own_stamps_still_splits_launches(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    first = ("I0523 09:00:00.000000  3335 tcp_utils.cc:132] Successfully connected to 127.0.0.1:6170\n"
             "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nKeyError: 'old'\n")
    again = ("I0523 08:00:00.000000  4444 tcp_utils.cc:132] Successfully connected to 127.0.0.1:6170\n"
             "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
             "ValueError: new failure\n")
    (log / "workerlog.0").write_text(first + again)
    d = diagnose_paths([str(log)])
    assert any("2 launches in" in n for n in d.notes) and "new failure" in d.root_cause.message


def test_a_1x_grpc_server_that_cannot_bind_is_a_busy_port_or_the_launchers_race():
    assert _verdict(BUILT1 / "29610")[:3] == ("port_in_use", 2, "high")
    # 1.8.5's launcher with no --started_port took free ports itself
    assert _verdict(BUILT1 / "29638")[:2] == ("launcher_port_race", 1)


def test_a_lone_process_waiting_for_loopback_peers_its_environment_names_has_leftover_variables(tmp_path):
    assert _verdict(BUILT1 / "29628.log")[0] == "residual_dist_env"
    text = (BUILT1 / "29628.log").read_text()
    kept = "\n".join(line for line in text.splitlines() if not line.startswith("PADDLE_"))
    (tmp_path / "x.log").write_text(kept + "\n")
    assert _verdict(tmp_path / "x.log")[0] != "residual_dist_env"  # no environment named: no leftovers to blame


def test_a_keyboard_interrupt_is_not_the_cause_of_the_hang_it_ends():
    assert _verdict(BUILT1 / "29628.log")[0] != "python_exception"


def test_a_dataloader_worker_the_kernel_killed_is_host_memory():
    assert _verdict(BUILT1 / "29633")[:3] == ("host_oom_killed", 0, "high")


def test_a_dataloader_worker_death_beside_another_pids_kill_stays_a_worker_crash(tmp_path):
    case = _edited(tmp_path, "29633", "terminal.out", "Kill process 2391", "Kill process 7777", folder=BUILT1)
    term = case / "terminal.out"
    term.write_text(term.read_text().replace("Killed process 2391", "Killed process 7777"))
    assert _verdict(case)[0] == "dataloader_worker_crash"


def test_a_rank_the_old_launcher_reports_aborted_whose_log_stops_silently_was_killed():
    assert _verdict(BUILT1 / "29618")[:3] == ("host_oom_killed", 1, "medium")


def test_a_run_stopped_by_hand_with_no_error_before_is_an_interrupted_wait(tmp_path):
    log = tmp_path / "train.log"
    log.write_text("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    time.sleep(100)\n"
                   "KeyboardInterrupt\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert (rc.cause, rc.code, rc.confidence.value) == ("unknown", "interrupted_by_hand", "low")


def test_an_error_before_the_interrupt_is_still_the_cause(tmp_path):
    log = tmp_path / "train.log"
    log.write_text("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                   "ValueError: bad shape\nTraceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                   "KeyboardInterrupt\n")
    assert diagnose_paths([str(log)]).root_cause.cause == "python_exception"


@pytest.mark.parametrize("gap_s, zone_h, shifted", [
    (2, 8, True),  # a crash 2 s after the last local stamp on a host at UTC+8: put on the local clock, exactly
    (2, -5, True),  # west of UTC
    (2, 0, False),  # one clock: nothing to shift
    (37 * 60, 8, False),  # a hang's SIGTERM 37 min later: no whole quarter hour fits, the time stands
    (20 * 60, 0, False),  # a dump 20 min after the last stamp on a UTC host: not pulled back
])
def test_a_crash_dumps_utc_stamp_goes_on_the_logs_local_clock_only_where_an_offset_fits(gap_s, zone_h, shifted):
    from paddle_doctor.diagnose.read.launches import on_local_clock
    local = 1_653_296_400.0  # the last local stamp, read as naive
    unix = local + gap_s - zone_h * 3600
    assert on_local_clock(unix, local) == (local + gap_s if shifted else unix)
    assert on_local_clock(unix, None) == unix  # no local stamp before it: the time stands


def test_a_crash_on_a_host_east_of_utc_is_reported_at_the_logs_local_time(tmp_path, run_cli):
    import calendar
    log = tmp_path / "log"
    log.mkdir()
    unix = calendar.timegm((2022, 5, 23, 1, 0, 7, 0, 0, 0))  # 09:00:07 at UTC+8
    (log / "workerlog.0").write_text(
        "2022-05-23 09:00:05,120 - WARNING - Please NOTE: device: 0, GPU Compute Capability: 7.0, "
        "Driver API Version: 11.2, Runtime API Version: 11.2\n"
        "FatalError: `Segmentation fault` is detected by the operating system.\n"
        f"  [TimeInfo: *** Aborted at {unix} (unix time) try \"date -d @{unix}\" if you are using GNU date ***]\n"
        "  [SignalInfo: *** SIGSEGV (@0x0) received by PID 3335 (TID 0x7f) from PID 3335 ***]\n")
    text = run_cli("diagnose", log).stdout.decode()
    assert "failed 2022-05-23 09:00:07" in text, text


def test_a_spawned_process_ended_by_a_signal_names_its_rank():
    # live1 29712: paddle.distributed.spawn's "Process 1 terminated with signal SIGKILL."
    assert _verdict(LIVE1 / "29712")[:2] == ("host_oom_killed", 1)


def test_a_division_by_an_empty_length_on_one_rank_is_its_empty_share():
    # built2 29663: 3 filtered samples split [rank::4]; rank 3's `correct / len(mine)`
    assert _verdict(BUILT2 / "29663")[:3] == ("sampler_too_few_samples", 3, "medium")


@pytest.mark.parametrize("line", ["    acc = correct / total_weight\n", None])
def test_a_division_by_zero_not_by_a_length_or_on_every_rank_is_not_an_empty_share(tmp_path, line):
    case = tmp_path / "29663"
    shutil.copytree(BUILT2 / "29663", case)
    if line is not None:
        log = case / "log" / "workerlog.3"
        log.write_text(log.read_text().replace("    acc = correct / len(mine)\n", line))
    else:  # every rank divides by zero
        for other in (case / "log").glob("workerlog.*"):
            if "ZeroDivisionError" not in other.read_text():
                other.write_text(other.read_text() + (case / "log" / "workerlog.3").read_text())
    assert _verdict(case)[3] != "empty_share_on_one_rank"


LIVE2 = BUILT / "live2"


def test_several_ranks_waiting_in_a_barrier_for_one_busy_rank_is_a_collective_timeout():
    # live2 29914: rank 0 alone exports for ~40 s while ranks 1-3 wait in barrier(); the busy rank is named
    assert _verdict(LIVE2 / "29914")[:3] == ("collective_timeout", 0, "medium")


def test_a_spawn_childs_signal_names_its_rank_but_gives_the_terminal_no_rank():
    # live2 29903: spawn's terminal interleaves both children; process 0's SIGABRT follows a closed peer (a victim's
    # abort), so it is no high crash of rank 0's own
    rc = diagnose_paths([str(LIVE2 / "29903")]).root_cause
    assert not (rc.cause == "segfault" and rc.confidence.value == "high")


def test_a_ctrl_c_the_terminal_shows_ends_the_job_like_a_launchers_kill():
    # built3 29822: 2.0.2's launcher interrupted in its sleep (its own KeyboardInterrupt traceback in the terminal),
    # the workers' progress lines show 1251 against 1240 steps per epoch
    assert _verdict(BUILT / "built3" / "29822")[:3] == ("uneven_train_batches", 1, "high")


LIVE3 = BUILT / "live3"


def test_a_size_mismatch_alone_is_no_high_uneven_evaluation():
    # live3 30016: rank 0 alone broadcasts at set-up, paired with rank 1's DataParallel broadcast; case 03 (a short
    # last eval batch) and live1 29726 (a rank that left training) show the same mismatch
    rc = diagnose_paths([str(LIVE3 / "30016")]).root_cause
    assert rc.confidence.value != "high" and "rank_divergent_collective" in [a.cause for a in rc.alternatives[:2]]


def test_a_silent_rank_whose_last_line_says_it_ends_left_early_and_was_not_killed():
    # live3 29994: rank 3 prints "export worker finished, exiting" and exits 0; rank 2 waited on it in a collective
    rc = diagnose_paths([str(LIVE3 / "29994")]).root_cause
    assert (rc.code, rc.ranks[0]) == ("peer_said_it_ends", 3)
    assert {rc.cause, rc.alternatives[0].cause} == {"uneven_eval_batches", "rank_divergent_collective"}


def test_a_silent_rank_whose_log_stops_mid_work_is_still_read_as_killed(tmp_path):
    case = _edited(tmp_path, "29994", "log/workerlog.3", "export worker finished, exiting", "saving predictions to out/p3.npy",
                   folder=LIVE3)
    assert _verdict(case)[3] == "silent_death"


@pytest.mark.parametrize("line, sets", [
    ("+ export PADDLE_TRAINERS_NUM=4", True),  # a shell trace of the script
    ("export PADDLE_TRAINER_ENDPOINTS=127.0.0.1:6170,127.0.0.1:6171", True),
    ("PADDLE_TRAINER_ID=0 PADDLE_CURRENT_ENDPOINT=127.0.0.1:6170 python eval.py &", True),  # a command's own env
    ("bash -c 'PADDLE_TRAINER_ID=$SLURM_PROCID python pretrain.py'", True),
    ("PADDLE_TRAINERS_NUM=2", False),  # `env | grep PADDLE`
    ("[rank 0] SLURM_PROCID=0 PADDLE_TRAINER_ID=0 PADDLE_TRAINERS_NUM=4 host=gpu07", False),  # a script's print
])
def test_a_paddle_variable_set_for_this_run_is_told_from_one_the_shell_shows(line, sets):
    from paddle_doctor.diagnose.refine.context import sets_paddle_env
    assert sets_paddle_env(line) is sets
