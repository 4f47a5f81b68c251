"""Issue 17, item 4: a tensor saved in another dtype is a mismatch for ``ckpt check`` and
``load_clean``; ``load_clean(strict=True)`` checks everything before it sets anything."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from paddle_doctor import StateDictMismatchError, load_clean
from paddle_doctor.ckpt import compare, read_checkpoint


@pytest.fixture(scope="module")
def float64_one(made, tmp_path_factory):
    """resnet18's state with fc.weight stored as float64 (a script that did `.astype('float64')`)."""
    state = dict(made.state)
    state["fc.weight"] = state["fc.weight"].astype("float64")
    path = tmp_path_factory.mktemp("dtype") / "f64.pdparams"
    pickle.dump(state, open(path, "wb"), protocol=4)
    return path


def test_compare_reports_the_dtype(float64_one):
    import paddle

    from paddle_doctor.runtime.checkpoint.modelspec import state_meta

    _, findings = compare(read_checkpoint(str(float64_one)).tensors, state_meta(paddle.vision.models.resnet18()))
    assert [f.code for f in findings] == ["ckpt-dtype"]
    assert findings[0].facts["dtypes"] == [{"key": "fc.weight", "source": "float64", "target": "float32"}]


def test_check_cli_says_mismatch_and_exits_1(float64_one, run_cli):
    proc = run_cli("ckpt", "check", float64_one, "--model", "paddle.vision.models:resnet18", timeout=180)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and "ckpt-dtype" in out and "fc.weight float64 vs float32" in out, out


def test_strict_load_clean_raises_a_table_and_leaves_the_model_untouched(float64_one):
    import paddle

    model = paddle.vision.models.resnet18()
    before = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    with pytest.raises(StateDictMismatchError) as caught:
        load_clean(model, str(float64_one))
    assert "dtype" in str(caught.value) and "fc.weight" in str(caught.value)
    assert [f.code for f in caught.value.findings] == ["ckpt-dtype"]
    after = {k: v.numpy() for k, v in model.state_dict().items()}
    assert all(np.array_equal(before[k], after[k]) for k in before), "the model was changed"


def test_lenient_load_clean_loads_the_rest_and_reports_the_dtype(float64_one, made):
    import paddle

    model = paddle.vision.models.resnet18()
    kept = model.state_dict()["fc.weight"].numpy().copy()
    findings = load_clean(model, str(float64_one), strict=False)
    assert [f.code for f in findings] == ["ckpt-dtype"]
    got = {k: v.numpy() for k, v in model.state_dict().items()}
    np.testing.assert_array_equal(got["fc.weight"], kept)
    np.testing.assert_array_equal(got["conv1.weight"], made.state["conv1.weight"])
    assert str(model.state_dict()["fc.weight"].dtype) == "paddle.float32"
