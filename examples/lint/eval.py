# Guide 001 section 5, "correct multi-card evaluation" example, as printed (comments translated).
# Accuracy is summed on each rank's shard and printed on rank 0 without any all_reduce: PDL402.
import os
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

# initialise the parallel environment
dist.init_parallel_env()

# build the model and wrap it with DataParallel
model = MyModel()
model = paddle.DataParallel(model)
model.eval()  # always set evaluation mode

eval_dataset = MyEvalDataset(...)
# DistributedBatchSampler gives each card its data
eval_batch_sampler = DistributedBatchSampler(
    eval_dataset,
    batch_size=32,
    shuffle=False,  # usually no shuffle for evaluation
    drop_last=False
)
eval_loader = DataLoader(eval_dataset, batch_sampler=eval_batch_sampler, num_workers=0)

# evaluation loop
total_correct = 0
total_samples = 0
with paddle.no_grad():  # no gradients: saves memory and compute
    for data, label in eval_loader:
        output = model(data)
        pred = output.argmax(axis=1)
        correct = (pred == label).sum().numpy()
        total_correct += correct
        total_samples += label.shape[0]

# note: the metric may need aggregation across processes; simplified here. In practice use dist.all_reduce
if dist.get_rank() == 0:  # print on the main process only
    accuracy = total_correct / total_samples
    print(f"Distributed Evaluation Accuracy: {accuracy:.4f}")
