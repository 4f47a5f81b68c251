#!/bin/bash
# run from this folder (a copy of script/)
P=36150
# another service on this machine holds port 36150 (here a stand-in listener on 127.0.0.1)
/work/main/.venv/bin/python -c "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',$P)); s.listen(); time.sleep(150)" &
HOLDER=$!
sleep 1
FLAGS_START_PORT=$P timeout -k 5 90 setsid /work/main/.venv/bin/python -m paddle.distributed.fleet.launch --nproc_per_node 2 --log_dir log train.py > terminal.out 2>&1
rc=$?
kill $HOLDER
exit $rc
