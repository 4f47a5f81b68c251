"""End-of-epoch evaluation: compute the global accuracy, keep the best model, export predictions.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the "is this the best model so far?" block runs only on rank 0, and
it contains a collective (all_reduce with MAX, meant to agree on the best score). Rank 1 never
enters it: it goes on exporting its predictions (slow remote storage, ~45 s), so it stays alive
and never closes its connection. Rank 0 waits in that all_reduce until gloo's hard-coded 30 s
timeout fires.
"""

import time

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

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
    preds = []
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(axis=1)
            stats += paddle.to_tensor([(pred == y).sum().item(), len(y)], dtype="int64")
            preds.append(pred.numpy())
    dist.all_reduce(stats)
    return stats[0].item() / stats[1].item(), np.concatenate(preds)


def export_predictions(preds, rank):
    """Upload this rank's predictions for error analysis (slow object storage)."""
    for _chunk in np.array_split(preds, 9):
        time.sleep(5)  # stands for one slow upload request
    print(f"rank {rank}: exported {len(preds)} predictions", flush=True)


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    model = Net()
    sampler = DistributedBatchSampler(EvalSet(), batch_size=4, shuffle=False)
    acc, preds = evaluate(model, DataLoader(EvalSet(), batch_sampler=sampler))
    if rank == 0:
        best = paddle.to_tensor([acc])
        dist.all_reduce(best, op=dist.ReduceOp.MAX)  # BUG: a collective that only rank 0 runs
        print(f"accuracy {acc:.4f}, best {best.item():.4f}; saving best model", flush=True)
        paddle.save(model.state_dict(), "best_model.pdparams")
    export_predictions(preds, rank)


if __name__ == "__main__":
    main()
