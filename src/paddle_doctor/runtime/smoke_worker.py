"""The worker of ``paddle-doctor smoke``: a tiny real training step and evaluation on every rank.

Run as a file by the launcher (``python -m paddle.distributed.launch ... worker.py OUT_DIR``).
Each check runs in order on every rank; its outcome goes to ``OUT_DIR/smoke.<rank>.json``
(rewritten after each check, so a rank that dies still leaves what it did). A check whose
values are wrong is marked failed and the next check runs (every rank still calls the same
collectives, so nothing hangs); a check that raises is recorded, then the exception goes on
and ends the process, as it would in a user's job, so the launcher and ``diagnose`` see it.

``PADDLE_DOCTOR_SMOKE_FAULT=KIND:RANK`` injects a fault on one rank (for tests and for trying
``diagnose`` out): ``raise`` (an exception in the all_reduce check), ``kill`` (SIGKILL itself, as
the OOM killer would), ``exit`` (``sys.exit(3)`` before the evaluation).
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import time
from pathlib import Path

from paddle_doctor.contract import SMOKE_DEVICE_ENV, SMOKE_FAULT_ENV

DIM, CLASSES, SAMPLES = 8, 3, 37  # 37: not a multiple of any small world size, as real data is


def main(argv: list[str]) -> None:
    import paddle
    import paddle.distributed as dist

    gc.freeze()  # paddle's million objects: not walked again by the interpreter's last collection (~0.35 s)

    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    paddle.set_device(os.environ.get(SMOKE_DEVICE_ENV, "cpu"))
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    report = _Report(out / f"smoke.{rank}.json", rank, world)
    checks = [("all_reduce", _all_reduce), ("all_gather", _all_gather), ("broadcast", _broadcast),
              ("reduce", _reduce), ("scatter", _scatter), ("barrier", _barrier),
              ("train_step", _train_step), ("dataloader_workers", _dataloader),
              ("save_load", _save_load), ("evaluate_parity", _evaluate_parity)]
    for name, check in checks:
        report.run(name, lambda c=check: c(paddle, dist, rank, world, out))
    print(f"paddle-doctor smoke: rank {rank} of {world}: all checks ran", flush=True)
    _leave_together(dist)


def _leave_together(dist) -> None:
    """Every check ran and its outcome is on disk: leave without the interpreter's teardown.

    Under load a rank's gloo context was once torn down at exit while its peer's was still
    connected, and the rank died of SIGSEGV after all its checks had passed (a -11 that made
    the launcher call the smoke a failure). A last barrier keeps the ranks together up to here;
    paddle-doctor's own exit steps run (the watchdog tells its peers this rank ended well, an
    unused crash file is removed), and ``os._exit`` then skips Paddle's exit functions and
    native destructors (its process groups' teardown among them), which have nothing to write."""
    from paddle_doctor.runtime.guards import record, watchdog

    dist.barrier()
    watchdog.announce_end(True)
    record.finish()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


class _Report:
    def __init__(self, path: Path, rank: int, world: int):
        self.path, self.rank, self.world, self.checks = path, rank, world, []
        self._write()  # a rank that dies in its first check still shows that it started

    def run(self, name: str, check) -> None:
        start = time.monotonic()
        print(f"paddle-doctor smoke: rank {self.rank}: {name} ...", flush=True)
        try:
            _maybe_fault(name, self.rank)
            ok, detail = check()
        except BaseException as exc:
            self._add(name, False, f"{type(exc).__name__}: {exc}"[:300], start)
            raise
        self._add(name, ok, detail, start)

    def _add(self, name: str, ok: bool, detail: str, start: float) -> None:
        self.checks.append({"name": name, "ok": bool(ok), "detail": detail,
                            "seconds": round(time.monotonic() - start, 3)})
        self._write()

    def _write(self) -> None:
        payload = {"rank": self.rank, "world_size": self.world, "pid": os.getpid(), "checks": self.checks}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(payload, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)


def _maybe_fault(check: str, rank: int) -> None:
    kind, _, where = os.environ.get(SMOKE_FAULT_ENV, "").partition(":")
    if not kind or str(rank) != (where or "1"):
        return
    if kind == "raise" and check == "all_reduce":
        raise RuntimeError(f"paddle-doctor smoke: injected fault on rank {rank}")
    if kind == "kill" and check == "all_reduce":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "exit" and check == "evaluate_parity":
        sys.exit(3)


# -- collectives: each result is checked against what arithmetic says it must be -------------------


def _all_reduce(paddle, dist, rank, world, out):
    t = paddle.to_tensor([rank + 1.0, 1.0])
    dist.all_reduce(t)
    want = [world * (world + 1) / 2, float(world)]
    return t.tolist() == want, f"sum {t.tolist()} (want {want})"


def _all_gather(paddle, dist, rank, world, out):
    parts: list = []
    dist.all_gather(parts, paddle.to_tensor([rank * 10], dtype="int64"))
    got = [int(p.item()) for p in parts]
    return got == [r * 10 for r in range(world)], f"gathered {got}"


def _broadcast(paddle, dist, rank, world, out):
    t = paddle.to_tensor([42 if rank == 0 else -1], dtype="int64")
    dist.broadcast(t, src=0)
    return int(t.item()) == 42, f"rank 0's value {int(t.item())} (want 42)"


def _reduce(paddle, dist, rank, world, out):
    t = paddle.to_tensor([rank + 1], dtype="int64")
    dist.reduce(t, dst=0)
    if rank != 0:
        return True, "sent to rank 0"
    want = world * (world + 1) // 2
    return int(t.item()) == want, f"sum on rank 0 {int(t.item())} (want {want})"


def _scatter(paddle, dist, rank, world, out):
    t = paddle.zeros([1], dtype="int64")
    pieces = [paddle.to_tensor([100 + r], dtype="int64") for r in range(world)] if rank == 0 else None
    dist.scatter(t, pieces, src=0)
    return int(t.item()) == 100 + rank, f"piece {int(t.item())} (want {100 + rank})"


def _barrier(paddle, dist, rank, world, out):
    dist.barrier()
    return True, "all ranks arrived"


# -- training, data, checkpoints, evaluation ------------------------------------------------------


def _dataset(paddle):
    import numpy as np

    class Tiny(paddle.io.Dataset):
        def __init__(self):
            rng = np.random.default_rng(7)
            self.x = rng.standard_normal((SAMPLES, DIM)).astype("float32")
            self.y = (np.abs(self.x[:, :CLASSES]).argmax(axis=1)).astype("int64")

        def __len__(self):
            return SAMPLES

        def __getitem__(self, i):
            return self.x[i], self.y[i]

    return Tiny()


def _model(paddle):
    paddle.seed(11)
    return paddle.nn.Sequential(paddle.nn.Linear(DIM, 16), paddle.nn.ReLU(), paddle.nn.Linear(16, CLASSES))


def _train_step(paddle, dist, rank, world, out):
    """One DataParallel step on different data per rank: gradients are all-reduced, so every rank
    must end with the same weights."""
    model = paddle.DataParallel(_model(paddle))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    data = _dataset(paddle)
    x, y = paddle.to_tensor(data.x[rank::world]), paddle.to_tensor(data.y[rank::world])
    loss = paddle.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    checksum = paddle.to_tensor([float(sum(p.abs().sum().item() for p in model.parameters()))])
    parts: list = []
    dist.all_gather(parts, checksum)
    sums = [round(p.item(), 5) for p in parts]
    return len(set(sums)) == 1, f"loss {loss.item():.4f}; weight checksum per rank {sums}"


def _dataloader(paddle, dist, rank, world, out):
    """DataLoader worker processes over a DistributedBatchSampler: every sample is seen."""
    data = _dataset(paddle)
    sampler = paddle.io.DistributedBatchSampler(data, batch_size=4, shuffle=False)
    loader = paddle.io.DataLoader(data, batch_sampler=sampler, num_workers=2)
    count = paddle.to_tensor([sum(int(x.shape[0]) for x, _ in loader)], dtype="int64")
    dist.all_reduce(count)
    padded = len(sampler) * 4 * world
    ok = SAMPLES <= int(count.item()) <= padded
    return ok, f"2 workers per rank; {int(count.item())} samples over all ranks (dataset {SAMPLES}, padded)"


def _save_load(paddle, dist, rank, world, out):
    return save_load_round_trip(paddle, _model(paddle), out / f"smoke_ckpt.{rank}.pdparams", rank)


def save_load_round_trip(paddle, model, path: Path, rank: int):
    """paddle_doctor.save_clean then load_clean (strict) into a fresh model: every tensor must come
    back equal. Each rank writes its own file here (``rank=rank``), so the ranks do not share a path."""
    import numpy as np

    from paddle_doctor.runtime.checkpoint.load import load_clean
    from paddle_doctor.runtime.checkpoint.save import save_clean

    save_clean(model, str(path), rank=rank)
    fresh = _model(paddle)
    for p in fresh.parameters():
        p.set_value(paddle.zeros_like(p))
    findings = load_clean(fresh, str(path), strict=True)  # raises StateDictMismatchError on any mismatch
    same = all(np.array_equal(a.numpy(), b.numpy())
               for a, b in zip(model.state_dict().values(), fresh.state_dict().values()))
    path.unlink(missing_ok=True)
    problems = [f.message for f in findings if f.severity.value == "error"]
    return same and not problems, f"{len(model.state_dict())} tensors round-tripped with save_clean/load_clean" + (
        f"; {problems}" if problems else "")


def _evaluate_parity(paddle, dist, rank, world, out):
    """paddle_doctor.evaluate on all ranks must equal a plain one-process loop over the whole set."""
    from paddle_doctor.runtime.evaluate.api import evaluate

    model, data = _model(paddle), _dataset(paddle)
    result = evaluate(model, data, paddle.metric.Accuracy(), batch_size=4, progress=False)
    model.eval()
    with paddle.no_grad():
        pred = model(paddle.to_tensor(data.x)).argmax(axis=1).numpy()
    single = float((pred == data.y).mean())
    got = float(result.metrics["acc"])
    ok = abs(got - single) < 1e-9 and result.num_samples == SAMPLES
    return ok, f"acc {got:.6f} on {result.num_samples} samples; one process {single:.6f} on {SAMPLES}"


if __name__ == "__main__":
    main(sys.argv[1:])
