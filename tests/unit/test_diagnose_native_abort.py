"""A native abort that the shell or libstdc++ reports, with nothing more specific above it: a
native crash at low confidence, never "no failure found" (issue 29: zero logs with an error and no
verdict). A line that merely starts with "Aborted" is not one."""

import pytest
from pastes import root_cause_of



def _root(tmp_path, text):
    return root_cause_of(tmp_path, text, "train.log")


@pytest.mark.parametrize("line", [
    "Aborted (core dumped)",
    "Aborted",
    "./run.sh: line 12: 31337 Aborted                 (core dumped) python tools/train.py -c cfg.yml",
    "[1]    4242 abort (core dumped)  python train.py",
])
def test_the_shells_sigabrt_report_is_a_native_crash(tmp_path, line):
    root = _root(tmp_path, f"epoch 1 step 10 loss 0.52\n{line}\n")
    assert root is not None and root.cause == "segfault" and root.confidence.value == "low"


def test_an_uncaught_cpp_exception_names_its_type(tmp_path):
    root = _root(tmp_path, "loading model\nterminate called after throwing an instance of 'std::runtime_error'\n"
                           "  what():  boom\nAborted (core dumped)\n")
    assert root.cause == "segfault" and "std::runtime_error" in root.message and root.confidence.value == "low"


def test_what_the_exception_says_still_decides_when_it_names_a_cause(tmp_path):
    root = _root(tmp_path, "terminate called after throwing an instance of 'paddle::memory::allocation::BadAlloc'\n"
                           "  what():  \nAborted (core dumped)\n")
    assert root.cause == "gpu_oom"


@pytest.mark.parametrize("line", ["Aborted training: loss is nan", "abort: no such config"])
def test_a_line_that_only_starts_with_the_word_is_no_failure(tmp_path, line):
    assert _root(tmp_path, f"step 1\n{line}\n") is None


def test_a_gloo_timeout_thrown_through_terminate_stays_a_timeout(tmp_path):
    # gloo's exception type: its what() line (a TIMEOUT) is read by its own row, not as a crash
    root = _root(tmp_path, "terminate called after throwing an instance of 'gloo::TimeoutException'\n"
                           "  what():  [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:587] TIMEOUT self_rank = 0 "
                           "pair_rank = 1\n")
    assert root.cause == "collective_timeout"
