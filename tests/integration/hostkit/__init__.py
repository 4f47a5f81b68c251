"""Real hosts on one machine for the integration tests and bench/bench_hosts.py: network
namespaces (``netns``), one launcher per host (``jobs``), the worker script (``host_eval.py``)."""
