"""More scenarios of edges_worker.py (issue 20): input validation (5), the empty-class
convention (3), detection gathered to one rank (6) and a custom NCHW metric under PadCollate (7).
"""

from __future__ import annotations

import numpy as np
import paddle
import paddle.distributed as dist

from paddle_doctor import PadCollate, evaluate
from paddle_doctor.runtime.metrics.detection import DetectionMetric
from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric
from paddle_doctor.runtime.suites.hapi import evaluate_model
from paddle_doctor.runtime.suites.recipes import evaluate_paddleseg

from workers.edgekit import Images, Pool, SegData, SegNet, acc
from workers.suitekit import DetData, DetNet, voc_map


class NoClass2(paddle.nn.Layer):
    """Segmentation logits that never choose class 2 (with labels that never hold it: an empty class)."""

    def forward(self, img):
        return [paddle.concat([img[:, :1], -img[:, :1], paddle.full_like(img[:, :1], -100.0)], axis=1)]


def empty_class():
    values = {}
    for convention in (0, 1):
        metric = SegmentationMetric(3, empty_class=convention)
        r = evaluate(NoClass2(), SegData(n=10, empty=2), metric, batch_size=2, inputs="img", labels="label",
                     output=0, progress=False)
        values[convention] = [r.metrics["miou"], r.metrics["class_iou"]]
    values["recipe_default"] = evaluate_paddleseg(NoClass2(), SegData(n=10, empty=2), progress=False).metrics["miou"]
    return values


class Recorder(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_eval_begin(self, logs=None):
        self.seen.append(["begin", sorted(logs.get("metrics", []))])

    def on_eval_end(self, logs=None):
        self.seen.append(["end", {k: np.asarray(v).tolist() for k, v in logs.items()}])


def hapi_args():
    from paddle.static import InputSpec

    model = paddle.Model(Pool(), [InputSpec([None, 3, 4, 4], "float32", "x")], [InputSpec([None, 1], "int64", "y")])
    model.prepare(loss=paddle.nn.CrossEntropyLoss(), metrics=acc())
    rec = Recorder()
    out = evaluate_model(model, Images(), batch_size=4, log_freq=5, verbose=0, num_workers=0, callbacks=[rec])
    return {"out": {k: np.asarray(v).tolist() for k, v in out.items()}, "callbacks": rec.seen}


def calculate_area(pred, label, num_classes, ignore_index=255):
    """PaddleSeg's ``paddleseg.utils.metrics.calculate_area`` (2.8 and head), on paddle tensors."""
    if len(pred.shape) == 4:
        pred = paddle.squeeze(pred, axis=1)
    if len(label.shape) == 4:
        label = paddle.squeeze(label, axis=1)
    if not pred.shape == label.shape:
        raise ValueError("Shape of `pred` and `label should be equal, but there are {} and {}.".format(
            pred.shape, label.shape))
    mask = label != ignore_index
    areas = []
    for i in range(num_classes):
        pred_i = paddle.logical_and(pred == i, mask)
        label_i = label == i
        areas.append([int(paddle.logical_and(pred_i, label_i).astype("int64").sum()),
                      int(pred_i.astype("int64").sum()), int(label_i.astype("int64").sum())])
    return np.array(areas).T


class AreaMetric(paddle.metric.Metric):
    """A user's NCHW metric on PaddleSeg's calculate_area: argmax(axis=1, keepdim=True)."""

    sync_states = {"areas": "sum"}

    def __init__(self):
        super().__init__()
        self.reset()

    def reset(self):
        self.areas = np.zeros((3, 3), np.int64)

    def compute(self, logits, label):
        return calculate_area(paddle.argmax(logits, axis=1, keepdim=True), label, 3)

    def update(self, areas):
        self.areas = self.areas + np.asarray(areas)

    def accumulate(self):
        inter, pred, lab = self.areas.astype(float)
        union = pred + lab - inter
        return float(np.mean(np.divide(inter, union, out=np.zeros(3), where=union > 0)))

    def name(self):
        return "area_miou"


class VarSeg(SegData):
    """Label maps of two sizes (PaddleSeg val images differ in size)."""

    def __getitem__(self, i):
        item = super().__getitem__(i)
        cut = 4 + i % 3
        return {"img": item["img"][:, :cut], "label": item["label"][:, :cut]}


def nchw_metric():
    kwargs = {"batch_size": 3, "inputs": "img", "labels": "label", "output": 0, "progress": False}
    out = {}
    try:
        evaluate(SegNet(), VarSeg(n=12), AreaMetric(), collate_fn=PadCollate(pad_value={"label": 255}, label="label"),
                 **kwargs)
    except Exception as exc:
        out["with_mask"] = f"{type(exc).__name__}: {exc}"
    keep = PadCollate(pad_value={"label": 255}, label="label", mask=False)
    out["keep_layout"] = evaluate(SegNet(), VarSeg(n=12), AreaMetric(), collate_fn=keep, **kwargs).metrics["area_miou"]
    ref = SegmentationMetric(3)
    out["reference"] = evaluate(SegNet(), VarSeg(n=12), ref, collate_fn=PadCollate(pad_value={"label": 255}),
                                **kwargs).metrics["miou"]
    return out


def detection():
    calls = []

    def counting(preds, gts):
        calls.append(len(preds))
        return voc_map(preds, gts)

    metric = DetectionMetric(counting)
    collate = PadCollate(ragged=("gt_bbox", "gt_class"), label="im_id")
    r = evaluate(DetNet(), DetData(24), metric, batch_size=3, collate_fn=collate, inputs="image",
                 labels=["im_id", "gt_bbox", "gt_class"], output=["bbox", "bbox_num"], progress=False)
    again = metric.accumulate()  # cached: no second evaluator run
    reference = None
    if dist.get_rank() == 0:  # every image's boxes in one plain loop, straight to the evaluator
        whole = DetectionMetric(voc_map)
        for i in range(0, 24, 3):
            batch = collate([DetData(24)[j] for j in range(i, i + 3)])
            out = DetNet()(paddle.to_tensor(batch["image"]))
            whole.update(out["bbox"].numpy(), out["bbox_num"].numpy(), batch["im_id"], batch["gt_bbox"],
                         batch["gt_class"])
        reference = whole.accumulate()
    return {"map": r.metrics["bbox_map"], "again": again, "evaluator_calls": len(calls), "images_seen": calls,
            "bytes_received": r.bytes_exchanged, "rows_kept": int(len(metric.preds)), "reference": reference}


def more_scenarios(rank):
    seg = {"inputs": "img", "labels": "label", "output": 0, "progress": False}
    return {
        "float_labels": lambda: evaluate_paddleseg(SegNet(), SegData(label_dtype="float32"), progress=False),
        "label_range": lambda: evaluate(SegNet(classes=2), SegData(), SegmentationMetric(2), batch_size=2,
                                        **seg),
        "resized": lambda: evaluate_paddleseg(SegNet(), SegData(size=(6, 6), label_size=(8, 8)), progress=False),
        "infer_fn_batch": lambda: evaluate_paddleseg(SegNet(), SegData(), batch_size=2,
                                                     infer_fn=lambda model, img, trans_info: model(img)),
        "hapi_args": hapi_args,
        "empty_class": empty_class,
        "nchw_metric": nchw_metric,
        "detection": detection,
    }
