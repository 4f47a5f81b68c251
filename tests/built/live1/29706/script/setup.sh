#!/bin/bash
# an earlier experiment left its weights at pretrained/mlp.pdparams: a wider model for 10 classes
/work/main/.venv/bin/python - <<'PY'
import os, paddle
os.makedirs("pretrained", exist_ok=True)
class MLP(paddle.nn.Layer):
    def __init__(self, dim=16, hidden=64, classes=10):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)
paddle.seed(7)
paddle.save(MLP().state_dict(), "pretrained/mlp.pdparams")
PY
