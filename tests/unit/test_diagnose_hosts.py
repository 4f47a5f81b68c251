"""diagnose on recorded multi-host bundles: the host scenarios of issue 31, run on real hosts
(network namespaces, one launcher per host) and recorded by ``tests/integration/hostkit/record.py``.
Each folder holds ``host-a/`` and ``host-b/`` (terminal and log dir) and ``expected.json``: the
paths a user of those hosts would give, the cause, and the host whose ranks are to blame."""

import json
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hosts"
SCENARIOS = sorted(p for p in FIXTURES.iterdir() if (p / "expected.json").is_file()) if FIXTURES.is_dir() else []


def _params():
    for folder in SCENARIOS:
        want = json.loads((folder / "expected.json").read_text())
        marks = [pytest.mark.xfail(strict=True, reason=want["known_wrong"])] if want.get("known_wrong") else []
        yield pytest.param(folder, want, id=folder.name, marks=marks)


def test_every_scenario_is_recorded():
    assert {p.name for p in SCENARIOS} >= {"a_rank_raising_on_host_b", "a_lost_host", "a_partition",
                                           "nnodes_mismatch", "loopback_hostname", "shm_small_on_host_b"}


@pytest.mark.parametrize("folder,want", list(_params()))
def test_a_multi_host_bundle_names_the_cause_and_the_host(folder, want):
    d = diagnose_paths([str(folder / p) for p in want["paths"]])
    rc = d.root_cause
    assert d.verdict == "failure" and rc is not None
    assert rc.cause == want["cause"], (rc.cause, rc.code, rc.message)
    assert rc.evidence, "a verdict always quotes its evidence"
    if want["host"] is not None:
        logs = {r.ranks[0]: r.fact("log") or "" for r in d.ranks if r.ranks}
        assert rc.ranks and all(f"/{want['host']}/" in logs.get(r, "") for r in rc.ranks), (rc.ranks, logs)
