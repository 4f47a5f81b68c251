"""Batches, models and metrics shaped as the suites shape them, for tests/integration/test_evaluate_suites.py.

Shapes reproduced from the suites' sources (none is installed for the tests):
- PaddleSeg 2.8 (``datasets/dataset.py``, ``core/val.py``, ``core/infer.py``): val samples are dicts
  ``{"img": float32[3, H, W], "label": int64[1, H, W], "trans_info": [], "gt_fields": []}``; models return
  ``logit_list`` (a list, main head first) of NCHW logits; ignore_index 255.
- PaddleClas 2.6 (``engine/evaluation/classification.py``): batches ``[image, label int64[B, 1]]``; a
  distillation model returns ``{"Student": {"logits": ...}, ...}``.
- PaddleNLP 2.8 (``trainer/trainer.py``): dict batches ``{"input_ids", ..., "labels"}``, the model called
  as ``model(**inputs)`` returning a tuple with the logits first.
- PaddleDetection 2.x (``engine/trainer.py``, ``metrics/metrics.py``): batches with ``image``, ``im_id``
  ``[B, 1]``, per-image ``gt_bbox [G, 4]`` and ``gt_class [G, 1]``; outputs ``{"bbox": [M, 6], "bbox_num": [B]}``.

The reference side (``ref_*``) is written here without paddle_doctor: PaddleSeg's area formulas
as PaddleSeg writes them (a loop over classes), and a VOC AP evaluator fed by a plain loop.
"""

from __future__ import annotations

import time

import numpy as np
import paddle
from paddle.io import Dataset

from workers.evalkit import DIM, Net, ToyData

CLASSES = 4
IGNORE = 255


class DictToy(Dataset):
    """ToyData as dicts: ``{"x", "extra", "labels"}`` (PaddleNLP-like) or ``{"x", "label"}``."""

    def __init__(self, n: int, nlp: bool = False):
        self.base, self.nlp = ToyData(n), nlp

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        x, y = self.base[i]
        if self.nlp:
            return {"x": x, "extra": np.float32(0.5), "labels": y[0]}
        return {"x": x, "label": y}


class AuxNet(Net):
    """``kind``: "tuple" (logits, aux [B, 1]), "dict" {"logits", "aux"}, "student" (PaddleClas
    distillation), "nlp" (forward(x, extra) -> (logits, hidden))."""

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def forward(self, x, extra=None):
        h = super().forward(x)
        aux = h[:, :1] * 2.0
        if self.kind == "tuple":
            return h, aux
        if self.kind == "dict":
            return {"aux": aux, "logits": h}
        if self.kind == "student":
            return {"Student": {"logits": h}, "Teacher": {"logits": aux}}
        return h, paddle.concat([h, aux], axis=-1) * extra.reshape([-1, 1])


class SegData(Dataset):
    """PaddleSeg val samples; ``variable``: H, W in 5..9 per image, else 8 x 8."""

    def __init__(self, n: int, variable: bool = True, seed: int = 3):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            h, w = (rng.integers(5, 10, 2) if variable else (8, 8))
            img = rng.standard_normal((3, h, w)).astype("float32")
            label = ((img[0] > 0).astype("int64") + (img[1] > 0.5) + (img[2] > 1.0))[None]
            label[rng.random(label.shape) < 0.1] = IGNORE
            self.items.append((img, label))
        self.num_classes, self.ignore_index = CLASSES, IGNORE

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        img, label = self.items[i]
        return {"img": img, "label": label, "trans_info": [], "gt_fields": []}


class SegNet(paddle.nn.Layer):
    """A 1x1 convolution; returns ``[logits, aux_logits]`` as PaddleSeg models do."""

    def __init__(self):
        super().__init__()
        paddle.seed(11)
        self.conv = paddle.nn.Conv2D(3, CLASSES, 1)

    def forward(self, img):
        logits = self.conv(img)
        return [logits, logits * 0.5]


class DetData(Dataset):
    """Images that encode how many boxes the model finds; 0-3 ground-truth boxes each."""

    def __init__(self, n: int, seed: int = 5):
        rng = np.random.default_rng(seed)
        self.items = []
        for i in range(n):
            img = rng.random((3, 4, 4)).astype("float32")
            img[0, 0, 0] = (rng.integers(0, 4) + 0.5) / 4  # the model predicts floor(4 * this) boxes
            m, g = int(img[0, 0, 0] * 4), int(rng.integers(0, 4))
            boxes, classes = [], []
            for j in range(g):  # most near a box the model will find (hits and misses for AP)
                if j < m and rng.random() < 0.7:
                    x1, y1 = img[1, j, 0] * 10, img[1, j, 1] * 10
                    box = np.array([x1, y1, x1 + 2 + img[2, j, 2] * 4, y1 + 2 + img[2, j, 3] * 4])
                    boxes.append(box + rng.normal(0, 0.3, 4))
                else:
                    xy = rng.random(2) * 10
                    boxes.append(np.concatenate([xy, xy + 2 + rng.random(2) * 4]))
                classes.append(j % 2 if rng.random() < 0.8 else 1 - j % 2)
            gt = np.array(boxes, "float32").reshape(g, 4)
            cls = np.array(classes, "int32").reshape(g, 1)
            self.items.append((img, np.array([i], "int64"), gt, cls))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        img, im_id, gt, cls = self.items[i]
        return {"image": img, "im_id": im_id, "gt_bbox": gt, "gt_class": cls}


class DetNet(paddle.nn.Layer):
    """Boxes from pixels: ``{"bbox": [M, 6] (class, score, x1, y1, x2, y2), "bbox_num": [B]}``."""

    def __init__(self):
        super().__init__()
        self.scale = paddle.create_parameter([1], "float32", default_initializer=paddle.nn.initializer.Constant(10.0))

    def forward(self, image):
        rows, nums = [], []
        for b in range(image.shape[0]):
            m = int(float(image[b, 0, 0, 0]) * 4)
            for j in range(m):
                x1, y1 = image[b, 1, j, 0] * self.scale[0], image[b, 1, j, 1] * self.scale[0]
                w, h = 2 + image[b, 2, j, 2] * 4, 2 + image[b, 2, j, 3] * 4
                score = image[b, 2, j, 0]
                rows.append(paddle.stack([paddle.to_tensor(float(j % 2)), score, x1, y1, x1 + w, y1 + h]))
            nums.append(m)
        bbox = paddle.stack(rows) if rows else paddle.zeros([0, 6])
        return {"bbox": bbox, "bbox_num": paddle.to_tensor(nums, "int32")}


class SlowNet(Net):
    """Net that takes ``delay`` seconds a batch (a long evaluation for the progress lines)."""

    def __init__(self, delay: float):
        super().__init__()
        self.delay = delay

    def forward(self, x):
        time.sleep(self.delay)
        return super().forward(x)


def voc_map(preds: dict, gts: dict, iou_threshold: float = 0.5) -> float:
    """The user's evaluator: VOC mean AP (all points) over the classes present in the ground truth."""
    classes = sorted({int(c) for g in gts.values() for c in g[:, 0]})
    aps = []
    for c in classes:
        scored = [(float(p[1]), tuple(p[2:]), img) for img, rows in preds.items() for p in rows if int(p[0]) == c]
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        truth = {img: [r[1:] for r in rows if int(r[0]) == c] for img, rows in gts.items()}
        used = {img: [False] * len(t) for img, t in truth.items()}
        total = sum(len(t) for t in truth.values())
        tp = []
        for _, box, img in scored:
            ious = [_iou(np.array(box), t) for t in truth.get(img, [])]
            k = int(np.argmax(ious)) if ious else -1
            hit = k >= 0 and ious[k] >= iou_threshold and not used[img][k]
            if hit:
                used[img][k] = True
            tp.append(hit)
        tp = np.array(tp, bool)
        if not total:
            continue
        recall = np.cumsum(tp) / total
        precision = np.cumsum(tp) / np.arange(1, len(tp) + 1) if len(tp) else np.zeros(0)
        aps.append(_average_precision(recall, precision))
    return float(np.mean(aps)) if aps else 0.0


def _average_precision(recall, precision) -> float:
    r = np.concatenate([[0.0], recall, [1.0]])
    p = np.concatenate([[0.0], precision, [0.0]])
    for i in range(len(p) - 2, -1, -1):
        p[i] = max(p[i], p[i + 1])
    steps = np.flatnonzero(r[1:] != r[:-1])
    return float(((r[steps + 1] - r[steps]) * p[steps + 1]).sum())


def _iou(a, b) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


# ---- references: one process, one sample at a time, no paddle_doctor ----

def ref_classify(n: int, topk=(1, 2)) -> dict:
    """Accuracy and sample-weighted cross-entropy of Net on ToyData(n)."""
    data, net = ToyData(n), Net()
    net.eval()
    acc, loss_sum = paddle.metric.Accuracy(topk=topk), 0.0
    with paddle.no_grad():
        for i in range(n):
            x, y = data[i]
            out = net(paddle.to_tensor(x[None]))
            acc.update(acc.compute(out, paddle.to_tensor(y[None])).numpy())
            loss_sum += float(paddle.nn.functional.cross_entropy(out, paddle.to_tensor(y[None])))
    names, values = acc.name(), acc.accumulate()
    values = values if len(names) > 1 else [values]
    return {"metrics": {k: float(v) for k, v in zip(names, values)}, "num_samples": n, "loss": loss_sum / n}


def ref_segment(data: SegData) -> dict:
    """PaddleSeg's calculate_area + mean_iou/accuracy/kappa/dice, image by image (batch 1)."""
    net = SegNet()
    net.eval()
    inter, pred_area, label_area = (np.zeros(CLASSES, np.int64) for _ in range(3))
    with paddle.no_grad():
        for i in range(len(data)):
            s = data[i]
            pred = paddle.argmax(net(paddle.to_tensor(s["img"][None]))[0], axis=1).numpy()[0]
            label = s["label"][0]
            mask = label != IGNORE
            for c in range(CLASSES):
                pred_c, label_c = (pred == c) & mask, label == c
                pred_area[c] += pred_c.sum()
                label_area[c] += label_c.sum()
                inter[c] += (pred_c & label_c).sum()
    union = pred_area + label_area - inter
    class_iou = [0.0 if union[c] == 0 else inter[c] / union[c] for c in range(CLASSES)]
    dice = [0.0 if pred_area[c] + label_area[c] == 0 else 2 * inter[c] / (pred_area[c] + label_area[c])
            for c in range(CLASSES)]
    total = label_area.sum()
    po, pe = inter.sum() / total, (pred_area.astype(float) * label_area).sum() / (float(total) * total)
    return {"metrics": {"miou": float(np.mean(class_iou)), "class_iou": [float(v) for v in class_iou],
                        "pixel_acc": float(inter.sum() / pred_area.sum()), "kappa": float((po - pe) / (1 - pe)),
                        "dice": float(np.mean(dice))},
            "num_samples": len(data), "loss": None}


def ref_detect(n: int) -> dict:
    data, net = DetData(n), DetNet()
    net.eval()
    preds, gts = {}, {}
    with paddle.no_grad():
        for i in range(n):
            s = data[i]
            out = net(paddle.to_tensor(s["image"][None]))
            preds[i] = out["bbox"].numpy().astype(np.float64).reshape(-1, 6)
            gts[i] = np.concatenate([s["gt_class"].astype(np.float64), s["gt_bbox"].astype(np.float64)], axis=1)
    return {"metrics": {"bbox_map": voc_map(preds, gts)}, "num_samples": n, "loss": None}


def ref_hapi(n: int) -> dict:
    """paddle.Model.evaluate in one process (exact there) for the metric; the weighted loss by hand."""
    model = hapi_model()
    got = model.evaluate(ToyData(n), batch_size=4, verbose=0)
    return {"metrics": {"acc": float(got["acc"])}, "num_samples": n, "loss": ref_classify(n, (1,))["loss"]}


def hapi_model():
    from paddle.static import InputSpec

    model = paddle.Model(Net(), inputs=[InputSpec([None, DIM], "float32", "x")],
                         labels=[InputSpec([None, 1], "int64", "y")])
    model.prepare(loss=paddle.nn.CrossEntropyLoss(), metrics=paddle.metric.Accuracy())
    return model
