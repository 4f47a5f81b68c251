"""Whole-program facts (lint/index.py): a finding that depends on another file of the package."""

from __future__ import annotations

from paddle_doctor.lint import lint_paths

HELPER = "import paddle\n\n\ndef save(obj, path):\n    paddle.save(obj, path)\n"
TRAIN = """\
import paddle
import paddle.distributed as dist
from utils import save


def train(model, out):
    dist.init_parallel_env()
    model = paddle.DataParallel(model)
    save(model.state_dict(), out + "/best.pdparams")
"""
EVAL = """\
import paddle
from paddle.io import DataLoader, DistributedBatchSampler


@paddle.no_grad()
def evaluate_shard(model, eval_ds):
    model.eval()
    correct = 0
    for x, y in DataLoader(eval_ds, batch_sampler=DistributedBatchSampler(eval_ds, batch_size=8)):
        correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(eval_ds)
"""
REDUCING_CALLER = """\
import paddle
import paddle.distributed as dist
from evaluation import evaluate_shard


def report(model, ds):
    acc = paddle.to_tensor(evaluate_shard(model, ds))
    dist.all_reduce(acc)
    return acc.item() / dist.get_world_size()
"""
PLAIN_CALLER = "import paddle\nfrom evaluation import evaluate_shard\n\n\ndef report(m, ds):\n    print(evaluate_shard(m, ds))\n"


def _codes(tmp_path, files: dict[str, str], jobs=1):
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [(f.code, f.location.path.rsplit("/", 1)[-1]) for f in lint_paths([str(tmp_path)], jobs=jobs).findings]


def test_a_save_helper_in_another_file_is_followed(tmp_path):
    assert _codes(tmp_path, {"utils.py": HELPER, "train.py": TRAIN}) == [("PDL303", "train.py")]


def test_a_helper_that_saves_on_rank_0_only_is_not_a_saver(tmp_path):
    guarded = HELPER.replace("    paddle.save", "    if paddle.distributed.get_rank() == 0:\n        paddle.save")
    assert _codes(tmp_path, {"utils.py": guarded, "train.py": TRAIN}) == []


def test_the_caller_in_another_file_reduces_what_the_function_returns(tmp_path):
    assert _codes(tmp_path, {"evaluation.py": EVAL, "report.py": REDUCING_CALLER}) == []


def test_a_caller_that_does_not_reduce_keeps_the_finding(tmp_path):
    found = _codes(tmp_path, {"evaluation.py": EVAL, "report.py": REDUCING_CALLER, "cli.py": PLAIN_CALLER})
    assert found == [("PDL402", "evaluation.py")]


def test_worker_processes_give_the_same_answer(tmp_path):
    files = {"utils.py": HELPER, "train.py": TRAIN, "evaluation.py": EVAL, "report.py": REDUCING_CALLER}
    files.update({f"pad{i}.py": "x = 1\n" for i in range(50)})
    assert _codes(tmp_path, files, jobs=2) == _codes(tmp_path, files, jobs=1) == [("PDL303", "train.py")]


METRIC_MODULE = """\
class TopOne:
    def __init__(self):
        self.hits = self.seen = 0

    def update(self, logits, labels):
        self.hits += int((logits.argmax(1) == labels).sum())
        self.seen += labels.shape[0]

    def accumulate(self):
        return self.hits / max(self.seen, 1)
"""
SYNCED_METRIC_MODULE = METRIC_MODULE.replace(
    "        return self.hits / max(self.seen, 1)",
    "        import paddle.distributed as dist\n        t = paddle.to_tensor([self.hits, self.seen])\n"
    "        dist.all_reduce(t)\n        return float(t[0] / t[1])").replace("class TopOne", "import paddle\n\n\nclass TopOne")
METRIC_USER = """\
import paddle
from paddle.io import DataLoader, DistributedBatchSampler
from mymetrics import TopOne


@paddle.no_grad()
def run_eval(model, dataset):
    model.eval()
    top1 = TopOne()
    for images, labels in DataLoader(dataset, batch_sampler=DistributedBatchSampler(dataset, batch_size=64)):
        top1.update(model(images), labels)
    print("top-1", top1.accumulate())
"""


def test_a_metric_class_of_another_module_that_stays_per_rank(tmp_path):
    """Issue 32 probes: the metric's update() lives in another module (it grows the object's own
    counters and never syncs): the evaluation that reports it is PDL402."""
    assert _codes(tmp_path, {"mymetrics.py": METRIC_MODULE, "run.py": METRIC_USER}) == [("PDL402", "run.py")]


def test_a_metric_class_of_another_module_that_syncs_is_silent(tmp_path):
    assert _codes(tmp_path, {"mymetrics.py": SYNCED_METRIC_MODULE, "run.py": METRIC_USER}) == []


HELPER_UPDATES = "def step(metric, model, images, labels):\n    metric.update(model(images), labels)\n"
METRIC_USER_VIA_HELPER = METRIC_USER.replace("from mymetrics import TopOne", "from mymetrics import TopOne\nfrom steps import step").replace(
    "        top1.update(model(images), labels)", "        step(top1, model, images, labels)")


def test_a_metric_updated_by_a_helper_of_another_module(tmp_path):
    """Issue 32 probes: the loop hands the metric object to a helper (another module) that updates it."""
    files = {"mymetrics.py": METRIC_MODULE, "steps.py": HELPER_UPDATES, "run.py": METRIC_USER_VIA_HELPER}
    assert _codes(tmp_path, files) == [("PDL402", "run.py")]
    files["mymetrics.py"] = SYNCED_METRIC_MODULE
    assert _codes(tmp_path, files) == []
