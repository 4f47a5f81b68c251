import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler
dist.init_parallel_env()
sampler = DistributedBatchSampler(eval_dataset, batch_size=32, drop_last=True)
if dist.get_rank() == 0:
    dist.barrier()
# the README's lint example: PDL401 (line 4) and PDL101 (line 6)
