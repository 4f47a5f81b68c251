"""An error no table knows is read by its own words (issue 29): a path it cannot open or that does
not exist, a Paddle version it requires, a parameter shape that does not match, a file cut short, a
value outside the choices. Most misses of the gathered batches' first looks were messages of this
kind from emitters no row named (native loaders, wrappers, suites' checks): the verdict fell back to
``python_exception`` or ``unknown``. A wording is never surer than medium, and never overrules a line
that names its library."""

from __future__ import annotations

import pytest

from pastes import FRAMES, root_cause_of, verdict_of
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose.anatomy.wording import WORDINGS, read_wording

_RAISED = FRAMES.format(path="/home/u/app/predict.py", line=41, func="build", code="raise RuntimeError(msg)")

WORDED = [
    # an exception at the end of a traceback (the structure's last say)
    (_RAISED + "RuntimeError: unable to read weights /srv/models/ocr/rec.pdiparams\n", CauseId.file_not_found),
    (_RAISED + "RuntimeError: det model dir ./infer/det_db (given by --det_model_dir) is missing\n",
     CauseId.file_not_found),
    (_RAISED + "AssertionError: this tool requires paddlepaddle >= 2.4.0, found 2.3.2\n", CauseId.paddle_api_mismatch),
    (_RAISED + "RuntimeError: this release only supports PaddlePaddle 3.0.0 or later (found 2.6.1)\n",
     CauseId.paddle_api_mismatch),
    (_RAISED + "Exception: the installed paddle version 2.6.1 is lower than required 3.0.0b2\n", CauseId.paddle_api_mismatch),
    (_RAISED + "ValueError: size of the pretrained weight head.fc.w_0 does not match the model: [1000] vs [10]\n",
     CauseId.state_dict_shape_mismatch),
    (_RAISED + "RuntimeError: checkpoint output/epoch_3.pdparams is truncated\n", CauseId.checkpoint_corrupt),
    (_RAISED + "ValueError: unsupported backbone 'ResNet999', must be one of ['ResNet50', 'ResNet101']\n",
     CauseId.config_error),
    # a bare exception line, as a paste keeps it
    ("Exception: annotation file data/voc/train.txt doesn't exist!\n", CauseId.file_not_found),
    ("RuntimeError: Could not open the label list at configs/labels.txt\n", CauseId.file_not_found),
    # a native library's error line, with no Python exception at all
    ("[ERROR] vision/ocr/recognizer.cc(61)::Initialize\tCannot find the character dict ./ppocr_keys.txt\n",
     CauseId.file_not_found),
    ("E1204 09:12:33.120 31 server.cpp:77] Error: fail to load model conf /opt/serving/conf/model.prototxt\n",
     CauseId.file_not_found),
    ("ERROR: model file C:\\ocr\\models\\cls\\inference.pdmodel not found, check the install folder\n",
     CauseId.file_not_found),
    ("[ERROR] 模型文件 D:\\apps\\ocr\\rec\\inference.pdmodel 不存在\n", CauseId.file_not_found),
    ("ERROR: PaddlePaddle 2.6.0 or higher is required by this package\n", CauseId.paddle_api_mismatch),
    # the reason on the line after a native library's error line
    ("[ERROR] Failed to initialize the predictor.\n  reason: weights ./m/inference.pdiparams not found\n",
     CauseId.file_not_found),
    (_RAISED + "AssertionError: no GPU device is available, run with --device cpu\n", CauseId.device_not_found),
    (_RAISED + "RuntimeError: GPUs are not available on this host\n", CauseId.device_not_found),
    (_RAISED + "RuntimeError: insufficient GPU memory for batch size 64\n", CauseId.gpu_oom),
    (_RAISED + "RuntimeError: cudnn version is not supported, please upgrade cudnn to v7 or above\n",
     CauseId.cuda_cudnn_mismatch),
    ("[ERROR] 推理失败: 显存不足\n", CauseId.gpu_oom),
    (_RAISED + "RuntimeError: not enough memory to hold the dataset in RAM\n", CauseId.host_out_of_memory),
    (_RAISED + "ValueError: eval_dataset is not specified in the configuration file\n", CauseId.config_error),
    (_RAISED + "KeyError: \"The key 'Architecture' is not found in the config\"\n", CauseId.config_error),
    (_RAISED + "ValueError: the shape of pretrained parameter head.w [80, 256] is not the same as the model's\n",
     CauseId.state_dict_shape_mismatch),
    (_RAISED + "AssertionError: Global.character_dict_path must be set in your yml\n", CauseId.config_error),
    (_RAISED + "OSError: no weights named model_state.pdparams found in directory ./ckpt/step_100\n",
     CauseId.file_not_found),
    (_RAISED + "ValueError: the loaded tensor has shape [10, 256] while the parameter fc.w has shape [1000, 256]\n",
     CauseId.state_dict_shape_mismatch),
]


@pytest.mark.parametrize(("text", "cause"), WORDED, ids=[f"{c.value}-{i}" for i, (_, c) in enumerate(WORDED)])
def test_the_words_of_an_unknown_error_name_its_kind(tmp_path, text, cause):
    finding = verdict_of(tmp_path, text)
    assert finding.cause == cause, finding.title
    assert finding.confidence.value in ("medium", "low")  # words name a kind of failure, not the call


@pytest.mark.parametrize("text", [
    # a cue without its object: "not found" of what? (a key, a user, a route)
    _RAISED + "RuntimeError: route not found\n",
    _RAISED + "ValueError: the requested size is not supported\n",
    # a version that is not Paddle's
    _RAISED + "RuntimeError: numpy version 1.99 or higher is required\n",
    # a user's own bug in words that look like a setting or a shape: not a configured value, not a checkpoint
    _RAISED + "TypeError: unsupported operand type(s) for +: 'int' and 'str'\n",
    _RAISED + "RuntimeWarning: invalid value encountered in divide\nValueError: cannot convert float NaN to integer\n",
    _RAISED + "ValueError: (InvalidArgument) The shape of input[0] and input[1] is expected to be equal. But received "
              "input[0]'s shape = [3, 4], input[1]'s shape = [5, 4].\n",
])
def test_words_without_their_object_name_nothing(tmp_path, text):
    assert verdict_of(tmp_path, text).cause == CauseId.python_exception


def test_words_never_overrule_a_line_that_names_its_library(tmp_path):
    # NCCL's own status names the failure; "invalid data type" is not a configured value
    text = "OSError: (External) Nccl error, invalid data type, detail: Resource temporarily unavailable\n"
    assert verdict_of(tmp_path, text).cause == CauseId.nccl_error


def test_a_bare_exception_line_is_an_error(tmp_path):
    # Python's plain ``Exception``, the type PaddleOCR's datasets and many tools raise, with no traceback kept
    finding = root_cause_of(tmp_path, "Exception: the service stopped\n")
    assert finding is not None and finding.cause == CauseId.python_exception


def test_a_frame_path_is_not_a_missing_file():
    # the frames' paths are where the code is, not what it looked for
    text = '  File "/home/u/not found/x.py", line 3, in f\n    open(p)\n'
    assert read_wording("", text) is None


def test_every_wording_stays_below_high():
    assert all(w.specificity < 80 for w in WORDINGS)


@pytest.mark.parametrize(("line", "cause"), [
    ("ppdet.core.config.ConfigError: key not found", CauseId.config_error),
    ("omegaconf.errors.ConfigAttributeError: Missing key optimizer", CauseId.config_error),
    ("ruamel.yaml.parser.ParserError: while parsing a block mapping", CauseId.config_error),
    ("hub.errors.ModelNotFoundError: ernie_tiny", CauseId.file_not_found),
])
def test_a_raised_class_named_for_its_failure(tmp_path, line, cause):
    finding = verdict_of(tmp_path, line + "\n")
    assert finding.cause == cause and finding.confidence.value == "medium"


def test_a_class_named_for_another_thing_is_not_read():
    from paddle_doctor.diagnose.anatomy.wording import read_type_wording
    assert read_type_wording("requests.exceptions.ConnectionError") is None
    assert read_type_wording("paddle.base.core.EnforceNotMet") is None


def test_a_cut_notebook_traceback_is_read_by_the_class_its_header_names(tmp_path):
    """IPython's header names the class; the traceback is cut before the exception line. An archive's
    ReadError (tarfile, shutil) is a file that is cut short or not the archive: checkpoint_corrupt, low."""
    text = ("-" * 75 + "\nReadError                                 Traceback (most recent call last)\n"
            "<ipython-input-6-42021b04bd7a> in <module>\n----> 1 sr = Predictor()\n")
    finding = verdict_of(tmp_path, text)
    assert finding.cause == CauseId.checkpoint_corrupt and finding.confidence.value == "low", finding.cause
    other = verdict_of(tmp_path, text.replace("ReadError  ", "ValueError "))
    assert other.cause == CauseId.python_exception
