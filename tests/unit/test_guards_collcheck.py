"""collcheck.compare: which collectives disagree, which cause id, which ranks are named."""

from paddle_doctor.runtime.guards.collcheck import compare


def fp(op="all_reduce", seq=4, shapes=([2],), dtypes=("float32",), args=None, site="eval.py:60", n=5, hist=None,
       group=0, match_shapes=True):
    return {"g": group, "s": seq, "op": op, "sh": [list(s) for s in shapes], "dt": list(dtypes),
            "a": args if args is not None else {"op": 0}, "site": site, "n": n, "h": hist or {site: n},
            "ms": match_shapes}


def test_equal_fingerprints_match():
    assert compare({0: fp(), 1: fp(), 2: fp()}) is None


def test_rank_dependent_call_sites_that_stay_in_step_are_fine():
    # `if rank == 0: all_reduce(x)  else: all_reduce(x)`: same op and shapes, different lines.
    a = fp(site="eval.py:10", n=3, hist={"eval.py:10": 3})
    b = fp(site="eval.py:12", n=3, hist={"eval.py:12": 3})
    assert compare({0: a, 1: b}) is None


def test_collective_only_on_rank_0_names_rank_0():
    extra = fp(args={"op": 1}, shapes=([1],), site="eval.py:87", n=1, hist={"eval.py:73": 4, "eval.py:87": 1})
    barrier = fp(op="barrier", shapes=(), dtypes=(), args={}, site="eval.py:88", n=1,
                 hist={"eval.py:73": 4, "eval.py:88": 1})
    report = compare({0: extra, 1: barrier})
    assert report.cause == "rank_divergent_collective"
    assert list(report.ranks) == [0]
    assert "rank 0 all_reduce #4" in report.message and "rank 1 barrier #4" in report.message
    # with three ranks the odd one out is named
    assert compare({0: extra, 1: barrier, 2: barrier}).ranks == (0,)
    assert compare({0: barrier, 1: barrier, 2: extra}).ranks == (2,)


def test_a_loop_that_ran_longer_is_uneven_batches():
    # rank 1 calls the per-step all_reduce a 5th time; rank 0 called it 4 times and is now elsewhere.
    ahead = fp(site="eval.py:73", n=5, hist={"eval.py:73": 5})
    behind = fp(op="barrier", shapes=(), dtypes=(), args={}, site="eval.py:88", n=1,
                hist={"eval.py:73": 4, "eval.py:88": 1})
    report = compare({0: behind, 1: ahead})
    assert report.cause == "uneven_eval_batches"
    assert list(report.ranks) == [1]
    assert "5 times, rank 0 only 4" in report.message


def test_a_same_kind_collective_pairing_silently_is_caught():
    # 3b of the failure study: rank 0's final all_reduce(total) would pair with rank 1's 3rd per-batch one.
    final = fp(site="eval.py:70", n=1, hist={"eval.py:60": 2, "eval.py:70": 1})
    per_batch = fp(site="eval.py:60", n=3, hist={"eval.py:60": 3})
    report = compare({0: final, 1: per_batch})
    assert (report.cause, list(report.ranks)) == ("uneven_eval_batches", [1])


def test_last_batch_of_another_size_is_uneven_batches_naming_the_short_rank():
    full = fp(op="all_gather", shapes=([4, 2],), args={})
    short = fp(op="all_gather", shapes=([3, 2],), args={})
    report = compare({0: full, 1: short})
    assert (report.cause, list(report.ranks)) == ("uneven_eval_batches", [1])
    assert "[[4, 2]]" in report.message and "[[3, 2]]" in report.message
    assert compare({0: short, 1: full, 2: full}).ranks == (0,)


def test_other_shape_or_dtype_or_reduce_op_is_divergent():
    assert compare({0: fp(shapes=([2, 3],)), 1: fp(shapes=([2, 4],))}).cause == "rank_divergent_collective"
    assert compare({0: fp(), 1: fp(dtypes=("float64",))}).cause == "rank_divergent_collective"
    report = compare({0: fp(args={"op": 0}), 1: fp(args={"op": 1}), 2: fp(args={"op": 0})})
    assert (report.cause, list(report.ranks)) == ("rank_divergent_collective", [1])


def test_alltoall_shapes_may_differ():
    a = fp(op="alltoall", shapes=([1], [2]), dtypes=("int64", "int64"), args={}, match_shapes=False)
    b = fp(op="alltoall", shapes=([3], [1]), dtypes=("int64", "int64"), args={}, match_shapes=False)
    assert compare({0: a, 1: b}) is None


def test_a_rank_that_finished_without_entering():
    mine = fp(op="all_reduce", site="eval.py:87", n=1, hist={"eval.py:73": 4, "eval.py:87": 1})
    ended = {"ok": True, "hist": {"eval.py:73": 4}, "last": fp(seq=3, site="eval.py:73")}
    report = compare({0: mine}, {1: ended})
    assert (report.cause, list(report.ranks)) == ("rank_divergent_collective", [0])
    assert "rank 1 finished after its last collective all_reduce #3" in report.message


def test_a_rank_whose_loop_ended_earlier_is_uneven_batches():
    mine = fp(site="eval.py:73", n=5, hist={"eval.py:73": 5})
    ended = {"ok": True, "hist": {"eval.py:73": 4}, "last": fp(seq=3)}
    report = compare({1: mine}, {0: ended})
    assert (report.cause, list(report.ranks)) == ("uneven_eval_batches", [1])
    # three ranks, two of them ended early: the one that ran more batches is the odd one out
    assert compare({2: mine}, {0: ended, 1: ended}).ranks == (2,)
