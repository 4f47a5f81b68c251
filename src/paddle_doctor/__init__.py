"""paddle-doctor: find the root cause of failed PaddlePaddle distributed runs, and prevent them.

Importing this package is cheap and never imports paddle: the runtime helpers that need Paddle
are loaded on first use.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
