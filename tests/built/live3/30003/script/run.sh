#!/bin/sh
# run in an empty directory holding the files of script/; two launchers ("nodes") on this host, master on 127.0.0.1
PORT=36411
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nnodes 2 --nproc_per_node 1 --master 127.0.0.1:$PORT --rank 0 --log_dir log train.py > terminal.out 2>&1 &
N0=$!
sleep 1
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nnodes 2 --nproc_per_node 1 --master 127.0.0.1:$PORT --rank 1 --log_dir log_node1 train.py > terminal_node1.out 2>&1
echo exit_node1=$?
wait $N0
echo exit=$?
