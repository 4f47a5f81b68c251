"""The fixed evaluation for ``paddle-doctor demo``: the demo's re-ranking data, scored exactly.

``cases/01_exception_rank1`` splits 38 candidate rows (queries of 4, the last one cut to 2) into
contiguous chunks per rank; rank 1's chunk ends in half a query and its reshape to [-1, 4] raises.
The fix: a query is the sample (so no rank can get half of one), ``pad_collate`` pads short
queries, the model gives padded candidates no chance, and ``evaluate`` counts each query once.
hit@1 is then ``paddle.metric.Accuracy`` over the candidate scores (the relevant one is first).

    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir LOG eval_fixed.py OUT_DIR
    python eval_fixed.py OUT_DIR single

``paddle-doctor demo`` runs it both ways (``paddle_doctor.lab.fixed_demo``) and compares hit@1.
"""

import json
import os
import sys
from pathlib import Path

ROWS, DIM, PER_QUERY, DATA_SEED, MODEL_SEED = 38, 8, 4, 0, 2024  # as in eval.py beside this file


def _parts():
    import numpy as np
    import paddle

    class Queries(paddle.io.Dataset):
        """One sample per query: (candidate features [k, DIM], k, index of the relevant one)."""

        def __init__(self):
            rng = np.random.default_rng(DATA_SEED)
            x = rng.standard_normal((ROWS, DIM)).astype("float32")
            self.queries = [x[i:i + PER_QUERY] for i in range(0, ROWS, PER_QUERY)]

        def __len__(self):
            return len(self.queries)

        def __getitem__(self, i):
            q = self.queries[i]
            return q, np.array(len(q), "int64"), np.array([0], "int64")

    class Scorer(paddle.nn.Layer):  # the demo's model, same weights
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2 = paddle.nn.Linear(DIM, 16), paddle.nn.Linear(16, 1)

        def forward(self, x):
            return self.fc2(paddle.nn.functional.relu(self.fc1(x))).squeeze(-1)

    class QueryScorer(paddle.nn.Layer):
        """Scores [B, k]; padded candidates get -1e9 so they never win the argmax."""

        def __init__(self, scorer):
            super().__init__()
            self.scorer = scorer

        def forward(self, x, count):
            scores = self.scorer(x)
            real = paddle.arange(scores.shape[1]).unsqueeze(0) < count.reshape([-1, 1])
            return paddle.where(real, scores, paddle.full_like(scores, -1e9))

    paddle.seed(MODEL_SEED)
    return Queries(), QueryScorer(Scorer())


def _single(dataset, model) -> dict:
    """Plain Paddle, one process, query by query (no paddle_doctor): the ground truth."""
    import paddle

    model.eval()
    hits = 0
    with paddle.no_grad():
        for i in range(len(dataset)):
            x, k, label = dataset[i]
            scores = model(paddle.to_tensor(x[None]), paddle.to_tensor(k[None]))
            hits += int(scores.argmax(axis=1).numpy()[0] == label[0])
    return {"metrics": {"hit_at_1": hits / len(dataset)}, "num_samples": len(dataset)}


def main(argv: list[str]) -> None:
    import paddle
    import paddle.distributed as dist

    from paddle_doctor import evaluate, pad_collate

    paddle.set_device("cpu")
    out, single = Path(argv[0]), argv[1:2] == ["single"]
    dataset, model = _parts()
    if single:
        payload, name = _single(dataset, model), "single.json"
    else:
        if int(os.environ.get("PADDLE_TRAINERS_NUM", "1")) > 1:
            dist.init_parallel_env()
        r = evaluate(model, dataset, paddle.metric.Accuracy(name="hit_at_1"), batch_size=2,
                     collate_fn=pad_collate, progress=False)
        payload = {"metrics": r.metrics, "num_samples": r.num_samples, "dataset_len": r.dataset_len,
                   "world_size": r.world_size, "local_samples": r.local_samples}
        name = f"rank{dist.get_rank()}.json"
    (out / name).write_text(json.dumps(payload, indent=1))
    print(f"{name}: {payload}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
