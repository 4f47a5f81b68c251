"""The versions of the Python packages a Paddle job's results depend on, read from their
installed metadata (``importlib.metadata``): nothing is imported, so a package that is slow or
broken on import (PaddleNLP with unpinned dependencies, OpenCV without its system libraries)
costs nothing here and cannot take ``env`` down.

Why these: the suites (PaddleNLP, PaddleSeg, PaddleDetection, PaddleClas, PaddleOCR, PaddleX)
each pin a range of Paddle and of their own dependencies; numpy 2 vs 1 changes Paddle's and the
suites' behaviour; protobuf's major version decides whether Paddle's generated ``*_pb2`` modules
load; OpenCV is the suites' image decoder (several wheels provide ``cv2``, and two of them
installed side by side shadow each other). As ``python -m torch.utils.collect_env`` lists the
relevant pip packages, only the installed ones are reported.
"""

from __future__ import annotations

from importlib import metadata

# distribution names, as pip spells them; the report keys are these, lower-case
PACKAGES = (
    "numpy", "protobuf", "opencv-python", "opencv-python-headless", "opencv-contrib-python",
    "opencv-contrib-python-headless", "pillow", "scipy", "paddlenlp", "paddleseg", "paddledet",
    "paddleclas", "paddleocr", "paddlex", "paddlehub", "paddle2onnx", "visualdl", "onnxruntime",
)
OPENCV = tuple(p for p in PACKAGES if p.startswith("opencv-"))


def probe_packages(names: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """``{distribution: version}`` of those installed, in ``names``' order."""
    found = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        except Exception:  # damaged metadata: say so rather than fail the report
            found[name] = "unreadable metadata"
    return found
