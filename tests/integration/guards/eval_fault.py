"""A tiny distributed evaluation that injects one fault, for the guards' integration tests.

Run: python -m paddle.distributed.launch --nproc_per_node W eval_fault.py FAULT [VICTIM]

FAULT (on rank VICTIM, default 1, at evaluation step 2 of 4):
  none           no fault
  sigkill        the rank SIGKILLs itself (what the kernel's OOM killer does)
  sigstop        the rank SIGSTOPs itself (a stuck rank: every thread frozen)
  exception      the rank raises ValueError
  alive          the rank sleeps PDOC_SLOW_S (default 60) in one step, then in the next step one C call
                 holds the GIL for PDOC_GIL_S (default 25, under gloo's 30: its heartbeat thread is starved)
  only_rank0     after the loop, rank 0 alone calls all_reduce (keeping the best score)
  gather_shapes  the last batch has 3 rows on the victim, 4 elsewhere, and every step all_gathers
  uneven         the victim has 2 more batches; every step all_reduces running stats
The loop runs inside ``paddle_doctor.runtime.guards.watchdog.guarded("evaluate")`` when PDOC_GUARDED=1
(what evaluate() does); it always ends with a barrier on every rank.
"""

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import time

import numpy as np
import paddle
import paddle.distributed as dist

paddle.set_device("cpu")
STEPS, ROWS, DIM = 4, 4, 8


def batches(rank, fault, victim):
    rng = np.random.default_rng(rank)
    steps = STEPS + (2 if fault == "uneven" and rank == victim else 0)
    for step in range(steps):
        rows = ROWS - 1 if fault == "gather_shapes" and rank == victim and step == steps - 1 else ROWS
        yield step, paddle.to_tensor(rng.standard_normal((rows, DIM)).astype("float32"))


def mark(what):
    """When the fault happens, for the test's timing (same clock as the watchers')."""
    print(f"PDOC_FAULT_AT {time.time():.3f} {what}", flush=True)


def inject(fault, step):
    if fault == "alive" and step == 3:
        # The GIL hold comes a step after the slow one: each is then waited out by its own
        # all_reduce, under gloo's fixed 30 s.
        held = hold_gil(float(os.environ.get("PDOC_GIL_S", "25")))
        print(f"PDOC_GIL_HELD {held:.2f}", flush=True)
    if step != 2 or fault in ("none", "only_rank0", "gather_shapes", "uneven"):
        return
    mark(f"{fault} at step {step}")
    if fault == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif fault == "sigstop":
        os.kill(os.getpid(), signal.SIGSTOP)
    elif fault == "exception":
        raise ValueError("simulated bug in the metric code")
    elif fault == "alive":
        time.sleep(float(os.environ.get("PDOC_SLOW_S", "60")))


def hold_gil(seconds):
    """One C call that keeps the GIL for ``seconds`` s: libc's nanosleep through ``ctypes.PyDLL``,
    whose calls do not release the GIL, so the rank's heartbeat thread is starved the whole time
    (as in a C extension that never releases it). Exact whatever the machine's load, and it costs
    no CPU: a backtracking regex, used before, was sized by timing it, and under the parallel
    suite held 5.6 s for 6 or grew toward gloo's 30 s, so the test had to run alone."""
    libc = ctypes.PyDLL(ctypes.util.find_library("c") or None, use_errno=True)
    whole, part = divmod(seconds, 1.0)
    want, left = Timespec(int(whole), int(part * 1e9)), Timespec()
    t0 = time.perf_counter()
    while libc.nanosleep(ctypes.byref(want), ctypes.byref(left)) != 0:  # a signal woke it: sleep the rest
        want = Timespec(left.tv_sec, left.tv_nsec)
    return time.perf_counter() - t0


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


def evaluate(model, rank, fault, victim):
    state = {"step": None}
    guard = contextlib.nullcontext()
    if os.environ.get("PDOC_GUARDED") == "1":
        from paddle_doctor.runtime.guards.watchdog import guarded

        guard = guarded("evaluate", step_fn=lambda: state["step"])
    total = paddle.zeros([2])
    with guard, paddle.no_grad():
        for step, x in batches(rank, fault, victim):
            state["step"] = step
            out = model(x)
            time.sleep(float(os.environ.get("PDOC_STEP_S", "0.3")))  # a real step takes a while
            if rank == victim:
                inject(fault, step)
                if (fault == "gather_shapes" and x.shape[0] < ROWS) or (fault == "uneven" and step == STEPS):
                    mark(f"{fault}: rank {rank} starts a batch the others do not have")
            if fault == "gather_shapes":
                parts = []
                dist.all_gather(parts, out)
            stats = paddle.to_tensor([float(out.sum()), float(x.shape[0])])
            dist.all_reduce(stats)
            total += stats
    return total


def main():
    fault = sys.argv[1]
    victim = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(0)
    total = evaluate(paddle.nn.Linear(DIM, 2), rank, fault, victim)
    if fault == "only_rank0" and rank == 0:
        mark("only rank 0 calls all_reduce")
        best = paddle.to_tensor([float(total[0])])
        dist.all_reduce(best, op=dist.ReduceOp.MAX)
    dist.barrier()
    print(f"rank {rank}: done, total {total.numpy().tolist()}", flush=True)


if __name__ == "__main__":
    main()
