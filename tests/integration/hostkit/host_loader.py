"""Every rank scores images through a DataLoader with 2 worker processes, whose batches (8 x 3 x 160
x 160 float32, 2.4 MB) reach the rank through /dev/shm; then one all_reduce of the scores.

Run: python -m paddle.distributed.launch --master A:P --nnodes 2 --nproc_per_node 1 host_loader.py
On a host whose /dev/shm is smaller than one batch (the harness mounts a 2 MB tmpfs there), the
workers die of SIGBUS and the rank fails; the other host's rank loses its peer in all_reduce.
"""

import socket

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset

paddle.set_device("cpu")


class Images(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        x = np.random.default_rng(i).standard_normal((3, 160, 160)).astype("float32")
        return x, np.array(i % 3, "int64")


def main():
    dist.init_parallel_env()
    print(f"PDOC_RANK {dist.get_rank()} {socket.gethostname()}", flush=True)
    paddle.seed(2024)
    model = paddle.nn.Sequential(paddle.nn.Conv2D(3, 4, 3, padding=1), paddle.nn.AdaptiveAvgPool2D(1),
                                 paddle.nn.Flatten(), paddle.nn.Linear(4, 3))
    correct = paddle.zeros([2], dtype="float32")
    with paddle.no_grad():
        for x, y in DataLoader(Images(), batch_size=8, shuffle=False, num_workers=2):
            correct += paddle.to_tensor([float((model(x).argmax(axis=1) == y).sum()), float(y.shape[0])])
    dist.all_reduce(correct)
    print(f"PDOC_RESULT {{\"accuracy\": {float(correct[0] / correct[1])}}}", flush=True)


if __name__ == "__main__":
    main()
