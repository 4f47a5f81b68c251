"""Metrics the suites use, each with ``sync_states`` so that ``evaluate`` syncs them exactly.

``from paddle_doctor.runtime.metrics import SegmentationMetric, DetectionMetric`` works; the
modules (which import paddle) load on first use, so importing this package costs nothing.
"""

from ...lazy import lazy_exports

__all__ = ["DetectionMetric", "SegmentationMetric"]
__getattr__ = lazy_exports(__name__, {"DetectionMetric": ".detection",
                                      "SegmentationMetric": ".segmentation"})
