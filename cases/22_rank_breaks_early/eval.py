"""Evaluation with a per-rank early stop: stop evaluating once the running loss is good enough.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the early-stop test looks at this rank's own shard ("my loss is low
enough"), so the ranks disagree on when to stop. Rank 1's shard is easy: it breaks out of the loop
after 3 batches and goes on to gather the predictions (all_gather). Rank 0 is still in the loop and
calls the per-batch all_reduce of batch 4. Each waits in a different collective for the other.
"""

import time

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")
GOOD_ENOUGH = 0.05  # stop evaluating once the running loss of this rank is below this


class EvalSet(Dataset):
    """Rows come in blocks of 4 from two sources; the sampler deals the blocks out in turn, so
    rank 0's shard is all from the hard source (target 1) and rank 1's from the easy one (0)."""

    def __init__(self, n=64, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, dim)).astype("float32")
        self.y = np.where((np.arange(n) // 4) % 2 == 0, 1.0, 0.0).astype("float32")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def evaluate(model, loader, rank):
    totals = paddle.zeros([2], dtype="float32")
    preds = []
    with paddle.no_grad():
        for step, (x, y) in enumerate(loader):
            if step == 3:
                # Batch 4 is slow (only rank 0 gets that far). It keeps the two 30 s timeouts 2 s apart:
                # without it they raced within milliseconds, and when rank 0's came first rank 1 could
                # abort in gloo's I/O thread with no Python stack, so no log showed where rank 1 waited
                # (tests/fixtures/variants/22_rank_breaks_early@rank1_gloo_loop_abort/).
                time.sleep(2.0)
            pred = model(x).squeeze(-1) * 0.0  # an untrained model that predicts 0 everywhere
            loss = ((pred - y) ** 2).mean()
            preds.append(pred)
            batch = paddle.to_tensor([loss.item() * len(y), float(len(y))])
            dist.all_reduce(batch)  # the per-batch collective every rank should run
            totals += batch
            print(f"rank {rank}: eval step {step} loss {loss.item():.4f}", flush=True)
            if loss.item() < GOOD_ENOUGH and step >= 2:
                print(f"rank {rank}: loss below {GOOD_ENOUGH}, stopping the evaluation early", flush=True)
                break  # BUG: a per-rank decision; the other rank is still in the loop
    return totals, paddle.concat(preds)


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    model = paddle.nn.Linear(8, 1)
    sampler = DistributedBatchSampler(EvalSet(), batch_size=4, shuffle=False)
    totals, preds = evaluate(model, DataLoader(EvalSet(), batch_sampler=sampler), rank)
    gathered = []
    dist.all_gather(gathered, preds)  # rank 1 arrives here while rank 0 is still in the loop
    print(f"rank {rank}: loss {totals[0].item() / totals[1].item():.4f} on {sum(len(g) for g in gathered)} rows",
          flush=True)


if __name__ == "__main__":
    main()
