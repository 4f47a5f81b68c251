#!/bin/sh
# run in an empty directory holding the files of script/
/work/main/.venv/bin/python make_ckpt.py
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
echo exit=$?
