#!/bin/bash
# the eval set: one .npy file per sample
/work/main/.venv/bin/python - <<'PY'
import os, numpy as np
os.makedirs("data/eval", exist_ok=True)
rng = np.random.RandomState(1)
x = rng.randn(600, 16).astype("float32")
y = (x @ np.random.RandomState(123).randn(16, 4).astype("float32")).argmax(1).astype("int64")
for i in range(600):
    np.save(f"data/eval/{i:05d}.npy", np.concatenate([x[i], [y[i]]]).astype("float32"))
PY
