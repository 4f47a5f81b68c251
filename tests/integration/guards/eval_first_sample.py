"""A rank frozen or killed at its very first sample inside ``paddle_doctor.evaluate``, no `run`.

Run: python -m paddle.distributed.launch --nproc_per_node W eval_first_sample.py FAULT VICTIM DATA
FAULT: sigstop | sigkill | none, on rank VICTIM when its first sample is read (before it has
announced its plan, and usually before its first heartbeat); with ``VICTIM`` 0 and FAULT
``sigstop-mid``, rank 0 (which hosts the TCP store) freezes at its 3rd batch instead.
DATA: dataset (a map-style Dataset) | loader0 | loader2 (a DataLoader with num_workers 0 or 2).
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
RANK_PID = os.getpid()  # DataLoader workers read samples too: the fault always hits the rank itself
SIGNALS = {"sigstop": signal.SIGSTOP, "sigkill": signal.SIGKILL, "sigstop-mid": signal.SIGSTOP}


class Data(paddle.io.Dataset):
    def __init__(self, fault, victim, n=48):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, 8)).astype("float32")
        self.y = (self.x[:, 0] > 0).astype("int64")[:, None]
        self.fault, self.victim, self.reads = fault, victim, 0

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        self.reads += 1
        if self.fault in ("sigstop", "sigkill") and dist.get_rank() == self.victim and self.reads == 1:
            fault_now(f"{self.fault} at the first sample")
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, fault, victim):
        super().__init__()
        paddle.seed(7)
        self.fc = paddle.nn.Linear(8, 2)
        self.fault, self.victim, self.calls = fault, victim, 0

    def forward(self, x):
        self.calls += 1
        time.sleep(0.2)  # a real forward pass takes a while
        if self.fault == "sigstop-mid" and self.calls == 3 and dist.get_rank() == self.victim:
            fault_now("sigstop in the 3rd batch")
        return self.fc(x)


def survivors_listening(timeout=10.0):
    """Wait (at most ``timeout`` s) until every other rank's guards listen: their heartbeat ports
    (the ranks' endpoint ports, UDP) are bound on this host. Under load a survivor could still be
    setting up its guards when the victim died and the launcher ended the job a second later, and a
    rank that never watched can name nobody: a race of the test, not what it measures."""
    endpoints = os.environ.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")
    ports = {int(e.rsplit(":", 1)[1]) for i, e in enumerate(endpoints) if ":" in e and i != dist.get_rank()}
    end = time.monotonic() + timeout
    while time.monotonic() < end and not ports <= _udp_ports_bound():
        time.sleep(0.05)


def _udp_ports_bound():
    bound = set()
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        bound |= {int(row.split()[1].rsplit(":", 1)[1], 16) for row in rows if row.strip()}
    return bound


def fault_now(what):
    if "first sample" in what:
        survivors_listening()
    print(f"PDOC_FAULT_AT {time.time():.3f} {what}", flush=True)
    os.kill(RANK_PID, SIGNALS[sys.argv[1]])


def main():
    fault, victim, data = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    dist.init_parallel_env()
    # Every rank past its gloo handshakes before the fault: a rank still connecting when a peer dies
    # fails inside init_parallel_env, before evaluate (and its guards) ever ran.
    dist.barrier()
    dataset = Data(fault, victim)
    kwargs = {"batch_size": 4}
    if data.startswith("loader"):
        sampler = paddle.io.DistributedBatchSampler(dataset, batch_size=4)
        dataset = paddle.io.DataLoader(dataset, batch_sampler=sampler, num_workers=int(data[len("loader"):]))
        kwargs = {}
    result = paddle_doctor.evaluate(Net(fault, victim), dataset, [paddle.metric.Accuracy()], progress=False,
                                    **kwargs)
    print(f"rank {dist.get_rank()}: done {result.metrics}", flush=True)


if __name__ == "__main__":
    main()
