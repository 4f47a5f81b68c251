"""The store-polling schedule: fast at first (a wait ends soon after the last arrival), then backing off."""

import itertools

from paddle_doctor.runtime.channel import polling


def test_pauses_stay_short_at_first_then_double_up_to_the_caps(monkeypatch):
    clock = iter(itertools.count(0, 0.002))  # each read of the clock: 2 ms later
    monkeypatch.setattr(polling.time, "monotonic", lambda: next(clock))
    waits = list(itertools.islice(polling.pauses(0.02, slow_after_s=0.05, slow_cap_s=0.5), 40))
    fast = [w for w in waits if w == polling.FAST_S]
    assert 4 <= len(fast) <= 6 and waits[:len(fast)] == fast  # the first 10 ms
    later = waits[len(fast):]
    assert later[:5] == [0.001, 0.002, 0.004, 0.008, 0.016] and max(later[:20]) == 0.02
    assert waits[-1] == 0.5  # after slow_after_s the longer cap applies
