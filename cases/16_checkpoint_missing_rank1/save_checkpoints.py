"""Setup step (what the training job left behind): per-rank EMA weights, written by rank 0 only.

What is wrong (on purpose): training kept an exponential moving average of the weights on every
rank and saved it per rank (output/ema/rank{N}/model.pdparams), but the save sat under the usual
`if rank == 0:` guard, so only rank 0's file exists.
"""

import os

import paddle

paddle.set_device("cpu")


class Net(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16, classes=2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


if __name__ == "__main__":
    rank = 0  # the only rank that saved
    paddle.seed(7)
    os.makedirs(f"output/ema/rank{rank}", exist_ok=True)
    paddle.save(Net().state_dict(), f"output/ema/rank{rank}/model.pdparams")
    print(f"saved output/ema/rank{rank}/model.pdparams")
