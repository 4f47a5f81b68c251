#!/bin/sh
# run in an empty directory holding the files of script/; another process holds the port first
PORT=36521
/work/main/.venv/bin/python -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1', $PORT)); s.listen(); time.sleep(60)" &
HOLDER=$!
sleep 1
FLAGS_START_PORT=$PORT timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.fleet.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
echo exit=$?
kill $HOLDER
