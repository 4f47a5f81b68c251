"""The public surface: __all__ sorted and complete, every name resolves, and importing the package
(or resolving the names) never imports paddle."""

import subprocess
import sys

import pytest

import paddle_doctor


def test_all_is_sorted_and_unique():
    assert list(paddle_doctor.__all__) == sorted(set(paddle_doctor.__all__))


@pytest.mark.needs_paddle
def test_every_public_name_resolves():
    for name in paddle_doctor.__all__:
        assert getattr(paddle_doctor, name) is not None, name
    assert set(paddle_doctor._LAZY) <= set(paddle_doctor.__all__)
    assert set(paddle_doctor.__all__) <= set(dir(paddle_doctor))


def test_unknown_name_is_an_attribute_error():
    try:
        paddle_doctor.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_import_and_resolve_without_paddle():
    code = ("import sys, paddle_doctor as p; [getattr(p, n) for n in p.__all__ if n not in p.NEEDS_PADDLE]; "
            "assert 'paddle' not in sys.modules, 'paddle imported'; print('OK')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "OK", proc.stderr


@pytest.mark.needs_paddle
def test_only_the_declared_metric_classes_import_paddle():
    code = ("import sys, paddle_doctor as p\n"
            "for n in sorted(p.NEEDS_PADDLE):\n"
            "    getattr(p, n); assert 'paddle' in sys.modules, n\n"
            "print('OK')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "OK", proc.stderr
    assert paddle_doctor.NEEDS_PADDLE <= set(paddle_doctor.__all__)
