"""Real checkpoints written by paddle.save from real models, made once per test session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import split_like_paddle


class Made:
    """The checkpoints of one session, and the reference arrays they hold."""

    def __init__(self, root: Path):
        import paddle

        paddle.seed(0)
        self.root = root
        self.model = paddle.vision.models.resnet18()  # random init, no download
        self.state = {k: v.numpy() for k, v in self.model.state_dict().items()}
        for protocol in (2, 3, 4):
            paddle.save(self.model.state_dict(), str(self.path(f"resnet18.p{protocol}.pdparams")), protocol=protocol)
        paddle.save(self.model.state_dict(), str(self.path("resnet18.safetensors")), safetensors=True)
        self._prefixed(paddle)
        self._optimizer(paddle)
        self._sharded(paddle)
        prefixed = {f"_layers.{k}": v for k, v in self.state.items()}  # fc.weight in 2 pieces, as protocol 2 splits
        self.path("split.p2.pdparams").write_bytes(split_like_paddle(prefixed, "_layers.fc.weight", 2, 2))

    def path(self, name: str) -> Path:
        return self.root / name

    def _prefixed(self, paddle) -> None:
        class Student(paddle.nn.Layer):  # a distillation wrapper: keys become student.*
            def __init__(self, inner):
                super().__init__()
                self.student = inner

        paddle.save(Student(self.model).state_dict(), str(self.path("student.pdparams")))
        converted = {f"module.{k}": v for k, v in self.model.state_dict().items()}  # PyTorch-converted style
        paddle.save(converted, str(self.path("module.p2.pdparams")), protocol=2)
        paddle.save(converted, str(self.path("module.safetensors")), safetensors=True)

    def _optimizer(self, paddle) -> None:
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 2))
        opt = paddle.optimizer.Adam(parameters=net.parameters(),
                                    learning_rate=paddle.optimizer.lr.StepDecay(0.1, step_size=2))
        net(paddle.randn([3, 4])).sum().backward()
        opt.step()
        paddle.save(opt.state_dict(), str(self.path("mlp.pdopt")))

    def _sharded(self, paddle) -> None:
        keys = list(self.model.state_dict())
        halves = {"model_state-00001-of-00002.pdparams": keys[: len(keys) // 2],
                  "model_state-00002-of-00002.pdparams": keys[len(keys) // 2:]}
        folder = self.path("sharded")
        folder.mkdir()
        sd = self.model.state_dict()
        weight_map = {}
        for shard, part in halves.items():
            paddle.save({k: sd[k] for k in part}, str(folder / shard))
            weight_map.update({f"model.{k}": shard for k in part})
            prefixed = {f"model.{k}": sd[k] for k in part}
            paddle.save(prefixed, str(folder / shard))
        index = {"metadata": {"total_size": sum(v.nbytes for v in self.state.values())}, "weight_map": weight_map}
        (folder / "model_state.pdparams.index.json").write_text(json.dumps(index))


@pytest.fixture(scope="session")
def made(tmp_path_factory) -> Made:
    pytest.importorskip("paddle", reason="paddlepaddle is not installed: the checkpoints are made with paddle.save")
    return Made(tmp_path_factory.mktemp("ckpts"))
