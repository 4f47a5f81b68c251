"""Signatures: what a package manager's resolver says when it cannot install what was asked (pip, uv, conda): no
release for this Python or platform, a release only on another index or channel, two packages pinning one library to
versions that do not meet. Spliced at the head of :data:`.installs.INSTALLS`.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

RESOLVERS = (
    # pip's check of what it just installed against the requirements of what was there: two packages pin one library
    # to versions that do not meet (pip warns; whichever was installed last breaks the other).
    _sig("pip_requirement_conflict", r"(?:^|(?<=\s))(?P<pkg>[\w.-]{1,80}) \d[\w.+-]{0,40} (?:has requirement|requires) (?P<req>[^\n]{1,120}?), "
         r"but you(?:'ll)? have (?P<have>[^\n]{1,80}?) which is incompatible", "context",
         CauseId.dependency_version_mismatch, 70,
         "ERROR: parl 1.2.3 has requirement flask==1.0.4, but you'll have flask 1.1.1 which is incompatible.",
         title="{pkg} needs {req}, and the environment has {have}: two packages pin that library to versions that do "
               "not meet", most="medium",
         explains_only=r"ImportError|ModuleNotFoundError|AttributeError: module|has no attribute",
         source="pip 10-20.2 pip/_internal/operations/check.py via commands/install.py (\"%s %s has requirement %s, but "
                "you'll have %s %s which is incompatible.\"); pip 20.3+ (\"%s %s requires %s, but you have %s %s which is "
                "incompatible.\")"),
    # pip's check of a package's Requires-Python against the running interpreter (a suite's requirement that dropped
    # Python 2, or one that has not reached this Python yet).
    _sig("pip_requires_other_python", r"Package '(?P<pkg>[^']{1,80})' requires a different Python: (?P<have>[\w.+]+) not "
         r"in '(?P<want>[^']{1,40})'", "cause", CauseId.dependency_version_mismatch, 90,
         "ERROR: Package 'imageio-ffmpeg' requires a different Python: 2.7.12 not in '>=3.4'",
         title="{pkg} does not install on this Python ({have}; it requires {want}): use a Python it supports, or a "
               "release of it that supports this one",
         source="pip 9-24 src/pip/_internal/utils/packaging.py / resolution/legacy/resolver.py _check_dist_requires_"
                "python (\"Package {!r} requires a different Python: {} not in {!r}\")"),
    # The same resolver messages as pip_no_paddle_wheel (rows/checks.py) for any other package: no release of it that
    # this Python and platform can install is on the index, or the version pinned is not there at all.
    _sig("pip_no_matching_distribution", r"(?:No matching distribution found for|Could not find a version that "
         r"satisfies the requirement) (?P<pkg>(?!(?i:paddle))[A-Za-z][\w.-]*)", "cause", CauseId.dependency_version_mismatch, 70,
         "ERROR: No matching distribution found for numpy==1.13.3",
         title="pip finds no release of {pkg} it can install here: none built for this Python and platform, or the "
               "version asked for is not on the index",
         source="pip 20.3-24 src/pip/_internal/resolution/resolvelib/factory.py (\"Could not find a version that "
                "satisfies the requirement %s (from versions: %s)\"; DistributionNotFound(f\"No matching distribution "
                "found for {req}\")); pip < 20.3 index/package_finder.py PackageFinder.find_requirement", most="medium"),
    # conda's solver says the same of a package (paddlepaddle-gpu, cudatoolkit=11.7) that no channel it searched has
    # for this platform (win-64, osx-arm64) in the version asked for: labelled a dependency's version (2 of 2).
    _sig("conda_packages_not_found", r"PackagesNotFoundError: The following packages are not available from current "
         r"channels", "cause", CauseId.dependency_version_mismatch, 70,
         "PackagesNotFoundError: The following packages are not available from current channels:",
         title="conda finds none of the packages asked for in its channels for this platform: no build of that "
               "version for this OS or architecture, or the channel that has it is not configured",
         source="conda 4.x-24.x conda/exceptions.py PackagesNotFoundError (\"The following packages are not available "
                "from current channels:\" then the packages, \"Current channels:\" with each channel's platform "
                "subdirectory, e.g. .../Paddle/win-64)", most="medium"),
    # pip's resolver when the requirements pin versions of a shared dependency that no release satisfies together
    # (paddlepaddle-gpu's and torch's nvidia-*-cu12 pins, a suite's numpy and another package's).
    _sig("pip_resolution_impossible", r"ResolutionImpossible|because these package versions have conflicting "
         r"dependencies", "cause", CauseId.dependency_version_mismatch, 85,
         "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/",
         title="pip cannot install the requirements together: they pin versions of a shared dependency that do not "
               "fit one another (the lines above name them); install them in separate environments or pick releases "
               "that agree",
         source="pip 20.3-24 src/pip/_internal/resolution/resolvelib/factory.py get_installation_error "
                "(\"Cannot install %s because these package versions have conflicting dependencies.\"; "
                "DistributionNotFound(\"ResolutionImpossible: for help visit ...\"))"),
    # uv's resolver (PubGrub) when no release of a requirement has a wheel for this interpreter or platform:
    # the package named on the lines above it has none built for them (a Python newer than its last wheel).
    _sig("uv_no_matching_wheel", r"ha(?:s|ve) no wheels with a matching (?P<tag>Python(?: version| ABI)?|platform) tag",
         "cause", CauseId.dependency_version_mismatch, 80,
         "      have no wheels with a matching Python version tag, we can conclude that all of:",
         title="uv finds no wheel of the requirement for this {tag} tag: no release was built for this interpreter "
               "or platform (use a Python the package has wheels for)",
         source="uv 0.4-0.5 crates/uv-resolver/src/pubgrub/report.rs (\"has no wheels with a matching Python version "
                "tag\", \"...Python ABI tag\", \"...platform tag\"), in its unsatisfiable-requirements report",
         most="medium"),
    # uv's resolver when a requirement pins a release that no index it reads has (a pre-release only on an extra index
    # that uv does not take it from, as pip would: uv's default index strategy takes a name PyPI lists from PyPI only).
    _sig("uv_no_version", r"there is no version of (?P<pkg>[\w.-]+)(?:\{[^}]*\})?(?P<want>[=<>!~]=?[^\s,]+)",
         "cause", CauseId.dependency_version_mismatch, 75,
         "  ╰─▶ Because there is no version of paddlepaddle{platform_system == 'Linux'}==3.0.0b1 and magic-pdf[full]==0.10.6 "
         "depends on paddlepaddle{platform_system == 'Linux'}==3.0.0b1, we can",
         title="uv finds no release {pkg}{want} on the indexes it reads: none exists for this platform, or it is on an "
               "extra index uv does not take that package from (--index-strategy unsafe-best-match, or name that index)",
         source="uv 0.4-0.5 crates/uv-resolver/src/pubgrub/report.rs (\"there is no version of {package}{range}\"), in its "
                "\"No solution found when resolving dependencies\" report", most="medium"),
    # safetensors' Python binding knows the frameworks of its release: a PyPI safetensors without Paddle's (the suites
    # then name a build of their own) refuses framework="paddle".
    _sig("safetensors_framework_unknown", r"SafetensorError: framework (?P<fw>\w{1,40}) is invalid", "cause",
         CauseId.dependency_version_mismatch, 80, "safetensors_rust.SafetensorError: framework paddle is invalid",
         title="the installed safetensors does not know the framework {fw}: a release without it (install the safetensors "
               "build the suite's docs name)", most="medium",
         source="safetensors bindings/python/src/lib.rs Framework::extract (SafetensorError::new_err(format!(\"framework "
                "{name} is invalid\")))"),
)

