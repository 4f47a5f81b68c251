"""The machine line every benchmark records next to its figures (cores, CPU model, load)."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = "load avg %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = ""
    return f"{platform.node()}: {os.cpu_count()} cores ({model}), {load}"
