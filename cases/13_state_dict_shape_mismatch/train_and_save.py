"""Setup step (the end of the user's training script): train briefly and save the "best model".

What is wrong (on purpose): this run trained the "large" configuration (hidden=32), while the
eval script builds the default one (hidden=16). The keys match; the shapes do not.
"""

import os

import numpy as np
import paddle

paddle.set_device("cpu")


class Net(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16, classes=2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def train(model, steps=200):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((256, 8)).astype("float32")
    y = (x[:, 0] + x[:, 1] > 0).astype("int64")
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
    for _ in range(steps):
        loss = paddle.nn.functional.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y))
        loss.backward()
        opt.step()
        opt.clear_grad()


if __name__ == "__main__":
    paddle.seed(7)
    model = Net(hidden=32)  # the "large" config of this experiment
    train(model)
    os.makedirs("output/best_model", exist_ok=True)
    paddle.save(model.state_dict(), "output/best_model/model.pdparams")
    print("saved output/best_model/model.pdparams")
