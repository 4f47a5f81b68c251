"""A process's death by a signal as the shells, CPython's faulthandler, glibc and IDE consoles report
it, alone after ordinary output: a verdict of the signal's family, never "no failure found" (issue 29:
zero logs with an error and no verdict). Look-alike lines in ordinary output are not deaths."""

import pytest
from pastes import root_cause_of



def _root(tmp_path, line):
    return root_cause_of(tmp_path, f"epoch 1 step 10 loss 0.52\n{line}\n", "train.log")


@pytest.mark.parametrize("line,cause,confidence", [
    ("Floating point exception (core dumped)", "segfault", "high"),
    ("./run.sh: line 4: 2211 Floating point exception(core dumped) python train.py", "segfault", "high"),
    ("Bus error (core dumped)", "segfault", "low"),
    ("[1]    12345 bus error (core dumped)  python train.py", "segfault", "low"),
    ("Trace/breakpoint trap (core dumped)", "segfault", "low"),
    ("zsh: killed     python train.py", "host_oom_killed", "high"),  # as bash's "Killed"
    ("Fatal Python error: Segmentation fault", "segfault", "high"),
    ("Fatal Python error: Illegal instruction", "segfault", "high"),
    ("Fatal Python error: Bus error", "segfault", "low"),
    ("Fatal Python error: Aborted", "segfault", "low"),
    ("double free or corruption (!prev)", "segfault", "low"),
    ("free(): invalid pointer", "segfault", "low"),
    ("malloc(): corrupted top size", "segfault", "low"),
    ("*** stack smashing detected ***: terminated", "segfault", "low"),
    ("*** Error in `python': double free or corruption (fasttop): 0x00007f8a3c000b20 ***", "segfault", "low"),
    ("Process finished with exit code 137 (interrupted by signal 9: SIGKILL)", "host_oom_killed", "high"),
    # Android's libc in logcat (a Paddle-Lite app): the signal's name says which native fault it was
    ("04-04 09:35:51.536 17318-17318/com.example.app A/libc: Fatal signal 4 (SIGILL), code 1 (ILL_ILLOPC), "
     "fault addr 0x792adca3c4 in tid 17318 (example.app), pid 17318 (example.app)", "segfault", "high"),
    ("A/libc: Fatal signal 8 (SIGFPE), code 1 (FPE_INTDIV), fault addr 0x7a1 in tid 911 (Predictor Worke)",
     "segfault", "high"),
])
def test_a_death_by_signal_is_read(tmp_path, line, cause, confidence):
    root = _root(tmp_path, line)
    assert root is not None, line
    assert (root.cause, root.confidence.value) == (cause, confidence), line


@pytest.mark.parametrize("line", [
    "the bus error rate stayed at 0 during training",
    "use float32: floating point exceptions are masked",
    "zsh: command not found: paddle-doctor",
    "malloc arena size set to 64 MB",
    "the handler logs Fatal signal names such as SIGILL when a worker dies",
])
def test_look_alikes_in_ordinary_output_are_no_death(tmp_path, line):
    root = _root(tmp_path, line)
    assert root is None or root.cause not in ("segfault", "shm_too_small", "host_oom_killed"), (line, root)


def test_macos_libcxxabi_terminate_is_an_uncaught_cpp_exception(tmp_path):
    """LLVM libc++abi (macOS) words libstdc++'s "terminate called after throwing" on one line."""
    rc = root_cause_of(tmp_path, "libc++abi: terminating with uncaught exception of type std::runtime_error: Cannot "
                                 "open file ./model.pdmodel\n")
    assert rc is not None and rc.cause == "segfault" and "std::runtime_error" in rc.message


def test_a_jni_library_the_jvm_cannot_find_is_a_missing_file(tmp_path):
    rc = root_cause_of(tmp_path, 'Exception in thread "main" java.lang.UnsatisfiedLinkError: no paddle_lite_jni in '
                                 "java.library.path\n")
    assert rc is not None and rc.cause == "file_not_found" and "paddle_lite_jni" in rc.message
