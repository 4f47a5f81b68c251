"""The recipes' and adapters' errors name the fix (one process, real Paddle): tuple batches with
fields after the label, dict batches without labels=, PaddleNLP's `labels` key with pad_collate,
compute_metrics keys, model_loss with a model that computes no loss, OCR metrics of unknown layout."""

import numpy as np
import pytest

paddle = pytest.importorskip("paddle", reason="paddlepaddle is not installed: these run real Paddle")

from paddle_doctor import BatchError, evaluate, pad_collate  # noqa: E402 (after the skip)
from paddle_doctor.runtime.evaluate.collate import PadCollate  # noqa: E402
from paddle_doctor.runtime.suites import recipes  # noqa: E402
from paddle_doctor.runtime.suites.nlp import ComputeMetrics  # noqa: E402
from paddle_doctor.runtime.suites.ocr import OCRMetric  # noqa: E402
from workers.evalkit import Rows  # noqa: E402
from workers.recipekit import RecMetric, TinyClassifier  # noqa: E402


class ImageNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, image):
        return self.fc(image)


def ocr_like(n=6):
    return Rows([(np.full(4, i, "float32"), np.int64(i % 3), np.int64(1)) for i in range(n)])


def nlp_like(n=6, key="labels"):
    return Rows([{"input_ids": np.arange(1, 3 + i % 3, dtype="int64"), "token_type_ids": np.zeros(2 + i % 3, "int64"),
                  key: np.int64(i % 3)} for i in range(n)])


def test_image_label_length_batches_name_inputs_and_labels():
    with pytest.raises(TypeError, match=r"3 fields.*last is the label.*model\(f0, f1\).*inputs=0, labels=\[1, 2\]"):
        evaluate(ImageNet(), ocr_like(), paddle.metric.Accuracy(), batch_size=2, progress=False)
    r = evaluate(ImageNet(), ocr_like(), paddle.metric.Accuracy(), batch_size=2, progress=False, inputs=0, labels=1)
    assert r.num_samples == 6  # the fix the message names works


def test_a_type_error_inside_forward_is_the_models_own():
    class Broken(ImageNet):
        def forward(self, image):
            raise TypeError("unsupported operand type(s) for +: 'Tensor' and 'str' (a positional argument)")

    with pytest.raises(TypeError, match="unsupported operand") as info:
        evaluate(Broken(), ocr_like(), paddle.metric.Accuracy(), batch_size=2, progress=False, inputs=0, labels=1)
    assert "inputs=" not in str(info.value)


def test_a_dict_batch_the_model_refuses_names_inputs():
    class IdsOnly(TinyClassifier):
        def forward(self, input_ids):
            return super().forward(input_ids)

    with pytest.raises(TypeError, match=r"refused model\(\*\*\{'input_ids', 'token_type_ids'\}\).*inputs="):
        evaluate(IdsOnly(), nlp_like(), paddle.metric.Accuracy(), batch_size=2, labels="labels",
                 collate_fn=pad_collate, progress=False)
    r = evaluate(IdsOnly(), nlp_like(), paddle.metric.Accuracy(), batch_size=2, labels="labels",
                 inputs={"input_ids": "input_ids"}, collate_fn=pad_collate, progress=False)
    assert r.num_samples == 6


def test_dict_batches_without_labels_get_an_example_from_their_own_keys():
    with pytest.raises(TypeError, match=r"evaluate\(\.\.\., labels='labels'\)"):
        evaluate(TinyClassifier(), nlp_like(), paddle.metric.Accuracy(), batch_size=2, progress=False,
                 collate_fn=pad_collate)


def test_pad_collate_and_the_paddlenlp_recipe_agree_on_labels():
    r = recipes.evaluate_paddlenlp(TinyClassifier(), nlp_like(), paddle.metric.Accuracy(), batch_size=4,
                                   collate_fn=pad_collate, progress=False)
    assert r.num_samples == 6
    # another key: the recipe's label_names bind the default pad_collate
    r = recipes.evaluate_paddlenlp(TinyClassifier(), nlp_like(key="label_ids"), paddle.metric.Accuracy(),
                                   batch_size=4, collate_fn=pad_collate, label_names=["label_ids"], progress=False)
    assert r.num_samples == 6
    assert PadCollate()([{"x": np.ones(2), "labels": 1}, {"x": np.ones(3), "labels": 2}])["pad_mask"].shape == (2,)


def test_the_shape_hint_names_the_label_key_of_dict_samples():
    with pytest.raises(BatchError, match=r"PadCollate\(label='label_ids'\)"):
        evaluate(TinyClassifier(), nlp_like(key="label_ids"), paddle.metric.Accuracy(), batch_size=4,
                 labels="label_ids", progress=False)


def test_compute_metrics_keys_and_model_loss_errors():
    metric = ComputeMetrics(lambda p: {"accuracy": 1.0}, names=["acc"])
    with pytest.raises(ValueError, match=r"returned the keys \['accuracy'\].*names=\['accuracy'\]"):
        recipes.evaluate_paddlenlp(TinyClassifier(), nlp_like(), metric, batch_size=4, collate_fn=pad_collate,
                                   progress=False)
    with pytest.raises(ValueError, match="model_loss=True and loss_fn="):
        recipes.evaluate_paddlenlp(TinyClassifier(), nlp_like(), [], batch_size=4, model_loss=True,
                                   loss_fn=paddle.nn.CrossEntropyLoss())

    class LogitsOnly(TinyClassifier):
        def forward(self, input_ids, token_type_ids=None, labels=None):
            return super().forward(input_ids, token_type_ids)

    class NoLabels(TinyClassifier):
        def forward(self, input_ids, token_type_ids=None):
            return super().forward(input_ids, token_type_ids)

    with pytest.raises(TypeError, match=r"passes the labels \['labels'\].*refused.*loss_fn="):
        recipes.evaluate_paddlenlp(NoLabels(), nlp_like(), [], batch_size=4, collate_fn=pad_collate,
                                   model_loss=True, progress=False)
    with pytest.raises(TypeError, match=r"computes no loss.*loss_fn="):
        recipes.evaluate_paddlenlp(LogitsOnly(), nlp_like(), [], batch_size=4, collate_fn=pad_collate,
                                   model_loss=True, progress=False)


def test_model_loss_is_the_sample_weighted_mean_of_the_models_loss():
    model = TinyClassifier()
    data = nlp_like(7)
    r = recipes.evaluate_paddlenlp(model, data, [], batch_size=3, collate_fn=pad_collate, model_loss=True,
                                   progress=False)
    with paddle.no_grad():
        losses = [float(model(paddle.to_tensor(s["input_ids"][None]), paddle.to_tensor(s["token_type_ids"][None]),
                              labels=paddle.to_tensor([s["labels"]]))[0]) for s in data.items]
    assert abs(r.loss - np.mean(losses)) < 1e-6


def test_ocr_metric_of_unknown_layout_names_counts():
    class Mine:
        def __call__(self, post, batch):
            self.hits += 1

        def get_metric(self):
            return {"hits": self.hits}

        def reset(self):
            self.hits = 0

    with pytest.raises(TypeError, match=r"counts=\["):
        OCRMetric(Mine())
    assert OCRMetric(Mine(), counts=["hits"]).name() == "hits"
    assert OCRMetric(RecMetric()).name() == ["acc", "norm_edit_dis"]  # asked of the metric itself
    with pytest.raises(TypeError, match="get_metric"):
        OCRMetric(object())
