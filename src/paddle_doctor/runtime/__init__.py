"""Helpers that run inside the user's Paddle processes (during a run).

Nothing here imports paddle at import time: each module imports it inside the functions that
need it, so ``import paddle_doctor`` stays cheap and works where Paddle is absent.
"""
