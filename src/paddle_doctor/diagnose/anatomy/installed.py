"""Where the imported code came from: an error that reads as a missing API or a bad call, when the
traceback shows the package is not the installed one, or the installed library is older than the
code generated for it.

- A package shadowed by the user's tree. CPython imports the first ``X`` on ``sys.path`` (the
  script's folder or the working directory first): a folder ``X/`` without ``__init__.py`` becomes
  an empty namespace package (PEP 420: no ``__version__``, nothing of the real package), a file
  ``X.py`` or a source checkout's ``X/__init__.py`` is imported instead of the installation. The
  message then names a module, name or attribute of ``X`` that the installed release does have
  (Paddle2ONNX#1074: ``python -m`` run inside the Paddle2ONNX checkout, whose ``version.py`` only
  its build generates; VisualDL#540: a script named ``visualdl.py``; PaddleHub's ``paddle.__version__``
  read with a folder named ``paddle`` in the project, PaddleFormers#2254).
- One installed library importing a name another installed library lacks (jinja2 2.x's ``from markupsafe
  import soft_unicode`` under markupsafe 2.1): the two come from releases that do not fit. Only when both
  files are installed ones: a user's import of a misspelt name (``from visualdl import Logwriter``) or of a
  file of the user's that shadows the library (``datasets.py`` in the working folder) is not. A library whose
  module CPython finds only as an empty folder ("(unknown location)": a namespace package, PEP 420) is not
  installed whole: the same cause (Paddle's framework_pb2 importing ``google.protobuf.internal``).
- Generated protobuf code (``*_pb2.py``) newer than the protobuf runtime: protoc passes keyword
  arguments to the descriptor classes that an older runtime's ``__init__`` does not take
  (``serialized_options`` from protobuf 3.6, ``create_key`` from 3.12; ``file`` before 3.4,
  VisualDL#474), so the import fails with a TypeError inside the ``_pb2.py`` file.
"""

from __future__ import annotations

import re
import sys

from ...catalog.ids import CauseId
from ..signatures.packages import SUITE_LIBRARIES
from ..signatures.rows.api_versions import VERSIONED_PACKAGES
from .parts import ErrorParts

# The module an import or attribute error names: CPython's AttributeError (module %r has no attribute
# %r), ImportError (cannot import name %r from %r; Python <= 3.6 without "from"), ModuleNotFoundError
# (No module named %r: the dotted path up to its first missing part).
_NAMED = re.compile(r"^module '(?P<attr_mod>[\w.]+)' has no attribute '(?P<attr>\w+)'|^cannot import name '?(?P<name>"
                    r"\w+)'?(?: from '(?P<from_mod>[\w.]+)')?|^No module named '(?P<missing>\w+\.[\w.]+)'")
_IMPORTS = re.compile(r"^\s*(?:from\s+(?P<from>[\w.]+)\s+import\b|import\s+(?P<mod>[\w.]+))")
# Packages users install with pip (a suite's own package, run from its clone, is its working tree: not these).
_PIP_PACKAGES = re.compile(rf"{VERSIONED_PACKAGES}|visualdl|fastdeploy|paddleocr|paddle_serving_\w+")
# PyInstaller's one-file bundle unpacks to a temporary _MEI<pid> folder: its modules are what the build collected.
_FROZEN_BUNDLE = re.compile(r"[/\\]_MEI\d+[/\\]")
# A Python module of Paddle's package (not the core library's bindings: their classes are build options).
_PADDLE_PYTHON_MODULE = re.compile(r"paddle(?:\.(?!\w*core|libpaddle)\w+)*")
# CPython's ModuleNotFoundError (Python 2's ImportError unquoted) for a top-level module.
_TOP_MODULE_MISSING = re.compile(r"No module named '?(?P<mod>\w+)'?")
# PEP 594 and PEP 632: modules Python 3.12 (distutils, imp, asynchat, asyncore, smtpd) and 3.13 removed.
_REMOVED_FROM_STDLIB = frozenset("distutils imp asynchat asyncore smtpd aifc audioop cgi cgitb chunk crypt imghdr mailcap "
                                 "msilib nis nntplib ossaudiodev pipes sndhdr spwd sunau telnetlib uu xdrlib lib2to3".split())
_PB2_KEYWORD = re.compile(r"unexpected keyword argument '(?P<kw>\w+)'")


def _import_line(frame) -> re.Match | None:
    """The failing frame's line, when it is an import statement (``from X import ...`` / ``import X``)."""
    return _IMPORTS.match(frame.source or "") if frame is not None else None


def _package(parts: ErrorParts) -> str | None:
    """The top-level package the error says something is missing from."""
    m = _NAMED.match(parts.message)
    if m is None:
        return None
    named = m["attr_mod"] or m["from_mod"] or m["missing"]
    if named is None:  # "cannot import name 'N'": the line says from what
        line = _import_line(parts.innermost)
        named = (line["from"] or line["mod"]) if line else None
    return named.split(".", 1)[0] if named else None


_IMPORT_CALL = re.compile(r"^(?:\s*(?:from\s+\S+\s+import\b|import\s+\S)|.*\bimport_module\()")  # one \s* run: linear
_IMPORTLIB_FRAME = re.compile(r"[/\\]importlib[/\\][^/\\]+$|^<frozen importlib")


def _user_module_imported_by_library(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """An installed library's import statement that ran a file of the user's as that module (the next frame
    past importlib's is the user's file, at module level): the user's file has the name of a module the
    library imports (``ppstructure.py`` beside a script that imports paddleocr) and shadows it."""
    frames = [f for f in parts.frames if not _IMPORTLIB_FRAME.search(f.path)]
    for importer, imported in zip(frames, frames[1:]):
        installed = _INSTALLED.search(importer.path)
        # module-level code of the library running a file's module-level code is an import, its line shown or not
        imports = _IMPORT_CALL.match(importer.source or "") or (not importer.source and importer.func == "<module>")
        if installed and importer.owner == "library" and imports and imported.owner == "user" and imported.func == "<module>":
            name = imported.path.replace("\\", "/").rsplit("/", 1)[-1]
            return (CauseId.python_exception, 80, f"the installed {installed['top']} imported {imported.path} as one "
                    f"of its modules: the user's file {name} has the name of a module it imports and shadows it "
                    "(rename the file)")
    return None


def shadowed_package(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(python_exception, specificity, why) when the traceback shows that the package the error names
    was imported from the user's tree, not from its installation; or the message does: CPython's "(unknown
    location)" is a namespace package (a bare folder), and a suite's class asked of Paddle itself
    (``from paddle import PaddleOCR``) is an import of the wrong package."""
    if parts.exc_type not in ("ImportError", "ModuleNotFoundError", "AttributeError"):
        return None
    top = _package(parts)
    if not top:
        return None
    named = _NAMED.match(parts.message)
    m_from, name = (named["from_mod"], named["name"]) if named else (None, None)
    if m_from and parts.message.endswith(f"from '{m_from}' (unknown location)") and _PADDLE_PACKAGE.fullmatch(top):
        return (CauseId.python_exception, 70, f"{m_from} resolved to a folder without its modules (unknown location: "
                f"an empty namespace package), not an installed {top}: it is not installed in this Python, or a folder "
                f"named {top} on sys.path shadows it")
    if parts.exc_type == "ImportError" and _PADDLE_PACKAGE.fullmatch(top) and name and \
            name.lower() != top and _PIP_PACKAGES.fullmatch(name.lower()):
        return (CauseId.python_exception, 75, f"{name} is the class of the {name.lower()} package, not a name of "
                f"{top}: import it from {name.lower()}")
    hijacked = _user_module_imported_by_library(parts)
    if hijacked is not None:
        return hijacked
    if parts.message.startswith(f"module '{top}' has no attribute '__version__'"):
        return (CauseId.python_exception, 85, f"`{top}` has no __version__: the name resolved to a folder called "
                f"{top} without __init__.py (an empty namespace package) on sys.path, not the installed package")
    for frame in reversed(parts.frames):
        path = frame.path.replace("\\", "/")
        own = re.search(rf"(?:^|/){re.escape(top)}/__init__\.py$", path) and _PIP_PACKAGES.fullmatch(top)
        line = _IMPORTS.match(frame.source or "")
        same_name = path.rsplit("/", 1)[-1] == f"{top}.py" and line and (line["from"] or line["mod"]).split(".")[0] == top
        if own and frame.owner == "user":  # not under site-packages, the standard library or Paddle's package
            return (CauseId.python_exception, 85, f"{top} was imported from {frame.path}, a folder outside the "
                    f"installation (a source checkout or a copy in the working tree), which shadows the installed {top}")
        if same_name:
            return (CauseId.python_exception, 85, f"the file {frame.path} is itself named {top}.py and imports {top}: "
                    f"it shadows the installed package")
    return None


# `import a.b.c as m` inside package a's own import: Pythons before 3.7 bind m by looking a.b up as an attribute of a,
# which a half-initialised package does not have yet (bpo-30024, fixed in 3.7 by falling back to sys.modules).
_IMPORT_AS = re.compile(r"^import\s+(?P<dotted>\w+(?:\.\w+)+)\s+as\s+\w+\s*$")
_OLD_PYTHON = re.compile(r"[/\\](?P<python>python(?:2\.\d+|3\.[0-6]))[/\\]", re.I)


def import_as_before_python37(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) for ``module 'a' has no attribute 'b'`` raised at ``import a.b.c as m`` in
    a's own files: an interpreter older than 3.7 cannot bind that circular import; the package needs 3.7 or newer."""
    frame, named = parts.innermost, _NAMED.match(parts.message)
    if parts.exc_type != "AttributeError" or frame is None or named is None or not named["attr_mod"]:
        return None
    line = _IMPORT_AS.match(frame.source or "")
    package = named["attr_mod"].split(".")[0]
    if line is None or not f"{line['dotted']}.".startswith(f"{named['attr_mod']}.{named['attr']}."):
        return None
    if not re.search(rf"[/\\]{re.escape(package)}[/\\]", frame.path):
        return None
    seen = _OLD_PYTHON.search(frame.path)
    this = f" (this is {seen['python']})" if seen else ""
    return (CauseId.dependency_version_mismatch, 80 if seen else 65, f"`{frame.source.strip()}` in {package}'s own "
            f"import: Python before 3.7 looks {named['attr_mod']}.{named['attr']} up on the half-imported package and "
            f"fails{this}; run it with Python 3.7 or newer")


def frozen_bundle_lacks(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(python_exception, ...) for an import that fails inside a PyInstaller bundle (the module the message names, or
    the failing frame, lives in its _MEI folder): the bundle holds what the build collected, not the installation."""
    frame = parts.innermost
    if parts.exc_type not in ("ImportError", "ModuleNotFoundError"):
        return None
    if not _FROZEN_BUNDLE.search(parts.message) and not (frame is not None and _FROZEN_BUNDLE.search(frame.path)):
        return None
    what = _package(parts) or "the module"
    return (CauseId.python_exception, 85, f"{what} was imported from a PyInstaller bundle (its _MEI folder), not from "
            f"an installation: the bundle lacks part of it (collect it as a hidden import or data files)")


def package_lacks_own_module(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(python_exception, ...) when Paddle's own Python code, as installed, finds a Python module of its own package
    missing (``module 'paddle' has no attribute 'tensor'`` raised in paddle/fluid/layers/math_op_patch.py while
    ``import paddle`` runs): the files of one release always fit each other, so the installation itself is
    incomplete or mixes two releases (a source build not installed whole, an upgrade over a broken one). The core
    library's classes (``libpaddle``, ``core_avx``) are build options, read elsewhere."""
    frame, named = parts.innermost, _NAMED.match(parts.message)
    if frame is None or frame.owner != "paddle":
        return None
    if parts.exc_type in ("ImportError", "ModuleNotFoundError"):
        return _paddle_import_of_its_own(parts)
    if parts.exc_type != "AttributeError" or named is None:
        return None
    if not named["attr_mod"] or not _PADDLE_PYTHON_MODULE.fullmatch(named["attr_mod"]):
        return None
    return (CauseId.python_exception, 70, f"Paddle's own code ({frame.module}, in {frame.func}) finds "
            f"{named['attr_mod']}.{named['attr']} missing: the files of one release fit each other, so this "
            "installation is incomplete or mixes two releases (reinstall the released wheel)")


def _paddle_import_of_its_own(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """Paddle's own code failing to import a protobuf module its build generates (``from
    paddle.proto.TrainerConfig_pb2 import ...`` in paddle/proto/__init__.py): a source tree whose build never ran (or
    not installed). Another module of its own missing may be a newer tree's code run on an older installed Paddle:
    the import-site reading decides that."""
    line = _import_line(parts.innermost)
    imported = (line["from"] or line["mod"] or "") if line else ""
    if not _PADDLE_PYTHON_MODULE.fullmatch(imported) or not re.match(r"No module named '?\w*_pb2\b", parts.message):
        return None
    return (CauseId.python_exception, 70, f"Paddle's own code ({parts.innermost.module}) cannot import {imported}, a "
            "module its build generates: this Paddle is a source tree whose build did not run or was not installed "
            "(build it, or install the released wheel)")


def paddle_dependency_missing(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) when Paddle's own code, as installed, imports a top-level module that is not
    there (``from enum import Enum`` in 1.5's fleet_base.py under Python 2.7): a package Paddle depends on (or its
    backport for this interpreter) is not installed. Paddle's own packages are read elsewhere."""
    frame, line = parts.innermost, _import_line(parts.innermost)
    said = _TOP_MODULE_MISSING.fullmatch(parts.message)
    if parts.exc_type not in ("ImportError", "ModuleNotFoundError") or frame is None or frame.owner != "paddle" or \
            line is None or said is None or said["mod"].startswith(("paddle", "_")):
        return None
    if (line["from"] or line["mod"] or "").lstrip(".").split(".")[0] != said["mod"]:
        return None  # not this line's import: the frame shown is not the failing one
    if said["mod"] in _REMOVED_FROM_STDLIB:
        return None  # the standard library's, not a dependency: stdlib_module_gone's
    return (CauseId.dependency_version_mismatch, 75, f"Paddle's own code ({frame.module}) imports {said['mod']}, which "
            "this environment lacks: a package Paddle depends on (or its backport for this Python) is not installed")


_STDLIB_GONE = re.compile(r"No module named '?(?P<mod>(?P<top>\w+)(?:\.[\w.]+)?)'?")


def stdlib_module_gone(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) when code imports a module of one of the standard library's packages that
    this Python does not provide (``distutils.dep_util`` on 3.12; on a distribution's 3.8-3.11 without its distutils
    package; under a setuptools whose distutils shim lacks it), whoever wrote the code."""
    said = _STDLIB_GONE.fullmatch(parts.message)
    if parts.exc_type not in ("ImportError", "ModuleNotFoundError") or said is None or \
            said["top"] not in _REMOVED_FROM_STDLIB:
        return None
    return (CauseId.dependency_version_mismatch, 75, f"the code imports {said['mod']}, of the standard library's "
            f"{said['top']}, which this Python does not provide: removed in 3.12/3.13 (use an older Python, or a "
            "release of the package that no longer needs it), split out by the distribution (install its "
            f"python3-{said['top']} package) or stood in for by a setuptools whose shim lacks it (pin an older "
            "setuptools)")


def protobuf_older_than_generated(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) for a TypeError of an unexpected keyword argument raised in a
    generated ``*_pb2.py`` module: the installed protobuf is older than the protoc that generated it."""
    frame = parts.innermost
    m = _PB2_KEYWORD.search(parts.message)
    if parts.exc_type != "TypeError" or frame is None or m is None or not frame.path.endswith("_pb2.py"):
        return None
    return (CauseId.dependency_version_mismatch, 85, f"{frame.path.replace(chr(92), '/').rsplit('/', 1)[-1]} (generated "
            f"protobuf code) passes `{m['kw']}=` to a descriptor that the installed protobuf does not take: the "
            "protobuf runtime is older than the protoc that generated the file")


# Paddle's own packages and the suites' (code for another Paddle release: paddle_api_mismatch, read elsewhere).
_PADDLE_PACKAGE = re.compile(rf"{VERSIONED_PACKAGES}|paddle\w*|pp[a-z]+|visualdl|fastdeploy")
# pip's installation folders: site-/dist-packages, and AI Studio's persistent target (its docs have users
# `pip install --target /home/aistudio/external-libraries` and put that folder on sys.path).
_INSTALLED = re.compile(r"[/\\](?:site-packages|dist-packages|external-libraries)[/\\](?P<top>\w+)")
# CPython 3.8+ ends the message with the module's file; a paste, or a module without __file__, may not.
_IMPORT_FROM = re.compile(r"^cannot import name '(?P<name>\w+)' from '(?P<mod>[\w.]+)'(?: ?\((?P<path>[^)]+)\))?$")


# CPython's AttributeError of a module (module %r has no attribute %r); numpy's removals are rows of their own.
_MODULE_ATTRIBUTE = re.compile(r"^module '(?P<mod>(?!numpy\b)[\w.]+)' has no attribute '(?P<name>\w+)'$")


def library_lacks_imported_name(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) for an installed library's import of a name another installed,
    non-Paddle library lacks; (paddle_api_mismatch, 70) where both are Paddle's libraries."""
    m = _IMPORT_FROM.match(parts.message) if parts.exc_type == "ImportError" else None
    frame = parts.innermost
    if m is None and frame is not None and parts.exc_type == "AttributeError":
        return _library_lacks_attribute(parts.message, frame)
    if m is None or frame is None:
        return None
    where, importer = _INSTALLED.search(m["path"] or ""), _INSTALLED.search(frame.path)
    top = m["mod"].split(".", 1)[0]
    if importer is not None and importer["top"] == top and where is not None and where["top"] == top:
        return _library_mixed_with_itself(m, top)
    if importer is None or importer["top"] == top or top in sys.stdlib_module_names:
        return None
    if _PADDLE_PACKAGE.fullmatch(top):  # the name itself: the signature row paddle_api_missing; one Paddle library
        # lacking what another installed one imports (paddlespeech's ``from paddleaudio.backends import load``) is
        # two releases that do not fit, as much a pin as code for another release: at most medium
        if where is None or where["top"] != top or not _PADDLE_PACKAGE.fullmatch(importer["top"]):
            return None
        return (CauseId.paddle_api_mismatch, 70, f"the installed {importer['top']} imports {m['name']} from the "
                f"installed {top}, which lacks it: releases of the two that do not fit (pin the {top} that "
                f"{importer['top']} needs)")
    if m["path"] == "unknown location":  # a namespace package: a folder of the library without its modules
        return (CauseId.dependency_version_mismatch, 70, f"the installed {importer['top']} imports {m['name']} from "
                f"{m['mod']}, which has no files (unknown location): {top} is not installed whole; reinstall it")
    if m["path"] is None:  # where the library lives is not said: the importer's own frame is all there is
        return (CauseId.dependency_version_mismatch, 65, f"the installed {importer['top']} imports {m['name']} from "
                f"{m['mod']}, which lacks it: {top} is of a release that does not fit {importer['top']}'s")
    if where is None:
        return None
    return (CauseId.dependency_version_mismatch, 75, f"the installed {importer['top']} imports {m['name']} from the "
            f"installed {top}, which lacks it: the two come from releases that do not fit")


# A compiled extension module's file (CPython's "cpython-39-x86_64-linux-gnu.so", Windows' ".pyd").
_EXTENSION_FILE = re.compile(r"\.(?:pyd|(?:cpython-\d+\S*|abi3)\.so)$")


def _library_mixed_with_itself(m: re.Match, top: str) -> tuple[CauseId, int, str] | None:
    """An installed library's own Python code importing a name its own compiled module lacks (cv2's __init__.py
    and a cv2.*.so of another OpenCV wheel): two distributions of it, or two releases, installed over each other."""
    if _PADDLE_PACKAGE.fullmatch(top) or not _EXTENSION_FILE.search(m["path"] or ""):
        return None
    return (CauseId.dependency_version_mismatch, 70, f"the installed {top}'s own code imports {m['name']} from its "
            f"compiled module {m['mod']}, which lacks it: the package's files come from two releases or two "
            f"distributions of {top} installed over each other (uninstall every one of them, then install one)")


def _library_lacks_attribute(message: str, frame) -> tuple[CauseId, int, str] | None:
    """An installed library's use of a module attribute another library lacks (PaddleOCR's
    ``lp.PaddleDetectionLayoutModel`` under a layoutparser without it): releases that do not fit. Not where the
    module is the library's own, Paddle's (paddle_api_missing), or the standard library's."""
    m, importer = _MODULE_ATTRIBUTE.match(message), _INSTALLED.search(frame.path)
    if m is None or importer is None:
        return None
    top = m["mod"].split(".", 1)[0]
    if top == importer["top"] or _PADDLE_PACKAGE.fullmatch(top) or top in sys.stdlib_module_names:
        return None
    return (CauseId.dependency_version_mismatch, 70, f"the installed {importer['top']} uses {top}.{m['name']}, which "
            f"the installed {top} lacks: the two come from releases that do not fit")


_THIRD_PARTY = re.compile(SUITE_LIBRARIES)


def third_party_dll(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) for Windows' "DLL load failed" while the failing line imports a
    third-party library the suites use (pyclipper, shapely, cv2): that library's installed wheel cannot load its
    own extension, a release that does not fit this Python or Windows (Paddle's own core is another row)."""
    line = _import_line(parts.innermost)
    if parts.message.startswith("[WinError 126]"):
        # ctypes loading a package's own DLL (shapely's CDLL(geos_c.dll)): the innermost installed package's frame
        top = next((f.installed_package for f in reversed(parts.frames) if f.installed_package), None)
        if top is None or not _THIRD_PARTY.fullmatch(top):
            return None
        return (CauseId.dependency_version_mismatch, 70, f"the installed {top} cannot find its own DLL (or one it "
                f"links): that install of {top} is incomplete or does not fit this Python or Windows (reinstall another "
                "release of it, or from another channel)")
    if not parts.message.startswith("DLL load failed") or line is None:
        return None
    top = (line["from"] or line["mod"]).split(".", 1)[0]
    if not _THIRD_PARTY.fullmatch(top):
        return None
    return (CauseId.dependency_version_mismatch, 70, f"importing the installed {top} fails to load its own DLL: that "
            f"release of {top} does not fit this Python or Windows (reinstall another release of it)")


def paddle_package_lacks_name(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(paddle_api_mismatch, ...) for Python 3.6's ``cannot import name 'N'`` (no "from"; the failing line says
    from what) when the package is one of Paddle's: the importer and that package are of releases that do not fit
    (the signature row paddle_api_missing reads the 3.7+ form)."""
    frame, line = parts.innermost, _import_line(parts.innermost)
    if parts.exc_type != "ImportError" or line is None or not line["from"] or \
            not re.fullmatch(r"cannot import name '?\w+'?", parts.message):
        return None
    top, name = line["from"].lstrip(".").split(".", 1)[0], parts.message.split()[-1].strip("'")
    if not top or not _PIP_PACKAGES.fullmatch(top) or not re.search(rf"\bimport\b.*\b{re.escape(name)}\b", frame.source):
        return None  # not this line's name: the frame shown is not the failing import
    return (CauseId.paddle_api_mismatch, 75, f"{line['from']} has no {name}: the code importing it was written for "
            f"another release of {top}")


# A library bound to None by an import that failed quietly (pp 0.11-1.8 paddle/dataset/image.py and paddle/v2/image.py:
# ``try: import cv2 except ImportError: cv2 = None``): a call on it fails on None, naming the library's function.
_NONE_ATTRIBUTE = re.compile(r"^'NoneType' object has no attribute '(?P<attr>\w+)'$")
# the libraries such code imports so (optional image, audio and format readers); a name that is as often a variable
# of the user's (datasets, lap, wget, imagesize) is not read as a library bound to None
_OPTIONALLY_IMPORTED = ("cv2", "PIL", "scipy", "sklearn", "skimage", "matplotlib", "pandas", "shapely", "pyclipper",
                        "imgaug", "albumentations", "librosa", "soundfile", "numba", "onnx", "onnxruntime", "h5py", "lmdb",
                        "yaml", "jieba", "sentencepiece", "pycocotools", "decord", "imageio", "paddleaudio", "visualdl")


def optional_import_failed(parts: ErrorParts) -> tuple[CauseId, int, str] | None:
    """(dependency_version_mismatch, ...) when the failing line calls a library's function on the library's name and
    the name is None: the code imported it in a try block that binds None when the import fails."""
    frame, said = parts.innermost, _NONE_ATTRIBUTE.match(parts.message)
    if parts.exc_type != "AttributeError" or frame is None or said is None:
        return None
    call = re.search(rf"(?<![\w.])(?P<mod>{'|'.join(_OPTIONALLY_IMPORTED)})\.{said['attr']}\b", frame.source)
    if call is None:
        return None
    return (CauseId.dependency_version_mismatch, 70, f"`{frame.source.strip()[:60]}` calls {said['attr']} on "
            f"{call['mod']}, which is None: the code imports {call['mod']} in a try block that leaves None when the "
            "import fails, so the library is not installed or cannot load (import it alone to see why)")
