"""Issue 29, after gathered batch 18: an environment variable read with ``os.environ[...]`` that the
process lacks (CPython raises ``KeyError`` naming it: the variable says whose setting is missing), and
Paddle 1.x's GPU-count check (``id must less than GPU count``, hinted as ``GetCUDADeviceCount():0``).
An exception's type before its message is not a secret's name: the redactor kept masking every
``KeyError``'s key, the one word that tells these causes apart. Lines follow the emitting code's
template (cited in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.redact import redact
from pastes import root_cause_of

TRACE = ("Traceback (most recent call last):\n"
         '  File "infer.py", line 12, in <module>\n'
         "    places = os.environ[{var!r}]\n"
         '  File "/usr/lib/python3.8/os.py", line 675, in __getitem__\n'
         "    raise KeyError(key) from None\n"
         "KeyError: {var!r}\n")


_diagnose = root_cause_of


@pytest.mark.parametrize("line", ["KeyError: 'CUDA_VISIBLE_DEVICES'", "builtins.KeyError: 'PADDLE_TRAINER_ID'",
                                  "KeyError: 'password'", "  KeyError: 'conv1.weight'"])
def test_an_exceptions_message_is_not_masked_as_a_secrets_value(line):
    assert redact(line) == line


@pytest.mark.parametrize("line, masked", [
    ("api_key: s3cr3t-value", "api_key: ***"),
    ("{'password': 'hunter2'}", "{'password': '***'}"),
    ("AuthenticationError: rejected ghp_abcdefghijklmnopqrstuvwxyz0123", "AuthenticationError: rejected ***"),
])
def test_secrets_are_still_masked_beside_an_exception_type(line, masked):
    assert redact(line) == masked


@pytest.mark.parametrize("var, cause", [
    ("CUDA_VISIBLE_DEVICES", CauseId.cuda_visible_devices_misconfig),
    ("FLAGS_selected_gpus", CauseId.missing_dist_env),
    ("PADDLE_TRAINER_ID", CauseId.missing_dist_env),
    ("PADDLE_TRAINERS_NUM", CauseId.missing_dist_env),
])
def test_an_unset_variable_names_whose_setting_is_missing(tmp_path, var, cause):
    rc = _diagnose(tmp_path, TRACE.format(var=var))
    assert rc is not None and rc.cause == cause, (rc and rc.cause, rc and rc.why)
    assert var in rc.evidence[0].text


def test_a_keyerror_of_another_key_stays_the_exception(tmp_path):
    rc = _diagnose(tmp_path, TRACE.format(var="HOME_DIR"))
    assert rc is not None and rc.cause == CauseId.python_exception, rc and rc.cause


def test_paddle_1x_gpu_count_check_with_no_gpu_is_a_missing_device(tmp_path):
    rc = _diagnose(tmp_path, "----------------------\nError Message Summary:\n----------------------\n"
                             "Error: id must less than GPU count\n"
                             "  [Hint: Expected id < GetCUDADeviceCount(), but received id:0 >= "
                             "GetCUDADeviceCount():0.] at (/paddle/paddle/fluid/platform/gpu_info.cc:240)\n")
    assert rc is not None and rc.cause == CauseId.device_not_found, (rc and rc.cause, rc and rc.why)
