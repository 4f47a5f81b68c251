"""Checkpoints of a model trained one step under the real launcher with paddle.DataParallel
(2 ranks, gloo) round-trip through inspect, strip, check and load_clean (workers/ckpt_train_worker.py).

- save_clean(dp_model) writes once (rank 0 returns the path, rank 1 None), keys without prefix;
- dict(dp_model.named_parameters()) carries `_layers.`: inspect detects it, check exits 1 naming the
  strip, strip writes a file paddle.load reads and check accepts, load_clean loads either file;
- the weights loaded equal the trained ones.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from workers.launch_helper import WORKERS, run_launcher, worker_logs


pytestmark = pytest.mark.integration
MODEL = f"{WORKERS / 'ckpt_train_worker.py'}:build"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.timeout(240)
def test_dataparallel_checkpoints_round_trip(tmp_path):
    code, terminal, _ = run_launcher("ckpt_train_worker.py", 2, tmp_path, [str(tmp_path)], timeout=180)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    assert ranks[0]["written"] == str(tmp_path / "clean.pdparams") and ranks[1]["written"] is None
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
    reference = dict(np.load(tmp_path / "reference.npz"))

    inspect = json.loads(cli("ckpt", "inspect", tmp_path / "named.pdparams", "--format", "json").stdout)
    # BatchNorm's _mean/_variance are (non-trainable) parameters in Paddle: named_parameters has them all
    assert inspect["prefix"] == "_layers." and inspect["num_tensors"] == len(reference)
    clean = json.loads(cli("ckpt", "inspect", tmp_path / "clean.pdparams", "--format", "json").stdout)
    assert clean["prefix"] == "" and set(clean["tensors"]) == set(reference)

    assert cli("ckpt", "check", tmp_path / "clean.pdparams", "--model", MODEL).returncode == 0
    named = cli("ckpt", "check", tmp_path / "named.pdparams", "--model", MODEL, "--format", "json")
    assert named.returncode == 1
    finding = json.loads(named.stdout)["findings"]
    assert [f["code"] for f in finding] == ["ckpt-prefix"] and finding[0]["facts"]["strip"] == "_layers."

    stripped = tmp_path / "named_clean.pdparams"
    assert cli("ckpt", "strip", tmp_path / "named.pdparams", "-o", stripped).returncode == 0
    assert cli("ckpt", "check", stripped, "--model", MODEL).returncode == 0

    import paddle
    from workers.ckpt_train_worker import SmallCNN

    from paddle_doctor import StateDictMismatchError, load_clean

    model = SmallCNN()
    assert load_clean(model, str(tmp_path / "clean.pdparams")) == ()
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), reference[key])
    for path in (tmp_path / "named.pdparams", stripped):
        model = SmallCNN()
        assert [f.code for f in load_clean(model, str(path))] == (["ckpt-prefix"] if path.name == "named.pdparams" else [])
        for key, value in model.state_dict().items():
            np.testing.assert_array_equal(value.numpy(), reference[key])
    loaded = paddle.load(str(stripped), return_numpy=True)
    assert set(loaded) == set(reference)
    with pytest.raises(StateDictMismatchError, match="fc.weight"):
        load_clean(SmallCNN(classes=5), str(stripped))
