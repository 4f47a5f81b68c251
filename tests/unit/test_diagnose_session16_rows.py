"""Readings added in issue 29's sixteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _said(rc) -> str:
    """What the verdict says: a signature row's title is its message, a reading of the error's parts its why."""
    return f"{rc.message} {rc.why}"


# --- an operator without a gradient on the backward path ---------------------------------------------------------

_BACKWARD = ("Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n    optimizer.minimize(loss)\n"
             "  File \"/usr/lib/python3.8/site-packages/paddle/fluid/backward.py\", line 297, in _append_backward_ops_\n"
             "    op.desc, cpt.to_text(no_grad_dict[block.idx]), grad_sub_block_list)\n{exc}\n")


@pytest.mark.parametrize("exc", [
    "paddle.fluid.core.EnforceNotMet: grad_op_maker_ should not be null\nOperator GradOpMaker has not been registered. "
    "at [D:\\1.4.1\\paddle\\paddle/fluid/framework/op_info.h:64]",
    "NotFoundError: Operator gaussian_random's GradOpMaker has not been registered.\nPlease check whether "
    "(gaussian_random) operator has gradient operator.",
    "NotFoundError: Neither operator cast's GradOpMaker nor CompGradOpMaker has been registered."])
def test_backward_through_an_operator_without_a_gradient_is_the_users_network(tmp_path, exc):
    rc = _diagnose(tmp_path, _BACKWARD.format(exc=exc))
    assert rc.cause == CauseId.python_exception and "stop_gradient" in _said(rc), (rc.cause, _said(rc))


def test_an_operator_the_registry_lacks_is_still_another_release(tmp_path):
    rc = _diagnose(tmp_path, _BACKWARD.format(exc="NotFoundError: Operator \"fused_op_x\" has not been registered."))
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, _said(rc))


# --- gflags: a file linked both statically and dynamically --------------------------------------------------------

def test_a_flag_registered_twice_by_one_file_linked_twice_is_two_copies_of_a_library(tmp_path):
    rc = _diagnose(tmp_path, "I0815 21:27:52.719660 13596 Util.cpp:166] commandline: paddle_merge_model\n"
                             "ERROR: something wrong with flag 'check_sparse' in file '/b/paddle/pserver/S.cpp'.  One "
                             "possibility: file '/b/paddle/pserver/S.cpp' is being linked both statically and "
                             "dynamically into this executable.\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "check_sparse" in _said(rc), (rc.cause, _said(rc))


# --- a level glued to its timestamp by a hyphen; PaddleSlim's swallowed X2Paddle exception -----------------------

def test_an_error_level_glued_to_a_timestamp_by_a_hyphen_is_a_failure(tmp_path):
    rc = _diagnose(tmp_path, "2023-02-09 11:47:31,706-INFO: starting\n2023-02-09 11:47:31,706-ERROR: the job broke\n")
    assert rc is not None and rc.confidence.value == "low", rc


@pytest.mark.parametrize("line", ["see the pre-error handling notes", "step 12-error rate 0.3 (lower is better)"])
def test_a_hyphenated_word_is_not_an_error_line(tmp_path, line):
    assert _diagnose(tmp_path, f"{line}\n") is None


def test_paddleslims_x2paddle_failure_is_the_converters_release(tmp_path):
    rc = _diagnose(tmp_path, "2023-02-09 11:47:31,706-INFO: Now translating model from onnx to paddle.\n"
                             "2023-02-09 11:47:31,706-WARNING: __init__() missing 1 required positional argument: "
                             "'enable_onnx_checker'\n2023-02-09 11:47:31,706-ERROR: x2paddle threw an exception, you can "
                             "ask for help at: https://github.com/PaddlePaddle/X2Paddle/issues\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "X2Paddle" in _said(rc), (rc.cause, _said(rc))


# --- a program whose op attributes have types the reader does not know -------------------------------------------

_P2O = ("[Paddle2ONNX] Start to parsing Paddle model...\n{protobuf}[Paddle2ONNX] Failed to parse paddlepaddle model from "
        "read content.\n[Paddle2ONNX] Paddle model convert failed.\n")


def test_an_attribute_type_the_readers_proto_lacks_is_a_newer_paddles_model(tmp_path):
    rc = _diagnose(tmp_path, _P2O.format(protobuf="[libprotobuf ERROR /w/message_lite.cc:133] Can't parse message of type "
                                         "\"paddle2onnx.framework.proto.ProgramDesc\" because it is missing required "
                                         "fields: blocks[0].ops[27].attrs[7].type\n"))
    assert rc.cause == CauseId.paddle_api_mismatch and "newer Paddle" in _said(rc), (rc.cause, _said(rc))


def test_an_unparsed_model_without_protobufs_reason_is_still_the_file_given(tmp_path):
    rc = _diagnose(tmp_path, _P2O.format(protobuf=""))
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


# --- Paddle-Lite: feed and fetch need the host among the valid places --------------------------------------------

def test_no_kernel_for_feed_is_the_valid_places_without_the_host(tmp_path):
    rc = _diagnose(tmp_path, "F0322 10:22:15.475234 29111 static_kernel_pick_pass.cc:71] Check failed: "
                             "!instruct.kernels().empty() No kernels found for feed\n")
    assert rc.cause == CauseId.config_error and "kHost" in _said(rc), (rc.cause, _said(rc))


def test_no_kernel_for_a_models_op_is_not_read_as_the_host(tmp_path):
    rc = _diagnose(tmp_path, "F0322 10:22:15.475234 29111 static_kernel_pick_pass.cc:71] Check failed: "
                             "!instruct.kernels().empty() No kernels found for conv2d_transpose\n")
    assert "kHost" not in _said(rc), _said(rc)


# --- a configured value named bare at the end of the message -------------------------------------------------------

_ASSERT = ("Traceback (most recent call last):\n  File \"tools/eval.py\", line 86, in main\n"
           "    assert cfg.metric in ['COCO', 'VOC'], \"unknown metric type {{}}\".format(cfg.metric)\n{exc}\n")


def test_an_unknown_value_named_bare_at_the_end_is_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, _ASSERT.format(exc="AssertionError: unknown metric type voc"))
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


@pytest.mark.parametrize("exc", ["RuntimeWarning: invalid value encountered in divide",
                                 "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
                                 "AssertionError: unknown metric type voc was given by the reader, then"])
def test_other_words_after_an_unknown_type_are_not_a_bare_value(tmp_path, exc):
    rc = _diagnose(tmp_path, _ASSERT.format(exc=exc))
    assert rc is None or rc.cause != CauseId.config_error, (rc.cause, _said(rc))


# --- a download URL joined with Windows' separator -------------------------------------------------------------------

def test_a_community_url_with_a_backslash_names_the_separator_and_the_release(tmp_path):
    rc = _diagnose(tmp_path, "[2022-10-31 13:23:56,544] [   ERROR] - Downloading from https://bj.bcebos.com/paddlenlp/"
                             "models/community/Salesforce/codegen-350M-mono\\vocab.json failed with code 404!\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "separator" in _said(rc) and "Salesforce" not in _said(rc), _said(rc)


def test_a_community_url_without_a_backslash_names_the_model(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: Downloading from https://bj.bcebos.com/paddlenlp/models/community/"
                             "my-model/model_state.pdparams failed with code 404!\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "my-model" in _said(rc), _said(rc)
