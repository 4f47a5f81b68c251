"""Launcher worker for tests/integration/test_evaluate_suites.py: the suites' shapes, many configurations in one run.

    python -m paddle.distributed.launch --nproc_per_node W --log_dir DIR suites_worker.py OUT_DIR [--slow]
    python suites_worker.py OUT_DIR --reference      # one process, one sample at a time, no paddle_doctor

Writes OUT_DIR/rank<R>.json (or reference.json): config id -> result (or {"error": ...}). ``--slow``
adds a ~20 s evaluation last, for the progress lines in rank 0's log.
"""

import json
import os
import sys
import traceback

import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

from paddle_doctor import evaluate
from paddle_doctor.runtime.evaluate.collate import PadCollate
from paddle_doctor.runtime.metrics.detection import DetectionMetric
from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric
from paddle_doctor.runtime.suites import recipes
from paddle_doctor.runtime.suites.hapi import evaluate_model

from workers.evalkit import Net, ToyData
from workers.suitekit import (CLASSES, IGNORE, AuxNet, DetData, DetNet, DictToy, SegData, SegNet, SlowNet,
                              hapi_model, ref_classify, ref_detect, ref_hapi, ref_segment, voc_map)

paddle.set_device("cpu")
N, BATCH = 13, 4
KINDS = ("dataset", "dbs", "dbs_shuffle")
CE = paddle.nn.CrossEntropyLoss()


def data_for(kind, dataset, collate_fn=None, batch=BATCH):
    """(data, batch_size, collate_fn) for evaluate: the Dataset, or a DataLoader over a DistributedBatchSampler."""
    if kind == "dataset":
        return dataset, batch, collate_fn
    sampler = DistributedBatchSampler(dataset, batch_size=batch, shuffle=kind == "dbs_shuffle")
    sampler.set_epoch(2)
    return DataLoader(dataset, batch_sampler=sampler, collate_fn=collate_fn), None, None


def run(model, kind, dataset, metrics, collate_fn=None, batch=BATCH, **kw):
    data, bs, cf = data_for(kind, dataset, collate_fn, batch)
    return evaluate(model, data, metrics, batch_size=bs, collate_fn=cf, **kw)


def configs():
    """(config id, reference id, thunk)."""
    acc = lambda: paddle.metric.Accuracy(topk=(1, 2))  # noqa: E731
    seg_pad = PadCollate(pad_value={"label": IGNORE}, label="label")
    det_collate = PadCollate(ragged=("gt_bbox", "gt_class"), label="im_id")
    for k in KINDS:
        yield (f"dict/{k}", "classify", lambda k=k: run(Net(), k, DictToy(N), acc(), inputs="x", labels="label",
                                                          loss_fn=CE))
        yield (f"aux_tuple/{k}", "classify", lambda k=k: run(AuxNet("tuple"), k, ToyData(N), acc(), output=0,
                                                               loss_fn=CE))
        yield (f"dict_output/{k}", "classify", lambda k=k: run(AuxNet("dict"), k, DictToy(N), acc(), inputs=["x"],
                                                                 labels="label", output="logits", loss_fn=CE))
        yield (f"seg_variable/{k}", "seg_variable", lambda k=k: run(
            SegNet(), k, SegData(N), SegmentationMetric(CLASSES), seg_pad, batch=3, inputs="img", labels="label",
            output=0))
        yield (f"seg_same_size/{k}", "seg_same_size", lambda k=k: run(
            SegNet(), k, SegData(N, variable=False), SegmentationMetric(CLASSES), batch=3, inputs="img",
            labels="label", output=0))
        yield (f"seg_same_size_padded/{k}", "seg_same_size", lambda k=k: run(
            SegNet(), k, SegData(N, variable=False), SegmentationMetric(CLASSES), seg_pad, batch=3, inputs="img",
            labels="label", output=0))
        yield (f"detection/{k}", "detection", lambda k=k: run(
            DetNet(), k, DetData(N), DetectionMetric(voc_map), det_collate, batch=3, inputs="image",
            labels=["im_id", "gt_bbox", "gt_class"], output=["bbox", "bbox_num"]))
    yield ("recipe_paddleseg/batch1", "seg_variable", lambda: recipes.evaluate_paddleseg(SegNet(), SegData(N)))
    yield ("recipe_paddleseg/batch3", "seg_variable", lambda: recipes.evaluate_paddleseg(SegNet(), SegData(N),
                                                                                         batch_size=3))
    yield ("recipe_paddleclas/dbs_shuffle", "classify", lambda: recipes.evaluate_paddleclas(
        AuxNet("student"), data_for("dbs_shuffle", ToyData(N))[0], topk=(1, 2), loss_fn=CE))
    yield ("recipe_paddlenlp/dataset", "classify_nlp", lambda: recipes.evaluate_paddlenlp(
        AuxNet("nlp"), DictToy(N, nlp=True), acc(), batch_size=BATCH, loss_fn=CE))
    yield ("hapi/dataset", "hapi", lambda: evaluate_model(hapi_model(), ToyData(N), batch_size=BATCH, details=True))
    yield ("hapi/dbs_shuffle", "hapi", lambda: evaluate_model(hapi_model(), data_for("dbs_shuffle", ToyData(N))[0],
                                                              details=True))


def references():
    out = {"classify": ref_classify(N), "seg_variable": ref_segment(SegData(N)),
           "seg_same_size": ref_segment(SegData(N, variable=False)), "detection": ref_detect(N), "hapi": ref_hapi(N)}
    out["classify_nlp"] = out["classify"]  # labels [B] instead of [B, 1]: the same scores
    return out


def record(rid, r):
    if isinstance(r, tuple):  # hapi: (hapi's dict, EvalResult)
        hapi_dict, r = r
        return {"ref": rid, "metrics": {k: v for k, v in hapi_dict.items() if k != "loss"},
                "loss": hapi_dict["loss"][0], "num_samples": r.num_samples, "local_samples": r.local_samples,
                "world_size": r.world_size, "collectives": r.collectives}
    return {"ref": rid, "metrics": dict(r.metrics), "loss": r.loss, "num_samples": r.num_samples,
            "local_samples": r.local_samples, "world_size": r.world_size, "collectives": r.collectives}


def run_all(slow):
    results = {}
    for cid, rid, thunk in configs():
        try:
            results[cid] = record(rid, thunk())
        except Exception as exc:  # recorded; the test shows it
            results[cid] = {"ref": rid, "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6)}
    if slow:  # ~20 s: 40 batches of 0.5 s per rank at W=2
        r = evaluate(SlowNet(0.5), ToyData(80), paddle.metric.Accuracy(), batch_size=1)
        results["slow"] = {"num_samples": r.num_samples}
    return results


def main():
    out_dir = sys.argv[1]
    if "--reference" in sys.argv:
        payload, name = references(), "reference.json"
    else:
        if int(os.environ.get("PADDLE_TRAINERS_NUM", "1")) > 1:
            dist.init_parallel_env()
        payload, name = run_all("--slow" in sys.argv), f"rank{dist.get_rank()}.json"
    with open(os.path.join(out_dir, name + ".tmp"), "w") as fh:
        json.dump(payload, fh, indent=1, sort_keys=True)
    os.replace(os.path.join(out_dir, name + ".tmp"), os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
