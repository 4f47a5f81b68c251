"""The failing rank, wherever the text states it, on logs of three eras.

Each log is built from Paddle's own message templates, read in the released wheels (python sources
of paddlepaddle 1.8.5 CPU, paddlepaddle-gpu 2.2.2 and 2.5.2 for Python 3.8, and ``strings`` of 2.2.2's
core_avx.so); the source file and line of each template is given where it is used. The user's part
(a traceback) is the same everywhere: the question is only whose it is.
"""

from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

TRACEBACK = """Traceback (most recent call last):
  File "train.py", line 41, in <module>
    loss = model(images)
ValueError: (InvalidArgument) The 'shape' attribute in ReshapeOp is invalid.
"""
ENDPOINTS = "127.0.0.1:6170,127.0.0.1:6171"


def _diagnose(tmp_path: Path, text: str, name: str = "train.log"):
    path = tmp_path / name
    path.write_text(text)
    rc = diagnose_paths([str(path)]).root_cause
    assert rc is not None
    return rc.cause, rc.ranks[0] if rc.ranks else None


def _trainer_proc_185(rank: int) -> str:
    # 1.8.5 paddle/distributed/utils.py:372, logger format utils.py:223 ('%(levelname)s %(asctime)s
    # %(filename)s:%(lineno)d] %(message)s'); one line per trainer, in the launcher's terminal.
    env = {"FLAGS_selected_gpus": str(rank), "PADDLE_TRAINER_ID": str(rank),
           "PADDLE_CURRENT_ENDPOINT": ENDPOINTS.split(",")[rank], "PADDLE_TRAINERS_NUM": "2",
           "PADDLE_TRAINER_ENDPOINTS": ENDPOINTS}
    return (f"INFO 2020-11-03 10:00:00,12{rank} utils.py:372] start trainer proc:['/usr/bin/python', '-u', "
            f"'train.py'] env:{env}\n")


def _abort(ranks: str, world: int, file_line: str) -> str:
    # 1.8.5 utils.py:417, 2.2.2 fleet/launch_utils.py:603, 2.5.2 fleet/launch_utils.py:664 (same text)
    return (f"ERROR 2022-01-20 10:00:05,456 {file_line}] ABORT!!! Out of all {world} trainers, the trainer "
            f"process with rank={ranks} was aborted. Please check its log.\n")


def test_185_terminal_abort_names_rank_1(tmp_path):
    """1.8.5 launch without --log_dir: every trainer writes to the terminal, unlabelled."""
    text = ("-----------  Configuration Arguments -----------\nselected_gpus: 0,1\n"
            "------------------------------------------------\n" + _trainer_proc_185(0) + _trainer_proc_185(1)
            + "W1103 10:00:02.000100  4711 device_context.cc:252] Please NOTE: device: 1, CUDA Capability: 70, "
              "Driver API Version: 10.2, Runtime API Version: 10.0\n"
            + TRACEBACK + _abort("[1]", 2, "utils.py:417"))
    assert _diagnose(tmp_path, text) == ("python_exception", 1)


def test_222_fleetrun_terminal_with_pasted_worker_traceback(tmp_path):
    """2.2.2 fleet launcher: the env table is the FIRST process's (launch_utils.py:524-528, idx == 0),
    so its PADDLE_TRAINER_ID 0 is not the failing rank; the ABORT line names rank 1."""
    table = ("    +=======================================================================================+\n"
             "    |                        Distributed Envs                      Value                    |\n"
             "    +---------------------------------------------------------------------------------------+\n"
             "    |                       PADDLE_TRAINER_ID                        0                      |\n"
             "    |                 PADDLE_CURRENT_ENDPOINT                 127.0.0.1:6170               |\n"
             "    +=======================================================================================+\n")
    text = ("INFO 2022-01-20 10:00:00,000 launch.py:404] Run collective mode. gpu num: 2\n"
            "INFO 2022-01-20 10:00:00,001 launch_utils.py:525] Local start 2 processes. First process distributed "
            "environment info (Only For Debug): \n" + table
            + "INFO 2022-01-20 10:00:00,002 launch_utils.py:530] details abouts PADDLE_TRAINER_ENDPOINTS can be "
              "found in log/endpoints.log, and detail running logs maybe found in log/workerlog.0\n"
            + "INFO 2022-01-20 10:00:05,455 launch_utils.py:341] terminate all the procs\n"
            + _abort("[1]", 2, "launch_utils.py:603") + "\n$ cat log/workerlog.1\n" + TRACEBACK)
    assert _diagnose(tmp_path, text) == ("python_exception", 1)


def test_252_fleet_launch_abort_of_rank_3_of_4(tmp_path):
    text = TRACEBACK + _abort("[3]", 4, "launch_utils.py:664")
    assert _diagnose(tmp_path, text) == ("python_exception", 3)


def _container_block(rank: int) -> str:
    # 2.5.2 launch/job/container.py:172 ('Container rank {} status {} cmd {} code {} log {} \nenv {}'),
    # printed by launch/controllers/controller.py:116 after "Container failed !!!"
    return (f"LAUNCH ERROR 2023-10-09 12:00:05,000 Container failed !!!\nContainer rank {rank} status failed cmd "
            f"['/usr/bin/python', '-u', 'train.py'] code 1 log log/workerlog.{rank} \n"
            f"env {{'PADDLE_GLOBAL_RANK': '{rank}', 'PADDLE_LOCAL_RANK': '{rank}', 'PADDLE_TRAINER_ID': '{rank}'}}\n")


def test_252_launch_block_then_error_log_detail(tmp_path):
    text = (_container_block(3) + "LAUNCH INFO 2023-10-09 12:00:05,001 ------------------------- ERROR LOG "
            "DETAIL -------------------------\n" + TRACEBACK + "LAUNCH INFO 2023-10-09 12:00:08,000 Exit code 1\n")
    assert _diagnose(tmp_path, text) == ("python_exception", 3)


def test_252_launch_block_pasted_without_its_detail_header(tmp_path):
    text = _container_block(3) + TRACEBACK
    assert _diagnose(tmp_path, text) == ("python_exception", 3)


@pytest.mark.parametrize("statement, rank", [
    # 2.5.2 phi/backends/gpu/gpu_resources.cc (C++ glog; "Please NOTE: device: " in the core's strings)
    ("W1009 12:00:01.000100  4711 gpu_resources.cc:119] Please NOTE: device: 1, GPU Compute Capability: 8.0, "
     "Driver API Version: 12.0, Runtime API Version: 11.8", 1),
    ("W1009 12:00:01.000200  4711 gpu_resources.cc:149] device: 2, cuDNN Version: 8.6.", 2),
    # 2.2.2 core_avx.so strings "init nccl context nranks: " / " local rank: " (imperative/nccl_context.cc)
    ("I0120 10:00:01.000100  4711 nccl_context.cc:74] init nccl context nranks: 4 local rank: 3 gpu id: 3 "
     "ring id: 0", 3),
    # 1.8.5 fluid/incubate/fleet/collective/__init__.py (print_config: ... trainer_id:{})
    (f"worker_endpoints:{ENDPOINTS.split(',')} trainers_num:2 current_endpoint:127.0.0.1:6171 trainer_id:1", 1),
    # an env dump (`env | grep PADDLE`, the launchers' envlog.N): 1.8.5 utils.py:360, 2.5.2 PADDLE_GLOBAL_RANK
    ("PADDLE_TRAINERS_NUM=4\nPADDLE_TRAINER_ID=3\nPADDLE_CURRENT_ENDPOINT=127.0.0.1:6173", 3),
    ("PADDLE_GLOBAL_RANK=2\nPADDLE_LOCAL_RANK=2\nPADDLE_WORLD_SIZE=4", 2),
    ("PADDLE_LOCAL_RANK=1\nPADDLE_RANK_IN_NODE=1", 1),
    ("environ({'PADDLE_TRAINER_ID': '3', 'PADDLE_TRAINERS_NUM': '4'})", 3),
    ("local_rank: 2", 2),
])
def test_a_single_worker_log_that_states_its_rank(tmp_path, statement, rank):
    assert _diagnose(tmp_path, statement + "\nepoch 0 step 10 loss 0.71\n" + TRACEBACK) == ("python_exception", rank)


@pytest.mark.parametrize("statement", [
    "W1009 12:00:01.000100  4711 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 8.0, "
    "Driver API Version: 12.0, Runtime API Version: 11.8",  # what any single-GPU run prints
    _trainer_proc_185(0) + _trainer_proc_185(1),  # two ranks stated: none is this file's
    "",
])
def test_no_rank_where_the_text_states_none(tmp_path, statement):
    assert _diagnose(tmp_path, statement + "\n" + TRACEBACK) == ("python_exception", None)


def _elastic_222(failed: int, code: int = 1) -> str:
    # 2.2.2 fleet/elastic/manager.py:89-91 (LauncherInterface._check_procs; logger "ELASTIC", format
    # manager.py:25 '%(name)s %(levelname)s %(asctime)s %(message)s'), collective.py:78 and manager.py:337;
    # the elastic collective launcher streams local rank 0's log to the terminal (collective.py:89).
    return ("ELASTIC INFO 2022-03-01 10:20:01,101 collective lauchner launch ...\n"
            "ELASTIC INFO 2022-03-01 10:20:01,230 launch proc_id:20411 idx:0\n"
            "ELASTIC INFO 2022-03-01 10:20:01,352 launch proc_id:20412 idx:1\n"
            "epoch 0 step 10 loss 2.3012\n"
            "ELASTIC ERROR 2022-03-01 10:22:41,007 ABORT!!! ABORT!!! ABORT!!!\n"
            f"ELASTIC ERROR 2022-03-01 10:22:41,007 ERROR rank {failed} error with exit code {code}, check log for detail.\n"
            f"ELASTIC INFO 2022-03-01 10:22:41,008 job exit with code {code}\n")


@pytest.mark.parametrize("failed", [1, 3])
def test_elastic_launcher_names_the_rank_whose_traceback_is_pasted(tmp_path, failed):
    """The user pastes the elastic launcher's terminal and, under it, the failed rank's traceback."""
    assert _diagnose(tmp_path, _elastic_222(failed) + TRACEBACK) == ("python_exception", failed)


def test_elastic_launcher_alone_points_at_the_failed_rank_log(tmp_path):
    rc = diagnose_paths([str(_write(tmp_path, _elastic_222(2)))]).root_cause
    assert rc.ranks == (2,) and "workerlog.2" in rc.message


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "terminal.txt"
    path.write_text(text)
    return path


# A paste of several worker logs, each under a heading that names its file (the launchers write rank N's
# output to log/workerlog.N in every era). Rank 0 shows gloo's peer-closed timeout, a symptom; rank 1 the error.
_PEER_CLOSED = ("RuntimeError: (PreconditionNotMet) Timeout from gloo (Connection closed by peer "
                "[127.0.0.1]:6171)\n")


@pytest.mark.parametrize("heading", [
    "==> log/workerlog.{n} <==",  # tail -n 50 log/workerlog.*
    "### workerlog.{n}",  # Markdown
    "**log/workerlog.{n}**",
    "workerlog.{n}:",
    "$ cat log/workerlog.{n}",
    "root@host:/work# tail -n 100 log/workerlog.{n}",
])
def test_pasted_worker_logs_under_headings_name_the_failing_rank(tmp_path, heading):
    text = (heading.format(n=0) + "\n" + "Traceback (most recent call last):\n  File \"train.py\", line 50, in "
            "<module>\n    dist.all_reduce(t)\n" + _PEER_CLOSED + "\n" + heading.format(n=1) + "\n" + TRACEBACK)
    assert _diagnose(tmp_path, text) == ("python_exception", 1)


def test_a_line_that_only_mentions_a_worker_log_is_no_heading(tmp_path):
    """The launcher's "please check log/workerlog.1" names a file, not the lines after it."""
    text = ("LAUNCH INFO 2023-01-04 10:00:05,000 please check log/workerlog.1 for details\n" + TRACEBACK)
    assert _diagnose(tmp_path, text) == ("python_exception", None)
