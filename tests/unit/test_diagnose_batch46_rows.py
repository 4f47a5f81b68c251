"""Issue 29, after gathered batch 46: Paddle's tensor reader finding no tensor version in the file it was given as
saved parameters (a version field of three or more digits: the bytes are another kind of file, so the model/params
file names point at the wrong file), with a damaged file as the near cause. Every line follows the emitting code's
template cited in the signature (tensor_util.cc TensorFromStream); none is a corpus log."""

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_SUMMARY = "----------------------\nError Message Summary:\n----------------------\n"


def test_a_tensor_version_that_is_no_version_is_the_wrong_file_named_as_parameters(tmp_path):
    """TensorFromStream reads the first four bytes as the version: 1818584946 is text, not a saved tensor."""
    rc = root_cause_of(tmp_path, _SUMMARY + "InvalidArgumentError: tensor version 1818584946 is not supported, Only "
                                            "version 0 is supported\n  [Hint: Expected version == 0U, but received "
                                            "version:1818584946 != 0U:0.] at (/paddle/paddle/fluid/framework/"
                                            "tensor_util.cc:716)\n  [operator < load_combine > error]\n")
    assert rc.cause == CauseId.config_error and rc.code == "tensor_stream_not_a_tensor", (rc.cause, rc.why)
    assert rc.confidence.value == "medium"
    assert rc.alternatives and rc.alternatives[0].cause == CauseId.checkpoint_corrupt


def test_a_small_tensor_version_is_left_to_the_loaders_own_reading(tmp_path):
    """A plausible format number (here 1) is not another kind of file: the row does not claim it."""
    rc = root_cause_of(tmp_path, _SUMMARY + "InvalidArgumentError: tensor version 1 is not supported, Only version 0 "
                                            "is supported\n  [operator < load_combine > error]\n")
    assert rc.code != "tensor_stream_not_a_tensor", (rc.cause, rc.code, rc.why)
