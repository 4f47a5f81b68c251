"""A fault inside ``paddle_doctor.evaluate`` (its own guards: pre-flight and watchdog), no `run`.

Run: python -m paddle.distributed.launch --nproc_per_node W eval_evaluate.py FAULT [VICTIM]
FAULT: sigkill | sigstop | none, on rank VICTIM (default 1) in its 3rd forward pass. Without the
watchdog the other ranks would wait on the TCP store for the victim forever (evaluate's barrier
has no timeout, so that a slow rank is fine).
"""

import os
import signal
import sys
import time

import numpy as np
import paddle
import paddle.distributed as dist

import paddle_doctor

paddle.set_device("cpu")


class Data(paddle.io.Dataset):
    def __init__(self, n=48):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, 8)).astype("float32")
        self.y = (self.x[:, 0] > 0).astype("int64")[:, None]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, fault, victim):
        super().__init__()
        paddle.seed(7)
        self.fc = paddle.nn.Linear(8, 2)
        self.fault, self.victim, self.calls = fault, victim, 0

    def forward(self, x):
        self.calls += 1
        time.sleep(0.3)  # a real forward pass takes a while
        if self.calls == 3 and dist.get_rank() == self.victim and self.fault != "none":
            print(f"PDOC_FAULT_AT {time.time():.3f} {self.fault} in forward", flush=True)
            os.kill(os.getpid(), {"sigkill": signal.SIGKILL, "sigstop": signal.SIGSTOP}[self.fault])
        return self.fc(x)


def main():
    fault = sys.argv[1]
    victim = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    dist.init_parallel_env()
    result = paddle_doctor.evaluate(Net(fault, victim), Data(), [paddle.metric.Accuracy()], batch_size=4,
                                    progress=False)
    print(f"rank {dist.get_rank()}: done {result.metrics}", flush=True)


if __name__ == "__main__":
    main()
