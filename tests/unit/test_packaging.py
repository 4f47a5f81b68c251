"""A publishable package (issue 30): a LICENSE file, classifiers, Project-URLs that match the URLs in
lint's JSON and SARIF, ``py.typed``, one version source, and the Python floor the code enforces
being the one pyproject declares (``docs/install.md``)."""

from __future__ import annotations

import email.parser
import email.policy
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

import paddle_doctor
from paddle_doctor.lint.codes import DOCS_URL
from paddle_doctor.process.workers_python import FLOOR

REPO = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
HATCH = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["hatch"]


def test_license_file_and_expression():
    assert PROJECT["license"] == "Apache-2.0" and PROJECT["license-files"] == ["LICENSE"]
    text = (REPO / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text and "END OF TERMS AND CONDITIONS" in text


def test_one_version_source():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert HATCH["version"]["path"] == "src/paddle_doctor/__init__.py"
    out = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "--version"], capture_output=True,
                         text=True, timeout=60).stdout
    assert paddle_doctor.__version__ in out


def test_project_urls_match_the_urls_lint_writes():
    urls = PROJECT["urls"]
    assert DOCS_URL == urls["Documentation"] + "/lint.md"
    assert urls["Repository"] == urls["Homepage"] and DOCS_URL.startswith(urls["Repository"] + "/")


def test_classifiers_say_what_requires_python_says():
    floor = tuple(int(x) for x in re.fullmatch(r">=(\d+)\.(\d+)", PROJECT["requires-python"]).groups())
    assert floor == FLOOR  # what `run` checks in the job's Python before launching
    versions = [tuple(int(x) for x in c.rsplit(" ", 1)[1].split("."))
                for c in PROJECT["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert versions and min(versions) == floor
    assert "Typing :: Typed" in PROJECT["classifiers"] and (REPO / "src" / "paddle_doctor" / "py.typed").is_file()


def _old_python() -> str | None:
    """A real interpreter older than the floor (a pyenv shim that cannot run is none)."""
    found = [str(p) for p in sorted(Path("/root/.pyenv/versions").glob("3.[89]*/bin/python3"))] + \
        [p for p in (shutil.which("python3.9"), shutil.which("python3.8")) if p]
    for candidate in found:
        try:
            done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info < (3, 10))"],
                                  capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        if done.returncode == 0 and done.stdout.strip() == "True":
            return candidate
    return None


OLD_PYTHON = _old_python()


@pytest.mark.skipif(OLD_PYTHON is None, reason="no Python older than the floor on this machine")
def test_run_on_a_job_python_below_the_floor_says_so_before_launching(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "run", "--", OLD_PYTHON, "-c",
                           "open('ran', 'w').close()"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and not (tmp_path / "ran").exists()
    assert f"guards need Python >= {FLOOR[0]}.{FLOOR[1]}" in proc.stderr and len(proc.stderr.splitlines()) == 1


# A link or image in Markdown, and an HTML href/src: what a package index renders as a link.
LINK = re.compile(r"(!?)\[[^\]]*\]\(([^)\s]+)[^)]*\)|\b(href|src)=[\"']([^\"']+)[\"']")


def _links(markdown: str) -> list[tuple[str, bool]]:
    """Each link's target, and whether it is an image, outside fenced code blocks."""
    prose = re.sub(r"^```.*?^```[^\n]*$", "", markdown, flags=re.MULTILINE | re.DOTALL)
    return [(md or html, bang == "!" or attr == "src") for bang, md, attr, html in LINK.findall(prose)]


def test_the_long_description_an_index_shows_has_no_relative_link(tmp_path):
    pytest.importorskip("hatchling", reason="hatchling (the build backend, in the test extra) is not installed")
    # The metadata hatchling writes into the wheel (the sdist's PKG-INFO comes from the same hook):
    # its Description is what a package index renders.
    subprocess.run([sys.executable, "-c", "import sys; from hatchling.build import prepare_metadata_for_build_wheel as "
                    "prepare; prepare(sys.argv[1])", str(tmp_path)], cwd=REPO, check=True, timeout=120)
    (dist_info,) = tmp_path.glob("paddle_doctor-*.dist-info")
    meta = email.parser.Parser(policy=email.policy.compat32).parsestr((dist_info / "METADATA").read_text("utf-8"))
    assert meta["Description-Content-Type"] == "text/markdown"
    description = meta.get_payload()
    readme = (REPO / "README.md").read_text()
    in_readme, shown = _links(readme), _links(description)
    assert any(not re.match(r"https?://", t) for t, _ in in_readme)  # the repository keeps its relative links
    assert len(shown) == len(in_readme) and all(re.match(r"https://", t) for t, _ in shown), shown
    # each one points at a file that is in the repository, at the Repository URL (a page) or raw (an image)
    repo_url = PROJECT["urls"]["Repository"]
    raw_url = repo_url.replace("https://github.com/", "https://raw.githubusercontent.com/")
    assert any(image for _, image in in_readme)  # docs/report-example.png
    for (before, image), (after, _) in zip(in_readme, shown):
        if re.match(r"https?://", before):
            assert after == before
            continue
        base = f"{raw_url}/main/" if image else f"{repo_url}/blob/main/"
        assert after == base + before, (before, after)
        assert (REPO / before.split("#")[0]).exists(), before
    # nothing else changed: the text with the link targets taken out is the README's
    assert LINK.sub("()", description) == LINK.sub("()", readme)
    assert len(description) > len(readme) // 2 and description.startswith("# paddle-doctor")



def test_the_sdist_carries_the_same_description_and_the_hook_that_makes_it(tmp_path):
    pytest.importorskip("hatchling", reason="hatchling (the build backend, in the test extra) is not installed")
    # A wheel built from the sdist (what pip does with it) needs hatch_build.py inside it.
    subprocess.run([sys.executable, "-c", "import sys; from hatchling.build import build_sdist; build_sdist(sys.argv[1])",
                    str(tmp_path)], cwd=REPO, check=True, timeout=120)
    (sdist,) = tmp_path.glob("paddle_doctor-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        pkg_info = tar.extractfile(next(m for m in tar.getmembers() if m.name.endswith("/PKG-INFO"))).read()
    assert {"hatch_build.py", "README.md", "pyproject.toml"} <= names
    description = email.parser.Parser(policy=email.policy.compat32).parsestr(pkg_info.decode("utf-8")).get_payload()
    assert _links(description) and all(re.match(r"https://", t) for t, _ in _links(description))
