"""Errors read by their structure: parts (``parts``), code tables (``codes``, ``numbers``),
Paddle's components (``components``), and the classifier over them (``classify``)."""
