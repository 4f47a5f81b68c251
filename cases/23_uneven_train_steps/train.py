"""Training on a hand-made split of data files: rank 0 gets two files (48 samples), rank 1 one (40).

With batch size 4 that is 12 steps per epoch on rank 0 and 10 on rank 1. DataParallel all-reduces the
gradients of every step, so the collectives pair by count: rank 1's epoch 2 pairs with rank 0's last
two steps of epoch 1, rank 1 finishes first and exits, and rank 0 waits for a peer that has gone.
"""

import numpy as np
import paddle
import paddle.distributed as dist

FILES = [24, 40, 24]  # samples per data file
BATCH = 4


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    mine = [n for i, n in enumerate(FILES) if i % world == rank]  # files by rank: not an even split
    rows = sum(mine)
    rng = np.random.default_rng(rank)
    x = paddle.to_tensor(rng.normal(size=(rows, 8)).astype("float32"))
    y = paddle.to_tensor(rng.normal(size=(rows, 1)).astype("float32"))
    model = paddle.DataParallel(paddle.nn.Linear(8, 1))
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=model.parameters())
    steps = rows // BATCH
    for epoch in range(2):
        for i in range(steps):
            xb, yb = x[i * BATCH:(i + 1) * BATCH], y[i * BATCH:(i + 1) * BATCH]
            loss = paddle.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            opt.clear_grad()
            print(f"[Train][Epoch {epoch + 1}/2][Iter: {i + 1}/{steps}] loss: {float(loss):.4f}", flush=True)
    print(f"rank {rank}: training done", flush=True)


if __name__ == "__main__":
    main()
