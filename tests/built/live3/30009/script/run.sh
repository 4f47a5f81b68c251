#!/bin/sh
# run in an empty directory holding the files of script/
mkdir -p ckpt && /work/main/.venv/bin/python -c "open('ckpt/last.pdparams','wb').write(b'\x80\x04\x95')"
timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
echo exit=$?
