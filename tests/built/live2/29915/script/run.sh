timeout -k 5 90 setsid python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
