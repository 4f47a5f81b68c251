"""Causes seen in the wild that had no catalog id (issue 23), each on logs written from the emitting
code's own templates (tests/fixtures/wild/, see its README), with a look-alike that must not fire:

- a file lock left by an earlier run, that every rank waits for (PaddleNLP#3513; PaddleNLP 2.4.2
  utils/file_lock.py, py-spy's frame format);
- uneven training steps per epoch, hanging at the epoch's end (PaddlePaddle/models#5121, PaddleClas#15);
- the launcher's own free-port race (Paddle PRs #32892, #38174; fleet 2.2.2 find_free_ports, launch
  2.6.2 Node.get_free_port)."""

from pathlib import Path

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.rules.stalls import parse_progress

WILD = Path(__file__).resolve().parents[1] / "fixtures" / "wild"


def _verdict(name: str):
    rc = diagnose_paths([str(WILD / name)]).root_cause
    assert rc is not None, name
    return rc.cause, (rc.ranks[0] if rc.ranks else None), rc.confidence


@pytest.mark.parametrize("name, cause, rank, confidence", [
    ("stale_lock", CauseId.stale_download_lock, 0, "high"),  # both ranks interrupted in acquire
    ("stale_lock_pyspy.txt", CauseId.stale_download_lock, None, "medium"),  # a py-spy dump of one rank
    ("uneven_train_clas222", CauseId.uneven_train_batches, 1, "high"),  # Iter: .../1240 against .../1251
    ("uneven_train_nlp262", CauseId.uneven_train_batches, 1, "medium"),  # rank 1 already in the next epoch
    ("uneven_train_det262", CauseId.uneven_train_batches, 1, "high"),  # PaddleDetection lines, NCCL task timeouts
    ("port_race_fleet222", CauseId.launcher_port_race, 1, "medium"),  # find_free_ports' ports, bind names none
    ("port_race_launch262", CauseId.launcher_port_race, 0, "high"),  # master: None, bind names the store's port
])
def test_wild_cause_is_named_with_its_rank(name, cause, rank, confidence):
    assert _verdict(name) == (cause, rank, confidence)


@pytest.mark.parametrize("name, cause", [
    ("lock_permission", CauseId.python_exception),  # a PermissionError raised in acquire is not a wait
    # an error inside the locked section (its frame is _impl): the build's own error, the linker missing cuBLASLt
    ("lock_build_error", CauseId.cuda_cudnn_mismatch),
    # rank 0 holds the lock, downloading: alive, not stale; every rank was stopped by hand (KeyboardInterrupt), no error
    ("lock_held_by_a_download", CauseId.unknown),
    ("port_busy_fleet222", CauseId.port_in_use),  # FLAGS_START_PORT's consecutive ports: the user's
    ("port_busy_launch262", CauseId.port_in_use),  # --master given: the user's port, held by another process
])
def test_look_alike_keeps_its_own_cause(name, cause):
    assert _verdict(name)[0] == cause


def test_equal_steps_with_a_stuck_rank_is_not_an_uneven_split():
    assert _verdict("even_train_stuck_reader")[0] not in (CauseId.uneven_train_batches, CauseId.uneven_eval_batches)


def test_uneven_verdict_quotes_each_rank_progress_line():
    rc = diagnose_paths([str(WILD / "uneven_train_clas222")]).root_cause
    assert [e.path.rsplit("/", 1)[-1] for e in rc.evidence] == ["workerlog.1", "workerlog.0"]
    assert "Iter: 1230/1240" in rc.evidence[0].text and "Iter: 1240/1251" in rc.evidence[1].text


def test_port_race_quotes_the_launcher_endpoints():
    rc = diagnose_paths([str(WILD / "port_race_fleet222")]).root_cause
    assert "PADDLE_TRAINER_ENDPOINTS" in rc.evidence[0].text and "Address already in use" in rc.evidence[-1].text


@pytest.mark.parametrize("line, want", [
    ("[2022/03/01 10:44:04] root INFO: [Train][Epoch 1/120][Iter: 1230/1240]lr: 0.10000, ips: 204.9 images/sec",
     (1, 1230, 1240, "train")),  # PaddleClas 2.x
    ("[2022/03/01 10:45:10] root INFO: [Eval][Epoch 1][Iter: 0/98]CELoss: 3.98765", (1, 0, 98, "eval")),
    ("[05/10 14:00:00] ppdet.engine INFO: Epoch: [3] [ 620/1251] learning_rate: 0.010000 loss: 1.2",
     (3, 620, 1251, "train")),  # PaddleDetection
    ("step 120/125 - loss: 0.3121 - acc: 0.9012 - 21ms/step", (None, 120, 125, "train")),  # hapi Model.fit
    ("global step 2535, epoch: 3, batch: 610, loss: 0.412345, speed: 3.21 step/s", (3, 610, None, "train")),
    ("Loading 3/4 checkpoint shards", None),  # no step word: not progress
    ("[05/24 11:04:00] ppdet.engine INFO: step 120, loss: 1.2", (None, 120, None, "train")),  # a date is no count
])
def test_progress_lines_of_the_suites_are_read(line, want):
    assert parse_progress(line) == want
