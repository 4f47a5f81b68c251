"""Shared by the evaluate tests, their launcher workers and bench/bench_evaluate.py: tiny
deterministic datasets and models, a custom metric with every kind of state, and a plain
one-process reference loop that does not use paddle_doctor at all (the ground truth).
"""

from __future__ import annotations

import numpy as np
import paddle
from paddle.io import DataLoader, Dataset

DIM = 8


class ToyData(Dataset):
    """x: float32[DIM]; y: int64[1], 3 classes; ``binary``: y is 1 for class 0, else 0."""

    def __init__(self, n: int, binary: bool = False, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, DIM)).astype("float32")
        y = (self.x[:, 0] > 0.3).astype("int64") + (self.x[:, 1] > 0.5).astype("int64")
        noise = rng.random(n) < 0.2  # imperfect labels: metrics are not all 0 or 1
        y[noise] = rng.integers(0, 3, noise.sum())
        self.y = (y == 0).astype("int64") if binary else y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i:i + 1]


class Rows(Dataset):
    """The given samples as they are: a batch shape a test spells out (tuples, dicts, masks)."""

    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class TokenData(Dataset):
    """Variable-length sequences: x float32[L, DIM], y int64[L] (3 tags), L in 1..6."""

    def __init__(self, n: int, seed: int = 1):
        rng = np.random.default_rng(seed)
        lengths = rng.integers(1, 7, n)
        self.x = [rng.standard_normal((k, DIM)).astype("float32") for k in lengths]
        self.y = [((x[:, 0] > 0).astype("int64") + (x[:, 2] > 0.7)) for x in self.x]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    """``out="logits"``: [B, 3]; ``"prob"``: [B, 1] sigmoid; ``"prob2"``: [B, 2] (1-p, p).
    Works per token too ([B, L, DIM] -> [B, L, 3])."""

    def __init__(self, out: str = "logits", seed: int = 7):
        super().__init__()
        paddle.seed(seed)  # the same weights in every process
        self.out = out
        self.fc1 = paddle.nn.Linear(DIM, 16)
        self.fc2 = paddle.nn.Linear(16, 3 if out == "logits" else 1)

    def forward(self, x):
        h = self.fc2(paddle.nn.functional.relu(self.fc1(x)))
        if self.out == "logits":
            return h
        p = paddle.nn.functional.sigmoid(h)
        return p if self.out == "prob" else paddle.concat([1 - p, p], axis=-1)


class RankAuc(paddle.metric.Metric):
    """Exact ROC AUC (Mann-Whitney, ties count half) from every score: cat states, plus a max, a
    min and a sum state, so that one metric exercises every reduction."""

    sync_states = {"scores": "cat", "labels": "cat", "hi": "max", "lo": "min", "seen": "sum"}

    def __init__(self, name: str = "rank_auc"):
        super().__init__()
        self._name = name
        self.reset()

    def reset(self):
        self.scores = np.zeros((0,), "float32")
        self.labels = np.zeros((0,), "int64")
        self.hi, self.lo, self.seen = -np.inf, np.inf, 0

    def update(self, preds, labels):
        p = np.asarray(preds, "float32").reshape(-1)
        self.scores = np.concatenate([self.scores, p])
        self.labels = np.concatenate([self.labels, np.asarray(labels, "int64").reshape(-1)])
        self.hi, self.lo = max(self.hi, float(p.max())), min(self.lo, float(p.min()))
        self.seen += p.size

    def accumulate(self):
        pos, neg = self.scores[self.labels == 1], self.scores[self.labels == 0]
        if not len(pos) or not len(neg):
            return [0.0, self.hi, self.lo, self.seen]
        greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
        return [float(greater / (len(pos) * len(neg))), self.hi, self.lo, self.seen]

    def name(self):
        return [self._name, "score_max", "score_min", "seen"]


def families():
    """(family name, model out kind, dataset kwargs, metric factory, loss_fn)."""
    ce = paddle.nn.CrossEntropyLoss()
    return {
        "multi": ("logits", {}, lambda: [paddle.metric.Accuracy(topk=(1, 2))], ce),
        "binary": ("prob", {"binary": True}, lambda: [paddle.metric.Precision(), paddle.metric.Recall(),
                                                      RankAuc()], None),
        "auc": ("prob2", {"binary": True}, lambda: [paddle.metric.Auc()], None),
    }


def reference(model, dataset, metrics, loss_fn=None, batch_size=4, tokens=False):
    """One process, plain Paddle: every sample once, in order; the ground truth."""
    model.eval()
    loss_sum, rows_total, results = 0.0, 0, {}
    loader = DataLoader(dataset, batch_size=1 if tokens else batch_size, shuffle=False)
    with paddle.no_grad():
        for x, y in loader:
            out = model(x)
            if tokens:  # one sequence per batch: flatten its tokens
                out, y = out.reshape([-1, out.shape[-1]]), y.reshape([-1])
            for m in metrics:
                m.update(*[a.numpy() for a in _as_list(m.compute(out, y))])
            if loss_fn is not None:
                per_row = paddle.nn.functional.cross_entropy(out, y.reshape([-1, 1]) if not tokens else y,
                                                             reduction="none")
                loss_sum += float(per_row.astype("float64").sum())
                rows_total += int(y.shape[0])
    for m in metrics:
        names, value = m.name(), m.accumulate()
        names = names if isinstance(names, (list, tuple)) else [names]
        value = value if len(names) > 1 else [value]
        results.update({n: float(v) for n, v in zip(names, value)})
    return {"metrics": results, "num_samples": len(dataset),
            "loss": loss_sum / rows_total if loss_fn is not None else None}


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]
