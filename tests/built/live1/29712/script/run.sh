#!/bin/bash
# run from this folder (a copy of script/)
timeout -k 5 90 setsid /work/main/.venv/bin/python train.py > terminal.out 2>&1
