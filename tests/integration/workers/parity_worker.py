"""Launcher worker for tests/integration/test_evaluate_parity.py: many configurations in one run.

    python -m paddle.distributed.launch --nproc_per_node W --log_dir DIR parity_worker.py OUT_DIR
    python parity_worker.py OUT_DIR --reference      # one process, plain Paddle, no paddle_doctor

Writes OUT_DIR/rank<R>.json (or reference.json): config id -> result (or {"error": ...}). A
configuration that raises is recorded and the run goes on (evaluate raises on every rank at the
same point, so the next call starts in step).
"""

import json
import os
import sys
import traceback

import paddle
import paddle.distributed as dist
from paddle.io import BatchSampler, DataLoader, DistributedBatchSampler

from paddle_doctor import evaluate, pad_collate

from workers.evalkit import Net, TokenData, ToyData, families, reference

paddle.set_device("cpu")
SIZES = (1, 3, 7, 13, 50)  # none divisible by W*B for W in 2..4, B=4; 1 and 3 are < W for W=4
BATCH = 4
KINDS = ("dataset", "dbs", "dbs_shuffle", "batch_sampler")


def data_for(kind, dataset, collate_fn=None):
    if kind == "dataset":
        return dataset
    if kind == "batch_sampler":  # every rank iterates everything: ownership splits the work
        return DataLoader(dataset, batch_sampler=BatchSampler(dataset, batch_size=BATCH, shuffle=True),
                          collate_fn=collate_fn)
    sampler = DistributedBatchSampler(dataset, batch_size=BATCH, shuffle=kind == "dbs_shuffle")
    sampler.set_epoch(3)
    return DataLoader(dataset, batch_sampler=sampler, collate_fn=collate_fn)


def configs():
    """(config id, reference id, thunk)."""
    for family, (out, dkw, make_metrics, loss) in families().items():
        for n in SIZES:
            for kind in KINDS:
                yield (f"{family}/{kind}/N{n}", f"{family}/N{n}",
                       lambda o=out, d=dkw, m=make_metrics, lf=loss, n=n, k=kind: evaluate(
                           Net(o), data_for(k, ToyData(n, **d)), m(), batch_size=None if k != "dataset" else BATCH,
                           loss_fn=lf, progress=False))
        yield (f"{family}/rank0/N13", f"{family}/N13",
               lambda o=out, d=dkw, m=make_metrics, lf=loss: evaluate(
                   Net(o), ToyData(13, **d), m(), batch_size=BATCH, loss_fn=lf, strategy="rank0"))
    ce = paddle.nn.CrossEntropyLoss()
    for kind in ("dataset", "dbs_shuffle"):
        yield (f"tokens/{kind}/N13", "tokens/N13",
               lambda k=kind: evaluate(Net(), data_for(k, TokenData(13), pad_collate), [paddle.metric.Accuracy()],
                                       batch_size=BATCH if k == "dataset" else None,
                                       collate_fn=pad_collate if k == "dataset" else None, loss_fn=ce))


def references():
    out = {}
    for family, (kind, dkw, make_metrics, loss) in families().items():
        for n in SIZES:
            out[f"{family}/N{n}"] = reference(Net(kind), ToyData(n, **dkw), make_metrics(), loss)
    out["tokens/N13"] = reference(Net(), TokenData(13), [paddle.metric.Accuracy()],
                                  paddle.nn.CrossEntropyLoss(), tokens=True)
    return out


def run_all():
    results = {}
    for cid, rid, thunk in configs():
        try:
            r = thunk()
            results[cid] = {"ref": rid, "metrics": {k: float(v) for k, v in r.metrics.items()},
                            "num_samples": r.num_samples, "loss": r.loss, "dataset_len": r.dataset_len,
                            "duplicates_skipped": r.duplicates_skipped, "world_size": r.world_size,
                            "collectives": r.collectives, "bytes": r.bytes_exchanged,
                            "local_samples": r.local_samples}
        except Exception as exc:  # recorded; the test shows it
            results[cid] = {"ref": rid, "error": f"{type(exc).__name__}: {exc}",
                            "trace": traceback.format_exc(limit=4)}
    return results


def main():
    out_dir = sys.argv[1]
    if "--reference" in sys.argv:
        payload, name = references(), "reference.json"
    else:
        if int(os.environ.get("PADDLE_TRAINERS_NUM", "1")) > 1:
            dist.init_parallel_env()
        payload, name = run_all(), f"rank{dist.get_rank()}.json"
    with open(os.path.join(out_dir, name + ".tmp"), "w") as fh:
        json.dump(payload, fh, indent=1, sort_keys=True)
    os.replace(os.path.join(out_dir, name + ".tmp"), os.path.join(out_dir, name))


if __name__ == "__main__":
    main()
