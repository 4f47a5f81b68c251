"""The scenarios of edges_worker.py (issue 20), one function each; each returns plain data.

Tiny models and datasets written from the issue's descriptions: no PaddleSeg, PaddleNLP or
PaddleDetection is installed here, so their batch layouts are built by hand.
"""

from __future__ import annotations

import os
import time

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import Dataset

from paddle_doctor import PadCollate, evaluate, pad_collate

N = 40  # rank 0 evaluates 0..19, rank 1 20..39 (contiguous shards)


class Images(Dataset):
    """``[3, H, W]`` images, class labels ``[1]``; ``vary``: H alternates 4 and 5 (PaddleSeg val sets)."""

    def __init__(self, n=N, vary=False, bad_index=None, bad_rank=None):
        self.n, self.vary, self.bad_index, self.bad_rank = n, vary, bad_index, bad_rank

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad_index and dist.get_rank() == self.bad_rank:
            raise KeyError(f"no annotation for image {i}")
        h = 4 + (i % 2 if self.vary else 0)
        return np.full((3, h, 4), i / self.n, "float32"), np.array([i % 3], "int64")


class TextLabels(Images):
    def __getitem__(self, i):
        return super().__getitem__(i)[0], "cat"


class Tokens(Dataset):
    """PaddleNLP-style dict samples: ``input_ids`` of varying length and ``labels``."""

    def __len__(self):
        return N

    def __getitem__(self, i):
        return {"input_ids": np.arange(3 + i % 3, dtype="int64"), "labels": np.array([i % 2], "int64")}


class Pool(paddle.nn.Layer):
    """[B, 3, H, W] -> [B, 3] logits; ``delay`` s per batch; BatchNorm so that modes matter."""

    def __init__(self, delay=0.0):
        super().__init__()
        paddle.seed(3)
        self.bn = paddle.nn.BatchNorm2D(3)
        self.fc = paddle.nn.Linear(3, 3)
        self.delay, self.batches = delay, 0

    def forward(self, x):
        self.batches += 1
        time.sleep(self.delay)
        return self.fc(self.bn(x).mean(axis=[2, 3]))


class TokenNet(paddle.nn.Layer):
    def forward(self, input_ids, **kwargs):
        return paddle.zeros([input_ids.shape[0], 2])


def acc():
    return paddle.metric.Accuracy()


def failing_on_rank1(samples):
    """A custom collate that breaks on rank 1's samples only (a field rank 1's data lacks)."""
    if dist.get_rank() == 1:
        raise ValueError("sample has no 'mask' field")
    return [np.stack([s[0] for s in samples]), np.stack([s[1] for s in samples])]


def slow_rank0(data, model=None, **kwargs):
    """Rank 0 works ~2 s (20 batches of 0.1 s); returns how many batches it ran before stopping."""
    model = model or Pool(delay=0.1 if dist.get_rank() == 0 else 0.0)
    try:
        evaluate(model, data, acc(), batch_size=1, progress=False, **kwargs)
    finally:
        Pool.last_batches = model.batches
    return model.batches


def with_batches(thunk):
    """Run ``thunk``; on an error, add how many batches rank 0's model ran to the message."""
    def run():
        Pool.last_batches = None
        try:
            return thunk()
        except Exception as exc:
            raise type(exc)(f"{exc} [batches run: {Pool.last_batches}]") from exc
    return run


def modes():
    """Training flags before and after evaluate, for a wrapper around an eval-mode model, a model
    with mixed modes, and the PaddleSeg recipe."""
    from paddle_doctor.runtime.suites.recipes import evaluate_paddleseg

    inner = Pool()
    inner.eval()
    wrapper = paddle.nn.Sequential(inner)  # a wrapper Layer in train mode around it
    mixed = Pool()
    mixed.train()
    mixed.fc.eval()

    def flags(layer):
        return [bool(sub.training) for sub in layer.sublayers(include_self=True)]

    before = {"wrapper": flags(wrapper), "mixed": flags(mixed), "seg": flags(inner)}
    evaluate(wrapper, Images(8), acc(), batch_size=4, progress=False)
    evaluate(mixed, Images(8), acc(), batch_size=4, progress=False)
    seg = SegNet(inner_eval=True)
    seg_before = flags(seg)
    evaluate_paddleseg(seg, SegData(), progress=False)
    return {"before": {**before, "seg": seg_before},
            "after": {"wrapper": flags(wrapper), "mixed": flags(mixed), "seg": flags(seg)},
            "tracer_train_mode": bool(paddle.base.framework._dygraph_tracer()._train_mode)}


class SegNet(paddle.nn.Layer):
    """A PaddleSeg-style model: returns ``[logits]`` ``[B, C, H, W]``; BatchNorm inside."""

    def __init__(self, classes=3, inner_eval=False):
        super().__init__()
        paddle.seed(5)
        self.conv = paddle.nn.Conv2D(3, classes, 1)
        self.bn = paddle.nn.BatchNorm2D(classes)
        if inner_eval:
            self.eval()

    def forward(self, x):
        return [self.bn(self.conv(x))]


class SegData(Dataset):
    """PaddleSeg dict samples: ``img`` [3, H, W], ``label`` [1, H, W] int64 (or ``label_dtype``)."""

    num_classes, ignore_index = 3, 255

    def __init__(self, n=8, size=(6, 6), label_dtype="int64", label_size=None, empty=None):
        self.n, self.size, self.dtype, self.label_size, self.empty = n, size, label_dtype, label_size, empty

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        rng = np.random.default_rng(i)
        h, w = self.size
        lh, lw = self.label_size or self.size
        label = rng.integers(0, self.num_classes, (1, lh, lw))
        if self.empty is not None:
            label[label == self.empty] = (self.empty + 1) % self.num_classes
        return {"img": rng.standard_normal((3, h, w)).astype("float32"), "label": label.astype(self.dtype),
                "trans_info": []}


def never_entered(rank, out_dir):
    """PaddleDetection's pattern: only rank 0 evaluates; rank 1 waits until rank 0 is done."""
    flag = os.path.join(out_dir, "never_entered.done")
    if rank == 1:
        deadline = time.monotonic() + 60
        while not os.path.exists(flag) and time.monotonic() < deadline:
            time.sleep(0.1)
        return "skipped evaluate"
    try:
        return evaluate(Pool(), Images(8), acc(), batch_size=4, progress=False).metrics
    finally:
        open(flag, "w").close()


def late_entry(rank):
    """Rank 1 calls the evaluate() it skipped: it is told of rank 0's error at once (and the
    ranks' evaluate calls line up again)."""
    if rank == 0:
        return "nothing to do"
    return evaluate(Pool(), Images(8), acc(), batch_size=4, progress=False).metrics


class FlagAfterFirstBatch(Pool):
    """A Pool that leaves the file ``flag`` once its first batch is done."""

    def __init__(self, flag, delay=0.0):
        super().__init__(delay)
        self.flag = flag

    def forward(self, x):
        out = super().forward(x)
        if self.batches == 1:
            open(self.flag, "w").close()
        return out


LATE_S = 1.0


def peer_uncaught(rank, out_dir):
    """Rank 1 raises inside evaluate and nothing catches it (its process ends); rank 0 must get a
    catchable PeerFailedError mid-loop, not the watchdog's exit.

    Rank 1 raises only once rank 0's first batch is done (a flag file): raising at its own first
    batch, it won by a few tenths of a second on a quiet machine, and on a busy one (load average
    9) rank 0 had not entered evaluate yet, where ``run``'s watchdog rightly ends it at once (no
    evaluate, so no PeerFailedError to wait for) and rank0.json was never written."""
    flag = os.path.join(out_dir, "peer_uncaught.rank0_in_loop")
    if rank == 1:
        class Broken(Pool):
            def forward(self, x):
                deadline = time.monotonic() + 60
                while not os.path.exists(flag) and time.monotonic() < deadline:
                    time.sleep(0.05)
                raise RuntimeError("CUDA error: an illegal memory access (simulated)")
        evaluate(Broken(), Images(), acc(), batch_size=1, progress=False)  # raises; the process ends
    time.sleep(LATE_S)  # rank 0 enters evaluate late, as it often does on a busy machine
    return with_batches(lambda: slow_rank0(Images(), FlagAfterFirstBatch(flag, delay=0.1)))()


def scenarios(rank, out_dir):
    from workers.more_edges import more_scenarios

    return {
        "collate_shapes": lambda: evaluate(Pool(), Images(vary=True), acc(), batch_size=4, progress=False),
        "nlp_labels": lambda: evaluate(TokenNet(), Tokens(), acc(), batch_size=4, collate_fn=pad_collate,
                                       labels="labels", progress=False).num_samples,
        "nlp_labels_fixed": lambda: evaluate(TokenNet(), Tokens(), acc(), batch_size=4, labels="labels",
                                             collate_fn=PadCollate(label="labels"), progress=False).num_samples,
        "text_labels": lambda: evaluate(Pool(), TextLabels(), acc(), batch_size=4, progress=False),
        "dataset_worker_rank1": with_batches(lambda: slow_rank0(Images(bad_index=22, bad_rank=1), num_workers=1)),
        "collate_rank1": with_batches(lambda: slow_rank0(Images(), collate_fn=failing_on_rank1)),
        "modes": modes,
        **more_scenarios(rank),
        "never_entered": lambda: never_entered(rank, out_dir),
        "late_entry": lambda: late_entry(rank),
        "peer_uncaught": lambda: peer_uncaught(rank, out_dir),
    }
