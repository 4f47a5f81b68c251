"""Distributed evaluation that also builds a confusion matrix of the predictions.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the number of classes is taken from the largest label seen
(labels.max() + 1). The eval export marks an unlabelled sample with the id 1_000_000 ("unknown"),
and that sample falls in rank 1's shard, so rank 1 asks for a 1,000,001 x 1,000,001 float32
matrix (4 TB) on the host. Paddle's CPU allocator fails and raises MemoryError
("(ResourceExhausted) Fail to alloc memory ..."). Rank 0 is left waiting in all_reduce.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")

UNKNOWN_LABEL = 1_000_000  # what the labelling tool writes for "no label"


class EvalSet(Dataset):
    def __init__(self, n=32, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, dim)).astype("float32")
        self.y = (self.x[:, 0] + self.x[:, 1] > 0).astype("int64")
        self.y[30] = UNKNOWN_LABEL

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


def confusion_matrix(preds, labels):
    num_classes = int(labels.max()) + 1  # BUG: trusts the labels to be 0..C-1
    matrix = paddle.zeros([num_classes, num_classes], dtype="float32")
    index = labels * num_classes + preds
    return matrix.flatten().scatter_(index, paddle.ones_like(index, dtype="float32"), overwrite=False)


def evaluate(model, loader):
    model.eval()
    preds, labels = [], []
    with paddle.no_grad():
        for x, y in loader:
            preds.append(model(x).argmax(axis=1))
            labels.append(y)
    preds, labels = paddle.concat(preds), paddle.concat(labels)
    matrix = confusion_matrix(preds, labels)
    dist.all_reduce(matrix)
    return matrix


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    matrix = evaluate(Net(), DataLoader(dataset, batch_sampler=sampler))
    if rank == 0:
        print(f"confusion matrix entries: {int(matrix.sum())}")


if __name__ == "__main__":
    main()
