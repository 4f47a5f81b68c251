python holder.py 36123 100 & HOLDER=$!
sleep 1
export FLAGS_START_PORT=36123
timeout -k 5 90 setsid python -m paddle.distributed.fleet.launch --ips 127.0.0.1 --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
kill $HOLDER
