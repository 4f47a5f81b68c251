"""Checks of compiled-with against running-with: CUDA and cuDNN, NCCL present, NCCL version, and the
protobuf that Paddle's generated modules need."""

from __future__ import annotations

from ...findings import Confidence, Finding, Severity
from ..versions import cudnn_major, major_minor
from .base import Facts, check, compiled_with, finding
from ...catalog.ids import CauseId


@check("cuda_versions", CauseId.cuda_cudnn_mismatch,
       "compiled-with CUDA/cuDNN vs the driver's CUDA (nvidia-smi) and the cuDNN found",
       trips={"paddle": {"compiled_with": {"cuda": "12.6"}}, "gpu": {"driver_cuda_version": "11.8"}},
       passes={"paddle": {"compiled_with": {"cuda": "12.6"}}, "gpu": {"driver_cuda_version": "12.8"}})
def check_cuda_versions(facts: Facts) -> list[Finding]:
    built = compiled_with(facts)
    if not built.get("cuda"):
        return []
    out = []
    driver = facts.get("gpu", {}).get("driver_cuda_version")
    if driver and major_minor(driver) < major_minor(built["cuda"]):
        same_major = major_minor(driver)[0] == major_minor(built["cuda"])[0]
        out.append(finding(
            "cuda_versions", f"Paddle is built with CUDA {built['cuda']}, the driver supports CUDA {driver} at most",
            severity=Severity.WARNING if same_major else Severity.ERROR,
            confidence=Confidence.MEDIUM if same_major else Confidence.HIGH,
            fix="install the paddlepaddle-gpu wheel for your driver's CUDA, or upgrade the driver",
            why="within one CUDA major version newer drivers are only needed for some kernels" if same_major else
            "a driver older than the build's CUDA major version cannot run it",
            compiled_cuda=built["cuda"], driver_cuda=driver))
    running = facts.get("libraries", {}).get("cudnn", {})
    if built.get("cudnn") and running.get("version") and cudnn_major(running["version"]) != cudnn_major(built["cudnn"]):
        out.append(finding(
            "cuda_versions", f"Paddle is built with cuDNN {built['cudnn']}, this machine has cuDNN "
            f"{running['version']} ({running.get('source')})",
            fix=f"install cuDNN {cudnn_major(built['cudnn'])}.x (e.g. `pip install nvidia-cudnn-cu12`), or remove "
            "the other one from LD_LIBRARY_PATH", compiled_cudnn=built["cudnn"], running_cudnn=running["version"]))
    return out


@check("nccl_library", CauseId.nccl_library_missing, "a GPU build on Linux with no libnccl to load",
       trips={"paddle": {"compiled_with": {"cuda": "12.6"}}, "system": {"os": {"system": "Linux"}},
              "libraries": {"nccl": {"found": False}}},
       passes={"paddle": {"compiled_with": {"cuda": "12.6"}}, "system": {"os": {"system": "Linux"}},
               "libraries": {"nccl": {"found": True}}})
def check_nccl_library(facts: Facts) -> list[Finding]:
    built = compiled_with(facts)
    if not built.get("cuda") or facts.get("system", {}).get("os", {}).get("system") != "Linux":
        return []
    if facts.get("libraries", {}).get("nccl", {}).get("found"):
        return []
    return [finding("nccl_library", "Paddle is a GPU build but no libnccl was found (pip nvidia-nccl-*, "
                     "LD_LIBRARY_PATH, system library folders)",
                     fix="`pip install nvidia-nccl-cu12` (CUDA 12), or apt `libnccl2`",
                     why="single-GPU runs never load NCCL; the first multi-GPU run fails in init_parallel_env",
                     compiled_nccl=built.get("nccl"))]


@check("nccl_version", CauseId.nccl_version_mismatch, "compiled-with NCCL vs the NCCL found (major.minor)",
       trips={"paddle": {"compiled_with": {"nccl": "2.21.5"}},
              "libraries": {"nccl": {"version": "2.18.1", "source": "LD_LIBRARY_PATH"}}},
       passes={"paddle": {"compiled_with": {"nccl": "2.21.5"}},
               "libraries": {"nccl": {"version": "2.21.5", "source": "nvidia-nccl-cu12"}}})
def check_nccl_version(facts: Facts) -> list[Finding]:
    built = compiled_with(facts).get("nccl")
    running = facts.get("libraries", {}).get("nccl", {})
    if not built or not running.get("version"):
        return []
    if major_minor(built) == major_minor(running["version"]):
        return []
    return [finding("nccl_version", f"Paddle is built with NCCL {built}, this machine has NCCL "
                     f"{running['version']} ({running.get('source')})", severity=Severity.WARNING,
                     confidence=Confidence.MEDIUM, fix=f"install NCCL {built} (every node the same), or remove the "
                     "other one from LD_LIBRARY_PATH", why="NCCL must match across ranks, and newer NCCL "
                     "releases are not always compatible with the build", compiled_nccl=built,
                     running_nccl=running["version"])]


PROTOBUF_REFUSES = (4, 21)  # protobuf 4.21 (upb) refuses descriptors created directly by old generated code


@check("protobuf_version", CauseId.dependency_version_mismatch,
       "protobuf 4.21+ installed beside a Paddle whose generated *_pb2 modules need protobuf 3.x",
       trips={"paddle": {"proto_creates_descriptors": True}, "packages": {"protobuf": "4.21.12"}},
       passes={"paddle": {"proto_creates_descriptors": True}, "packages": {"protobuf": "3.20.3"}})
def check_protobuf_version(facts: Facts) -> list[Finding]:
    if not facts.get("paddle", {}).get("proto_creates_descriptors"):
        return []
    protobuf = facts.get("packages", {}).get("protobuf")
    if not protobuf or major_minor(protobuf) < PROTOBUF_REFUSES:
        return []
    if facts.get("variables", {}).get("PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION") == "python":
        return []  # the pure-Python backend still accepts them (slowly)
    return [finding("protobuf_version", f"protobuf {protobuf} cannot load this Paddle's generated modules: "
                     "`import paddle` fails with \"Descriptors cannot not be created directly\"",
                     fix='`pip install "protobuf<=3.20.3"`, or upgrade Paddle to a release generated for protobuf 4',
                     why="Paddle's framework_pb2.py was generated by a protoc older than 3.19 and creates its "
                     "descriptors directly, which protobuf 4.21 and later refuse", protobuf=protobuf)]
