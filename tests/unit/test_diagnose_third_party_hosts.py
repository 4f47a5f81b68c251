"""Issue 29, after gathered batch 29: programs that embed Paddle on users' desktops. zsh reports a
foreground job a signal ended as "zsh: <its own signal name>  <command>" (not bash's strsignal words); an
installed Paddle package (paddleocr 3.x) rejects an argument of a call written for its previous release by
its own check ("Unknown argument: <name>"); and pybind11 refuses a second extension that binds a type of the
same name (torch and paddlepaddle-gpu loaded into one process). Lines follow the emitting code's template
(cited in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


@pytest.mark.parametrize("line", [
    "zsh: segmentation fault  PPOCRLabel --lang ch",
    "zsh: illegal hardware instruction  python train.py",
    "zsh: segmentation fault (core dumped)  python tools/infer/predict_system.py",
])
def test_zsh_reports_a_native_crash_of_a_foreground_job(tmp_path, line):
    rc = root_cause_of(tmp_path, line + "\n")
    assert rc is not None and rc.cause == CauseId.segfault, (rc and rc.cause, rc and rc.why)
    assert rc.evidence[0].text.startswith("zsh: ")


def test_zsh_abort_is_the_weak_native_crash_reading(tmp_path):
    rc = root_cause_of(tmp_path, "zsh: abort      PPOCRLabel\n")
    assert rc is not None and rc.cause == CauseId.segfault, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value != "high"


def test_a_zsh_line_that_reports_no_signal_is_not_a_crash(tmp_path):
    """zsh's own complaints (a command it cannot find) are not a job ended by a signal."""
    rc = root_cause_of(tmp_path, "zsh: command not found: paddleocr\n")
    assert rc is None or rc.cause != CauseId.segfault, (rc.cause, rc.why)


def _traceback(package_frame: str, exc_line: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/u/app/ocr_service.py", line 22, in <module>\n'
            "    ocr = PaddleOCR(use_angle_cls=True, lang='en', show_log=False)\n"
            f'  File "/home/u/venv/lib/python3.10/site-packages/{package_frame}", line 43, in parse_common_args\n'
            '    raise ValueError(f"Unknown argument: {name}")\n'
            f"{exc_line}\n")


def test_an_installed_paddle_package_rejecting_the_calls_argument_is_code_for_another_release(tmp_path):
    rc = root_cause_of(tmp_path, _traceback("paddleocr/_common_args.py", "ValueError: Unknown argument: show_log"))
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)
    assert "paddleocr" in rc.why and "PaddleOCR(" in rc.why


def test_the_same_check_in_a_package_that_is_not_paddles_is_not_claimed(tmp_path):
    """Another library's argument check says nothing about Paddle's releases."""
    rc = root_cause_of(tmp_path, _traceback("someocr/_common_args.py", "ValueError: Unknown argument: show_log"))
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_another_valueerror_raised_in_paddleocr_is_not_claimed(tmp_path):
    rc = root_cause_of(tmp_path, _traceback("paddleocr/_common_args.py", "ValueError: lang must be a string"))
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_two_extensions_binding_the_same_type_are_libraries_that_cannot_coexist(tmp_path):
    text = ('  File "/home/u/venv/lib/python3.10/site-packages/paddle/base/core.py", line 267, in <module>\n'
            "    from . import libpaddle\n"
            'ImportError: generic_type: type "_gpuDeviceProperties" is already registered!\n')
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.dependency_version_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value != "high"  # which pair of versions coexists, the line does not say


def _package_call(path: str, exc_line: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/u/app/TextOCR.py", line 11, in <module>\n'
            "    ocr = PaddleOCR(\n"
            f'  File "/home/u/venv/lib/python3.10/site-packages/{path}", line 75, in prepare_common_init_args\n'
            "    pp_option = PaddlePredictorOption(\n"
            f"{exc_line}\n")


def test_an_installed_paddle_packages_own_call_that_misfits_its_callee_is_releases_that_do_not_fit(tmp_path):
    """paddleocr 3.1 builds paddlex's PaddlePredictorOption: the callee of another release takes other arguments."""
    rc = root_cause_of(tmp_path, _package_call("paddleocr/_common_args.py",
                                               "TypeError: __init__() takes 1 positional argument but 2 were given"))
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)
    assert "PaddlePredictorOption(" in rc.why


def test_a_signature_misfit_in_the_users_own_code_is_not_claimed(tmp_path):
    """The user's function called with the wrong arguments says nothing about Paddle's releases."""
    text = ("Traceback (most recent call last):\n"
            '  File "/home/u/app/main.py", line 8, in <module>\n'
            "    result = run_ocr(image, 3)\n"
            "TypeError: run_ocr() takes 1 positional argument but 2 were given\n")
    rc = root_cause_of(tmp_path, text)
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)
