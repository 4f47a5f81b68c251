"""Pre-flight across ranks: with ``mismatch``, rank 1 skips loading the checkpoint (random
weights) and sees one sample fewer, as when a file differs on one node.

Run: python -m paddle.distributed.launch --nproc_per_node W preflight_check.py [mismatch]
"""

import sys

import numpy as np
import paddle
import paddle.distributed as dist

from paddle_doctor.runtime.guards.preflight import preflight

paddle.set_device("cpu")


class Data(paddle.io.Dataset):
    def __init__(self, n):
        self.x = np.arange(n * 4, dtype="float32").reshape(n, 4)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i]


def main():
    mismatch = len(sys.argv) > 1 and sys.argv[1] == "mismatch"
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(rank)  # every rank starts from different random weights...
    model = paddle.nn.Linear(4, 2)
    if not (mismatch and rank == 1):
        paddle.seed(7)  # ...and the "checkpoint" makes them equal, except where it is skipped
        model.set_state_dict(paddle.nn.Linear(4, 2).state_dict())
    data = Data(10 - (1 if mismatch and rank == 1 else 0))
    plan = preflight({"batch_size": 4}, model=model, dataset=data, local={"rank": rank})
    print(f"rank {rank}: preflight ok {sorted(plan)}", flush=True)
    dist.barrier()


if __name__ == "__main__":
    main()
