#!/bin/bash
# run from this folder (a copy of script/)
(cd node1 && timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --master 127.0.0.1:36262 --nnodes 2 --rank 1 --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1) &
NODE1=$!
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --master 127.0.0.1:36262 --nnodes 2 --rank 0 --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
rc=$?
wait $NODE1
echo "node1 rc=$?" > node1_rc.txt
exit $rc
