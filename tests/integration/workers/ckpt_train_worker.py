"""Launcher worker for tests/integration/test_ckpt_dataparallel.py.

    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir DIR ckpt_train_worker.py OUT

Trains a small CNN one step under paddle.DataParallel (gloo, CPU), then writes, from every rank
(save_clean must write once): OUT/clean.pdparams with save_clean(dp_model, ...); from rank 0:
OUT/named.pdparams = paddle.save(dict(dp_model.named_parameters())) (the `_layers.` keys users get
from a DataParallel model), OUT/reference.npz (the trained weights) and OUT/rank<R>.json.
"""

import json
import os
import sys

import numpy as np
import paddle
import paddle.distributed as dist

from paddle_doctor import save_clean

paddle.set_device("cpu")


class SmallCNN(paddle.nn.Layer):
    def __init__(self, classes=3):
        super().__init__()
        self.conv = paddle.nn.Conv2D(1, 4, 3)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.fc = paddle.nn.Linear(4 * 6 * 6, classes)

    def forward(self, x):
        return self.fc(paddle.flatten(paddle.nn.functional.relu(self.bn(self.conv(x))), 1))


def build():
    return SmallCNN()


def main(out):
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(1)  # same initial weights on both ranks
    model = paddle.DataParallel(SmallCNN())
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    paddle.seed(100 + rank)  # different data per rank
    x, y = paddle.randn([4, 1, 8, 8]), paddle.randint(0, 3, [4, 1])
    loss = paddle.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    written = save_clean(model, os.path.join(out, "clean.pdparams"))
    if rank == 0:
        paddle.save(dict(model.named_parameters()), os.path.join(out, "named.pdparams"))
        np.savez(os.path.join(out, "reference.npz"), **{k: v.numpy() for k, v in model._layers.state_dict().items()})
    dist.barrier()
    with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
        json.dump({"written": written, "keys": list(model.state_dict())}, f)


if __name__ == "__main__":
    main(sys.argv[1])
