"""Rank 1 raises right after the ranks meet; rank 0 is in plain Python (not in a collective), so its
watchdog, under ``paddle-doctor run``, ends it at once (86) on rank 1's "ended with an error" and
the launcher, which reports the first non-zero code in rank order, often says 86.

Run: paddle-doctor run -- python -m paddle.distributed.launch --nproc_per_node 2 eval_exit1.py
"""

import time

import paddle
import paddle.distributed as dist

paddle.set_device("cpu")
dist.init_parallel_env()
dist.barrier()
if dist.get_rank() == 1:
    raise ValueError("a bug of the program on rank 1")
time.sleep(8)
dist.barrier()
