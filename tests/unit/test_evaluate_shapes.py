"""The suites' shapes in one process: naming batch fields and outputs, masks over spatial axes,
segmentation and detection metrics, progress lines for a log, and errors that name the argument."""

import io

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="paddlepaddle is not installed")

from paddle_doctor import evaluate  # noqa: E402
from paddle_doctor.runtime.evaluate.batches import BatchLayout  # noqa: E402
from paddle_doctor.runtime.evaluate.collate import MASK_KEY, PadCollate, apply_mask, label_mask  # noqa: E402
from paddle_doctor.runtime.evaluate.progress import LogLines, make_progress  # noqa: E402
from paddle_doctor.runtime.metrics.detection import DetectionMetric, grouped  # noqa: E402
from paddle_doctor.runtime.metrics.segmentation import SegmentationMetric, areas, class_ids, scores  # noqa: E402
from workers.evalkit import Rows  # noqa: E402


def test_layout_names_fields_by_key_position_and_path():
    batch = {"img": 1, "meta": {"label": 2, "ids": [3, 4]}, "x": 5}
    args, kwargs, labels, _ = BatchLayout(inputs="img", labels=["meta.label", "meta.ids.1"]).split(batch, False)
    assert (args, kwargs, labels) == ([1], {}, [2, 4])
    args, kwargs, labels, _ = BatchLayout(inputs={"image": "img"}, labels="x").split(batch, False)
    assert (args, kwargs, labels) == ([], {"image": 1}, [5])
    _, kwargs, labels, _ = BatchLayout(labels="x").split(batch, False)  # the rest as keyword arguments
    assert kwargs == {"img": 1, "meta": batch["meta"]} and labels == [5]
    args, _, labels, _ = BatchLayout(labels=0).split([10, 20, 30], False)
    assert (args, labels) == ([20, 30], [10])
    args, _, labels, mask = BatchLayout().split([10, 20, "m"], True)
    assert (args, labels, mask) == ([10], [20], "m")
    _, _, _, mask = BatchLayout(inputs="img", labels="x").split({**batch, MASK_KEY: "m"}, True)
    assert mask == "m"


def test_layout_errors_say_which_argument_to_change():
    with pytest.raises(TypeError, match=r"inputs='img', labels='label'"):
        BatchLayout().split({"img": 1, "label": 2}, False)
    with pytest.raises(ValueError, match=r"labels='lbl'.*keys \['img', 'label'\].*change labels="):
        BatchLayout(inputs="img", labels="lbl").split({"img": 1, "label": 2}, False)
    with pytest.raises(TypeError, match=r"output='logits'"):
        BatchLayout().pick_outputs({"logits": 1, "aux": 2})
    with pytest.raises(ValueError, match="output=3"):
        BatchLayout(output=3).pick_outputs((1, 2))
    with pytest.raises(TypeError, match="inputs=1.5"):
        BatchLayout(inputs=1.5)
    with pytest.raises(TypeError, match="output"):
        BatchLayout(output={"a": "b"})  # a mapping only makes sense for inputs (keyword arguments)


def test_outputs_tensor_tuple_list_dict():
    layout = BatchLayout()
    assert layout.pick_outputs("t") == ["t"]
    assert layout.pick_outputs(("a",)) == ["a"]
    with pytest.raises(TypeError, match="output=0"):
        layout.pick_outputs(("a", "b"))  # an auxiliary head: the user chooses
    assert layout.pick_outputs({"only": "v"}) == ["v"]
    assert BatchLayout(output=0).pick_outputs(["main", "aux"]) == ["main"]
    assert BatchLayout(output=["b", "a"]).pick_outputs({"a": 1, "b": 2}) == [2, 1]
    assert BatchLayout(output=lambda o: o["s"]["logits"]).pick_outputs({"s": {"logits": 9}}) == [9]


class TwoHeads(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        paddle.seed(1)
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, x):
        h = self.fc(x)
        return h, h[:, :1]


def test_an_auxiliary_output_gets_a_hint_and_output_fixes_it():
    rng = np.random.default_rng(0)
    data = Rows([(rng.standard_normal(4).astype("float32"), np.array([i % 3])) for i in range(7)])
    with pytest.raises(TypeError, match=r"returned 2 outputs \(shapes \[\[3, 3\], \[3, 1\]\]\).*output=0"):
        evaluate(TwoHeads(), data, paddle.metric.Accuracy(), batch_size=3, progress=False)
    with pytest.raises(TypeError, match=r"Precision.compute.*2 output\(s\) and 1 label\(s\).*output=0"):
        evaluate(TwoHeads(), data, paddle.metric.Precision(), batch_size=3, output=[0, 1], progress=False)
    r = evaluate(TwoHeads(), data, paddle.metric.Accuracy(), batch_size=3, output=0, progress=False)
    net = TwoHeads()
    x = paddle.to_tensor(np.stack([d[0] for d in data.items]))
    y = np.array([d[1][0] for d in data.items])
    assert r.metrics["acc"] == pytest.approx(float((net(x)[0].numpy().argmax(1) == y).mean()))


def test_mask_follows_the_label_spatial_axes():
    labels = [np.zeros((1, 2, 3)), np.zeros((1, 3, 2))]  # PaddleSeg label maps [1, H, W]
    mask = label_mask(labels)
    assert mask.shape == (2, 3, 3) and mask.sum() == 12
    assert label_mask([np.zeros((4, 1)), np.zeros((2, 1))]).shape == (2, 4)
    assert label_mask([np.zeros(1), np.zeros(1)]).shape == (2,)  # class ids: nothing padded
    logits = np.arange(2 * 5 * 3 * 3, dtype="float32").reshape(2, 5, 3, 3)  # NCHW
    label = np.arange(18).reshape(2, 1, 3, 3)
    (out,), (lab,) = apply_mask([logits], [label], mask)
    assert out.shape == (12, 5) and lab.shape == (12,)
    assert out[0].tolist() == logits[0, :, 0, 0].tolist() and lab.tolist()[:2] == [0, 1]


def test_same_size_labels_are_never_flattened_alone():
    mask = np.ones((2, 4), bool)
    logits, label = np.zeros((2, 3)), np.zeros((2, 4))  # nothing lines up, nothing is padded
    out, lab = apply_mask([logits], [label], mask)
    assert out[0].shape == (2, 3) and lab[0].shape == (2, 4)
    mask[1, 3] = False
    with pytest.raises(ValueError, match=r"pad mask \[2, 4\].*\[\[2, 3\]\].*output="):
        apply_mask([logits], [label], mask)


def test_pad_collate_dicts_per_field_pad_values_and_ragged():
    collate = PadCollate(pad_value={"label": 255}, ragged=("boxes",))
    batch = collate([{"img": np.ones((1, 2, 2)), "label": np.zeros((1, 2, 2), "int64"), "boxes": np.zeros((1, 4)),
                      "info": [("resize", (2, 2))]},
                     {"img": np.ones((1, 3, 1)), "label": np.zeros((1, 3, 1), "int64"), "boxes": np.zeros((3, 4)),
                      "info": [("resize", (3, 1))]}])
    assert batch["img"].shape == (2, 1, 3, 2) and batch["img"][1, 0, 0, 1] == 0
    assert batch["label"][1, 0, 0, 1] == 255 and batch["label"][0, 0, 2, 0] == 255
    assert [b.shape for b in batch["boxes"]] == [(1, 4), (3, 4)]
    assert batch["info"] == [[("resize", (2, 2))], [("resize", (3, 1))]]
    assert batch[MASK_KEY].shape == (2, 3, 2) and batch[MASK_KEY].sum() == 7
    x, y, mask = PadCollate(pad_value={0: -1.0})([(np.ones(2), np.array([1])), (np.ones(1), np.array([2]))])
    assert x[1].tolist() == [1, -1] and mask.tolist() == [True, True]


def test_segmentation_areas_and_scores_follow_paddleseg():
    pred = np.array([0, 1, 1, 2, 2, 0])
    label = np.array([0, 1, 2, 2, 255, 1])
    inter, p, lab = areas(pred, label, 3, 255)
    assert inter.tolist() == [1, 1, 1] and p.tolist() == [2, 2, 1] and lab.tolist() == [1, 2, 2]
    miou, class_iou, acc, kappa, dice = scores(inter, p, lab)
    assert class_iou == pytest.approx([0.5, 1 / 3, 0.5]) and miou == pytest.approx(4 / 9)
    assert acc == pytest.approx(3 / 5) and dice == pytest.approx(np.mean([2 / 3, 0.5, 2 / 3]))
    po, pe = 3 / 5, (2 * 1 + 2 * 2 + 1 * 2) / 25
    assert kappa == pytest.approx((po - pe) / (1 - pe))
    assert scores([0, 1], [0, 1], [0, 1])[1] == [0.0, 1.0]  # an empty class scores 0 and still counts


def test_segmentation_metric_takes_logits_or_ids_in_suite_layouts():
    rng = np.random.default_rng(2)
    logits = rng.standard_normal((2, 3, 4, 5)).astype("float32")
    label = rng.integers(0, 3, (2, 1, 4, 5))
    ids = logits.argmax(1)
    for pred in (logits, paddle.to_tensor(logits), ids[:, None], np.moveaxis(logits, 1, -1)):
        got = class_ids(pred, label, 3)
        assert np.asarray(got).reshape(2, 4, 5).tolist() == ids.tolist()
    m = SegmentationMetric(3)
    m.update(*m.compute(logits, label))
    assert m.accumulate()[0] == pytest.approx(scores(*areas(ids.reshape(-1), label.reshape(-1), 3, 255))[0])
    with pytest.raises(ValueError, match="output="):
        class_ids(np.zeros((2, 7, 4, 5)), label, 3)
    assert SegmentationMetric(3, prefix="val_").name()[0] == "val_miou"


def test_detection_metric_groups_every_image_in_a_canonical_order():
    seen = {}

    def evaluator(preds, gts):
        seen.update(preds=preds, gts=gts)
        return 0.5

    m = DetectionMetric(evaluator)
    bbox = np.array([[1, 0.9, 0, 0, 1, 1], [0, 0.2, 1, 1, 2, 2], [0, 0.8, 0, 0, 3, 3]])
    m.update(bbox, np.array([2, 0, 1]), np.array([[7], [3], [5]]), [np.zeros((1, 4)), np.zeros((0, 4)),
                                                                 np.ones((2, 4))], [np.array([[1]]), np.zeros((0, 1)),
                                                                                    np.array([[0], [1]])])
    assert m.accumulate() == 0.5
    assert sorted(seen["preds"]) == [3, 5, 7] and seen["preds"][3].shape == (0, 6)
    assert seen["preds"][7][:, 0].tolist() == [0, 1]  # sorted by every column, not by arrival
    assert seen["gts"][5].tolist() == [[0, 1, 1, 1, 1], [1, 1, 1, 1, 1]]
    assert m.accumulate() == 0.5 and m.evaluator_calls == 1  # cached: the evaluator ran once
    assert m.preds.dtype == np.float32 and m.gts.dtype == np.float32  # 32 bytes a box with its id
    rows, ids = np.array([[1.0], [5.0], [0.0]], np.float32), np.array([2, 1, 2])
    assert {k: v.tolist() for k, v in grouped(rows, ids, np.array([1, 2, 9])).items()} == {1: [[5.0]], 2: [[0.0], [1.0]],
                                                                                           9: []}
    with pytest.raises(ValueError, match="bbox_num"):
        m.update(bbox, np.array([1, 1]), np.array([1, 2]), [np.zeros((0, 4))] * 2, [np.zeros((0, 1))] * 2)


def test_log_lines_every_interval_with_rate_and_eta():
    now = [0.0]
    stream = io.StringIO()
    p = LogLines(stream, 5.0, local_total=50, global_total=100, world=2, clock=lambda: now[0])
    for _ in range(10):
        now[0] += 2.0
        p.advance(5)
    p.close()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "paddle-doctor evaluate: 30/100 samples (est. from rank 0 of 2), 5.0 samples/s, ETA 0:00:14"
    assert len(lines) == 4 and lines[-1] == "paddle-doctor evaluate: 100/100 samples (est. from rank 0 of 2) in 20.0 s"
    quiet = io.StringIO()
    short = LogLines(quiet, 5.0, local_total=5, global_total=5, world=1, clock=lambda: 0.0)
    short.advance(5)
    short.close()
    assert quiet.getvalue() == ""  # a short evaluation leaves the log alone


def test_log_lines_only_on_rank0_under_the_launcher(monkeypatch):
    monkeypatch.delenv("PADDLE_TRAINER_ID", raising=False)
    assert not isinstance(make_progress(True, rank=0, world=1, local_total=5, global_total=5, stream=io.StringIO()),
                          LogLines)
    assert isinstance(make_progress(True, rank=0, world=2, local_total=5, global_total=9, stream=io.StringIO()),
                      LogLines)
    assert not isinstance(make_progress(True, rank=1, world=2, local_total=5, global_total=9, stream=io.StringIO()),
                          LogLines)
    monkeypatch.setenv("PADDLE_TRAINER_ID", "0")
    p = make_progress(2.5, rank=0, world=1, local_total=5, global_total=5, stream=io.StringIO())
    assert isinstance(p, LogLines) and p._interval == 2.5
