timeout -k 5 90 setsid python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log train.py --epochs 2 --learning-rate 0.05 > terminal.out 2>&1
