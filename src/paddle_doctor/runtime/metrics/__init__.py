"""Metrics the suites use, each with ``sync_states`` so that ``evaluate`` syncs them exactly."""
