"""Evaluate a checkpoint on one process (the same script also runs under the launcher).

Run: python eval.py   (in a shell where an earlier distributed job's PADDLE_* variables remain:
PADDLE_TRAINER_ID=0, PADDLE_TRAINERS_NUM=2, PADDLE_TRAINER_ENDPOINTS=..., e.g. exported by a
job script that was `source`d, or inherited by a notebook kernel started from a launcher).

What is wrong (on purpose): nothing in the script. init_parallel_env() reads the leftover
variables, believes it is rank 0 of a 2-process job and waits for a rank 1 that will never come.
Without PADDLE_DISTRI_BACKEND it takes the legacy gloo HTTP-store path, which waits practically
forever and prints nothing. Only a SIGTERM (Ctrl-C does not stop it) makes Paddle print a crash
dump that shows where it was stuck.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset

paddle.set_device("cpu")


class EvalSet(Dataset):
    def __init__(self, n=32, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, dim)).astype("float32")
        self.y = (self.x[:, 0] + self.x[:, 1] > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16, classes=2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def evaluate(model, loader):
    model.eval()
    stats = paddle.zeros([2], dtype="int64")
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(axis=1)
            stats += paddle.to_tensor([(pred == y).sum().item(), len(y)], dtype="int64")
    if dist.get_world_size() > 1:
        dist.all_reduce(stats)
    return stats[0].item() / stats[1].item()


def main():
    print("initializing the parallel environment", flush=True)
    dist.init_parallel_env()  # a no-op on one process... unless PADDLE_* variables are left over
    paddle.seed(2024)
    acc = evaluate(Net(), DataLoader(EvalSet(), batch_size=8))
    print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
