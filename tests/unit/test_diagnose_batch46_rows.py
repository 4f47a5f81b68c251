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


def test_x2paddles_list_of_ops_it_cannot_map_is_the_converters_release(tmp_path):
    """pytorch_op_mapper.py PyTorchOpMapper.__init__: the op check's header, one line per op, then
    raise Exception("Model is not supported yet."). Read as the converter's release (a newer X2Paddle maps more ops),
    as the corpus labels 4 of its 6 such logs (session 15; it was read as PyTorch's release before)."""
    rc = root_cause_of(tmp_path, "========= 2 OPs are not supported yet ===========\n========== aten::scaled_dot_product"
                                 "_attention ============\n========== aten::unflatten ============\nTraceback (most recent "
                                 "call last):\n  File \"convert.py\", line 9, in <module>\n    pytorch2paddle(net, \"pd\", "
                                 "\"trace\", [x])\n  File \"/py/site-packages/x2paddle/op_mapper/pytorch2paddle/pytorch_op_"
                                 "mapper.py\", line 41, in __init__\n    raise Exception(\"Model is not supported yet.\")\n"
                                 "Exception: Model is not supported yet.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "x2paddle_torch_op_unsupported", (rc.cause, rc.why)
    assert rc.confidence.value == "medium"


def test_x2paddles_list_of_another_frameworks_ops_is_the_converters_release(tmp_path):
    """tf_op_mapper.py: the same header and op lines for TensorFlow ops, which only a later X2Paddle maps (session 8)."""
    rc = root_cause_of(tmp_path, "========= 2 OPs are not supported yet ===========\n========== BatchToSpaceND ======"
                                 "======\n========== SpaceToBatchND ============\nException: Model is not supported yet.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
