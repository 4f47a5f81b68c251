#!/usr/bin/env python3
"""Benchmark (issue 20): what detection costs each rank, W = 2 under the real launcher (CPU).

N images with ``--boxes`` predicted boxes and a few ground-truth boxes each go through
``evaluate`` twice: with ``DetectionMetric`` (float32 rows gathered to rank 0 only, the
evaluator run once there, its numbers shared through the TCP store) and with ``AllGatherMetric``,
the previous design kept here for the comparison (float64 rows with the image id, ``cat`` states
all-gathered to every rank, the evaluator run on every rank). Per rank: bytes the collectives
delivered to it, evaluator calls, the rows it holds afterwards, and the wall time. The mAPs must
be equal.

    .venv/bin/python bench/bench_eval_detection.py [--n 2000] [--boxes 100]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def worker(out: str, n: int, boxes: int) -> None:
    import paddle
    import paddle.distributed as dist
    from paddle.io import Dataset

    from paddle_doctor import PadCollate, evaluate
    from paddle_doctor.runtime.metrics.detection import DetectionMetric

    class AllGatherMetric(DetectionMetric):
        """The design before issue 20: every box on every rank, float64, evaluator everywhere."""

        sync_states = {"preds": "cat", "pred_ids": "cat", "gts": "cat", "gt_ids": "cat", "images": "cat"}
        evaluated_on_rank0 = False

        def reset(self):
            super().reset()
            self.preds, self.gts = self.preds.astype(np.float64), self.gts.astype(np.float64)

        def update(self, *args):
            super().update(*args)
            self.preds, self.gts = self.preds.astype(np.float64), self.gts.astype(np.float64)

        def accumulate(self):  # no cache: each call ran the evaluator again
            self._result = None
            return super().accumulate()

    class Images(Dataset):
        def __len__(self):
            return n

        def __getitem__(self, i):
            rng = np.random.default_rng(i)
            return {"image": np.array([i], "float32"), "im_id": np.array([i], "int64"),
                    "gt_bbox": (rng.random((3, 4)) * 100).astype("float32"),
                    "gt_class": rng.integers(0, 80, (3, 1)).astype("int32")}

    class Detector(paddle.nn.Layer):
        def forward(self, image):
            rows = []
            for v in image.numpy().reshape(-1):
                rng = np.random.default_rng(int(v) + 7)
                rows.append(np.column_stack([rng.integers(0, 80, boxes), rng.random(boxes),
                                             rng.random((boxes, 4)) * 100]).astype("float32"))
            return {"bbox": paddle.to_tensor(np.concatenate(rows)),
                    "bbox_num": paddle.to_tensor(np.full(image.shape[0], boxes, "int32"))}

    def evaluator(preds, gts):  # stands for COCOeval: cost grows with the boxes it reads
        calls.append(sum(len(p) for p in preds.values()))
        return float(np.mean([p[:, 1].mean() if len(p) else 0.0 for p in preds.values()]))

    dist.init_parallel_env()
    rank = dist.get_rank()
    collate = PadCollate(ragged=("gt_bbox", "gt_class"), label="im_id")
    kwargs = {"batch_size": 16, "collate_fn": collate, "inputs": "image", "labels": ["im_id", "gt_bbox", "gt_class"],
              "output": ["bbox", "bbox_num"], "progress": False}
    report = {}
    for name, cls in (("gather_to_rank0", DetectionMetric), ("all_gather", AllGatherMetric)):
        calls: list = []
        metric = cls(evaluator)
        start = time.perf_counter()
        result = evaluate(Detector(), Images(), metric, **kwargs)
        metric.accumulate()  # a user asking again: cached, or a second evaluator run
        report[name] = {"seconds": round(time.perf_counter() - start, 3), "bytes_received": result.bytes_exchanged,
                        "evaluator_calls": len(calls), "rows_held": int(len(metric.preds)),
                        "bytes_held": int(metric.preds.nbytes + metric.pred_ids.nbytes),
                        "map": result.metrics["bbox_map"]}
    Path(f"{out}.{rank}").write_text(json.dumps(report))


def launch(n: int, boxes: int, timeout: float) -> list[dict]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from paddle_doctor.process.bounded_run import run_bounded

    with tempfile.TemporaryDirectory(prefix="bench-eval-det-") as tmp:
        work = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
        env["OMP_NUM_THREADS"] = "1"
        cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2", "--log_dir",
               str(work / "log"), str(Path(__file__).resolve()), "worker", str(work / "out"), str(n), str(boxes)]
        run = run_bounded(cmd, cwd=work, env=env, output=work / "terminal.out", timeout=timeout)
        outs = [work / f"out.{r}" for r in range(2)]
        if run.returncode != 0 or not all(p.exists() for p in outs):
            tail = (work / "log" / "workerlog.0").read_text(errors="replace")[-3000:] if (work / "log").exists() else ""
            raise SystemExit(f"launcher failed (rc {run.returncode}, timed out {run.timed_out}):\n{tail}")
        return [json.loads(p.read_text()) for p in outs]


def main() -> None:
    if sys.argv[1:2] == ["worker"]:
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--boxes", type=int, default=100)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    ranks = launch(args.n, args.boxes, args.timeout)
    print(f"N={args.n} images x {args.boxes} boxes = {args.n * args.boxes} boxes, W=2")
    print("| design | rank | bytes received | evaluator calls | rows held | bytes held | s | mAP |")
    print("|---|---|---|---|---|---|---|---|")
    for design in ("all_gather", "gather_to_rank0"):
        for r, rep in enumerate(ranks):
            d = rep[design]
            print(f"| {design} | {r} | {d['bytes_received']:,} | {d['evaluator_calls']} | {d['rows_held']:,} | "
                  f"{d['bytes_held']:,} | {d['seconds']} | {d['map']:.6f} |")


if __name__ == "__main__":
    main()
