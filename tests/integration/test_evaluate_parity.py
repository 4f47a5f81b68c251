"""evaluate() through the real launcher equals a plain one-process loop, for W = 1..4.

One launcher run per W checks 65 configurations (workers/parity_worker.py): dataset sizes 1, 3,
7, 13, 50 with batch 4 (none divisible by W*B; 1 and 3 below W=4), as a Dataset, a DataLoader
over DistributedBatchSampler with and without shuffle, and a DataLoader over a plain shuffled
BatchSampler (every rank holds everything); Accuracy (top-1/top-2) with a loss, Precision, Recall,
a custom metric with cat/max/min/sum states, Auc; strategy="rank0"; padded token sequences.
"""

import json
import math
from pathlib import Path

import pytest

from workers.launch_helper import run_launcher, run_plain, worker_logs


# one xdist worker for the module (tests/conftest.py, XDIST_GROUPS): its reference is run once
pytestmark = pytest.mark.integration
TOL = 1e-6
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    work = tmp_path_factory.mktemp("reference")
    proc = run_plain("parity_worker.py", work, [str(work), "--reference"], timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((work / "reference.json").read_text())


def problems_in(cid, got, ref, world):
    if "error" in got:
        return [f"{cid}: {got['error']}\n{got.get('trace', '')}"]
    out = []
    n = ref["num_samples"]
    if got["num_samples"] != n or got["dataset_len"] != n:
        out.append(f"{cid}: num_samples {got['num_samples']} != len(dataset) {n}")
    for name, value in ref["metrics"].items():
        if abs(got["metrics"][name] - value) > TOL:
            out.append(f"{cid}: {name} {got['metrics'][name]!r} != single-process {value!r}")
    if (ref["loss"] is None) != (got["loss"] is None) or (ref["loss"] is not None and abs(got["loss"] - ref["loss"]) > TOL):
        out.append(f"{cid}: loss {got['loss']!r} != single-process {ref['loss']!r}")
    if got["world_size"] != world:
        out.append(f"{cid}: world_size {got['world_size']}")
    family, kind, _ = cid.split("/")
    if kind.startswith("dbs") and got["duplicates_skipped"] != math.ceil(n / world) * world - n:
        out.append(f"{cid}: skipped {got['duplicates_skipped']} padded duplicates")
    if family == "multi" and kind in ("dataset", "dbs", "dbs_shuffle", "rank0") and world > 1:
        if got["collectives"] != 1 or got["bytes"] >= 1024:  # Accuracy + loss: one all_reduce, < 1 KB
            out.append(f"{cid}: {got['collectives']} collectives, {got['bytes']} bytes")
    return out


@pytest.mark.timeout(240)
@pytest.mark.parametrize("world", [1, 2, 3, 4])
def test_every_configuration_equals_single_process(world, reference, tmp_path):
    code, terminal, _ = run_launcher("parity_worker.py", world, tmp_path, [str(tmp_path)], timeout=200)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    per_rank = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(world)]
    problems = []
    for results in per_rank:
        for cid, got in sorted(results.items()):
            problems += problems_in(cid, got, reference[got["ref"]], world)
    assert not problems, "\n".join(problems[:20])
    assert len(per_rank[0]) == 65
    for results in per_rank[1:]:  # every rank returns the same result
        for cid, got in results.items():
            assert (got["metrics"], got["num_samples"], got["loss"]) == (
                per_rank[0][cid]["metrics"], per_rank[0][cid]["num_samples"], per_rank[0][cid]["loss"]), cid
    for cid in per_rank[0]:  # every sample was evaluated by exactly one rank
        assert sum(r[cid]["local_samples"] for r in per_rank) == reference[per_rank[0][cid]["ref"]]["num_samples"], cid

