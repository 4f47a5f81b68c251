#!/usr/bin/env python3
"""Benchmark: a suite's own evaluation loop against ``paddle_doctor.evaluate``, on the suite's model.

PaddleSeg (``paddleseg`` 2.8 from PyPI) is installed into a scratch venv outside the repo
(``--venv``, default /tmp/eval-scratch/venv): a plain venv whose ``.pth`` adds this interpreter's
site-packages (Paddle, paddle_doctor), then ``pip install --no-deps paddleseg`` and the few
packages it imports (its ``opencv-python<=4.6`` pin is built for numpy 1, so the headless
OpenCV that supports numpy 2 stands in). ``make test`` never needs any of this.

Then one launcher run (W=2, gloo, CPU, OMP_NUM_THREADS=1 each) alternates, over ``--rounds``
rounds after one warm-up call each, on PaddleSeg's ``PPHumanSegLite`` (2 classes, weights from
one seed and 30 Adam steps on the same images on every rank, so that it predicts both classes) and ``--images`` synthetic ``--size`` x ``--size`` images:

- suite: ``paddleseg.core.evaluate(model, dataset)`` (DistributedBatchSampler, batch size 1 fixed,
  three ``all_gather`` calls per image, trims the padding on the last iteration);
- doctor_b1 / doctor_b8: ``paddle_doctor.runtime.suites.recipes.evaluate_paddleseg`` at batch size
  1 (the suite's default) and 8.

Both ranks start each timing together (a barrier outside the timed region). Collectives are
counted for both by wrapping ``paddle.distributed.all_gather``/``all_reduce``/``broadcast``
(calls and bytes delivered to one rank). A one-process run of the suite and of the recipe gives
the single-process metrics. Figures: the median of per-round time ratios, the mIoU, accuracy
and kappa of each method, and whether they are equal (1e-6) to the suite's and to one process.

    .venv/bin/python bench/bench_suites.py [--venv DIR] [--images 203] [--size 64] [--rounds 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
SUITE_PACKAGES = ["paddleseg==2.8.0"]
SUITE_DEPS = ["opencv-python-headless", "pyyaml", "tqdm", "filelock", "scipy", "prettytable", "scikit-learn",
              "six", "requests"]  # what `import paddleseg.core, paddleseg.models` needs (visualdl: not)
SUITE_IMPORT = "paddleseg.core, paddleseg.models"
TOL = 1e-6


# ---------------------------------------------------------------- set-up (this interpreter)

def ensure_venv(venv: Path) -> Path:
    """The scratch venv's python, with PaddleSeg importable (installed on first use)."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
        site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
        ours = sysconfig.get_paths()["purelib"]  # Paddle and paddle_doctor (editable) live here
        Path(site, "zz_bench_host.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    if _imports(python, SUITE_IMPORT):
        return python
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", *SUITE_PACKAGES], check=True, timeout=600)
    subprocess.run([*pip, *SUITE_DEPS], check=True, timeout=900)
    if not _imports(python, SUITE_IMPORT):
        raise SystemExit(f"paddleseg does not import in {venv}")
    return python


def _imports(python: Path, module: str) -> bool:
    proc = subprocess.run([str(python), "-c", f"import {module}"], capture_output=True, text=True, timeout=300)
    return proc.returncode == 0


def launch(python: Path, args: argparse.Namespace, out: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    env.update({"OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"})
    common = ["--worker", str(out), "--images", str(args.images), "--size", str(args.size), "--rounds", str(args.rounds)]
    subprocess.run([str(python), str(HERE), *common, "--single"], check=True, env=env, timeout=900)
    cmd = [str(python), "-m", "paddle.distributed.launch", "--nproc_per_node", str(args.nproc),
           "--log_dir", str(out / "log"), str(HERE), *common]
    proc = subprocess.run(cmd, env=env, timeout=1800, start_new_session=True)
    if proc.returncode != 0:
        logs = sorted((out / "log").glob("workerlog.*"))
        tails = "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in logs)
        raise SystemExit(f"launcher exited {proc.returncode}\n{tails}")


# ---------------------------------------------------------------- the worker (scratch venv)

class SyntheticSeg:
    """PaddleSeg val samples: {"img": float32[3, S, S], "label": int64[1, S, S], "trans_info": []}."""

    def __init__(self, n: int, size: int, seed: int = 0):
        import numpy as np

        rng = np.random.default_rng(seed)
        self.imgs = rng.standard_normal((n, 3, size, size)).astype("float32")
        labels = (self.imgs[:, :1] + 0.3 * rng.standard_normal((n, 1, size, size)) > 0).astype("int64")
        labels[rng.random(labels.shape) < 0.05] = 255
        self.labels = labels
        self.num_classes, self.ignore_index = 2, 255

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return {"img": self.imgs[i], "label": self.labels[i], "trans_info": []}


class Counter:
    """Wraps paddle.distributed's collectives: calls and bytes delivered to this rank."""

    def __init__(self):
        import paddle.distributed as dist

        self.calls, self.bytes, self.dist = 0, 0, dist
        self.originals = {name: getattr(dist, name) for name in ("all_gather", "all_reduce", "broadcast")}
        for name, fn in self.originals.items():
            setattr(dist, name, self._wrap(name, fn))

    def _wrap(self, name, fn):
        def counted(*a, **kw):
            tensor = a[1] if name == "all_gather" else a[0]
            nbytes = int(tensor.numel()) * tensor.element_size()
            self.calls += 1
            self.bytes += nbytes * (self.dist.get_world_size() if name == "all_gather" else 1)
            return fn(*a, **kw)
        return counted

    def take(self) -> tuple[int, int]:
        out = (self.calls, self.bytes)
        self.calls, self.bytes = 0, 0
        return out


class _Paddle3Sums:
    """``paddle`` as seen from ``paddleseg.utils.metrics``, with ``concat`` taking 0-d tensors.

    PaddleSeg 2.8 (the PyPI release) concatenates ``paddle.sum`` results, which Paddle 3 returns
    as 0-d tensors (``concat`` then fails: "axis ... in range of [0, 0)"). Reshaping each to
    ``[1]`` is what PaddleSeg's loop got under Paddle 2; nothing else of the loop changes."""

    def __init__(self, paddle):
        self._paddle = paddle

    def __getattr__(self, name):
        return getattr(self._paddle, name)

    def concat(self, tensors, *a, **kw):
        return self._paddle.concat([t.reshape([1]) if t.ndim == 0 else t for t in tensors], *a, **kw)


def _paddle3_shim() -> None:
    import paddle
    import paddleseg.utils.metrics as seg_metrics

    seg_metrics.paddle = _Paddle3Sums(paddle)


def _train(model, data, steps: int = 30, batch: int = 8) -> None:
    """A few Adam steps on the first images, the same on every rank (same seed, CPU, no DDP):
    the preflight's parameter checksum would refuse weights that differ."""
    import numpy as np
    import paddle

    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss(ignore_index=data.ignore_index, axis=1)
    model.train()
    for step in range(steps):
        idx = [(step * batch + k) % len(data) for k in range(batch)]
        img = paddle.to_tensor(np.stack([data.imgs[i] for i in idx]))
        label = paddle.to_tensor(np.stack([data.labels[i] for i in idx]))
        loss = loss_fn(model(img)[0], label)
        loss.backward()
        opt.step()
        opt.clear_grad()
    model.eval()


def _alternate(methods, rounds, world, counter, keep_first):
    """Each method once a round, the order reversed every other round; both ranks start together."""
    import paddle.distributed as dist

    times = {m: [] for m in methods}
    results, collectives = {}, {}
    for r in range(rounds):
        for name in (list(methods) if r % 2 == 0 else list(reversed(methods))):
            if world > 1:
                dist.barrier()
            counter.take()
            start = time.perf_counter()
            results[name] = methods[name]()
            elapsed = time.perf_counter() - start
            collectives[name] = counter.take()
            if r > 0 or keep_first:
                times[name].append(elapsed)
    return times, results, collectives


def worker(args: argparse.Namespace) -> None:
    import paddle
    import paddle.distributed as dist

    paddle.set_device("cpu")
    world = int(os.environ.get("PADDLE_TRAINERS_NUM", "1")) if not args.single else 1
    if world > 1:
        dist.init_parallel_env()
    from paddleseg.core import evaluate as suite_evaluate
    from paddleseg.models import PPHumanSegLite

    _paddle3_shim()

    from paddle_doctor.runtime.suites.recipes import evaluate_paddleseg

    paddle.seed(1)
    model = PPHumanSegLite(num_classes=2)
    data = SyntheticSeg(args.images, args.size)
    _train(model, data)  # an untrained model predicts one class everywhere: a metric without content
    counter = Counter()

    def suite():
        miou, acc, class_iou, _, kappa = suite_evaluate(model, data, print_detail=False)
        return {"miou": float(miou), "pixel_acc": float(acc), "kappa": float(kappa),
                "class_iou": [float(v) for v in class_iou]}

    def doctor(batch):
        r = evaluate_paddleseg(model, data, batch_size=batch, progress=False)
        return {k: r.metrics[k] for k in ("miou", "pixel_acc", "kappa", "class_iou")}

    methods = {"suite": suite, "doctor_b1": lambda: doctor(1), "doctor_b8": lambda: doctor(8)}
    rounds = 1 if args.single else args.rounds + 1  # the first round warms up
    times, results, collectives = _alternate(methods, rounds, world, counter, keep_first=args.single)
    rank = dist.get_rank() if world > 1 else 0
    out = Path(args.worker) / ("single.json" if args.single else f"rank{rank}.json")
    out.write_text(json.dumps({"times": times, "metrics": results, "collectives": collectives,
                               "world": world}, indent=1))


# ---------------------------------------------------------------- the report

def report(out: Path, args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(HERE.parent))
    from benchmachine import machine

    single = json.loads((out / "single.json").read_text())
    ranks = [json.loads(p.read_text()) for p in sorted(out.glob("rank*.json"))]
    r0 = ranks[0]
    suite_t = r0["times"]["suite"]
    rows = {}
    for name in r0["times"]:
        m = r0["metrics"][name]
        ratios = [t / s for t, s in zip(r0["times"][name], suite_t)]
        rows[name] = {
            "median_s": statistics.median(r0["times"][name]),
            "ratio_to_suite": statistics.median(ratios),
            "ratios": [round(x, 3) for x in ratios],
            "metrics": {k: m[k] for k in ("miou", "pixel_acc", "kappa")},
            "equal_to_suite": _equal(m, r0["metrics"]["suite"]),
            "equal_to_single_process": _equal(m, single["metrics"]["suite"]) and _equal(m, single["metrics"][name]),
            "same_on_every_rank": all(_equal(m, rk["metrics"][name]) for rk in ranks),
            "collectives": r0["collectives"][name][0], "bytes_per_rank": r0["collectives"][name][1],
        }
    return {"machine": machine(), "world": r0["world"], "images": args.images, "size": args.size, "rounds": args.rounds,
            "methods": rows}


def _equal(a: dict, b: dict) -> bool:
    flat = lambda d: [d["miou"], d["pixel_acc"], d["kappa"], *d["class_iou"]]  # noqa: E731
    return all(abs(x - y) <= TOL for x, y in zip(flat(a), flat(b)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--venv", type=Path, default=Path("/tmp/eval-scratch/venv"))
    p.add_argument("--nproc", type=int, default=2)
    p.add_argument("--images", type=int, default=203)
    p.add_argument("--size", type=int, default=64)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", type=Path)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--single", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        return worker(args)
    python = ensure_venv(args.venv)
    with tempfile.TemporaryDirectory(prefix="bench-suites-") as tmp:
        launch(python, args, Path(tmp))
        result = report(Path(tmp), args)
    text = json.dumps(result, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
