"""Checkpoints inside the user's Paddle processes: ``save_clean`` (unwrapped, one rank, atomic) and
``load_clean`` (prefix-aligned, strict, a table instead of Paddle's ``Skip loading`` warning).
Paddle is imported inside the functions, never at import time."""
