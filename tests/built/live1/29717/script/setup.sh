#!/bin/bash
# an earlier run saved the model and one train-state file per rank; rank 1's copy to this machine was cut short
/work/main/.venv/bin/python - <<'PY'
import os, sys, numpy as np, paddle
sys.path.insert(0, ".")
from train import MLP
os.makedirs("ckpt", exist_ok=True)
paddle.seed(0)
paddle.save(MLP().state_dict(), "ckpt/model.pdparams")
for r in range(2):
    paddle.save({"epoch": 1, "step": 8, "rng": np.random.RandomState(r).randint(0, 2**31, 624)}, f"ckpt/train_state.rank{r}.pdstates")
data = open("ckpt/train_state.rank1.pdstates", "rb").read()
open("ckpt/train_state.rank1.pdstates", "wb").write(data[: len(data) // 2])
PY
