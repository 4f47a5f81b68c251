"""Stand-ins for PaddleNLP and PaddleOCR pieces, with the suites' call shapes (neither suite is installed).

Why stand-ins: paddlenlp 2.8.1 does not import without three pins, and paddleocr 3.x on PyPI
ships no eval code (``research/suites-2026-12.md``). What is reproduced, from the suites' sources:

- PaddleNLP: dict samples ``{"input_ids", "token_type_ids", "labels"}``; a classifier that masks
  ``pad_token_id`` 0 (as ERNIE does) and returns ``(loss, logits)`` when given ``labels``, logits
  otherwise; ``compute_metrics(EvalPrediction) -> dict`` (accuracy and macro F1 in numpy).
- PaddleOCR recognition: samples ``(image [3, 32, 100], label [25] int64 padded with 0, length)``;
  ``CTCLabelDecode``-like decoder (argmax, drop repeats and the blank 0; labels decoded as they are),
  ``RecMetric`` copied in logic (``ppocr/metrics/rec_metric.py``: ``ignore_space``, normalised
  Levenshtein distance as rapidfuzz's ``normalized_distance``, ``eps = 1e-5``; ``get_metric`` resets).
- PaddleOCR detection: samples ``(image, shape [4], polys [K_i, 4, 2], ignore_tags [K_i])``; a
  post-process returning ``[{"points": [k, 4, 2]}]`` per image as ``DBPostProcess`` does;
  ``DetMetric`` with ``results`` and ``combine_results`` as PaddleOCR's (``eval_det_iou.py``), the
  per-image match by axis-aligned IoU > 0.5 (PaddleOCR uses shapely polygons; boxes here are
  axis-aligned, where both agree).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import paddle

N = 101
VOCAB, CLASSES, CHARS = 50, 3, "0123456789abcdefghijklmnopqrstuvwxyz"
STEPS, MAX_LEN = 25, 25
EvalPrediction = namedtuple("EvalPrediction", ["predictions", "label_ids"])


# -- PaddleNLP --
class NLPData(paddle.io.Dataset):
    def __init__(self, n: int = N) -> None:
        rng = np.random.default_rng(3)
        self.items = []
        for _ in range(n):
            length = int(rng.integers(5, 41))
            self.items.append({"input_ids": rng.integers(1, VOCAB, length).astype("int64"),
                               "token_type_ids": np.zeros(length, "int64"),
                               "labels": np.int64(rng.integers(0, CLASSES))})

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> dict:
        return self.items[i]


class TinyClassifier(paddle.nn.Layer):
    """``forward(input_ids, token_type_ids, labels=None)``: logits, or ``(loss, logits)`` with labels."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = paddle.nn.Embedding(VOCAB, 16)
        self.type_embed = paddle.nn.Embedding(2, 16)
        self.head = paddle.nn.Linear(16, CLASSES)

    def forward(self, input_ids, token_type_ids=None, labels=None):
        mask = (input_ids != 0).astype("float32").unsqueeze(-1)  # pad_token_id 0 never counts
        h = self.embed(input_ids) + self.type_embed(token_type_ids if token_type_ids is not None
                                                     else paddle.zeros_like(input_ids))
        logits = self.head((h * mask).sum(axis=1) / mask.sum(axis=1))
        if labels is None:
            return logits
        return paddle.nn.functional.cross_entropy(logits, labels.reshape([-1])), logits


def compute_metrics(p) -> dict:
    preds = np.asarray(p.predictions).argmax(-1)
    labels = np.asarray(p.label_ids).reshape(-1)
    f1s = []
    for c in range(CLASSES):
        tp = float(((preds == c) & (labels == c)).sum())
        fp, fn = float(((preds == c) & (labels != c)).sum()), float(((preds != c) & (labels == c)).sum())
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0)
    return {"accuracy": float((preds == labels).mean()), "f1": float(np.mean(f1s))}


def ref_nlp(model, data) -> dict:
    """One process, one sample at a time: every logit, the mean per-sample loss, compute_metrics once."""
    logits, labels, losses = [], [], []
    with paddle.no_grad():
        for i in range(len(data)):
            s = data[i]
            loss, out = model(paddle.to_tensor(s["input_ids"][None]), paddle.to_tensor(s["token_type_ids"][None]),
                              labels=paddle.to_tensor(np.array([s["labels"]])))
            logits.append(out.numpy()[0])
            labels.append(int(s["labels"]))
            losses.append(float(loss))
    scores = compute_metrics(EvalPrediction(np.stack(logits), np.array(labels)))
    acc = float((np.stack(logits).argmax(-1) == np.array(labels)).mean())
    return {"metrics": scores, "acc": acc, "loss": float(np.mean(losses)), "num_samples": len(data)}


# -- PaddleOCR recognition --
class RecNet(paddle.nn.Layer):
    """CRNN-like: conv, pool to 25 steps, linear to the CTC classes, softmax (CTCHead in eval)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.pool = paddle.nn.AdaptiveAvgPool2D((1, STEPS))
        self.head = paddle.nn.Linear(8, len(CHARS) + 1)

    def forward(self, image):
        h = self.pool(paddle.nn.functional.relu(self.conv(image))).squeeze(2).transpose([0, 2, 1])
        return paddle.nn.functional.softmax(self.head(h) * 8.0, axis=-1)


class CTCLabelDecode:
    """``__call__(preds, label=None)``: ``[(text, conf)]``, or ``(texts, labels)`` with a label."""

    def decode(self, index, prob=None, remove_duplicate=False):
        out = []
        for b, row in enumerate(index):
            keep = np.ones(len(row), bool)
            if remove_duplicate:
                keep[1:] = row[1:] != row[:-1]
            keep &= row != 0
            chars = "".join(CHARS[c - 1] for c in row[keep])
            conf = float(np.mean(prob[b][keep])) if prob is not None and keep.any() else 1.0
            out.append((chars, conf))
        return out

    def __call__(self, preds, label=None, *args, **kwargs):
        preds = preds.numpy() if isinstance(preds, paddle.Tensor) else np.asarray(preds)
        text = self.decode(preds.argmax(axis=2), preds.max(axis=2), remove_duplicate=True)
        if label is None:
            return text
        return text, self.decode(np.asarray(label))


def normalized_distance(a: str, b: str) -> float:
    if not a and not b:
        return 0.0
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1] / max(len(a), len(b))


class RecMetric:
    def __init__(self, main_indicator="acc", ignore_space=True, **kwargs):
        self.main_indicator, self.ignore_space, self.eps = main_indicator, ignore_space, 1e-5
        self.reset()

    def __call__(self, pred_label, *args, **kwargs):
        preds, labels = pred_label
        correct_num, all_num, norm_edit_dis = 0, 0, 0.0
        for (pred, _), (target, _) in zip(preds, labels):
            if self.ignore_space:
                pred, target = pred.replace(" ", ""), target.replace(" ", "")
            norm_edit_dis += normalized_distance(pred, target)
            correct_num += pred == target
            all_num += 1
        self.correct_num += correct_num
        self.all_num += all_num
        self.norm_edit_dis += norm_edit_dis
        return {"acc": correct_num / (all_num + self.eps), "norm_edit_dis": 1 - norm_edit_dis / (all_num + self.eps)}

    def get_metric(self):
        acc = 1.0 * self.correct_num / (self.all_num + self.eps)
        norm_edit_dis = 1 - self.norm_edit_dis / (self.all_num + self.eps)
        self.reset()
        return {"acc": acc, "norm_edit_dis": norm_edit_dis}

    def reset(self):
        self.correct_num, self.all_num, self.norm_edit_dis = 0, 0, 0


class RecData(paddle.io.Dataset):
    """Every third label is the model's own reading, so that the accuracy is not 0."""

    def __init__(self, model, n: int = N) -> None:
        rng = np.random.default_rng(5)
        decode = CTCLabelDecode()
        self.items = []
        for i in range(n):
            image = rng.standard_normal((3, 32, 100)).astype("float32")
            if i % 3 == 0:
                with paddle.no_grad():
                    text = decode(model(paddle.to_tensor(image[None])))[0][0]
                ids = [CHARS.index(c) + 1 for c in text]
            else:
                ids = list(rng.integers(1, len(CHARS) + 1, int(rng.integers(1, 10))))
            label = np.zeros(MAX_LEN, "int64")
            label[:len(ids)] = ids
            self.items.append((image, label, np.int64(len(ids))))

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        return self.items[i]


# -- PaddleOCR detection --
class DetNet(paddle.nn.Layer):
    """Three candidate boxes per image: (score, x1, y1, x2, y2) in [0, 1], from pooled features."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
        self.head = paddle.nn.Linear(4 * 16, 15)

    def forward(self, image):
        h = paddle.nn.functional.adaptive_avg_pool2d(self.conv(image), 4).flatten(1)
        return paddle.nn.functional.sigmoid(self.head(h)).reshape([-1, 3, 5])


def quads(boxes: np.ndarray) -> np.ndarray:
    """``[k, 4]`` (x1, y1, x2, y2) -> ``[k, 4, 2]`` corner points, as PaddleOCR's polygons."""
    x1, y1, x2, y2 = (boxes[:, i] for i in range(4))
    return np.stack([np.stack([x1, y1], -1), np.stack([x2, y1], -1), np.stack([x2, y2], -1),
                     np.stack([x1, y2], -1)], 1).astype("float32")


class DBPostProcess:
    """``__call__(preds, shape_list)``: ``[{"points": [k, 4, 2]}]`` per image, in pixels."""

    def __call__(self, preds, shape_list):
        preds = preds.numpy() if isinstance(preds, paddle.Tensor) else np.asarray(preds)
        shape_list = np.asarray(shape_list)
        out = []
        for p, shape in zip(preds, shape_list):
            kept = p[p[:, 0] > 0.5]
            lo, hi = np.minimum(kept[:, 1:3], kept[:, 3:5]), np.maximum(kept[:, 1:3], kept[:, 3:5])
            out.append({"points": quads(np.concatenate([lo, hi], 1) * [shape[1], shape[0], shape[1], shape[0]])})
        return out


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    (ax1, ay1), (ax2, ay2) = a.min(0), a.max(0)
    (bx1, by1), (bx2, by2) = b.min(0), b.max(0)
    iw, ih = max(0.0, min(ax2, bx2) - max(ax1, bx1)), max(0.0, min(ay2, by2) - max(ay1, by1))
    inter = iw * ih
    union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter
    return inter / union if union > 0 else 0.0


class DetectionIoUEvaluator:
    def evaluate_image(self, gt, pred):
        care = [g for g in gt if not g["ignore"]]
        matched, used = 0, set()
        for d in pred:
            for k, g in enumerate(care):
                if k not in used and _iou(np.asarray(d["points"]), np.asarray(g["points"])) > 0.5:
                    used.add(k)
                    matched += 1
                    break
        n_care, n_det = len(care), len(pred)
        return {"precision": matched / n_det if n_det else 0.0, "recall": matched / n_care if n_care else 0.0,
                "gtCare": n_care, "detCare": n_det, "detMatched": matched, "gtDontCare": [], "evaluationLog": ""}

    def combine_results(self, results):
        gt = sum(r["gtCare"] for r in results)
        det = sum(r["detCare"] for r in results)
        matched = sum(r["detMatched"] for r in results)
        recall = 0 if gt == 0 else float(matched) / gt
        precision = 0 if det == 0 else float(matched) / det
        hmean = 0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)
        return {"precision": precision, "recall": recall, "hmean": hmean}


class DetMetric:
    def __init__(self, main_indicator="hmean", **kwargs):
        self.evaluator, self.main_indicator = DetectionIoUEvaluator(), main_indicator
        self.reset()

    def __call__(self, preds, batch, **kwargs):
        for pred, gt_polyons, ignore_tags in zip(preds, batch[2], batch[3]):
            gt = [{"points": np.asarray(p), "text": "", "ignore": bool(t)}
                  for p, t in zip(np.asarray(gt_polyons), np.asarray(ignore_tags))]
            det = [{"points": p, "text": ""} for p in pred["points"]]
            self.results.append(self.evaluator.evaluate_image(gt, det))

    def get_metric(self):
        metrics = self.evaluator.combine_results(self.results)
        self.reset()
        return metrics

    def reset(self):
        self.results = []


class DetData(paddle.io.Dataset):
    """``(image [3, 32, 32], shape [4], polys [K_i, 4, 2], ignore_tags [K_i])``, K_i from 1 to 4;
    every third image's boxes include the model's own (so matches happen)."""

    def __init__(self, model, n: int = N) -> None:
        rng = np.random.default_rng(9)
        post = DBPostProcess()
        self.items = []
        for i in range(n):
            image = rng.standard_normal((3, 32, 32)).astype("float32")
            shape = np.array([32, 32, 1.0, 1.0], "float32")
            lo = rng.uniform(0, 20, (int(rng.integers(1, 4)), 2))
            polys = quads(np.concatenate([lo, lo + rng.uniform(4, 12, lo.shape)], 1))
            if i % 3 == 0:
                with paddle.no_grad():
                    own = post(model(paddle.to_tensor(image[None])), shape[None])[0]["points"]
                polys = np.concatenate([own, polys])[:4]
            tags = rng.random(len(polys)) < 0.15
            self.items.append((image, shape, polys.astype("float32"), tags))

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int):
        return self.items[i]


def ref_ocr(model, data, metric, post) -> dict:
    """PaddleOCR's eval loop (``tools/program.py``), one process, batch size 1."""
    with paddle.no_grad():
        for i in range(len(data)):
            batch = [np.asarray(f)[None] for f in data[i]]
            preds = model(paddle.to_tensor(batch[0]))
            metric(post(preds, batch[1]), batch)
    return {"metrics": metric.get_metric(), "num_samples": len(data)}
