"""Distributed evaluation that keeps a global running accuracy, synced every batch for the log.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the eval data comes in 4 files and each rank reads files[rank::world].
The files differ in size (4, 12, 4, 4 rows), so rank 0 reads 8 rows (2 batches) and rank 1 reads
16 rows (4 batches). Every batch does an all_reduce; rank 0 runs out of batches, prints its
(wrong) "global" accuracy and exits 0; rank 1's third all_reduce has no partner and fails.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset

paddle.set_device("cpu")

FILE_ROWS = [4, 12, 4, 4]  # rows per eval file (stand-ins for eval_00.npz ... eval_03.npz)


def read_file(k, dim=8):
    rng = np.random.default_rng(k)
    x = rng.standard_normal((FILE_ROWS[k], dim)).astype("float32")
    return x, (x[:, 0] + x[:, 1] > 0).astype("int64")


class FileShardSet(Dataset):
    """The rows of the eval files assigned to this rank."""

    def __init__(self, files):
        parts = [read_file(k) for k in files]
        self.x = np.concatenate([p[0] for p in parts])
        self.y = np.concatenate([p[1] for p in parts])

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


def evaluate(model, loader, rank):
    model.eval()
    correct, seen = 0, 0
    with paddle.no_grad():
        for step, (x, y) in enumerate(loader):
            stats = paddle.to_tensor([(model(x).argmax(axis=1) == y).sum().item(), len(y)])
            dist.all_reduce(stats)  # global numbers for the progress log
            correct, seen = correct + int(stats[0]), seen + int(stats[1])
            if rank == 0:
                print(f"step {step}: running acc {correct / seen:.4f} over {seen} samples", flush=True)
    return correct / max(1, seen)


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2024)
    files = list(range(len(FILE_ROWS)))[rank::world]
    loader = DataLoader(FileShardSet(files), batch_size=4, shuffle=False)
    print(f"rank {rank}: files {files}, {len(loader)} batches", flush=True)
    acc = evaluate(Net(), loader, rank)
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
