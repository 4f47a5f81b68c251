"""Distributed evaluation of the best checkpoint saved by training.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py
(train_and_save.py, run first, writes output/best_model/model.pdparams.)

What is wrong (on purpose): the checkpoint comes from the hidden=32 configuration, the eval
script builds the default hidden=16 model (see train_and_save.py). set_state_dict raises nothing:
it warns "Skip loading for fc1.weight. fc1.weight receives a shape [8, 32], but the expected
shape is [8, 16]." (into workerlog.N) for each mismatched tensor, loads the rest (fc2.bias),
and keeps random weights for the others, so the job "succeeds" (exit 0) with a chance-level
accuracy.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")

CHECKPOINT = "output/best_model/model.pdparams"


class EvalSet(Dataset):
    def __init__(self, n=64, dim=8, seed=0):
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
    dist.all_reduce(stats)
    return stats[0].item() / stats[1].item()


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    model = Net()
    model.set_state_dict(paddle.load(CHECKPOINT))  # BUG: saved with hidden=32, built with hidden=16
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=8, shuffle=False)
    acc = evaluate(model, DataLoader(dataset, batch_sampler=sampler))
    if rank == 0:
        print(f"accuracy of {CHECKPOINT} = {acc:.4f}")


if __name__ == "__main__":
    main()
