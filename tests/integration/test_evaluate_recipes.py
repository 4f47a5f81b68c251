"""The PaddleNLP and PaddleOCR recipes under the real launcher (W=2, 101 samples), each equal to the
suite's own one-process loop: PaddleNLP's compute_metrics(EvalPrediction) and the model's own loss
(model_loss=True), also over a Trainer-style DataLoader (shuffled DistributedBatchSampler), the
plain pad_collate on `labels` dict samples, PaddleOCR's RecMetric after a
CTC decoder and DetMetric after a DB-style post-process, on [image, label, length] and
[image, shape, polys, ignore_tags] batches. Stand-ins with the suites' call shapes:
workers/recipekit.py (why: research/suites-2026-12.md)."""

import json

import pytest

from workers.launch_helper import run_launcher, worker_logs

pytestmark = pytest.mark.integration
TOL = 1e-6
REFERENCE = {"nlp/compute_metrics+model_loss": "nlp", "nlp/trainer_loader+compute_metrics": "nlp",
             "nlp/accuracy+pad_collate+loss_fn": "nlp",
             "ocr/rec": "ocr/rec", "ocr/det": "ocr/det"}


def expected(cid, reference):
    ref = reference[REFERENCE[cid]]
    if cid == "nlp/accuracy+pad_collate+loss_fn":
        return {"acc": ref["acc"]}, ref["loss"]
    return ref["metrics"], ref.get("loss") if cid.startswith("nlp/") else None


@pytest.mark.timeout(200)
def test_recipes_equal_the_suites_one_process_loops(tmp_path):
    code, terminal, _ = run_launcher("recipes_worker.py", 2, tmp_path, [str(tmp_path)], timeout=150)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    reference = ranks[0]["reference"]
    assert set(ranks[0]["results"]) == set(REFERENCE)
    for cid, got in ranks[0]["results"].items():
        assert "error" not in got, f"{cid}: {got.get('error')}\n{got.get('trace')}"
        metrics, loss = expected(cid, reference)
        assert got["num_samples"] == 101 and got["world_size"] == 2, (cid, got)
        assert set(got["metrics"]) == set(metrics), (cid, got["metrics"])
        for name, value in metrics.items():
            assert abs(got["metrics"][name] - value) <= TOL, (cid, name, got["metrics"][name], value)
        assert (got["loss"] is None) == (loss is None) and (loss is None or abs(got["loss"] - loss) <= TOL), (cid, got)
        other = ranks[1]["results"][cid]
        assert (other["metrics"], other["loss"]) == (got["metrics"], got["loss"]), cid  # every rank, one result
        # the work was shared (the shuffled DistributedBatchSampler pads rank 1 with a duplicate, skipped)
        assert sorted([got["local_samples"], other["local_samples"]]) == [50, 51], cid
    # the scores are not trivial: a wrong sync would show
    assert 0 < reference["ocr/rec"]["metrics"]["acc"] < 1 and 0 < reference["ocr/det"]["metrics"]["hmean"] < 1
