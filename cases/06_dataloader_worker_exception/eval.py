"""Distributed evaluation that parses text records in DataLoader worker processes.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): one record of the eval file was truncated when it was written
("0.12,-1.3,,", an empty field). DistributedBatchSampler hands that record to rank 1, whose
DataLoader worker raises ValueError while parsing it. The worker's traceback travels to the
main process of rank 1, which dies; rank 0 is left waiting in all_reduce.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")

DIM = 8
BAD_RECORD = 29  # stands for the truncated line of eval.csv


def make_lines(n=32, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, DIM))
    lines = [",".join(f"{v:.4f}" for v in row) + f",{int(row[0] + row[1] > 0)}" for row in x]
    lines[BAD_RECORD] = "0.12,-1.3,,"
    return lines


class CsvEvalSet(Dataset):
    """One sample per CSV line: DIM features, then the label; parsed lazily in the workers."""

    def __init__(self, lines):
        self.lines = lines

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        fields = self.lines[i].split(",")
        x = np.array([float(v) for v in fields[:DIM]], dtype="float32")
        return x, np.int64(fields[DIM])


class Net(paddle.nn.Layer):
    def __init__(self, dim=DIM, hidden=16, classes=2):
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
    paddle.seed(2024)
    dataset = CsvEvalSet(make_lines())
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    loader = DataLoader(dataset, batch_sampler=sampler, num_workers=2)
    acc = evaluate(Net(), loader)
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
