"""Signatures: installing the packages a Paddle job needs, as pip reports it.

pip builds a package from its source only when no wheel of the asked version fits this Python and
platform (an old pin, a new Python, Windows or ARM); a failed build then ends the install whatever
the build's own error was (a missing compiler, swig, a header), so pip's closing lines name the cause
better than the build's.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

INSTALLS = (
    _sig("pip_source_build_failed", r"Failed building wheel for (?P<pkg>[\w.-]+)|Could not build wheels for "
         r"(?P<pkgs>[\w.-]+)|Encountered error while trying to install package|error: legacy-install-failure",
         "cause", CauseId.dependency_version_mismatch, 96, "error: legacy-install-failure",
         title="pip had to build a package from source (no wheel of the asked version for this Python and platform) "
               "and the build failed: install a version that has a wheel here (or give the build what it lacks)",
         source="pip 10-24 src/pip/_internal/wheel_builder.py (logger.error(\"Failed building wheel for %s\", "
                "req.name)); pip 21-23 commands/install.py (\"Could not build wheels for {}, which is required to "
                "install pyproject.toml-based projects\"); pip 22.0-23.0 exceptions.py LegacyInstallFailure "
                "(reference=\"legacy-install-failure\", \"Encountered error while trying to install package.\")",
         most="medium"),
)
