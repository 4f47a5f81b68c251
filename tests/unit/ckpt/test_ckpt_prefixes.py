"""Prefix detection and alignment are general: no list of known wrapper names."""

from __future__ import annotations

import pytest

from paddle_doctor.ckpt import align, common_prefix, compare
from paddle_doctor.ckpt.meta import TensorMeta

MODEL = ["conv1.weight", "bn1.weight", "bn1._mean", "layer1.0.conv1.weight", "fc.weight", "fc.bias"]


@pytest.mark.parametrize("keys,prefix", [
    (MODEL, ""),
    ([f"_layers.{k}" for k in MODEL], "_layers."),
    ([f"student.{k}" for k in MODEL], "student."),
    ([f"ema.model.{k}" for k in MODEL], "ema.model."),
    ([f"zz_any_wrapper.{k}" for k in MODEL], "zz_any_wrapper."),
    (["backbone.a.weight", "backbone.b.weight"], "backbone."),
    (["fc.weight", "fc.bias"], "fc."),  # a one-Linear model: the prefix is real; only a model can tell
    (["weight"], ""),
    ([], ""),
    (["a.weight", "weight"], ""),
])
def test_common_prefix(keys, prefix):
    assert common_prefix(keys) == prefix


@pytest.mark.parametrize("source,target,strip,add", [
    ([f"_layers.{k}" for k in MODEL], MODEL, "_layers.", ""),
    ([f"module.{k}" for k in MODEL], MODEL, "module.", ""),
    (MODEL, [f"student.{k}" for k in MODEL], "", "student."),
    ([f"model.{k}" for k in MODEL], [f"net.{k}" for k in MODEL], "model.", "net."),
    (MODEL, MODEL, "", ""),
    # EMA checkpoint: two copies; the best rename takes one of them completely
    ([f"model.{k}" for k in MODEL] + [f"ema.{k}" for k in MODEL[:3]], MODEL, "model.", ""),
])
def test_align(source, target, strip, add):
    alignment = align(source, target)
    assert (alignment.strip, alignment.add) == (strip, add)
    assert alignment.matched == len(MODEL)


def _meta(keys, shape=(2,)):
    return {k: TensorMeta(shape, "float32") for k in keys}


def test_compare_names_every_kind():
    source = _meta([f"_layers.{k}" for k in MODEL if k != "fc.bias"] + ["_layers.extra.weight"])
    source["_layers.fc.weight"] = TensorMeta((512, 10), "float32")
    target = _meta(MODEL)
    target["fc.weight"] = TensorMeta((512, 1000), "float32")
    alignment, findings = compare(source, target, source_path="m.pdparams")
    assert alignment.strip == "_layers."
    codes = [f.code for f in findings]
    assert codes == ["ckpt-prefix", "ckpt-shape", "ckpt-missing-keys", "ckpt-unexpected-keys"]
    by = dict(zip(codes, findings))
    assert by["ckpt-prefix"].cause == "state_dict_prefix_mismatch"
    assert by["ckpt-shape"].facts["shapes"] == [{"key": "fc.weight", "checkpoint_key": "_layers.fc.weight",
                                                 "checkpoint": [512, 10], "model": [512, 1000]}]
    assert by["ckpt-missing-keys"].facts["keys"] == ["fc.bias"]
    assert by["ckpt-unexpected-keys"].facts["keys"] == ["_layers.extra.weight"]
    assert all(f.location.path == "m.pdparams" for f in findings)


def test_compare_clean_is_empty():
    assert compare(_meta(MODEL), _meta(MODEL))[1] == []
