"""Versions of the Python packages that Paddle jobs' failures depend on, as ``collect_env`` lists
torch's: read from the installed distributions' metadata (``importlib.metadata``), never by
importing them (an import of opencv or PaddleNLP costs seconds and can fail on its own)."""

from __future__ import annotations

from importlib import metadata

# The distributions named in bug reports of the Paddle suites (their requirements files) and the
# libraries whose version changes how Paddle behaves (numpy's ABI, protobuf's API).
PACKAGES = ("numpy", "protobuf", "opencv-python", "opencv-python-headless", "opencv-contrib-python", "Pillow",
            "scipy", "paddlenlp", "paddleseg", "paddledet", "paddleclas", "paddleocr", "paddlex",
            "paddle2onnx", "visualdl", "onnxruntime")


def probe_packages(names: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """name -> version, for those of ``names`` that are installed (absent ones are left out)."""
    found = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        except Exception:  # a broken dist-info: say so rather than fail the report
            found[name] = "unreadable metadata"
    return found
