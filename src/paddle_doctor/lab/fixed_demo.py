"""Run the fixed evaluation of ``paddle-doctor demo`` (``cases/01_exception_rank1/eval_fixed.py``).

``cases/01_exception_rank1`` splits 38 candidate rows (queries of 4, the last one cut to 2) into
contiguous chunks per rank; rank 1's chunk ends in half a query and its reshape to [-1, 4] raises.
The fix: a query is the sample (so no rank can get half of one), ``pad_collate`` pads short
queries, the model gives padded candidates no chance, and ``evaluate`` counts each query once.
hit@1 is then ``paddle.metric.Accuracy`` over the candidate scores (the relevant one is first).

    run_fixed_evaluation(script, work_dir) -> {"distributed": ..., "single_process": ..., "equal": bool, ...}

runs that script under the real launcher (2 processes, ``paddle_doctor.evaluate``) and alone (a
plain Paddle loop over the queries, no paddle_doctor: the ground truth), and returns both results;
it prints nothing. The script runs as:

    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir LOG eval_fixed.py OUT_DIR
    python eval_fixed.py OUT_DIR single
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from paddle_doctor.process import tree


def run_fixed_evaluation(script: str | Path, work_dir: str | Path, nproc: int = 2,
                         timeout: float = 120.0) -> dict[str, Any]:
    """Run the fixed evaluation ``script`` on ``nproc`` ranks and in one process; compare hit@1."""
    work = Path(work_dir).resolve()  # the processes start inside it: a relative path would nest
    work.mkdir(parents=True, exist_ok=True)
    for stale in [*work.glob("rank*.json"), work / "single.json"]:  # never report an old run
        stale.unlink(missing_ok=True)
    script, tag = str(Path(script).resolve()), tree.new_tag()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    env.update({tree.TAG_VAR: tag, "PYTHONUNBUFFERED": "1"})
    launcher = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", str(nproc),
                "--log_dir", str(work / "log"), script, str(work)]
    procs = [tree.start(launcher, work, env, work / "terminal.out"),
             tree.start([sys.executable, script, str(work), "single"], work, env, work / "single.out")]
    try:
        tree.wait_until(procs, time.monotonic() + timeout)
    finally:
        tree.end_all(procs, tag)
    dist, single = _read(work / "rank0.json"), _read(work / "single.json")
    equal = bool(dist and single and all(abs(dist["metrics"][k] - v) <= 1e-6
                                         for k, v in single["metrics"].items()))
    return {"distributed": dist, "single_process": single, "equal": equal,
            "command": " ".join(launcher[1:]), "work_dir": str(work)}


def _read(path: Path) -> dict | None:
    return json.loads(path.read_text()) if path.exists() else None
