"""Liveness parts that must not depend on the rank's GIL or on paddle: the sidecar beat, the
watchdog's verdict on the peers, and the scalable failure detector (``swim``)."""
