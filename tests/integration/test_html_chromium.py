"""The HTML page as a browser shows it: headless Chromium (Debian's ``chromium``) renders the
page of a real recorded failure, and the root-cause lane is in its DOM and in its pixels."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.html import ROOT_FILL, write_report

pytestmark = pytest.mark.integration
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "01_exception_rank1"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _install_chromium() -> None:
    """The test set-up installs Debian's chromium when it is missing and we may (root, apt)."""
    if shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], capture_output=True, timeout=600, env=env)
        subprocess.run(["apt-get", "install", "-y", "chromium"], capture_output=True, timeout=900, env=env)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        _install_chromium()
        found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.skip("chromium is not installed and could not be installed (apt-get install chromium)")
    return found


def _browser(chromium: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [chromium, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=90)


@pytest.mark.timeout(300)
def test_chromium_shows_the_root_cause_lane(chromium, tmp_path):
    page = write_report(diagnose_paths([str(FIXTURE)]), [str(FIXTURE)], tmp_path / "report.html")
    url = page.resolve().as_uri()

    dom = _browser(chromium, tmp_path, "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'id="root-cause-lane"' in dom.stdout and 'data-ranks="1"' in dom.stdout
    assert 'data-status="victim" data-ranks="0"' in dom.stdout

    shot = tmp_path / "report.png"
    run = _browser(chromium, tmp_path, "--window-size=1200,1000", f"--screenshot={shot}", url)
    assert run.returncode == 0 and shot.is_file(), run.stderr[-2000:]
    from PIL import Image

    image = Image.open(shot).convert("RGB")
    want = tuple(int(ROOT_FILL[i:i + 2], 16) for i in (1, 3, 5))
    marked = [(x, y) for x in range(0, image.width, 2) for y in range(0, image.height, 2)
              if image.getpixel((x, y)) == want]
    assert len(marked) > 2000, f"only {len(marked)} pixels of the root-cause colour"
    ys = sorted({y for _, y in marked})
    # the lane (and its table row) span a band of the page at least 20 px high, across most of its width
    xs = [x for x, y in marked if ys[0] <= y <= ys[0] + 30]
    assert max(xs) - min(xs) > 800
