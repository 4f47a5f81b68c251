"""A cause stated early, a generic error later: version banners and version warnings before an
NCCL failure. Every line is built from the template of the message in NCCL's or Paddle's own
text (nccl-cu12 libnccl.so strings; Paddle's core library strings), never copied from one log."""

from paddle_doctor.diagnose import diagnose_paths

BANNER = "{host}:{pid}:{pid} [{dev}] NCCL INFO NCCL version {version}"  # NCCL_DEBUG=INFO, init.cc
BOOTSTRAP = "{host}:{pid}:{pid} [{dev}] NCCL INFO Bootstrap : Using eth0:10.0.0.{n}<0>"
STEP = "[2025-11-29 10:00:0{n},123] [    INFO] - loss: 1.5{n}, global_step: 1{n}"
NCCL_FAILURE = [  # Paddle's enforce of an NCCL result: NCCL error(%d), %s (ncclGetErrorString)
    "Traceback (most recent call last):",
    '  File "/work/train.py", line 41, in <module>',
    "    dist.all_reduce(t)",
    "OSError: (External) NCCL error(3), internal error - please report this issue to the NCCL developers. "
    "(at /paddle/paddle/fluid/distributed/collective/process_group_nccl.cc:112)",
]


def _worker(rank, version, failing=True, host=None):
    host = host or f"node{rank}"
    lines = [BOOTSTRAP.format(host=host, pid=4000 + rank, dev=0, n=rank + 1),
             BANNER.format(host=host, pid=4000 + rank, dev=0, version=version),
             STEP.format(n=rank)]
    return "\n".join(lines + (NCCL_FAILURE if failing else [])) + "\n"


def _logdir(tmp_path, versions, failing=(0, 1)):
    log = tmp_path / "log"
    log.mkdir()
    for rank, version in enumerate(versions):
        (log / f"workerlog.{rank}").write_text(_worker(rank, version, rank in failing))
    return log


def test_different_nccl_banners_name_the_mismatch_with_the_nccl_error_as_evidence(tmp_path):
    log = _logdir(tmp_path, ["2.18.3+cuda12.2", "2.16.5+cuda11.8"])
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "nccl_version_mismatch" and rc.confidence.value == "high"
    assert rc.ranks == (0,)
    texts = [e.text for e in rc.evidence]
    assert any("NCCL error(3), internal error" in t for t in texts)
    assert any("NCCL version 2.18.3" in t for t in texts) and any("NCCL version 2.16.5" in t for t in texts)
    assert rc.alternatives[0].cause == "nccl_error"
    assert rc.fact("nccl_versions") == {"2.16.5": [1], "2.18.3": [0]}
    assert "2.16.5 (rank 1)" in rc.why and "2.18.3 (rank 0)" in rc.why


def test_the_same_nccl_everywhere_leaves_the_nccl_error(tmp_path):
    log = _logdir(tmp_path, ["2.18.3+cuda12.2", "2.18.3+cuda12.2"])
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "nccl_error"


def test_only_the_build_suffix_differs_is_not_a_mismatch(tmp_path):
    log = _logdir(tmp_path, ["2.18.3+cuda12.2", "2.18.3+cuda12.1"])
    assert diagnose_paths([str(log)]).root_cause.cause == "nccl_error"


def test_a_pasted_text_from_two_hosts_is_judged_as_one(tmp_path):
    text = (BANNER.format(host="gpu-a", pid=11, dev=0, version="2.21.5+cuda12.4") + "\n"
            + BANNER.format(host="gpu-b", pid=12, dev=0, version="2.19.3+cuda12.3") + "\n"
            + "\n".join(NCCL_FAILURE) + "\n")
    rc = diagnose_paths(["-"], stdin=text.encode()).root_cause
    assert rc.cause == "nccl_version_mismatch"
    assert "host gpu-a" in rc.why and "host gpu-b" in rc.why
    assert any("NCCL error(3)" in e.text for e in rc.evidence)


def test_a_specific_cause_is_not_overruled_by_banners(tmp_path):
    log = _logdir(tmp_path, ["2.18.3+cuda12.2", "2.16.5+cuda11.8"], failing=())
    (log / "workerlog.1").write_text(_worker(1, "2.16.5+cuda11.8", failing=False) + (
        "ResourceExhaustedError: Out of memory error on GPU 1. Cannot allocate 1.5GB memory on GPU 1, 78.1GB "
        "memory has been allocated and available memory is only 1.2GB.\n"))
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "gpu_oom" and rc.ranks == (1,)


def test_ncclwarn_mismatched_version_is_the_cause_itself(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    warn = "node0:4000:4000 [0] init.cc:612 NCCL WARN Mismatched NCCL version detected : rank 0 version 21803 rank 1 version 21602"
    (log / "workerlog.0").write_text(warn + "\n" + "\n".join(NCCL_FAILURE).replace(
        "NCCL error(3), internal error - please report this issue to the NCCL developers",
        "NCCL error(5), invalid usage (run with NCCL_DEBUG=WARN for details)") + "\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "nccl_version_mismatch" and rc.code == "nccl_version"


def test_paddle_cuda_runtime_warning_explains_a_later_nccl_error(tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    warning = ("W1201 10:00:00.000000  4000 device_context.cc:252] WARNING: device: 0. The installed Paddle is "
               "compiled with CUDA 11.2, but CUDA runtime version in your machine is 10.2, which may cause serious "
               "incompatible bug. Please recompile or reinstall Paddle with compatible CUDA version.")
    (log / "workerlog.0").write_text(warning + "\n" + "\n".join(NCCL_FAILURE) + "\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == "cuda_cudnn_mismatch"
    assert any("NCCL error(3)" in e.text for e in rc.evidence)
    assert rc.alternatives[0].cause == "nccl_error"
