"""Issue 29, ninth session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("text", [
    "[Paddle2ONNX] Due to the operator: bitwise_and, requires opset_version >= 18.\n[Paddle2ONNX] This PaddlePaddle "
    "model is not able to export to ONNX with opset_version=7, please set the opset_version to 18 or higher for "
    "successfully conversion.\n[ERROR] Due to opset version, the model exporting is aborted, please set a higher "
    "opset_version or set auto_upgrade_opset=true.\n",
    "This model cannot export to onnx with opset version = 9, the opset version for this model should be greater or "
    "equal than 11\nDue to opset version, the model exporting is aborted.\n",
    "[Paddle2ONNX] This PaddlePaddle model is not able to export to ONNX with opset_version=11, please set the "
    "opset_version to 13 or higher for successfully conversion.\n",
])
def test_paddle2onnx_stopping_at_a_too_low_opset_is_the_export_option(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.config_error and rc.code == "p2o_opset_too_low", (rc.cause, rc.code, rc.why)


def test_paddle2onnx_upgrading_the_opset_itself_is_no_failure(tmp_path):
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Opset version will change to 13 from 11\n[Paddle2ONNX] Use opset_version = "
                             "13 for ONNX export.\n[Paddle2ONNX] PaddlePaddle model is exported as ONNX format now.\n")
    assert rc is None or rc.cause != CauseId.config_error, (rc.cause, rc.why)
