"""The signature table: every example line is a real message that its own signature matches, and
that the fast scanner would pick up (it contains a trigger)."""

import io

import pytest

from paddle_doctor.diagnose.read.scan import scan_stream
from paddle_doctor.diagnose.read.literals.triggers import TRIGGERS
from paddle_doctor.diagnose.signatures import SIGNATURES, match_line


@pytest.mark.parametrize("sig", SIGNATURES, ids=lambda s: s.name)
def test_example_matches_its_own_signature(sig):
    assert sig.example, f"{sig.name} has no example line"
    matched = match_line(sig.example)
    assert matched is not None and matched[0].name == sig.name


@pytest.mark.parametrize("sig", SIGNATURES, ids=lambda s: s.name)
def test_example_contains_a_trigger(sig):
    assert any(t in sig.example for t in TRIGGERS)
    hits = list(scan_stream(io.BytesIO(b"noise line\n" + sig.example.encode() + b"\nmore\n")))
    assert [h.line for h in hits] == [2]


# Rows whose own match is part of a longer line that always carries a trigger: NCCL's INFO prefix, a
# frame's 'File "', the suites' RuntimeError. (Paddle's CUDAPlace check was one, until batch 35 showed it as a
# glog E line with no other trigger.)
_MATCH_WITHOUT_TRIGGER = {"nccl_interface", "paddleseg_config_check", "launcher_frame"}


@pytest.mark.parametrize("sig", [s for s in SIGNATURES if s.role in ("cause", "exception", "context") and s.example
                                 and s.name not in _MATCH_WITHOUT_TRIGGER], ids=lambda s: s.name)
def test_the_words_a_row_matches_are_scanned_alone(sig):
    """A line pasted with only what the row reads (no exception type, no "Error" around it) is still scanned:
    the row's own match holds a trigger (issue 29: Paddle's loader line without its error-code tail was missed)."""
    region = sig.pattern.search(sig.example).group(0)
    hits = list(scan_stream(io.BytesIO(b"noise line\n" + region.encode() + b"\nmore\n")))
    assert [h.line for h in hits] == [2], region


try:  # the regex parser (3.11 moved it; sre_parse still imports there, with a DeprecationWarning)
    import re._constants as _sre
    import re._parser as _sre_parse
except ImportError:  # Python 3.10
    import sre_constants as _sre  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

DISTINCTIVE = 14  # characters of literal text that make a branch's words a message of its own
# Branches whose distinctive words are left without a trigger, and why: common in healthy logs (each line holding
# them would be read again by every row), or a frame path (``File "`` reads frames).
_BRANCH_WITHOUT_TRIGGER = {
    ("omp_duplicate", "already initialized"): "printed by many libraries' healthy start-up lines; its line says OMP",
    ("optimizer_accumulator_shape", "Op should have"): "a fragment; the row's lines carry 'Error' in practice",
    ("pir_value_given_variable", "argument (position"): "a TypeError line: 'Error' is on it",
    ("to_static_keyword_unknown", "() got an unexpected keyword argument '"): "a TypeError line: 'Error' is on it",
    ("pip_source_build_failed", "Building wheel for"): "pip prints it for every wheel it builds, failed or not",
    ("role_maker_env_missing", "please set the"): "a fragment of many healthy hints",
    ("launcher_frame", "paddle/distributed/"): "a frame path: its line starts with File \"",
    ("hybrid_degrees_mismatch", ", sharding_num:"): "the degrees assert's own message, after AssertionError:",
    ("unused_params", "find_unused_parameters"): "the setting's name in every config print and call; Paddle's error "
                                                   "line carries 'Error'",
    ("omp_duplicate", "KMP_DUPLICATE_LIB_OK"): "a command line or export sets it; Intel OpenMP's hint follows 'OMP: Error #15'",
    ("gloo_reset", "Connection closed by peer"): "bare, any program's words; gloo's own line carries pair.cc",
    ("listen", "create libuv server at port:"): "2.5+'s healthy TCPStore start line: read, it adds a listen fact (and a rank entry) to every report",
}


def _literal_runs(items) -> list[str]:
    """The literal text a match of ``items`` (a parsed regex sequence) must contain, run by run."""
    runs, current = [], ""
    for op, arg in items:
        if op == _sre.LITERAL:
            current += chr(arg)
            continue
        runs, current = runs + ([current] if current else []), ""
        if op == _sre.SUBPATTERN:
            runs += _literal_runs(arg[-1])
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and arg[0] >= 1:
            runs += _literal_runs(arg[2])
    return runs + ([current] if current else [])


def _branches(sig) -> list[list]:
    items = list(_sre_parse.parse(sig.pattern.pattern))
    if len(items) == 1 and items[0][0] == _sre.BRANCH:
        return [list(branch) for branch in items[0][1][1]]
    return [items]


def test_every_distinctive_branch_of_a_row_carries_a_trigger():
    """Each top-level alternative of a row's regex whose words are a message of their own (a literal run of
    DISTINCTIVE characters) holds a trigger: else a line with those words and no error word is never read (issue 29:
    the dygraph setter's "Variable Shape not match" pasted alone, batch119). Alternatives nested inside a group are
    read as one run of their common words: not checked one by one (a review found about 60 such without a trigger)."""
    missing = []
    for sig in SIGNATURES:
        for branch in _branches(sig):
            runs = [r.strip() for r in _literal_runs(branch)]
            longest = max(runs, key=len, default="")
            if len(longest) < DISTINCTIVE or any(t in r for r in runs for t in TRIGGERS):
                continue
            if (sig.name, longest) not in _BRANCH_WITHOUT_TRIGGER:
                missing.append(f"{sig.name}: {longest!r}")
    assert not missing, missing


@pytest.mark.parametrize("sig", SIGNATURES, ids=lambda s: s.name)
def test_every_signature_cites_its_source(sig):
    """Where the message is emitted (package, version, file): signatures come from the sources."""
    assert len(sig.source) > 20 and any(k in sig.source for k in ("pp ", "CPython", "CUDA", "NCCL", "nccl",
                                                                   "paddle-doctor", "glog", "PyTorch", "C library",
                                                                   "Linux mm/", "bash ", "Intel OpenMP", "paddlenlp ",
                                                                   "PaddleOCR ", "Paddle Serving ", "Jupyter ", "Ascend CANN ",
                                                                   "PaddleSeg ", "gunicorn ", "libstdc++ ", "Windows ",
                                                                   "numpy ", "glibc ", "protobuf ", "PaddleDetection ",
                                                                   "pybind11 ", "pip ", "uv ", "gdb ", "safetensors ", "Paddle-Lite ",
                                                                   "Paddle2ONNX ", "Android ",
                                                                   "Triton Inference Server ", "ONNX Runtime ", "TensorRT ",
                                                                   "Kubernetes ", "Docker ", "NVIDIA ", "FastDeploy ", "onnx ", "PaddleCustomDevice ", "X2Paddle ",
                                                                   "HDF5 ", "GCC ", "Linux kernel ", "PyMuPDF ", "CMake ", "SWIG ", "Go ",
                                                                   "PaddleHub ", "PaddleNLP ", "PaddleX ", "cffi ", "Apple ", "OpenJDK ", "Anakin ", "GNU ld ", "PaddleSlim ", "Intel MKL ", "PaddleOCR-json ",
                                                                   "pysoundfile ", "OpenCV ", "gcc ", "PARL ", "Microsoft ", "clang ", "conda ", "gflags ",
                                                                   "paddle-mobile ", "Rockchip RKNN ", "V8 "))


def test_signature_table_is_data_with_cause_ids():
    from paddle_doctor.catalog import cause_ids
    from paddle_doctor.diagnose.signatures import signature_table, signatures_by_cause

    table = signature_table()
    assert len(table) == len(SIGNATURES) and all(row["source"] and row["example"] for row in table)
    assert set(signatures_by_cause()) <= set(cause_ids())
    assert "gloo_size_mismatch" in signatures_by_cause()["uneven_eval_batches"]


def test_names_unique():
    names = [s.name for s in SIGNATURES]
    assert len(names) == len(set(names))


def test_causes_are_catalog_ids():
    from paddle_doctor.catalog import cause_ids

    ids = set(cause_ids())
    assert {s.cause for s in SIGNATURES if s.cause} <= ids


def test_training_lines_are_not_errors():
    for line in ("[2024/03/10 00:35:50] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001, loss: 1.2, "
                 "avg_reader_cost: 0.1 s, ips: 100 samples/s, max_mem_allocated: 9123 MB",
                 "UserWarning: No ccache found. Please be aware that recompiling all source files may be required.",
                 "I1129 21:40:56.031740  4601 tcp_utils.cc:132] Successfully connected to 127.0.0.1:46196",
                 "I1129 10:00:00.123456  1234 process_group_nccl.cc:155] ProcessGroupNCCL pg_timeout_ 1800000"):
        matched = match_line(line)
        assert matched is None or matched[0].role not in ("cause", "exception"), line


@pytest.mark.parametrize("request_size, held, cause", [
    ("2.250000kB", "127.994262TB", "stale_process_holding_gpu"),  # a figure no GPU has: not Paddle's own use
    ("1.500000GB", "12.000000MB", "stale_process_holding_gpu"),  # any request size, Paddle holds little
    ("80.000000MB", "300.000000kB", "stale_process_holding_gpu"),
    ("1.500000GB", "30.500000GB", "gpu_oom"),  # Paddle itself filled the GPU
])
def test_nothing_free_goes_by_what_paddle_holds_not_by_the_request_size(request_size, held, cause):
    line = (f"Out of memory error on GPU 1. Cannot allocate {request_size} memory on GPU 1, {held} memory has been "
            "allocated and available memory is only 0.000000B.")
    assert match_line(line)[0].cause == cause


@pytest.mark.parametrize("line", [
    "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:576] Read error [127.0.0.1]:24502: "
    "Connection reset by peer",
    "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:383] writev [127.0.0.1]:50839: Broken pipe",
    "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:383] writev [127.0.0.1]:50839: "
    "Connection reset by peer",
    "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:605] Socket closed [127.0.0.1]:50839",
    "  what():  [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:446] Connection closed by peer [10.0.0.2]:61234",
])
def test_every_word_gloo_has_for_a_lost_peer_is_a_peer_symptom(line):
    """gloo 3.3.1's pair.cc: the reading side's reset or closed socket, the sending side's writev errno."""
    assert [h.line for h in scan_stream(io.BytesIO(line.encode() + b"\n"))] == [1]
    matched = match_line(line)
    assert matched is not None and matched[0].name == "gloo_reset", matched


@pytest.mark.parametrize("line", ["OSError: writev failed: No space left on device",
                                  "ERROR: Socket closed by the server"])
def test_other_writev_and_socket_errors_are_not_a_peer_symptom(line):
    matched = match_line(line)
    assert matched is None or matched[0].name != "gloo_reset", matched
