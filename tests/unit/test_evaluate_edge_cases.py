"""evaluate() at its edges in one process (issue 20); the W = 2 runs are in
tests/integration/test_evaluate_edges.py.

A collate or dataset error raises BatchError at once (it hung in Paddle's reader thread); the
batch thread ends with the call; training flags come back exactly; labels are checked; the
empty-class convention is a switch that can follow the installed PaddleSeg; PadCollate(mask=False)
keeps layouts; DetectionMetric evaluates once; evaluate_model takes hapi's arguments.
"""

from __future__ import annotations

import sys
import threading
import types

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="paddlepaddle is not installed")
from paddle.io import Dataset  # noqa: E402

from paddle_doctor import BatchError, PadCollate, evaluate  # noqa: E402
from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric  # noqa: E402
from paddle_doctor.runtime.suites import recipes  # noqa: E402
from paddle_doctor.runtime.suites.hapi import evaluate_model  # noqa: E402

paddle.set_device("cpu")


class Images(Dataset):
    def __init__(self, n=12, vary=False, bad=None):
        self.n, self.vary, self.bad = n, vary, bad

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            raise KeyError(f"image {i} has no annotation")
        return np.full((3, 4 + (i % 2 if self.vary else 0), 4), i / self.n, "float32"), np.array([i % 3], "int64")


class Pool(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(2)
        self.bn = paddle.nn.BatchNorm2D(3)
        self.fc = paddle.nn.Linear(3, 3)

    def forward(self, x):
        return self.fc(self.bn(x).mean(axis=[2, 3]))


def run(data, **kwargs):
    kwargs.setdefault("batch_size", 4)
    return evaluate(kwargs.pop("model", Pool()), data, paddle.metric.Accuracy(), progress=False, **kwargs)


def batch_threads():
    return [t for t in threading.enumerate() if t.name == "paddle-doctor-batches" and t.is_alive()]


def test_a_dataset_error_is_raised_with_its_index():
    with pytest.raises(BatchError, match=r"^dataset\[6\] raised KeyError: 'image 6 has no annotation' \(rank 0\)"):
        run(Images(bad=6))
    assert not batch_threads()


def test_a_dataset_error_in_a_worker_is_raised_too():
    with pytest.raises(BatchError, match=r"dataset\[6\] raised KeyError.*\(rank 0, in a DataLoader worker\)"):
        run(Images(bad=6), num_workers=1)


def test_the_default_collate_on_varying_shapes_names_pad_collate():
    with pytest.raises(BatchError, match=r"the default collate_fn raised ValueError.*samples \[0, 1, 2, 3\].*"
                                         r"shapes \[\[3, 4, 4\], \[3, 5, 4\]\]: pass collate_fn=paddle_doctor.pad_collate"):
        run(Images(vary=True))


def test_the_batch_thread_ends_when_the_model_raises():
    class Broken(Pool):
        def forward(self, x):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run(Images(n=40), model=Broken(), batch_size=1)
    assert not batch_threads()


def test_training_flags_come_back_exactly():
    inner = Pool()
    inner.eval()
    wrapper = paddle.nn.Sequential(inner)
    before = [s.training for s in wrapper.sublayers(include_self=True)]
    run(Images(), model=wrapper)
    assert [s.training for s in wrapper.sublayers(include_self=True)] == before == [True, False, False, False]


def test_text_labels_are_refused_by_name():
    class Text(Images):
        def __getitem__(self, i):
            return super().__getitem__(i)[0], "dog"

    with pytest.raises(TypeError, match=r"label 0 \(labels=-1\) holds text \('dog'\)"):
        run(Text())


def test_segmentation_labels_are_checked():
    m = SegmentationMetric(3)
    with pytest.raises(TypeError, match="labels are float32, not integer class ids"):
        m.update(np.zeros((1, 4)), np.zeros((1, 4), "float32"))
    with pytest.raises(ValueError, match=r"label values \[3, 7\] are neither class ids 0..2 nor ignore_index=255"):
        m.update(np.zeros(4), np.array([0, 3, 7, 255]))
    m.update(np.zeros(4), np.array([0, 1, 2, 255]))  # the ignore index is fine


def test_the_empty_class_convention_is_a_switch():
    pred, label = np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0])
    zero, one = SegmentationMetric(3), SegmentationMetric(3, empty_class=1)
    for m in (zero, one):
        m.update(pred, label)
    assert zero.accumulate()[1][2] == 0.0 and one.accumulate()[1][2] == 1.0
    assert one.accumulate()[0] - zero.accumulate()[0] == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="empty_class must be 0"):
        SegmentationMetric(3, empty_class=0.5)


@pytest.mark.parametrize("empty_iou", [0, 1])
def test_the_recipe_follows_the_installed_paddleseg(monkeypatch, empty_iou):
    def mean_iou(intersect, pred, label):  # PaddleSeg's loop, with its convention for an empty union
        inter, union = intersect.numpy(), pred.numpy() + label.numpy() - intersect.numpy()
        ious = np.array([empty_iou if u == 0 else i / u for i, u in zip(inter, union)], float)
        return ious, ious.mean()

    metrics = types.ModuleType("paddleseg.utils.metrics")
    metrics.mean_iou = mean_iou
    for name, module in (("paddleseg", types.ModuleType("paddleseg")),
                         ("paddleseg.utils", types.ModuleType("paddleseg.utils")), ("paddleseg.utils.metrics", metrics)):
        monkeypatch.setitem(sys.modules, name, module)
    assert recipes.installed_empty_class() == float(empty_iou)


def test_infer_fn_with_batches_is_refused():
    with pytest.raises(ValueError, match=r"infer_fn with batch_size=2.*use batch_size=1"):
        recipes.evaluate_paddleseg(Pool(), Images(), batch_size=2, infer_fn=lambda m, img, trans_info: m(img))


def test_pad_collate_without_a_mask_keeps_the_layout():
    samples = [(np.ones((3, 2, 2), "float32"), np.zeros((1, 2, 2), "int64")),
               (np.ones((3, 3, 2), "float32"), np.ones((1, 3, 2), "int64"))]
    collate = PadCollate(pad_value={-1: 255}, mask=False)
    img, label = collate(samples)
    assert img.shape == (2, 3, 3, 2) and label.shape == (2, 1, 3, 2) and label[0, 0, 2].tolist() == [255, 255]
    assert not collate.returns_mask and PadCollate().returns_mask and "mask=False" in repr(collate)


def test_detection_evaluates_once_in_one_process():
    from paddle_doctor.runtime.metrics.detection import DetectionMetric

    class Boxes(paddle.nn.Layer):
        def forward(self, image):
            b = image.shape[0]
            return {"bbox": paddle.ones([b, 6]), "bbox_num": paddle.ones([b], "int32")}

    class Det(Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return {"image": np.zeros(2, "float32"), "im_id": np.array([i]), "gt_bbox": np.zeros((1, 4), "float32"),
                    "gt_class": np.zeros((1, 1), "int32")}

    calls = []
    metric = DetectionMetric(lambda preds, gts: calls.append(len(preds)) or 0.5)
    r = evaluate(Boxes(), Det(), metric, batch_size=2, collate_fn=PadCollate(ragged=("gt_bbox", "gt_class"), label="im_id"),
                 inputs="image", labels=["im_id", "gt_bbox", "gt_class"], output=["bbox", "bbox_num"], progress=False)
    assert r.metrics["bbox_map"] == 0.5 and metric.accumulate() == 0.5 and calls == [5]


def test_evaluate_model_takes_hapis_arguments():
    from paddle.static import InputSpec

    model = paddle.Model(Pool(), [InputSpec([None, 3, 4, 4], "float32", "x")], [InputSpec([None, 1], "int64", "y")])
    model.prepare(metrics=paddle.metric.Accuracy())
    seen = []

    class Recorder(paddle.callbacks.Callback):
        def on_eval_end(self, logs=None):
            seen.append(dict(logs))

    out = evaluate_model(model, Images(), batch_size=4, log_freq=2, verbose=0, num_workers=0, callbacks=[Recorder()])
    assert seen == [out] and set(out) == {"acc"}
    with pytest.raises(ValueError, match="num_iters=2: evaluate_model evaluates every sample"):
        evaluate_model(model, Images(), num_iters=2)
