"""load_clean aligns prefixes and refuses a checkpoint that does not fit; save_clean unwraps,
writes on one rank only, atomically."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_doctor
from paddle_doctor import StateDictMismatchError, load_clean, save_clean


def _weights(model) -> dict:
    return {k: v.numpy() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("name", ["student.pdparams", "module.p2.pdparams", "module.safetensors",
                                  "resnet18.p3.pdparams", "sharded", "split.p2.pdparams"])
def test_load_clean_aligns_and_loads(made, name):
    import paddle

    model = paddle.vision.models.resnet18()
    findings = load_clean(model, str(made.path(name)))
    got = _weights(model)
    for key, value in made.state.items():
        np.testing.assert_array_equal(got[key], value)
    codes = [f.code for f in findings]
    assert codes == ([] if name == "resnet18.p3.pdparams" else ["ckpt-prefix"])
    assert all(f.severity.value == "info" for f in findings)


def test_load_clean_into_a_wrapper_adds_the_prefix_it_needs(made):
    import paddle

    class EMA(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.model = paddle.vision.models.resnet18()

    wrapper = EMA()
    load_clean(wrapper, str(made.path("resnet18.p4.pdparams")))
    np.testing.assert_array_equal(wrapper.model.fc.weight.numpy(), made.state["fc.weight"])


def test_shape_mismatch_raises_with_a_table_and_leaves_the_model(made):
    import paddle

    model = paddle.vision.models.resnet18(num_classes=10)
    before = _weights(model)
    with pytest.raises(StateDictMismatchError) as caught:
        load_clean(model, str(made.path("student.pdparams")))
    exc = caught.value
    assert exc.cause == "state_dict_shape_mismatch"  # the prefix alone would have been aligned
    assert [f.code for f in exc.findings] == ["ckpt-prefix", "ckpt-shape"]
    text = str(exc)
    assert "fc.weight" in text and "[512, 1000]" in text and "[512, 10]" in text and "shape" in text
    assert isinstance(exc, paddle_doctor.errors.PaddleDoctorError)
    after = _weights(model)
    assert all(np.array_equal(before[k], after[k]) for k in before), "strict load changed the model"


def test_non_strict_loads_what_fits_and_reports_the_rest(made):
    import paddle

    model = paddle.vision.models.resnet18(num_classes=10)
    findings = load_clean(model, str(made.path("resnet18.p4.pdparams")), strict=False)
    assert [f.code for f in findings] == ["ckpt-shape"]
    np.testing.assert_array_equal(model.conv1.weight.numpy(), made.state["conv1.weight"])
    assert model.fc.weight.shape == [512, 10]


def test_missing_keys_are_an_error(made, tmp_path):
    import paddle

    sd = {k: v for k, v in made.model.state_dict().items() if not k.startswith("layer4.")}
    path = tmp_path / "partial.pdparams"
    paddle.save(sd, str(path))
    with pytest.raises(StateDictMismatchError) as caught:
        load_clean(paddle.vision.models.resnet18(), str(path))
    assert [f.code for f in caught.value.findings] == ["ckpt-missing-keys"]
    assert "layer4.0.conv1.weight" in str(caught.value)


@pytest.mark.needs_paddle
def test_save_clean_unwraps_and_is_atomic(tmp_path):
    import paddle

    class Wrapper(paddle.nn.Layer):  # what fleet's meta-parallel wrappers look like: the model in _layers
        def __init__(self, inner):
            super().__init__()
            self._layers = inner

    inner = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.BatchNorm1D(4))
    path = tmp_path / "sub" / "model.pdparams"
    assert save_clean(Wrapper(inner), str(path)) == str(path)
    saved = paddle.load(str(path), return_numpy=True)
    assert set(saved) == set(inner.state_dict())  # no _layers. prefix
    assert os.listdir(path.parent) == ["model.pdparams"]  # no temp file left
    assert save_clean(Wrapper(inner), str(tmp_path / "m.safetensors"))
    assert set(paddle.load(str(tmp_path / "m.safetensors"), safetensors=True)) == set(inner.state_dict())


@pytest.mark.needs_paddle
def test_save_clean_writes_on_rank_zero_only(tmp_path):
    code = ("import paddle, paddle_doctor, sys; m = paddle.nn.Linear(2, 2); "
            "print(paddle_doctor.save_clean(m, sys.argv[1]))")
    env = {**os.environ, "PADDLE_TRAINERS_NUM": "2", "PADDLE_TRAINER_ID": "1"}
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "m.pdparams")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "None", proc.stderr[-2000:]
    assert not (tmp_path / "m.pdparams").exists()
