"""Distributed evaluation that gathers every prediction, batch by batch, to score on all data.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the eval set (11 samples) is sharded by hand with idx[rank::world]
and no padding, so rank 0 gets 6 samples (batches of 4 and 2) and rank 1 gets 5 (4 and 1).
The per-batch all_gather then meets tensors of different sizes in the last batch: gloo has no
way to report that, it aborts the process (gloo::EnforceNotMet, SIGABRT).
paddle.io.DistributedBatchSampler pads the shards to equal length and avoids this crash (but
then counts a sample twice).
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, Subset

paddle.set_device("cpu")


class EvalSet(Dataset):
    def __init__(self, n=11, dim=8, seed=0):
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
    all_preds, all_labels = [], []
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(axis=1)
            preds, labels = [], []
            dist.all_gather(preds, pred)  # last batch: 2 rows on rank 0, 1 row on rank 1
            dist.all_gather(labels, y)
            all_preds += preds
            all_labels += labels
    preds, labels = paddle.concat(all_preds), paddle.concat(all_labels)
    return (preds == labels).astype("float32").mean().item()


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2024)
    dataset = EvalSet()
    shard = Subset(dataset, list(range(len(dataset)))[rank::world])  # no padding
    loader = DataLoader(shard, batch_size=4, shuffle=False)
    print(f"rank {rank}: {len(shard)} samples, {len(loader)} batches", flush=True)
    acc = evaluate(Net(), loader)
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
