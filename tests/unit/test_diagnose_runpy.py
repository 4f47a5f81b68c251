"""`python -m MODULE` run by an interpreter that lacks MODULE: CPython's runpy prints one line and no
traceback (the launcher started with a Python where Paddle is not installed). It is an error, read
as the exception it names, not "no failure found" or "unknown"."""

import pytest

from pastes import root_cause_of


@pytest.mark.parametrize("line,title", [
    ("/root/.pyenv/versions/3.11.7/bin/python: Error while finding module specification for "
     "'paddle.distributed.launch' (ModuleNotFoundError: No module named 'paddle')",
     "ModuleNotFoundError: No module named 'paddle'"),
    ("/usr/bin/python3: No module named paddle.distributed", "no module named paddle.distributed"),
    ("python3.8: No module named paddle", "no module named paddle"),
])
def test_runpys_line_is_the_error(tmp_path, line, title):
    root = root_cause_of(tmp_path, f"+ python -m paddle.distributed.launch train.py\n{line}\n", "terminal.out")
    assert root is not None and root.cause == "python_exception" and title in root.message


def test_a_module_line_inside_a_traceback_keeps_its_own_reading():
    # ModuleNotFoundError raised by an import in the script: the exception line itself, as before
    from paddle_doctor.diagnose.signatures import match_line

    sig, _ = match_line("ModuleNotFoundError: No module named 'visualdl'")
    assert sig.name == "exception"
