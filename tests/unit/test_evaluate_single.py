"""paddle_doctor.evaluate in one process, without init_parallel_env: the same results as a plain
Paddle loop over every sample, and clear errors for inputs it cannot count exactly."""

import numpy as np
import pytest

paddle = pytest.importorskip("paddle")

from paddle.io import BatchSampler, DataLoader, DistributedBatchSampler, IterableDataset  # noqa: E402

from paddle_doctor import EvalResult, SyncableMetric, evaluate, pad_collate  # noqa: E402
from paddle_doctor.errors import SampleCountError

from workers.evalkit import Net, RankAuc, TokenData, ToyData, families, reference  # noqa: E402

pytestmark = pytest.mark.timeout(120)
FAMILIES = families()


def assert_matches(result, ref, n):
    assert isinstance(result, EvalResult)
    assert result.num_samples == n == result.dataset_len
    assert result.metrics.keys() == ref["metrics"].keys()
    for name, value in ref["metrics"].items():
        assert abs(result.metrics[name] - value) <= 1e-6, name
    if ref["loss"] is None:
        assert result.loss is None
    else:
        assert abs(result.loss - ref["loss"]) <= 1e-6


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("n", [1, 7, 50])
def test_dataset_matches_plain_loop(family, n):
    out, dkw, make_metrics, loss = FAMILIES[family]
    ref = reference(Net(out), ToyData(n, **dkw), make_metrics(), loss)
    result = evaluate(Net(out), ToyData(n, **dkw), make_metrics(), batch_size=4, loss_fn=loss)
    assert_matches(result, ref, n)
    assert (result.world_size, result.collectives, result.bytes_exchanged) == (1, 0, 0)


@pytest.mark.parametrize("make_loader", [
    lambda ds: DataLoader(ds, batch_size=3, shuffle=True),
    lambda ds: DataLoader(ds, batch_sampler=DistributedBatchSampler(ds, batch_size=3, shuffle=True)),
    lambda ds: DataLoader(ds, batch_size=5, num_workers=2),
], ids=["shuffled", "distributed_sampler", "workers"])
def test_dataloader_matches_plain_loop(make_loader):
    out, dkw, make_metrics, loss = FAMILIES["multi"]
    ref = reference(Net(out), ToyData(23, **dkw), make_metrics(), loss)
    result = evaluate(Net(out), make_loader(ToyData(23, **dkw)), make_metrics(), loss_fn=loss)
    assert_matches(result, ref, 23)
    assert result.duplicates_skipped == 0


class Batches(BatchSampler):
    def __init__(self, batches):
        self.batches = batches

    def __iter__(self):
        return iter(self.batches)

    def __len__(self):
        return len(self.batches)


def test_duplicated_indices_count_once():
    ds = ToyData(10, binary=True)
    plan = [[0, 1, 2, 3], [4, 5, 0, 6], [7, 8, 9, 9, 1]]  # 0, 1 and 9 twice
    ref = reference(Net("prob"), ds, [RankAuc()])
    result = evaluate(Net("prob"), DataLoader(ds, batch_sampler=Batches(plan)), [RankAuc()])
    assert_matches(result, ref, 10)
    assert result.duplicates_skipped == 3


def test_drop_last_is_refused_before_any_work():
    ds = ToyData(10)
    with pytest.raises(SampleCountError, match="2 of 10 samples are never evaluated"):
        evaluate(Net(), DataLoader(ds, batch_size=4, drop_last=True), paddle.metric.Accuracy())


def test_index_outside_dataset_is_refused():
    with pytest.raises(SampleCountError, match="outside a dataset of 4"):
        evaluate(Net(), DataLoader(ToyData(4), batch_sampler=Batches([[0, 1, 2, 3, 4]])), [])


@pytest.mark.parametrize("as_loader", [False, True])
def test_padded_tokens_never_count(as_loader):
    ce = paddle.nn.CrossEntropyLoss()
    ref = reference(Net(), TokenData(13), [paddle.metric.Accuracy()], ce, tokens=True)
    data = DataLoader(TokenData(13), batch_size=4, collate_fn=pad_collate) if as_loader else TokenData(13)
    kwargs = {} if as_loader else {"batch_size": 4, "collate_fn": pad_collate}
    result = evaluate(Net(), data, [paddle.metric.Accuracy()], loss_fn=ce, **kwargs)
    assert_matches(result, ref, 13)


class FixedSizeCollate:
    """Pads every batch to 4 sample slots with copies of its first sample; a [B] mask marks the
    real ones (a user collate_fn that takes part in the mask protocol)."""

    returns_mask = True

    def __call__(self, samples):
        real = len(samples)
        samples = list(samples) + [samples[0]] * (4 - real)
        xs, ys = zip(*samples)
        return [np.stack(xs), np.stack(ys), np.arange(4) < real]


def test_padded_sample_slots_never_count():
    out, dkw, make_metrics, loss = FAMILIES["multi"]
    ref = reference(Net(out), ToyData(10), make_metrics(), loss)
    result = evaluate(Net(out), ToyData(10), make_metrics(), batch_size=3, collate_fn=FixedSizeCollate(),
                      loss_fn=loss)
    assert_matches(result, ref, 10)


def test_rank0_strategy_in_one_process():
    out, dkw, make_metrics, loss = FAMILIES["binary"]
    ref = reference(Net(out), ToyData(9, **dkw), make_metrics(), loss)
    assert_matches(evaluate(Net(out), ToyData(9, **dkw), make_metrics(), batch_size=2, strategy="rank0"), ref, 9)


def test_metrics_hold_the_global_state_and_the_model_its_mode():
    model, acc = Net(), paddle.metric.Accuracy(topk=(1, 2))
    model.train()
    acc.update(np.ones((5, 2), "float32"))  # stale state: evaluate resets it first
    result = evaluate(model, ToyData(11), acc, batch_size=4)
    assert acc.count == [11, 11]
    assert acc.accumulate() == [result.metrics["acc_top1"], result.metrics["acc_top2"]]
    assert model.training


def test_custom_metric_follows_the_protocol():
    assert isinstance(RankAuc(), SyncableMetric)
    assert not isinstance(paddle.metric.Accuracy(), SyncableMetric)  # built-ins need no declaration


def test_progress_is_quiet_when_not_a_tty(capsys):
    evaluate(Net(), ToyData(9), paddle.metric.Accuracy(), batch_size=2, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


class Stream(IterableDataset):
    def __iter__(self):
        yield from ToyData(3)


class NoStates(paddle.metric.Metric):
    def reset(self):
        self.n = 0

    def update(self, *args):
        self.n += 1

    def accumulate(self):
        return self.n

    def name(self):
        return "n"


@pytest.mark.parametrize("call, error, text", [
    (lambda: evaluate(Net(), Stream(), [], batch_size=2), TypeError, "map-style"),
    (lambda: evaluate(Net(), ToyData(3), []), TypeError, "batch_size"),
    (lambda: evaluate(Net(), ToyData(0), [], batch_size=2), ValueError, "empty"),
    (lambda: evaluate(Net(), DataLoader(ToyData(3), batch_size=2), [], batch_size=3), ValueError, "conflicts"),
    (lambda: evaluate(Net(), ToyData(3), [NoStates()], batch_size=2), TypeError, "sync_states"),
    (lambda: evaluate(Net(), ToyData(3), [paddle.metric.Accuracy(), paddle.metric.Accuracy()],
                      batch_size=2), ValueError, "distinct name"),
    (lambda: evaluate(Net(), ToyData(3), [], batch_size=2, strategy="all"), ValueError, "strategy"),
    (lambda: evaluate(Net(), ToyData(5), [], batch_size=2, loss_fn=lambda out, y: out), ValueError,
     "loss_fn returned"),
    (lambda: evaluate(lambda x: x[:, 0, 0], TokenData(5), [], batch_size=3, collate_fn=pad_collate),
     ValueError, "pad mask"),
])
def test_clear_errors(call, error, text):
    with pytest.raises(error, match=text):
        call()
