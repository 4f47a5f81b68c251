"""Issue 19: the node watchers through the real launcher. Two nodes are emulated on one host: two
launchers of one rank each sharing a master (``--nnodes 2``, as case 18), so rank 0 never hears
rank 1's beats: what it knows of rank 1 comes from rank 1's node watcher, through the SWIM probes
and gossip between the two watcher processes, to its own watcher; and node 0's launcher, as on
another host, does not end rank 0 when rank 1 dies. Rank 1 is frozen (SIGSTOP) or killed
(SIGKILL) at its first sample inside ``paddle_doctor.evaluate``; rank 0 must name it within 15 s
and leave a record naming it. W = 2, the watchdog's deadline 3 s, each launch bounded."""

from __future__ import annotations

import pytest

from guards.harness import base_env, launch_two_nodes, naming_times

pytestmark = pytest.mark.integration
NAMED_WITHIN_S = 15.0  # as test_guards_first_sample: the deadline (3 s) plus 12 s


@pytest.mark.timeout(90)
# With one launcher for both fake nodes, SIGKILL raced it: it ended rank 0 within its 1 s poll of
# the kill, before the watchers (0.75 s) had named rank 1 (once in six runs alone).
@pytest.mark.parametrize("fault", ["sigkill", "sigstop"])
def test_a_rank_on_another_node_is_named_through_the_node_watchers(fault, tmp_path):
    env = base_env(PADDLE_DOCTOR_WATCHDOG_TIMEOUT="3", PADDLE_DOCTOR_RANKS_PER_NODE="1")
    run = launch_two_nodes(tmp_path, "eval_first_sample.py", [fault, "1", "dataset"], env=env, timeout=60,
                           stop_after=[0])
    context = f"{fault}: rc {run.rc}, wall {run.wall:.1f} s\n{run.err[-2000:]}\n{run.log(0)[-2500:]}"
    assert run.fault_time() is not None, context
    times = naming_times(run, 1, 2)
    assert 0 in times, context
    print(f"two nodes, {fault}: rank 0 named rank 1 and was gone {times[0]:.2f} s after the fault")
    assert times[0] <= NAMED_WITHIN_S, context
    assert run.record(0)["finding"]["ranks"] == [1], run.record(0)["finding"]
