"""Distributed evaluation of a two-task model, one task per rank; the image task loads with 2
DataLoader worker processes.

Run (inside a container whose /dev/shm is 2 MB; ``with_small_shm.sh`` makes one, see README.md):
    sh with_small_shm.sh python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (nothing in this file): the tasks are spread over the ranks (``TASKS[rank::world]``),
so rank 0 scores the small tabular task in its own process and rank 1 the image task, whose
DataLoader workers hand their batches over through shared memory in /dev/shm. One batch of 8
images of 3x160x160 is 2.4 MB, more than the container's /dev/shm holds: rank 1's workers die of
SIGBUS ("Unexpected BUS error encountered in DataLoader worker"), rank 1 fails with the generic
"Blocking queue is killed", and rank 0, done with its task, loses its peer in all_reduce.
With num_workers=0 no shared memory is used and the same evaluation passes.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset

paddle.set_device("cpu")


class Samples(Dataset):
    """Seeded random inputs of one shape, labels from a fixed rule."""

    def __init__(self, shape, n=64, classes=3, seed=0):
        self.shape, self.n, self.classes, self.seed = shape, n, classes, seed

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        x = np.random.default_rng(self.seed + i).standard_normal(self.shape).astype("float32")
        return x, np.array(i % self.classes, "int64")


class TabularHead(paddle.nn.Layer):
    def __init__(self, dim=16, classes=3):
        super().__init__()
        self.fc = paddle.nn.Linear(dim, classes)

    def forward(self, x):
        return self.fc(x)


class ImageHead(paddle.nn.Layer):
    """Global average pooling: any resolution goes through the same weights."""

    def __init__(self, classes=3):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.pool = paddle.nn.AdaptiveAvgPool2D(1)
        self.fc = paddle.nn.Linear(8, classes)

    def forward(self, x):
        return self.fc(self.pool(paddle.nn.functional.relu(self.conv(x))).flatten(1))


# (name, dataset, model, DataLoader workers): images are costly to decode, so they get workers
TASKS = [("tabular", lambda: Samples((16,)), TabularHead, 0),
         ("images", lambda: Samples((3, 160, 160)), ImageHead, 2)]


def accuracy(model, dataset, workers):
    model.eval()
    correct = total = 0
    with paddle.no_grad():
        for x, y in DataLoader(dataset, batch_size=8, shuffle=False, num_workers=workers):
            correct += int((model(x).argmax(axis=1) == y).sum())
            total += y.shape[0]
    return correct / total


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2024)
    scores = paddle.zeros([len(TASKS)], dtype="float32")
    for k in range(rank, len(TASKS), world):
        name, make_data, make_model, workers = TASKS[k]
        print(f"rank {rank}: evaluating task {name}", flush=True)
        scores[k] = accuracy(make_model(), make_data(), workers)
    dist.all_reduce(scores)
    if rank == 0:
        print(" ".join(f"{name} accuracy = {s:.4f}" for (name, *_), s in zip(TASKS, scores.tolist())))


if __name__ == "__main__":
    main()
