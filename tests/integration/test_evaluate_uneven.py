"""Uneven work across ranks never hangs evaluate() (real launcher, workers/uneven_worker.py).

- 3 ranks with 10, 1 and 0 batches; a 1-sample dataset on 3 ranks (two ranks with no sample):
  both finish with the single-process result;
- rank 1 raises: ranks 0 and 2 raise PeerFailedError naming it, in well under gloo's 30 s;
- ranks with different metric states raise StateSchemaError instead of crashing gloo;
- rank 1 with other weights: every rank raises the pre-flight's PreflightError naming rank 1,
  after its first batches (the verdict is read between batches), not after evaluating;
- strategy="rank0" with rank 0 busy for longer than gloo's 30 s timeout: rank 1 waits on the
  TCP store and gets the same result.
"""

import json

import pytest

from workers.launch_helper import run_launcher, worker_logs


pytestmark = pytest.mark.integration


def load(work, world):
    return [json.loads((work / f"rank{r}.json").read_text()) for r in range(world)]


def assert_exact(results, name):
    ref = results[0][f"reference/{name}"]
    for rank, res in enumerate(results):
        assert "error" not in res[name], (rank, res[name])
        assert res[name]["num_samples"] == ref["num_samples"], (rank, name)
        for metric, value in ref["metrics"].items():
            assert abs(res[name]["metrics"][metric] - value) <= 1e-6, (rank, name, metric)


@pytest.mark.timeout(120)
def test_imbalanced_and_empty_ranks_finish(tmp_path):
    code, terminal, wall = run_launcher("uneven_worker.py", 3, tmp_path, [str(tmp_path), "fast"], timeout=100)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    results = load(tmp_path, 3)
    for name in ("imbalanced", "one_sample", "after_errors"):
        assert_exact(results, name)
    assert [r["imbalanced"]["local_samples"] for r in results] == [40, 4, 0]
    assert [r["one_sample"]["local_samples"] for r in results] == [1, 0, 0]

    assert results[1]["peer_raises"]["error"] == "ValueError: simulated bug on rank 1"
    for rank in (0, 2):
        err = results[rank]["peer_raises"]
        assert err["error"].startswith("PeerFailedError: rank 1 raised ValueError: simulated bug"), err
        assert err["seconds"] < 10, err  # told through the store, not a 30 s gloo timeout
    for rank in range(3):
        assert results[rank]["schema_mismatch"]["error"].startswith("StateSchemaError"), rank
        err = results[rank]["weights_differ"]["error"]
        assert err.startswith("PreflightError: preflight: ranks disagree on params_checksum (rank 1 differs"), err
    assert wall < 90


@pytest.mark.slow_first
@pytest.mark.timeout(150)
def test_rank0_strategy_outlasts_the_gloo_timeout(tmp_path):
    code, terminal, _ = run_launcher("uneven_worker.py", 2, tmp_path, [str(tmp_path), "slow"], timeout=130)
    assert code == 0, terminal[-3000:] + worker_logs(tmp_path)
    results = load(tmp_path, 2)
    assert_exact(results, "rank0_slow")
    assert results[1]["rank0_slow"]["seconds"] > 30  # longer than any gloo collective may wait
    assert [r["rank0_slow"]["local_samples"] for r in results] == [64, 0]
