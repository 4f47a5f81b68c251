"""Issue 29, after gathered batch 22: messages whose emitter names the cause, read as that cause.

- Paddle's ``require_version`` and the suites' ``check_version`` (one template across PaddleDetection,
  PaddleOCR, PaddleClas, models) say the installed Paddle is older than the code needs, raised as a plain
  ``Exception``: the code was written for another Paddle (not just "an exception").
- ``paddle.load`` raises ``can not parse the file`` after every format it knows failed: not a checkpoint
  it can read (also when the paste holds the line alone, without paddle/framework/io.py's frame).
- PaddleOCR's predictor utility logs (1.x, at INFO level, then exits) or raises (2.x-3.x) ``not find
  model file path``: the file is not there.
- A TensorRT build's ``libnvinfer`` that cannot be loaded is a warning (printed at start-up whether or not
  TensorRT is used): the verdict only when nothing else names a cause, and never above ``low`` alone.
- A missing path named ``None`` was built from a setting with no value: the setting is wrong.
- An operator the op registry lacks (op_info.h ``Operator (x) is not registered.``, framework.py
  ``Operator "x" has not been registered.``) that is not one of the NCCL-only operators: the program or
  saved model was made for a Paddle that has it (the NCCL-only ones stay a Windows/CPU build).

Lines follow the emitting code's template (cited in the rows); none is a corpus log.
"""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import FRAMES, verdict_of as _cause


@pytest.mark.parametrize("text", [
    FRAMES.format(path="/work/PaddleDetection/ppdet/utils/check.py", line=72, func="check_version",
                  code="raise Exception(err)")
    + "Exception: PaddlePaddle version 2.2 or higher is required, or a suitable develop version is satisfied as "
      "well. \nPlease make sure the version is good with your code.\n",
    FRAMES.format(path="/env/lib/python3.8/site-packages/paddle/fluid/framework.py", line=411, func="require_version",
                  code="raise Exception(")
    + "Exception: VersionError: PaddlePaddle version 2.5.0 or higher is required, but 2.4.2 installed, please upgrade "
      "your PaddlePaddle to 2.5.0 or other higher version.\n",
    FRAMES.format(path="/env/lib/python3.8/site-packages/paddle/fluid/framework.py", line=405, func="require_version",
                  code="raise Exception(")
    + "Exception: VersionError: PaddlePaddle version in [1.6.0, 1.8.5] required, but 2.0.0 installed.\n",
])
def test_a_paddle_older_or_newer_than_the_code_needs_is_an_api_mismatch(tmp_path, text):
    rc = _cause(tmp_path, text)
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)
    assert "required" in rc.evidence[0].text


def test_the_develop_build_warning_of_require_version_is_not_the_cause(tmp_path):
    rc = _cause(tmp_path, "/env/lib/python3.8/site-packages/paddle/fluid/framework.py:380: UserWarning: PaddlePaddle "
                "version 2.0 or higher is required, but 0.0.0 installed, Maybe you are using a develop version, "
                "please make sure the version is good with your code.\n"
                + FRAMES.format(path="train.py", line=9, func="<module>", code="run()")
                + "ValueError: boom in the user's code\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "ValueError: `paddle.load` can not parse the file:pretrained/model.pdparams.\n",
    FRAMES.format(path="/env/lib/python3.10/site-packages/paddle/framework/io.py", line=1148, func="load",
                  code="raise ValueError(")
    + "ValueError: `paddle.load` can not parse the file:output/epoch_3.pdparams.\n",
])
def test_a_file_paddle_load_cannot_parse_is_not_a_checkpoint(tmp_path, text):
    rc = _cause(tmp_path, text)
    assert rc.cause == CauseId.checkpoint_corrupt, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "[2021/01/24 13:39:13] root INFO: not find model file path ./inference/det_infer/inference.pdmodel\n",
    FRAMES.format(path="/work/PaddleOCR/tools/infer/utility.py", line=221, func="create_predictor",
                  code="raise ValueError(\"not find model file path {}\".format(")
    + "ValueError: not find model file path ./inference/ch_PP-OCRv3_rec_infer/inference.pdmodel\n",
    "2020-10-28 10:08:59,071-INFO: not find params file path ./inference/cls/params\n",
])
def test_a_predictor_model_file_that_is_not_there_is_a_missing_file(tmp_path, text):
    rc = _cause(tmp_path, text)
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "TensorRT dynamic library (libnvinfer.so) that Paddle depends on is not configured correctly. (error code is "
    "libnvinfer.so: cannot open shared object file: No such file or directory)\n",
    "W0829 19:15:43.720268  3556 tensorrt.cc:56] You are using Paddle compiled with TensorRT, but TensorRT dynamic "
    "library is not found. Ignore this if TensorRT is not needed.\n",
    "The TensorRT that Paddle depends on is not configured correctly.\n",
])
def test_a_tensorrt_library_that_cannot_load_is_a_warning_about_the_cuda_stack(tmp_path, line):
    rc = _cause(tmp_path, line)
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.why)
    assert rc.confidence.value == "low", rc.confidence
    assert "TensorRT" in rc.evidence[0].text


def test_the_tensorrt_warning_does_not_outrank_the_error_that_follows(tmp_path):
    rc = _cause(tmp_path, "TensorRT dynamic library (libnvinfer.so) that Paddle depends on is not configured "
                "correctly. (error code is libnvinfer.so: cannot open shared object file: No such file or directory)\n"
                + FRAMES.format(path="/env/lib/python3.7/site-packages/paddle/framework/io.py", line=978, func="load",
                                code="raise ValueError(")
                + "ValueError: The ``path`` (output/best_model/model.pdparams) to load model not exists.\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("message", ["AssertionError: The None.pdparams does not exists!",
                                     "Exception: ./output/None does not exist!"])
def test_a_missing_path_named_none_is_a_setting_with_no_value(tmp_path, message):
    rc = _cause(tmp_path, FRAMES.format(path="/work/PaddleOCR/ppocr/utils/save_load.py", line=95, func="load_model",
                                        code="assert os.path.exists(") + message + "\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_a_missing_path_with_a_real_name_stays_a_missing_file(tmp_path):
    rc = _cause(tmp_path, FRAMES.format(path="/work/PaddleOCR/ppocr/utils/save_load.py", line=95, func="load_model",
                                        code="assert os.path.exists(")
                + "AssertionError: The ./output/None_backup/best.pdparams does not exists!\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


PREDICTOR = ("Traceback (most recent call last):\n"
             '  File "infer.py", line 12, in <module>\n'
             "    predictor = paddle.inference.create_predictor(config)\n")


@pytest.mark.parametrize("text", [
    PREDICTOR + "RuntimeError: (NotFound) Operator (lookup_table) is not registered.\n"
                "  [Hint: op_info_ptr should not be null.] (at /paddle/paddle/fluid/framework/op_info.h:152)\n",
    "----------------------\nError Message Summary:\n----------------------\n"
    "NotFoundError: Operator (fused_multi_transformer) is not registered.\n"
    "[Hint: op_info_ptr should not be null.] (at /paddle/paddle/fluid/framework/op_info.h:151)\n",
    PREDICTOR + '  File "/env/lib/python3.9/site-packages/paddle/fluid/framework.py", line 2713, in get_op_proto\n'
                "    raise ValueError(\"Operator \\\"%s\\\" has not been registered.\" % type)\n"
                'ValueError: Operator "sequence_conv" has not been registered.\n',
])
def test_an_operator_the_installed_paddle_does_not_register_is_an_api_mismatch(tmp_path, text):
    rc = _cause(tmp_path, text)
    assert rc.cause == CauseId.paddle_api_mismatch, rc.why


def test_an_nccl_only_operator_that_is_not_registered_stays_a_build_without_nccl(tmp_path):
    rc = _cause(tmp_path, PREDICTOR + "RuntimeError: (NotFound) Operator (c_gen_nccl_id) is not registered.\n")
    assert rc.cause == CauseId.windows_no_nccl, rc.why


def test_other_things_not_registered_are_not_an_operator_missing(tmp_path):
    """A custom device type that is not registered is not the op registry's lookup."""
    rc = _cause(tmp_path, PREDICTOR + "RuntimeError: Invalid CustomPlace(1, 1), the device type is not registered "
                "as a custom device.\n  [operator < conv2d > error]\n")
    assert rc.cause != CauseId.paddle_api_mismatch, rc.why
