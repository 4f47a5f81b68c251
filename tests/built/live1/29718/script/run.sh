#!/bin/bash
# run from this folder (a copy of script/)
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
