#!/bin/bash
# the earlier run saved the model on every node and one train-state file per rank on the node that ran it;
# node 1 lost rank 3's file (its disk was re-imaged), node 1 works from node1/
/work/main/.venv/bin/python - <<'PY'
import os, sys, shutil, numpy as np, paddle
sys.path.insert(0, ".")
from train import MLP
paddle.seed(0)
for node, ranks in (("." , (0, 1)), ("node1", (2,))):
    os.makedirs(f"{node}/ckpt", exist_ok=True)
    paddle.save(MLP().state_dict(), f"{node}/ckpt/model.pdparams")
    for r in ranks:
        paddle.save({"epoch": 1, "step": 4}, f"{node}/ckpt/train_state.rank{r}.pdstates")
shutil.copy("train.py", "node1/train.py")
PY
