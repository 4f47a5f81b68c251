"""A job of 1024 ranks: the report stays short (victims grouped into rank ranges), names the
right rank, and puts the verdict first and last. One log dir, and one dir per node."""

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.text import render_diagnosis

WORLD = 1024
CULPRIT = 777
START = ("I1129 21:40:56.031740  4601 tcp_utils.cc:132] Successfully connected to 127.0.0.1:46196\n"
         "[2025/11/29 10:00:01] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001, loss: 1.2\n")
VICTIM = ("Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
          "    paddle.distributed.all_reduce(t)\n"
          "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = {r} "
          f"pair_rank = {CULPRIT} peer_str = [10.0.0.7]:6170\n")
CULPRIT_TAIL = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
                "    batch = next(it)\nKeyError: 'image_path'\n")


def _write(d, ranks, local=False):
    d.mkdir(parents=True)
    for i, r in enumerate(ranks):
        text = START + (CULPRIT_TAIL if r == CULPRIT else VICTIM.format(r=r))
        (d / f"workerlog.{i if local else r}").write_text(text)
        if local:
            (d / f"envlog.{i}").write_text(f"PADDLE_GLOBAL_RANK={r}\nPADDLE_TRAINER_ID={r}\n")


def _check(diag):
    assert diag.root_cause.cause == "python_exception" and diag.root_cause.ranks == (CULPRIT,)
    assert len(diag.ranks) == WORLD
    lines = [line.text for line in render_diagnosis(diag)]
    assert len(lines) <= 60, "\n".join(lines)
    assert lines[0] == lines[-1] and f"rank {CULPRIT}" in lines[0]
    grouped = [t for t in lines if f"ranks 0-{CULPRIT - 1}, {CULPRIT + 1}-{WORLD - 1} ({WORLD - 1})" in t]
    assert grouped and "victim" in grouped[0], "\n".join(lines)


@pytest.fixture(scope="module")
def one_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("scale") / "log"
    _write(d, range(WORLD))
    return d


def test_1024_ranks_in_one_dir(one_dir):
    _check(diagnose_paths([str(one_dir)]))


def test_1024_ranks_one_dir_per_node(tmp_path):
    nodes = []
    for node in range(8):
        d = tmp_path / f"node{node}" / "log"
        _write(d, range(node * 128, (node + 1) * 128), local=True)
        nodes.append(str(d))
    _check(diagnose_paths(nodes))
