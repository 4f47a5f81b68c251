"""Probes: each reads one group of facts cheaply (files under /proc and /sys, :mod:`os`, package
metadata, ``nvidia-smi`` with a timeout) and returns plain JSON-able data. None imports paddle."""
