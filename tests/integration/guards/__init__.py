"""The guard tests' launch harness and the scripts it launches (``guards.harness``)."""
