"""Single-process evaluation with DataLoader worker processes, written as a flat script.

Run: python eval.py

What is wrong (on purpose): the script sets the "spawn" start method (copied from advice about
fork and threads) and has no `if __name__ == "__main__":` guard. A spawned DataLoader worker
re-imports this file, reaches the DataLoader loop at module level and tries to start workers of
its own: multiprocessing refuses ("An attempt has been made to start a new process before the
current process has finished its bootstrapping phase."), the workers die, and the main process
fails with Paddle's generic "Blocking queue is killed ..." error.
"""

import multiprocessing

import numpy as np
import paddle
from paddle.io import DataLoader, Dataset

multiprocessing.set_start_method("spawn", force=True)
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


paddle.seed(2024)
model = Net()
model.eval()
loader = DataLoader(EvalSet(), batch_size=8, num_workers=2)
correct = total = 0
with paddle.no_grad():
    for x, y in loader:  # BUG: runs again in every spawned worker (no __main__ guard)
        correct += int((model(x).argmax(axis=1) == y).sum())
        total += len(y)
print(f"accuracy = {correct / total:.4f}")
