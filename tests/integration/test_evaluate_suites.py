"""evaluate() on the suites' batch and output shapes, through the real launcher (W = 2 and 3).

One launcher run per W checks 27 configurations (workers/suites_worker.py), each on a Dataset, a
DataLoader over an unshuffled and a shuffled DistributedBatchSampler: dict batches named with
inputs=/labels=; a tuple output with an auxiliary head and a dict output, chosen with output=;
variable-size segmentation samples (dicts, NCHW logits in a PaddleSeg-style list, labels
[1, H, W] padded with the ignore index) and same-size ones with and without pad_collate; a
detection-style ragged prediction list fed to a VOC AP evaluator; the PaddleSeg, PaddleClas and
PaddleNLP recipes; paddle.Model via evaluate_model. Each must count every sample once and equal
a one-process, one-sample-at-a-time reference within 1e-6 (metrics and the sample-weighted loss).
The W=2 run ends with a ~20 s evaluation: rank 0's log shows progress lines, rank 1's none.
"""

import json

import pytest

from workers.launch_helper import run_launcher, run_plain, worker_logs


# one xdist worker for the module (tests/conftest.py, XDIST_GROUPS): its reference is run once
pytestmark = pytest.mark.integration
TOL = 1e-6
CONFIGS = 27
PROGRESS = "paddle-doctor evaluate:"


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    work = tmp_path_factory.mktemp("reference")
    proc = run_plain("suites_worker.py", work, [str(work), "--reference"], timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((work / "reference.json").read_text())


def close(a, b) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(close, a, b))
    if a is None or b is None:
        return a is b
    return abs(a - b) <= TOL


def problems_in(cid, got, ref, world):
    if "error" in got:
        return [f"{cid}: {got['error']}\n{got.get('trace', '')}"]
    out = []
    if got["num_samples"] != ref["num_samples"]:
        out.append(f"{cid}: num_samples {got['num_samples']} != {ref['num_samples']}")
    if set(got["metrics"]) != set(ref["metrics"]):
        out.append(f"{cid}: metric names {sorted(got['metrics'])} != {sorted(ref['metrics'])}")
    for name, value in ref["metrics"].items():
        if not close(got["metrics"].get(name), value):
            out.append(f"{cid}: {name} {got['metrics'].get(name)!r} != single-process {value!r}")
    if not close(got["loss"], ref["loss"]):
        out.append(f"{cid}: loss {got['loss']!r} != single-process {ref['loss']!r}")
    if got["world_size"] != world:
        out.append(f"{cid}: world_size {got['world_size']}")
    return out


@pytest.mark.timeout(300)
@pytest.mark.parametrize("world", [2, 3])
def test_suite_shapes_equal_single_process(world, reference, tmp_path):
    args = [str(tmp_path)] + (["--slow"] if world == 2 else [])
    code, terminal, _ = run_launcher("suites_worker.py", world, tmp_path, args, timeout=240)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    per_rank = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(world)]
    problems = []
    for results in per_rank:
        for cid, got in sorted(results.items()):
            if cid != "slow":
                problems += problems_in(cid, got, reference[got["ref"]], world)
    assert not problems, "\n".join(problems[:20])
    configs = [cid for cid in per_rank[0] if cid != "slow"]
    assert len(configs) == CONFIGS
    for cid in configs:
        for results in per_rank[1:]:  # every rank returns the same result
            assert (results[cid]["metrics"], results[cid]["loss"]) == (per_rank[0][cid]["metrics"],
                                                                       per_rank[0][cid]["loss"]), cid
        # every sample was evaluated by exactly one rank, and the work was shared
        locals_ = [r[cid]["local_samples"] for r in per_rank]
        assert sum(locals_) == reference[per_rank[0][cid]["ref"]]["num_samples"], (cid, locals_)
        assert min(locals_) > 0, (cid, locals_)
    if world == 2:
        rank0 = (tmp_path / "log" / "workerlog.0").read_text(errors="replace")
        rank1 = (tmp_path / "log" / "workerlog.1").read_text(errors="replace")
        lines = [line for line in rank0.splitlines() if line.startswith(PROGRESS)]
        assert per_rank[0]["slow"]["num_samples"] == 80
        assert len(lines) >= 3, rank0[-2000:]  # every 5 s of a ~20 s evaluation, and a last line
        assert "samples/s" in lines[0] and "ETA" in lines[0] and "/80 samples" in lines[0], lines
        assert lines[-1].startswith(f"{PROGRESS} 80/80 samples"), lines
        assert PROGRESS not in rank1, rank1[-2000:]
