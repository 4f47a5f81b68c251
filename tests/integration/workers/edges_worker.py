"""Launcher worker for tests/integration/test_evaluate_edges.py (issue 20: evaluate at its edges).

    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir DIR edges_worker.py OUT

Each scenario is one evaluate() call (or a few) on every rank, written as a user of the suites
would: a collate or dataset error (default collate on variable sizes, PaddleNLP's ``labels`` key
under pad_collate, text labels, a dataset error in a DataLoader worker on rank 1, a custom
collate failing on rank 1 only), the training flags of wrapper layers, a rank that never calls
evaluate, input validation, the empty-class convention, a custom NCHW metric under PadCollate,
detection gathered to one rank, and last a rank that raises and exits while rank 0 evaluates.
Writes OUT/rank<R>.json after every scenario: name -> {"error": ..., "seconds": ...} or values.
"""

import json
import os
import sys
import time

os.environ.setdefault("PADDLE_DOCTOR_WATCHDOG_TIMEOUT", "4")  # the never-entered case waits this long

import numpy as np
import paddle
import paddle.distributed as dist

from workers.edgekit import scenarios

paddle.set_device("cpu")


def main():
    out_dir = sys.argv[1]
    only = sys.argv[2:]  # run some scenarios only (debugging)
    dist.init_parallel_env()
    rank = dist.get_rank()
    results = {}
    path = os.path.join(out_dir, f"rank{rank}.json")
    for name, thunk in scenarios(rank, out_dir).items():
        if only and name not in only:
            continue
        start = time.monotonic()
        try:
            results[name] = {"value": thunk()}
        except Exception as exc:
            if name == "peer_uncaught" and rank == 1:
                raise  # nothing catches it: rank 1's process ends with the error
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        results[name]["seconds"] = time.monotonic() - start
        with open(path + ".tmp", "w") as fh:  # after every scenario: the last one may end this rank
            json.dump(results, fh, indent=1, default=lambda v: np.asarray(v).tolist())
        os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
