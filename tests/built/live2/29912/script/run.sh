timeout -k 5 90 setsid python train.py > terminal.out 2>&1
