#!/bin/sh
# run in an empty directory holding the files of script/
mkdir -p samples && /work/main/.venv/bin/python -c "[open('samples/%04d.txt' % i, 'w').write('0') for i in range(300)]"
ulimit -n 256
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
echo exit=$?
