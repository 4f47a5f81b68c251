"""evaluate() at its edges (issue 20), through the real launcher (W = 2, workers/edges_worker.py).

One launch runs every scenario in turn; each asserts what every rank raised or returned:
1. a collate or dataset error (default collate on variable sizes; text labels; a dataset error in a
   DataLoader worker on rank 1; a custom collate failing on rank 1 in the batch thread) ends within seconds, with a BatchError naming the samples
   and the argument to change on the rank where it happened, and PeerFailedError naming that rank
   and its error on the other, raised mid-loop; pad_collate takes PaddleNLP's ``labels`` key;
2. the training flag of every sublayer is what it was (a wrapper around an eval-mode model, a model
   with mixed modes, the PaddleSeg recipe);
4. a rank that never calls evaluate is named with the fix (and told when it calls it late); a rank
   that raises and exits while rank 0 evaluates gives rank 0 a catchable PeerFailedError mid-loop,
   not the watchdog's exit, and under ``paddle-doctor run`` the watchdog and diagnose name the same rank;
5. float label maps, labels outside the classes, logits at another size (the hint names infer_fn),
   infer_fn with batch_size > 1; evaluate_model with hapi's arguments and callbacks;
3. SegmentationMetric(empty_class=0 | 1) on an empty class, and the recipe's default;
7. a custom NCHW metric on PaddleSeg's calculate_area: broken by the mask's flattening, exact with
   PadCollate(mask=False);
6. DetectionMetric: the evaluator runs once, on rank 0; rank 1 receives and keeps no box; the same
   mAP on both ranks as a plain one-process loop.
"""

import json

import pytest

from workers.launch_helper import run_launcher, worker_logs


pytestmark = pytest.mark.integration
HANG_LIMIT_S = 30


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    work = tmp_path_factory.mktemp("edges")
    code, terminal, wall = run_launcher("edges_worker.py", 2, work, [str(work)], timeout=150)
    results = []
    for r in range(2):
        path = work / f"rank{r}.json"
        assert path.exists(), f"rank {r} wrote nothing (launcher code {code})\n" + terminal[-3000:] + worker_logs(work)
        results.append(json.loads(path.read_text()))
    return results, worker_logs(work)


def error(res, name):
    assert "error" in res[name], (name, res[name])
    assert res[name]["seconds"] < HANG_LIMIT_S, (name, res[name])
    return res[name]["error"]


def test_collate_errors_are_raised_on_every_rank(ranks):
    results, logs = ranks
    for r in range(2):
        err = error(results[r], "collate_shapes")
        assert err.startswith("BatchError: the default collate_fn raised ValueError"), err
        assert "shapes [[3, 4, 4], [3, 5, 4]]" in err and "collate_fn=paddle_doctor.pad_collate" in err, err
        # PaddleNLP's `labels` key: the plain pad_collate takes it (it refused it before issue 30)
        assert results[r]["nlp_labels"]["value"] == 40, results[r]["nlp_labels"]
        assert results[r]["nlp_labels_fixed"]["value"] == 40, results[r]["nlp_labels_fixed"]
        err = error(results[r], "text_labels")
        assert err.startswith("TypeError: label 0 (labels=-1) holds text ('cat')") and "labels=" in err, err


@pytest.mark.parametrize("name, culprit", [
    ("dataset_worker_rank1", "BatchError: dataset[22] raised KeyError: 'no annotation for image 22' "
                             "(rank 1, in a DataLoader worker)"),
    ("collate_rank1", "BatchError: collate_fn raised ValueError: sample has no 'mask' field on samples [20] (rank 1)"),
])
def test_a_batch_error_on_one_rank_reaches_the_other_mid_loop(ranks, name, culprit):
    results, logs = ranks
    assert error(results[1], name).startswith(culprit), (results[1][name], logs)
    err = error(results[0], name)
    assert err.startswith("PeerFailedError: rank 1 raised " + culprit.split(": ", 1)[0]), err
    assert culprit.split(": ", 1)[1][:40] in err, err
    batches = int(err.rsplit("[batches run: ", 1)[1].rstrip("]"))
    assert batches < 20, err  # told while its own 20 batches (2 s) were still running
    assert results[0][name]["seconds"] < 5, results[0][name]


def test_training_flags_are_restored_exactly(ranks):
    results, _ = ranks
    for r in range(2):
        value = results[r]["modes"]["value"]
        assert value["after"] == value["before"], value
        assert value["before"]["wrapper"] == [True, False, False, False], value  # the wrapper trains, the model not
        assert value["before"]["mixed"] == [True, True, False], value
        assert value["before"]["seg"] == [False, False, False], value


def test_a_rank_that_never_enters_evaluate_is_named(ranks):
    results, _ = ranks
    err = error(results[0], "never_entered")
    assert err.startswith("PeerFailedError: rank 1 never entered evaluate()"), err
    assert "call evaluate on every rank" in err, err
    assert results[1]["never_entered"]["value"] == "skipped evaluate"
    err = error(results[1], "late_entry")  # rank 1 calls it after all: told at once
    assert err.startswith("PeerFailedError: rank 0 raised PeerFailedError: rank 1 never entered evaluate()"), err
    assert results[1]["late_entry"]["seconds"] < 3, results[1]["late_entry"]


def test_a_peer_that_raises_and_exits_gives_a_catchable_error(ranks):
    results, logs = ranks
    err = error(results[0], "peer_uncaught")
    assert err.startswith("PeerFailedError: rank 1 raised RuntimeError: CUDA error: an illegal memory access"), err
    assert int(err.rsplit("[batches run: ", 1)[1].rstrip("]")) < 20, err
    assert "watchdog on rank 0" not in logs, logs


def test_inputs_are_checked_at_the_first_batch(ranks):
    results, _ = ranks
    for r in range(2):
        res = results[r]
        err = error(res, "float_labels")
        assert err.startswith("TypeError: SegmentationMetric: labels are float32, not integer class ids"), err
        err = error(res, "label_range")
        assert err.startswith("ValueError: SegmentationMetric: label values [2] are neither class ids 0..1"), err
        assert "num_classes=" in err and "ignore_index=" in err, err
        err = error(res, "resized")
        assert "are not at the size of the labels" in err and "infer_fn=paddleseg.core.infer.inference" in err, err
        assert "output=" not in err, err
        err = error(res, "infer_fn_batch")
        assert err.startswith("ValueError: infer_fn with batch_size=2") and "batch_size=1" in err, err
        value = res["hapi_args"]["value"]
        assert set(value["out"]) == {"loss", "acc"}, value
        assert value["callbacks"] == [["begin", ["acc", "loss"]], ["end", value["out"]]], value


def test_the_empty_class_convention_is_a_switch(ranks):
    results, _ = ranks
    for r in range(2):
        v = results[r]["empty_class"]["value"]
        (miou0, iou0), (miou1, iou1) = v["0"], v["1"]
        assert iou0[2] == 0.0 and iou1[2] == 1.0 and iou0[:2] == iou1[:2], v
        assert abs(miou1 - miou0 - 1 / 3) < 1e-12, v
        assert v["recipe_default"] == miou0, v  # no PaddleSeg installed here: 2.8's convention


def test_a_custom_nchw_metric_keeps_its_layout(ranks):
    results, _ = ranks
    for r in range(2):
        v = results[r]["nchw_metric"]["value"]
        assert "Shape of `pred` and `label should be equal" in v["with_mask"], v  # the flattened layout
        assert abs(v["keep_layout"] - v["reference"]) < 1e-12, v


def test_detection_is_evaluated_once_on_rank0(ranks):
    results, _ = ranks
    det = [results[r]["detection"]["value"] for r in range(2)]
    assert det[0]["map"] == det[1]["map"] == det[0]["again"] == det[1]["again"], det
    assert abs(det[0]["map"] - det[0]["reference"]) < 1e-9, det
    assert [d["evaluator_calls"] for d in det] == [1, 0], det
    assert det[0]["images_seen"] == [24] and det[1]["rows_kept"] == 0, det
    assert det[1]["bytes_received"] < det[0]["bytes_received"], det


@pytest.mark.timeout(120)
def test_under_run_the_library_and_the_watchdog_name_the_same_rank(tmp_path):
    """``paddle-doctor run`` (the watchdog watches the whole process): rank 1 raises in evaluate and
    exits; rank 0 first gets the library's PeerFailedError mid-loop (the watchdog holds off 2 s
    inside evaluate), and the watchdog, which ends rank 0 once it leaves evaluate, names the same
    rank; diagnose names rank 1's error as the root cause."""
    from guards.harness import base_env, launch

    run = launch(tmp_path, 2, "../workers/edges_worker.py", [str(tmp_path), "peer_uncaught"], run_opts=[],
                 env=base_env(), timeout=90)
    context = f"rc {run.rc}\n{run.err[-2000:]}\n{run.log(0)[-2000:]}"
    assert (tmp_path / "rank0.json").exists(), context  # rank 0 ended before its except clause ran
    res = json.loads((tmp_path / "rank0.json").read_text())["peer_uncaught"]
    assert res["error"].startswith("PeerFailedError: rank 1 raised RuntimeError: CUDA error"), (res, context)
    assert int(res["error"].rsplit("[batches run: ", 1)[1].rstrip("]")) < 20, res
    watchdog_lines = [line for line in run.log(0).splitlines() if "[paddle-doctor] watchdog" in line]
    assert all("rank 1" in line for line in watchdog_lines), watchdog_lines
    from paddle_doctor.diagnose import diagnose_paths

    from paddle_doctor.catalog.ids import CauseId

    root = diagnose_paths([str(run.log_dir)]).root_cause  # the simulated message reads as a CUDA error
    assert (root.cause, root.ranks) == (CauseId.cuda_error_other, (1,)), (root, context)
