"""A healthy 2-rank job that waits, in step with its peer, until the test has attacked its
liveness channel, then runs a few more steps (``healthy``), or SIGKILLs rank 1 (``sigkill``).

Run: paddle-doctor run -- python -m paddle.distributed.launch --nproc_per_node 2 eval_attacked.py MODE GO_FILE

Each rank prints ``PDOC_CHANNEL <master> <endpoints> <key file path>`` (where the attacker sends)
once it is up.
The ranks agree each step (one all_reduce of "the go file exists") so that they leave the wait
together; the wait is bounded (40 s).
"""

import os
import signal
import sys
import time
from pathlib import Path

import paddle
import paddle.distributed as dist

paddle.set_device("cpu")


def main():
    mode, go = sys.argv[1], Path(sys.argv[2])
    dist.init_parallel_env()
    rank = dist.get_rank()
    print(f"PDOC_CHANNEL {os.environ.get('PADDLE_MASTER', '')} {os.environ['PADDLE_TRAINER_ENDPOINTS']} "
          f"{os.environ.get('PADDLE_DOCTOR_KEY_FILE', '-')}", flush=True)  # the key file's path, not the key
    until = time.time() + 40
    while True:
        flag = paddle.to_tensor([1.0 if go.exists() or time.time() > until else 0.0])
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        if float(flag[0]) > 0:
            break
        time.sleep(0.2)
    for step in range(4):
        if mode == "sigkill" and rank == 1 and step == 1:
            print(f"PDOC_FAULT_AT {time.time():.3f} sigkill after the attack", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        x = paddle.to_tensor([float(step)])
        dist.all_reduce(x)
        time.sleep(0.3)
    dist.barrier()
    print(f"rank {rank}: done", flush=True)


if __name__ == "__main__":
    main()
