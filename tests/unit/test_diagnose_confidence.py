"""A ``high`` that keeps its promise (issue 29): the fallback ``python_exception`` is never high, on
any recorded log; a near cause that the one error line cannot tell apart lowers the verdict to
medium and comes first among the alternatives, with the check that tells the two apart; a fact
that settles it (a loopback address named) keeps the verdict; another line of the text that names
another specific cause makes the verdict contested."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CORPUS
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.refine.near import NEAR

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _every_recorded_log() -> list[Path]:
    files = {p for p in FIXTURES.rglob("*") if p.is_file()}
    return sorted(files | {p.parent for p in files}) + sorted(CORPUS.parent.glob("real-dev*/*.log"))


def test_python_exception_is_never_high_on_any_recorded_log():
    seen = 0
    for path in _every_recorded_log():
        try:
            root = diagnose_paths([str(path)]).root_cause
        except Exception:  # an unreadable fixture is another test's business
            continue
        if root is not None and root.cause == CauseId.python_exception:
            seen += 1
            assert root.confidence.value != "high", path
    assert seen >= 20  # the test must not go vacuous: the fallback is common


def _diagnose_text(tmp_path: Path, text: str):
    path = tmp_path / "pasted.log"
    path.write_text(text + "\n", encoding="utf-8")
    return diagnose_paths([str(path)]).root_cause


# (a line one process printed, the cause it names, the near cause it cannot be told apart from)
NEAR_LINES = [
    ("AssertionError: can't find PADDLE_TRAINER_ENDPOINTS", CauseId.missing_dist_env, CauseId.residual_dist_env),
    ("AssertionError: Can't find your local ip {10.0.0.3} in node_ips: {['10.0.0.1', '10.0.0.2']}",
     CauseId.config_error, CauseId.wrong_host_ip),
    ("ExternalError: CUDA error(100), no CUDA-capable device is detected.", CauseId.device_not_found,
     CauseId.cuda_visible_devices_misconfig),
    ("ExternalError: CUDA error(101), invalid device ordinal.", CauseId.cuda_visible_devices_misconfig,
     CauseId.device_not_found),
    # a command line the installed tool's parser rejects: a mistyped one, or one from another release's docs
    ("paddleclas: error: the following arguments are required: --infer_imgs", CauseId.config_error,
     CauseId.paddle_api_mismatch),
    ("ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.2GB memory on GPU 0 in NCCL allreduce",
     CauseId.gpu_oom, CauseId.nccl_error),
    ("ExternalError: Nccl error, unhandled cuda error (ncclUnhandledCudaError), out of memory", CauseId.nccl_error,
     CauseId.gpu_oom),
    # NCCL's "unhandled cuda error" with no memory word: an NCCL built for another CUDA fails the same way
    ("OSError: (External)  Nccl error, unhandled cuda error  (at /paddle/paddle/fluid/platform/collective_helper.cc:100)",
     CauseId.nccl_error, CauseId.nccl_version_mismatch),
    # CUDA's error 35 also when no driver is reachable at all (a GPU image run without the NVIDIA runtime)
    ("F0406 14:21:50.500263   150 hl_cuda_device.cc:454] Check failed: cudaSuccess == cudaStat (0 vs. 35) Cuda "
     "Error: CUDA driver version is insufficient for CUDA runtime version", CauseId.cuda_cudnn_mismatch,
     CauseId.device_not_found),
    # a bare std::bad_alloc through a Paddle binding gives no size: a full host, or a length misread from a model
    # or package made for another Paddle (batch 32's 3201, PaddleClas#3338: paddleclas 2.6.0 on paddle 2.6.2)
    ("MemoryError: std::bad_alloc", CauseId.host_out_of_memory, CauseId.paddle_api_mismatch),
]


@pytest.mark.parametrize("line,cause,near", NEAR_LINES, ids=lambda v: str(v)[:30])
def test_a_near_cause_lowers_the_verdict_and_comes_first(tmp_path, line, cause, near):
    root = _diagnose_text(tmp_path, line)
    assert (root.cause, root.confidence.value) == (cause, "medium")
    first = root.alternatives[0]
    assert first.cause == near and first.confirm
    assert "tells them apart" in root.why or near in root.why


def test_every_pair_of_the_issue_is_declared_both_ways():
    pairs = [(CauseId.residual_dist_env, CauseId.missing_dist_env), (CauseId.wrong_host_ip, CauseId.config_error),
             (CauseId.device_not_found, CauseId.cuda_visible_devices_misconfig), (CauseId.gpu_oom, CauseId.nccl_error)]
    nears = NEAR
    for a, b in pairs:
        assert b in [n.cause for n in nears[a]] and a in [n.cause for n in nears[b]]
        assert all(n.confirm for n in nears[a] + nears[b])


def test_a_fact_that_settles_it_keeps_the_verdict_high(tmp_path):
    root = _diagnose_text(tmp_path, "AssertionError: Can't find your local ip {127.0.1.1} in node_ips: "
                                    "{['10.0.0.1', '10.0.0.2']}")
    assert (root.cause, root.confidence.value) == (CauseId.wrong_host_ip, "high")


def test_a_core_that_will_not_import_puts_a_system_library_first(tmp_path):
    # core.py names the core file, not the library it links: libgomp or the MSVC runtime missing fails it as CUDA does
    line = ("Error: Can not import avx core while this file exists: "
            "/usr/lib/python3.8/site-packages/paddle/fluid/core_avx.so")
    root = _diagnose_text(tmp_path, line)
    assert (root.cause, root.confidence.value) == (CauseId.file_not_found, "medium")
    assert root.alternatives[0].cause == CauseId.cuda_cudnn_mismatch and root.alternatives[0].confirm
    # the loader's own line after it names the library, and its row decides
    root = _diagnose_text(tmp_path, line + "\nImportError: libcudart.so.10.2: cannot open shared object file")
    assert root.cause == CauseId.cuda_cudnn_mismatch
    assert not root.alternatives or root.alternatives[0].cause != CauseId.file_not_found
    root = _diagnose_text(tmp_path, line + "\nImportError: libgomp.so.1: cannot open shared object file: No such file")
    assert (root.cause, root.code) == (CauseId.file_not_found, "shared_library_not_found")
    assert not root.alternatives or root.alternatives[0].cause != CauseId.cuda_cudnn_mismatch


def test_an_oom_away_from_nccl_is_not_near_nccl(tmp_path):
    root = _diagnose_text(tmp_path, "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.2GB "
                                    "memory on GPU 0.")
    assert (root.cause, root.confidence.value) == (CauseId.gpu_oom, "high")


def test_another_line_naming_another_cause_contests_the_verdict(tmp_path):
    text = ("ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.2GB memory on GPU 0.\n"
            "ERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient "
            "shared memory (shm), please check whether use_shared_memory is set and storage space in /dev/shm is "
            "enough")
    root = _diagnose_text(tmp_path, text)
    assert root.confidence.value == "medium"
    assert {root.cause, root.alternatives[0].cause} == {CauseId.gpu_oom, CauseId.shm_too_small}


def test_a_driver_version_printed_beside_error_35_keeps_the_mismatch_high(tmp_path):
    """A version printed with the error shows a driver answered: it is too old, not missing."""
    root = _diagnose_text(tmp_path, "ExternalError: Cuda error(35), CUDA driver version is insufficient for CUDA "
                                    "runtime version. [Hint: Please check your driver version: 10010 is older than "
                                    "11020. CUDA Driver Version: 10.1]")
    assert (root.cause, root.confidence.value) == (CauseId.cuda_cudnn_mismatch, "high"), root


def test_why_of_a_text_with_no_rank_speaks_of_no_other_rank(tmp_path):
    """A single-process snippet read by its structure (the CUDA status code): the explanation says
    the text names no rank; it must not describe other ranks dying of a dead peer, which the text
    does not show (batch 30's 3002 and 3005, two GPU predictors)."""
    root = _diagnose_text(tmp_path, "OSError: (External)  Cuda error(700), an illegal memory access was encountered")
    assert root is not None and root.cause == CauseId.cuda_error_other
    assert "names no rank" in root.why
    assert "other ranks" not in root.why


@pytest.mark.parametrize("line", [
    "MemoryError: (ResourceExhausted) Fail to alloc memory of 4398046511104 size.",
    "terminate called after throwing an instance of 'std::bad_alloc'",
])
def test_a_host_allocation_paddle_reports_itself_stays_high(tmp_path, line):
    """Paddle's host allocator names the size, and an uncaught bad_alloc aborts a native process
    that no binding called: neither is the bare binding form that a misread model also raises."""
    root = _diagnose_text(tmp_path, line)
    assert (root.cause, root.confidence.value) == (CauseId.host_out_of_memory, "high"), root
