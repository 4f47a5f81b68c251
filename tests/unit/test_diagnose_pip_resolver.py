"""Issue 29, after gathered batch 34: pip's resolver finding no release of a Paddle package that the
interpreter can install ("Could not find a version that satisfies the requirement <req> (from versions:
...)" / "No matching distribution found for <req>", pip's own templates, cited in the row
``pip_no_paddle_wheel``). The install stops there; what the program raises afterwards (a name the import
never bound) is a consequence. One line, two causes (no build for this Python, or the version only on
another index), so the verdict is medium with config_error as its first alternative. Lines follow the
templates; none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def _install_then_crash(requirement: str, versions: str) -> str:
    return (f"Collecting {requirement.split('==')[0]}\n"
            f"ERROR: Could not find a version that satisfies the requirement {requirement} (from versions: {versions})\n"
            f"ERROR: No matching distribution found for {requirement}\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/app/segment.py", line 14, in <module>\n'
            "    tagger = load_tagger()\n"
            '  File "/srv/app/segment.py", line 9, in load_tagger\n'
            "    return paddle_tagger.Tagger()\n"
            "NameError: name 'paddle_tagger' is not defined\n")


@pytest.mark.parametrize("requirement,versions", [
    ("paddlepaddle-tiny", "none"),
    ("paddlepaddle==2.4.2", "2.5.1, 2.5.2, 2.6.0, 2.6.1"),
    ("paddleocr==2.0.6", "none"),
])
def test_pip_finding_no_release_of_a_paddle_package_is_a_version_boundary(tmp_path, requirement, versions):
    rc = root_cause_of(tmp_path, _install_then_crash(requirement, versions))
    assert rc is not None and rc.cause == CauseId.dependency_version_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value == "medium"
    assert rc.alternatives and rc.alternatives[0].cause == CauseId.config_error
    assert "No matching distribution" in rc.evidence[0].text or "Could not find a version" in rc.evidence[0].text


def test_pip_finding_no_release_of_another_package_is_that_package_not_installable_here(tmp_path):
    """pip's resolver on a package that is not Paddle's: the same two messages, the same cause for that package
    (batch73's 7329, numpy pinned by a suite's dependency, is labelled so), at most medium (row
    pip_no_matching_distribution; until the eleventh session this test said such a line was not claimed)."""
    rc = root_cause_of(tmp_path, _install_then_crash("torch==1.4.0", "none"))
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert "torch" in rc.message, rc.message
