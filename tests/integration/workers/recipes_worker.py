"""Launcher worker for tests/integration/test_evaluate_recipes.py: the PaddleNLP and PaddleOCR recipes.

    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir DIR recipes_worker.py OUT_DIR

Every rank builds the same models (one seed) and data, computes the one-process reference with the
suites' own loops (no collective), then runs each recipe; it writes OUT_DIR/rank<R>.json:
{"reference": {...}, "results": {config id: result or {"error": ...}}}.
"""

import json
import os
import sys
import traceback

import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

from paddle_doctor import PadCollate, pad_collate
from paddle_doctor.runtime.suites import recipes
from paddle_doctor.runtime.suites.nlp import ComputeMetrics
from paddle_doctor.runtime.suites.ocr import OCRMetric

from workers.recipekit import (CTCLabelDecode, DBPostProcess, DetData, DetMetric, DetNet, NLPData, RecData,
                               RecMetric, RecNet, TinyClassifier, compute_metrics, ref_nlp, ref_ocr)

paddle.set_device("cpu")


def models():
    paddle.seed(11)
    return TinyClassifier(), RecNet(), DetNet()


def configs(nlp, rec, det, nlp_data, rec_data, det_data):
    yield "nlp/compute_metrics+model_loss", lambda: recipes.evaluate_paddlenlp(
        nlp, nlp_data, ComputeMetrics(compute_metrics, names=["accuracy", "f1"]), batch_size=8,
        collate_fn=pad_collate, model_loss=True, progress=False)
    sampler = DistributedBatchSampler(nlp_data, batch_size=8, shuffle=True)  # the Trainer's eval loader
    sampler.set_epoch(3)
    yield "nlp/trainer_loader+compute_metrics", lambda: recipes.evaluate_paddlenlp(
        nlp, DataLoader(nlp_data, batch_sampler=sampler, collate_fn=pad_collate),
        ComputeMetrics(compute_metrics, names=["accuracy", "f1"]), model_loss=True, progress=False)
    yield "nlp/accuracy+pad_collate+loss_fn", lambda: recipes.evaluate_paddlenlp(
        nlp, nlp_data, paddle.metric.Accuracy(), batch_size=8, collate_fn=pad_collate,
        loss_fn=paddle.nn.CrossEntropyLoss(), progress=False)
    yield "ocr/rec", lambda: recipes.evaluate_paddleocr(rec, rec_data, RecMetric(), CTCLabelDecode(), batch_size=8,
                                                       progress=False)
    yield "ocr/det", lambda: recipes.evaluate_paddleocr(det, det_data, OCRMetric(DetMetric(), DBPostProcess()),
                                                       batch_size=4, collate_fn=PadCollate(ragged=(2, 3), mask=False),
                                                       progress=False)


def record(r):
    return {"metrics": dict(r.metrics), "loss": r.loss, "num_samples": r.num_samples,
            "local_samples": r.local_samples, "world_size": r.world_size}


def main():
    out_dir = sys.argv[1]
    if int(os.environ.get("PADDLE_TRAINERS_NUM", "1")) > 1:
        dist.init_parallel_env()
    nlp, rec, det = models()
    nlp_data, rec_data, det_data = NLPData(), RecData(rec), DetData(det)
    reference = {"nlp": ref_nlp(nlp, nlp_data), "ocr/rec": ref_ocr(rec, rec_data, RecMetric(), CTCLabelDecode()),
                 "ocr/det": ref_ocr(det, det_data, DetMetric(), DBPostProcess())}
    results = {}
    for cid, thunk in configs(nlp, rec, det, nlp_data, rec_data, det_data):
        try:
            results[cid] = record(thunk())
        except Exception as exc:  # recorded; the test shows it
            results[cid] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=8)}
    name = f"rank{dist.get_rank() if dist.is_initialized() else 0}.json"
    with open(os.path.join(out_dir, name + ".tmp"), "w") as fh:
        json.dump({"reference": reference, "results": results}, fh, indent=1, sort_keys=True)
    os.replace(os.path.join(out_dir, name + ".tmp"), os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
