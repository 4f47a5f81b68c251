"""A job whose text stops at NCCL's communicator set-up (1.8-2.x ``init nccl context nranks: N``) with no
error, no launcher failure and no line logged after it: the ranks hang in NCCL's bootstrap
(``stopped_at_nccl_init``: nccl_network_interface, low, nccl_error as the alternative). Before, such a text
had no verdict at all."""

from __future__ import annotations

from pastes import root_cause_of
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths

INIT = "I0302 02:01:36.274989 31267 nccl_context.cc:83] init nccl context nranks: {n} local rank: {r} gpu id: {r} ring id: 0\n"
START = ("W0302 02:01:30.101010 31267 device_context.cc:447] Please NOTE: device: 0, GPU Compute Capability: 8.0, "
         "Driver API Version: 11.6, Runtime API Version: 11.6\n")


def test_a_paste_that_stops_at_nccl_init_is_a_bootstrap_hang(tmp_path):
    text = START + INIT.format(n=4, r=0) + "\nstill stuck here after 20 minutes, GPU utilisation stays at 0\n"
    finding = root_cause_of(tmp_path, text)
    assert finding.cause == CauseId.nccl_network_interface and finding.confidence == "low"
    assert finding.code == "stopped_at_nccl_init"
    assert finding.alternatives[0].cause == CauseId.nccl_error


def test_every_rank_log_stopping_there_is_the_same_hang(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    for rank in range(2):
        (log / f"workerlog.{rank}").write_text(START + INIT.format(n=4, r=rank))
    assert diagnose_paths([str(log)]).root_cause.code == "stopped_at_nccl_init"


def test_a_job_that_went_on_after_the_set_up_is_not_stopped_there(tmp_path):
    text = START + INIT.format(n=4, r=0) + "[2023/03/02 02:02:10] ppdet INFO: Epoch: [0] [  20/1000] loss: 2.31\n"
    finding = root_cause_of(tmp_path, text)
    assert finding is None or finding.code != "stopped_at_nccl_init"


def test_an_error_after_the_set_up_decides(tmp_path):
    text = INIT.format(n=4, r=0) + "ExternalError: Nccl error, unhandled system error\n"
    assert root_cause_of(tmp_path, text).cause == CauseId.nccl_error


def test_a_one_rank_world_is_not_a_bootstrap_between_ranks(tmp_path):
    finding = root_cause_of(tmp_path, START + INIT.format(n=1, r=0))
    assert finding is None or finding.code != "stopped_at_nccl_init"
