"""The parts of evaluate that decide exactness and no-hang, tested without a launcher: the
DistributedBatchSampler rebuild and ownership, state sync over W simulated ranks (threads), the
TCP-store barrier over a fake store, state conversions, pad_collate and the progress bar."""

import io
import itertools
import threading

import numpy as np
import pytest

from paddle_doctor.runtime.channel.rendezvous import Rendezvous
from paddle_doctor.runtime.evaluate.evalguard import PlanCheck
from paddle_doctor.errors import PreflightError
from paddle_doctor.runtime.evaluate.collate import label_mask, pad_collate, pad_stack
from paddle_doctor.errors import PeerFailedError, SampleCountError, StateSchemaError
from paddle_doctor.runtime.evaluate.progress import make_progress
from paddle_doctor.runtime.evaluate.sharding import _dbs_lists, own, plan_dataset
from paddle_doctor.runtime.evaluate.states import StateSlot, read_state, schema_fingerprint, write_state
from paddle_doctor.runtime.evaluate.sync import broadcast_states, gather_ragged, sync_states

pytestmark = pytest.mark.timeout(60)


# --- sharding ---------------------------------------------------------------------------------

class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


@pytest.mark.needs_paddle
@pytest.mark.parametrize("n, world, bs", list(itertools.product([1, 3, 7, 50, 101], [1, 2, 3, 4], [1, 4, 64])))
def test_distributed_batch_sampler_rebuilt_exactly(n, world, bs):
    from paddle.io import DistributedBatchSampler

    for shuffle, drop_last in itertools.product([False, True], [False, True]):
        samplers = [DistributedBatchSampler(Sized(n), bs, num_replicas=world, rank=r, shuffle=shuffle,
                                            drop_last=drop_last) for r in range(world)]
        for s in samplers:
            s.set_epoch(5)
        real = [np.array([i for b in s for i in b], np.int64) for s in samplers]
        rebuilt = _dbs_lists(samplers[0], n, world, 0, 5)
        assert all(np.array_equal(a, b) for a, b in zip(real, rebuilt)), (shuffle, drop_last)


def test_ownership_keeps_each_index_once_and_splits_shared_work():
    everyone = [np.arange(10), np.arange(10), np.array([3, 3, 9])]
    kept = [everyone[r][own(everyone, r, 10)[0]] for r in range(3)]
    assert sorted(np.concatenate(kept).tolist()) == list(range(10))
    assert own(everyone, 0, 10)[1] == 13  # 23 occurrences, 10 kept
    both = [np.arange(10), np.arange(10)]  # every rank holds everything: the work is shared
    assert [int(own(both, r, 10)[0].sum()) for r in range(2)] == [5, 5]


def test_missing_samples_fail_on_every_rank_alike():
    with pytest.raises(SampleCountError, match="1 of 5 samples are never evaluated"):
        own([np.array([0, 1]), np.array([2, 4])], 1, 5)


@pytest.mark.parametrize("n, world", [(1, 3), (10, 3), (11, 4), (2, 2)])
def test_dataset_shards_are_contiguous_and_balanced(n, world):
    shards = [np.concatenate(plan_dataset(n, world, r, 4).batches or [np.zeros(0, int)]) for r in range(world)]
    assert np.concatenate(shards).tolist() == list(range(n))
    assert max(map(len, shards)) - min(map(len, shards)) <= 1


# --- sync over simulated ranks ------------------------------------------------------------------

class Hub:
    """W ranks as threads; every collective is a rendezvous. Sizes must match, as in gloo."""

    def __init__(self, world):
        self.world, self.slots, self.sync = world, [None] * world, threading.Barrier(world, timeout=20)

    def exchange(self, rank, arr):
        self.slots[rank] = np.array(arr, copy=True)
        self.sync.wait()
        parts = list(self.slots)
        self.sync.wait()
        assert len({p.shape for p in parts}) == 1, "ranks sent different sizes: gloo would abort"
        return parts


class FakeComm:
    def __init__(self, hub, rank):
        self.hub, self.rank, self.world, self.calls, self.bytes = hub, rank, hub.world, 0, 0

    def all_reduce(self, arr, op="sum"):
        self.calls += 1
        parts = self.hub.exchange(self.rank, arr)
        return np.max(parts, axis=0) if op == "max" else np.sum(parts, axis=0)

    def all_gather(self, arr):
        assert arr.size > 0
        self.calls += 1
        return self.hub.exchange(self.rank, arr)

    def broadcast(self, arr, src=0):
        self.calls += 1
        return self.hub.exchange(self.rank, arr)[src]


def on_ranks(world, fn):
    hub, results, errors = Hub(world), [None] * world, []

    def run(rank):
        try:
            results[rank] = fn(FakeComm(hub, rank), rank)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            hub.sync.abort()

    threads = [threading.Thread(target=run, args=(r,)) for r in range(world)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    if errors:
        raise errors[0]
    return results


class Holder:
    pass


def rank_states(rank):
    """Sum, max, min and cat states; rank 1 has no rows at all (a rank with zero samples)."""
    h = Holder()
    rows = {0: 3, 1: 0, 2: 2}[rank]
    h.count, h.hist = [rank + 1, 2 * rank], np.arange(4.0) * rank
    h.hi, h.lo = float(rank), -float(rank)
    h.vec = np.arange(rows * 2, dtype="float32").reshape(rows, 2) + 10 * rank
    h.ids = np.arange(rows, dtype="int64") + 100 * rank
    spec = {"count": "sum", "hist": "sum", "hi": "max", "lo": "min", "vec": "cat", "ids": "cat"}
    slots = [StateSlot(h, a, r) for a, r in spec.items()]
    return h, slots, [read_state(s) for s in slots]


def test_sync_reduces_every_kind_of_state_in_three_collectives():
    def work(comm, rank):
        h, slots, values = rank_states(rank)
        for slot, value in zip(slots, sync_states(comm, slots, values, rank)):
            write_state(slot, value)
        return h, comm.calls

    for h, calls in on_ranks(3, work):
        assert calls == 3  # sums (+ cat sizes), extrema, cat bytes
        assert h.count == [6, 6] and all(isinstance(c, int) for c in h.count)
        assert h.hist.tolist() == [0.0, 3.0, 6.0, 9.0]
        assert (h.hi, h.lo) == (2.0, -2.0)
        assert h.vec.dtype == np.float32 and h.vec.shape == (5, 2)
        assert h.vec[:, 0].tolist() == [0, 2, 4, 20, 22]
        assert h.ids.tolist() == [0, 1, 2, 200, 201]


def test_broadcast_gives_everyone_rank0s_states():
    def work(comm, rank):
        h, slots, values = rank_states(rank)
        for slot, value in zip(slots, broadcast_states(comm, slots, values, rank)):
            write_state(slot, value)
        return h

    for h in on_ranks(3, work):
        assert h.count == [1, 0] and h.ids.tolist() == [0, 1, 2] and h.vec.shape == (3, 2)


def test_cat_states_with_no_rows_anywhere_skip_the_gather():
    def work(comm, rank):
        h = Holder()
        h.ids = np.zeros((0,), "int64")
        slot = StateSlot(h, "ids", "cat")
        out = sync_states(comm, [slot], [read_state(slot)], rank)
        return out[0].shape, comm.calls

    assert on_ranks(2, work) == [((0,), 1), ((0,), 1)]


def test_gather_ragged_includes_empty_ranks():
    out = on_ranks(3, lambda comm, rank: gather_ragged(comm, np.arange(rank * 2, dtype=np.int64)))
    assert [[a.tolist() for a in r] for r in out] == [[[], [0, 1], [0, 1, 2, 3]]] * 3


# --- barrier over a fake store ------------------------------------------------------------------

class FakeStore:
    def __init__(self):
        self.data, self.lock = {}, threading.Lock()

    def add(self, key, value):
        with self.lock:
            self.data[key] = self.data.get(key, 0) + value
            return self.data[key]

    def set(self, key, value):
        self.data[key] = value.encode()

    def get(self, key):
        return self.data[key]


def barrier_run(world, fn):
    store, results = FakeStore(), [None] * world

    def run(rank):
        try:
            results[rank] = fn(Rendezvous(store, "t", world, rank), rank)
        except Exception as exc:  # noqa: BLE001
            results[rank] = exc

    threads = [threading.Thread(target=run, args=(r,)) for r in range(world)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    return results


def test_barrier_waits_for_the_last_rank():
    order = []

    def fn(b, rank):
        if rank == 2:
            threading.Event().wait(0.3)  # the slow rank
            order.append("slow done")
        b.wait_all("sync", schema=7)
        order.append(f"rank {rank} passed")

    barrier_run(3, fn)
    assert order[0] == "slow done" and len(order) == 4


def test_barrier_names_a_failed_rank():
    def fn(b, rank):
        if rank == 1:
            b.fail(ValueError("bad shard"))
            return "raised"
        b.wait_all("sync")

    results = barrier_run(3, fn)
    assert results[1] == "raised"
    for r in (0, 2):
        assert isinstance(results[r], PeerFailedError)
        assert "rank 1 raised ValueError: bad shard" in str(results[r])


def test_barrier_refuses_different_schemas_on_every_rank():
    results = barrier_run(3, lambda b, rank: b.wait_all("sync", schema=5 if rank else 6))
    assert all(isinstance(r, StateSchemaError) for r in results)


# --- states, collate, progress ------------------------------------------------------------------

def test_states_come_back_in_the_metrics_own_types():
    h = Holder()
    h.total, h.n, h.f, h.arr = [0.0, 1.0], 3, 0.5, np.zeros(2, "int64")
    for attr in ("total", "n", "f", "arr"):
        slot = StateSlot(h, attr, "sum")
        write_state(slot, read_state(slot) * 2 + 1)
    assert h.total == [1.0, 3.0] and h.n == 7 and isinstance(h.n, int) and h.f == 2.0
    assert h.arr.dtype == np.int64 and h.arr.tolist() == [1, 1]


def test_cat_states_must_be_numeric_arrays():
    h = Holder()
    h.s, h.o = 1.0, np.array([object()])
    with pytest.raises(ValueError, match="array of rows"):
        read_state(StateSlot(h, "s", "cat"))
    with pytest.raises(TypeError, match="no pickling"):
        read_state(StateSlot(h, "o", "cat"))


def test_schema_fingerprint_sees_dtype_and_shape():
    h = Holder()
    h.a = np.zeros((0,), "float32")
    slot = StateSlot(h, "a", "cat")
    base = schema_fingerprint([slot], [h.a])
    assert schema_fingerprint([slot], [np.zeros((4,), "float32")]) == base  # row count is free
    assert schema_fingerprint([slot], [np.zeros((0,), "float64")]) != base
    assert schema_fingerprint([slot], [np.zeros((0, 2), "float32")]) != base


def test_pad_collate_pads_and_masks_the_label():
    x, y, mask = pad_collate([(np.ones(3, "float32"), np.array([1, 2, 3])), (np.ones(1, "float32"), np.array([4]))])
    assert x.shape == (2, 3) and x[1].tolist() == [1, 0, 0]
    assert mask.tolist() == [[True, True, True], [True, False, False]]
    assert label_mask([np.zeros((2, 1)), np.zeros((5, 1))]).shape == (2, 5)  # trailing 1: not a length
    assert label_mask([np.array(1), np.array(0)]).tolist() == [True, True]
    assert pad_stack([np.zeros((1, 2)), np.zeros((2, 1))]).shape == (2, 2, 2)
    with pytest.raises(ValueError, match="name the label field"):
        pad_collate([{"x": 1}])  # dict samples need a label field (PadCollate(label=...))
    with pytest.raises(TypeError, match="tuple"):
        pad_collate([np.zeros(3)])


def test_progress_draws_only_on_rank0_and_a_tty():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert make_progress(True, rank=1, world=2, local_total=5, global_total=10, stream=Tty())._bar is None
    assert make_progress(True, rank=0, world=2, local_total=5, global_total=10, stream=io.StringIO())._bar is None
    tty = Tty()
    bar = make_progress(True, rank=0, world=2, local_total=5, global_total=10, stream=tty)
    bar.advance(5)
    bar.close()
    assert "evaluate" in tty.getvalue()


# --- the private store client -------------------------------------------------------------------

def test_store_endpoint_is_read_like_init_parallel_env():
    from paddle_doctor.runtime.channel.store import store_endpoint

    assert store_endpoint({"MASTER_ADDR": "10.0.0.1", "MASTER_PORT": "6170", "PADDLE_MASTER": "x:1"}) == ("10.0.0.1", 6170)
    assert store_endpoint({"PADDLE_MASTER": "127.0.0.1:48938"}) == ("127.0.0.1", 48938)
    assert store_endpoint({"PADDLE_TRAINER_ENDPOINTS": "h1:7000,h2:7001"}) == ("h1", 7000)
    assert store_endpoint({}) is None


def test_nodelay_is_set_on_our_socket_and_leaves_it_open():
    import socket

    from paddle_doctor.runtime.channel.nodelay import _set_nodelay, _sockets

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    before = set(_sockets().values())
    client = socket.create_connection(("127.0.0.1", port))
    try:
        new = [fd for fd, inode in _sockets().items() if inode not in before]
        assert client.fileno() in new
        _set_nodelay(client.fileno(), port)
        assert client.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        client.sendall(b"still open")  # detach() kept the fd ours
    finally:
        client.close()
        server.close()


def test_tally_checksums_prove_each_index_once():
    from paddle_doctor.runtime.evaluate.loop import Tally

    t = Tally()
    t.add_ids(np.array([4, 0, 2, 1, 3]))
    t.count = 5
    assert (t.count, t.id_sum, t.id_sq) == Tally.expected(5)
    t2 = Tally()
    t2.add_ids(np.array([0, 1, 1, 3, 4]))  # 2 missing, 1 twice: right count, wrong ids
    t2.count = 5
    assert (t2.count, t2.id_sum, t2.id_sq) != Tally.expected(5)


def plan_checks(plans):
    store = FakeStore()
    return [PlanCheck(Rendezvous(store, "t", len(plans), r), items) for r, items in enumerate(plans)]


def test_plan_check_never_waits_before_the_verdict_and_every_rank_gets_the_same_table():
    checks = plan_checks([{"batch_size": 4}, {"batch_size": 8}, {"batch_size": 4}])
    checks[0].announce()
    checks[0].check()  # the others have not announced: no verdict, no waiting
    checks[1].announce()
    checks[2].announce()
    errors = []
    for check in (checks[0].check, checks[1].wait, checks[2].wait):
        with pytest.raises(PreflightError) as info:
            check()
        errors.append(str(info.value))
    assert errors[0].startswith("preflight: ranks disagree on batch_size (rank 1 differs from the others)")
    assert errors[0] == errors[1] == errors[2]
    checks[0].check()  # one verdict per call: asking again is a no-op


def test_plan_check_passes_equal_plans_and_stops_for_a_failed_peer():
    checks = plan_checks([{"batch_size": 4}] * 2)
    for c in checks:
        c.announce()
    for c in checks:
        c.check()
        c.wait()
    checks = plan_checks([{"batch_size": 4}] * 2)
    checks[0].announce()
    checks[1].barrier.fail(ValueError("bad sample"))  # rank 1 raised before announcing
    with pytest.raises(PeerFailedError, match="rank 1 raised ValueError: bad sample"):
        checks[0].wait()
