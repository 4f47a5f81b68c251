"""What Paddle was compiled with, and which CUDA, cuDNN and NCCL libraries this machine would run it
with, all without importing paddle (an import costs seconds and may crash on a broken CUDA stack).

Compiled with: ``paddle/version/__init__.py``, a file Paddle's setup.py generates with plain
assignments (``full_version``, ``commit``, ``cuda_version``, ``cudnn_version``, ``nccl_version``,
``compiled_cuda_archs``), read with :func:`ast.literal_eval`, never executed.
Running with: the versions of the NVIDIA wheels Paddle 3.x GPU builds install (``nvidia-*-cu12``),
then version headers and versioned library file names in the library search path.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
from importlib import metadata
from pathlib import Path
from typing import Any

DISTRIBUTIONS = ("paddlepaddle-gpu", "paddlepaddle", "paddlepaddle-xpu", "paddlepaddle-dcu")
_VERSION_NAMES = ("full_version", "commit", "cuda_version", "cudnn_version", "nccl_version", "hip_version",
                  "xpu_xre_version", "with_pip_cuda_libraries", "compiled_cuda_archs", "is_tagged")
_ASSIGNMENT = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[^\n#]+)", re.MULTILINE)
LIBRARIES = {  # fact name -> (pip wheels, library file stem, header, header macro prefix)
    "cuda_runtime": (("nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime-cu11"), "libcudart.so", "cuda_runtime_api.h",
                     "CUDART_"),
    "cudnn": (("nvidia-cudnn-cu12", "nvidia-cudnn-cu11"), "libcudnn.so", "cudnn_version.h", "CUDNN_"),
    "nccl": (("nvidia-nccl-cu12", "nvidia-nccl-cu11"), "libnccl.so", "nccl.h", "NCCL_"),
}
SYSTEM_LIB_DIRS = ("/usr/local/cuda/lib64", "/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu",
                   "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/local/lib")
SYSTEM_INCLUDE_DIRS = ("/usr/local/cuda/include", "/usr/include", "/usr/include/x86_64-linux-gnu")


def probe_paddle(location: Path | None = None) -> dict[str, Any]:
    """``{"installed": False}`` or the installed Paddle's version, commit, build kind and compiled-with.
    ``location``: a ``paddle`` package folder to read instead of the importable one."""
    if location is None:
        spec = importlib.util.find_spec("paddle")
        if spec is None or not spec.submodule_search_locations:
            return {"installed": False}
        location = Path(next(iter(spec.submodule_search_locations)))
    values = read_version_file(location / "version" / "__init__.py")
    dist, dist_version = _distribution()
    compiled = {
        "cuda": _real(values.get("cuda_version")),
        "cudnn": _real(values.get("cudnn_version")),
        "nccl": nccl_code_to_version(values.get("nccl_version")),
        "rocm": _real(values.get("hip_version")),
        "xpu": _real(values.get("xpu_xre_version")),
        "cuda_archs": list(values.get("compiled_cuda_archs") or []),
        "pip_cuda_libraries": values.get("with_pip_cuda_libraries") == "ON",
    }
    return {"installed": True, "distribution": dist, "version": values.get("full_version") or dist_version,
            "commit": values.get("commit"), "location": str(location), "build": _build_kind(compiled),
            "compiled_with": compiled, "proto_creates_descriptors": proto_creates_descriptors(location)}


# Paddle's generated protobuf modules (framework.proto and its kin), by era.
_PROTO_FILES = ("base/proto/framework_pb2.py", "fluid/proto/framework_pb2.py")


def proto_creates_descriptors(location: Path) -> bool | None:
    """Whether Paddle's generated ``framework_pb2.py`` creates its descriptors directly (protoc before
    3.19: ``_descriptor.FieldDescriptor(...)``), which protobuf 4.21 and later refuse ("Descriptors cannot
    not be created directly"); None when the file is not there."""
    for name in _PROTO_FILES:
        try:
            text = (location / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        return "_descriptor.FieldDescriptor(" in text
    return None


def read_version_file(path: Path) -> dict[str, Any]:
    """The literal assignments (names in _VERSION_NAMES) of Paddle's generated version file, one
    line at a time, so that a damaged or unexpected rest of the file does not lose them."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    values: dict[str, Any] = {}
    for found in _ASSIGNMENT.finditer(text):
        if found["name"] in _VERSION_NAMES and found["name"] not in values:
            try:
                values[found["name"]] = ast.literal_eval(found["value"].strip())
            except (ValueError, SyntaxError):
                pass
    return values


def nccl_code_to_version(code: Any) -> str | None:
    """NCCL_VERSION_CODE as Paddle records it: 21805 -> "2.18.5" (2.9 and later: X*10000 + Y*100 + Z),
    2804 -> "2.8.4" (before 2.9: X*1000 + Y*100 + Z); "0" or absent -> None."""
    try:
        number = int(str(code))
    except ValueError:
        return None
    if number <= 0:
        return None
    if number >= 10000:
        return f"{number // 10000}.{number % 10000 // 100}.{number % 100}"
    return f"{number // 1000}.{number % 1000 // 100}.{number % 100}"


def probe_libraries(environ: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """For each library: ``{"version": str | None, "source": where it was read, "found": bool}``."""
    env = os.environ if environ is None else environ
    lib_dirs = _library_dirs(env)
    listings = {d: _listdir(d) for d in lib_dirs}
    return {name: _library(name, spec, listings) for name, spec in LIBRARIES.items()}


def _library(name: str, spec, listings: dict[str, list[str]]) -> dict[str, Any]:
    wheels, stem, header, macro = spec
    for wheel in wheels:
        version = _dist_version(wheel)
        if version:
            return {"version": version, "source": f"pip {wheel}", "found": True}
    if header:
        for inc in SYSTEM_INCLUDE_DIRS:
            version = _header_version(Path(inc) / header, macro)
            if version:
                return {"version": version, "source": str(Path(inc) / header), "found": True}
    found_any = None
    for directory, names in listings.items():
        for entry in sorted(names, key=len, reverse=True):  # longest name = most precise version
            if entry.startswith(stem):
                found_any = found_any or f"{directory}/{entry}"
                version = entry[len(stem):].lstrip(".")
                if version[:1].isdigit():
                    return {"version": version, "source": f"{directory}/{entry}", "found": True}
    return {"version": None, "source": found_any, "found": found_any is not None}


def _library_dirs(env) -> list[str]:
    dirs = [d for d in env.get("LD_LIBRARY_PATH", "").split(":") if d]
    dirs += [str(p) for p in _pip_nvidia_lib_dirs()] + list(SYSTEM_LIB_DIRS) + _ld_so_conf_dirs()
    return list(dict.fromkeys(dirs))


def _ld_so_conf_dirs(conf_dir: Path = Path("/etc/ld.so.conf.d")) -> list[str]:
    """The folders the dynamic loader's cache covers (what `ldconfig -p` lists), without running it."""
    dirs = []
    for conf in sorted(conf_dir.glob("*.conf")):
        try:
            lines = conf.read_text(errors="replace").splitlines()
        except OSError:
            continue
        dirs += [line.strip() for line in lines if line.strip().startswith("/")]
    return dirs


def _pip_nvidia_lib_dirs() -> list[Path]:
    spec = importlib.util.find_spec("nvidia")  # the namespace package the nvidia-* wheels share
    if spec is None or not spec.submodule_search_locations:
        return []
    return [lib for root in spec.submodule_search_locations for lib in Path(root).glob("*/lib")]


def _header_version(path: Path, macro: str) -> str | None:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return None
    if macro == "CUDART_":  # one number: 12040 -> 12.4
        found = re.search(r"#define\s+CUDART_VERSION\s+(\d+)", text)
        return f"{int(found[1]) // 1000}.{int(found[1]) % 1000 // 10}" if found else None
    parts = []
    for field in ("MAJOR", "MINOR", "PATCH" if macro == "NCCL_" else "PATCHLEVEL"):
        found = re.search(rf"#define\s+{macro}{field}\s+(\d+)", text)
        if not found:
            return None
        parts.append(found[1])
    return ".".join(parts)


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def _distribution() -> tuple[str | None, str | None]:
    for name in DISTRIBUTIONS:
        version = _dist_version(name)
        if version:
            return name, version
    return None, None


def _dist_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _real(value: Any) -> str | None:
    """The version file writes 'False' (a string) or None for "not compiled with"."""
    text = str(value) if value is not None else ""
    return None if text in ("", "False", "None", "0", "OFF") else text


def _build_kind(compiled: dict[str, Any]) -> str:
    if compiled["cuda"]:
        return "gpu"
    if compiled["rocm"]:
        return "rocm"
    if compiled["xpu"]:
        return "xpu"
    return "cpu"
