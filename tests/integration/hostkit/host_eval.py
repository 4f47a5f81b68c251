"""A small exact evaluation across hosts, for the host harness's scenarios.

Run (one launcher per host, each in its own namespace):
    python -m paddle.distributed.launch --master A:P --nnodes N --nproc_per_node K host_eval.py FAULT HOST [N]
    python host_eval.py none - [N]                      (one process: the reference result)

FAULT: none | raise (local rank 0 of host HOST raises ValueError in its 2nd forward pass) | slow
(nothing here: the test injects the fault from outside, a host killed or its link set down, once
``PDOC_IN_EVAL`` is printed). Each forward pass sleeps ``PDOC_STEP_S`` (default 0.3 s). Prints
``PDOC_RANK <global rank> <hostname>`` first and ``PDOC_RESULT <json>`` last.
"""

import json
import os
import socket
import sys
import time

import numpy as np
import paddle
import paddle.distributed as dist

import paddle_doctor

paddle.set_device("cpu")


class Data(paddle.io.Dataset):
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, 8)).astype("float32")
        self.y = (self.x[:, 0] + 0.5 * self.x[:, 1] > 0).astype("int64")[:, None]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, fault, victim_host):
        super().__init__()
        paddle.seed(7)
        self.fc = paddle.nn.Linear(8, 2)
        self.fault, self.calls = fault, 0
        self.victim = socket.gethostname() == victim_host and os.environ.get("PADDLE_LOCAL_RANK", "0") == "0"

    def forward(self, x):
        self.calls += 1
        if self.calls == 1:
            print(f"PDOC_IN_EVAL {time.time():.3f}", flush=True)
        time.sleep(float(os.environ.get("PDOC_STEP_S", "0.3")))
        if self.fault == "raise" and self.victim and self.calls == 2:
            print(f"PDOC_FAULT_AT {time.time():.3f} raise on {socket.gethostname()}", flush=True)
            raise ValueError(f"simulated bug in the metric code on {socket.gethostname()}")
        return self.fc(x)


def main():
    fault, victim_host = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 48
    if "PADDLE_TRAINER_ID" in os.environ:
        dist.init_parallel_env()
        print(f"PDOC_RANK {dist.get_rank()} {socket.gethostname()}", flush=True)
    result = paddle_doctor.evaluate(Net(fault, victim_host), Data(n), [paddle.metric.Accuracy()], batch_size=4,
                                    progress=False)
    print("PDOC_RESULT " + json.dumps({"metrics": result.metrics, "num_samples": result.num_samples},
                                      sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
