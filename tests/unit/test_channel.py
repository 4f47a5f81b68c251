"""The store channel: one rendezvous counter layout for the barrier, the plan check and preflight,
and a rank that cannot reach the store says so once instead of falling back silently."""

import warnings

import pytest

from paddle_doctor.errors import StoreTimeoutError
from paddle_doctor.runtime.channel import barrier, rendezvous
from paddle_doctor.runtime.channel.rendezvous import FAIL_SHIFT, FINGERPRINT_BITS, arrival, decode
from paddle_doctor.runtime.evaluate.states import SCHEMA_BITS


def test_one_layout_holds_arrivals_the_fingerprint_sum_and_failures():
    fp = (1 << FINGERPRINT_BITS) - 1  # the largest fingerprint, summed over the most ranks
    world = rendezvous.MAX_WORLD
    total = world * arrival(fp)
    assert decode(total) == (world, world * fp, False)
    assert decode(total + (1 << FAIL_SHIFT)) == (world, world * fp, True)
    assert total + 100 * (1 << FAIL_SHIFT) < 1 << 63  # the store's counter is a signed 64-bit int
    with pytest.raises(ValueError):
        arrival(1 << FINGERPRINT_BITS)
    assert SCHEMA_BITS <= FINGERPRINT_BITS  # evaluate's schema fingerprints fit


def test_a_rank_that_cannot_reach_the_store_says_so_once(monkeypatch):
    def unreachable(cls, world):
        raise StoreTimeoutError("cannot connect to the TCP store at 127.0.0.1:1 within 30 s")

    monkeypatch.setattr(barrier.StoreClient, "shared", classmethod(unreachable))
    monkeypatch.setitem(barrier._warned, "store", False)
    with pytest.warns(RuntimeWarning, match="rank 1 cannot use the TCP store .*127.0.0.1:1"):
        first = barrier.open_barrier(2, 1, comm="comm")
    assert isinstance(first, barrier.CollectiveBarrier) and first.comm == "comm"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a second evaluate() call stays quiet
        assert isinstance(barrier.open_barrier(2, 1, comm="comm"), barrier.CollectiveBarrier)
    assert barrier.open_barrier(1, 0, comm=None) is None
