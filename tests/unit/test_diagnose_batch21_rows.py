"""Issue 29, after gathered batch 21: four readings by the emitting code, none fitted to a corpus log.

- CPython names a missing module by its dotted path up to the first part it could not find (Python 3:
  ``No module named 'paddlehub.vision'``, so the package itself was found), Python 2 only that part and what
  follows it, unquoted (``No module named fluid.executor`` for ``from paddle.fluid.executor import ...``):
  a module of Paddle or of one of its versioned packages that the installed release lacks. The package
  itself missing (``No module named 'paddle'``) is not read so.
- A version check the code makes before it runs: Paddle's own ``require_version`` (VersionError: PaddlePaddle
  version %s or higher is required ...), PaddleDetection's check_version, X2Paddle's ``Paddle>=2.0.0 is
  required``.
- cuDNN 8's loader on Windows: ``Could not locate %s. Please make sure it is in your library path!``.
- A Windows build's enforce location ``(at D:\\...\\paddle/fluid/operators/load_op.h:41)``: the C++ file is
  read past the drive letter, so the load operator's "fail to open file" is a missing parameter file.
"""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


def _traceback(source: str, error: str, path: str = "/home/u/work/convert.py") -> str:
    return (f"Traceback (most recent call last):\n  File \"{path}\", line 12, in <module>\n    {source}\n"
            f"{error}\n")


@pytest.mark.parametrize("source, error", [
    ("import paddlenlp.transformers.auto as auto", "ModuleNotFoundError: No module named 'paddlenlp.transformers.auto'"),
    ("from paddle.incubate.nn import FusedLinear", "ModuleNotFoundError: No module named 'paddle.incubate.nn'"),
    ("from paddle.fluid.contrib import slim", "ImportError: No module named fluid.contrib"),
    ("from paddle.fluid import layers", "ImportError: No module named fluid"),
    ("from paddle.fluid.dygraph import to_variable, Linear", "ImportError: cannot import name Linear"),
    ("from x2paddle.op_mapper import onnx2paddle", "ModuleNotFoundError: No module named 'x2paddle.op_mapper'"),
])
def test_a_module_or_name_a_paddle_release_lacks_is_code_for_another_version(tmp_path, source, error):
    rc = _diagnose(tmp_path, _traceback(source, error))
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)


@pytest.mark.parametrize("source, error", [
    ("import paddle", "ModuleNotFoundError: No module named 'paddle'"),  # not installed at all
    ("from paddle import fluid", "ImportError: cannot import name 'fluid' from partially initialized module "
                                 "'paddle' (most likely due to a circular import) (/home/u/work/paddle.py)"),
    ("from paddle.fluid.dygraph import to_variable", "ImportError: cannot import name 'Linear'"),  # not this line's
    ("import mytools.export", "ModuleNotFoundError: No module named 'mytools.export'"),  # not Paddle's package
])
def test_imports_that_do_not_name_a_missing_part_of_paddle_are_not_read_so(tmp_path, source, error):
    rc = _diagnose(tmp_path, _traceback(source, error))
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "Exception: VersionError: PaddlePaddle version 2.0.0 or higher is required, but 1.8.5 installed, please upgrade "
    "your PaddlePaddle to 2.0.0 or other higher version.",
    "Exception: VersionError: PaddlePaddle version in [1.5.0, 1.8.0] required, but 2.1.0 installed.",
    "Exception: Paddle>=2.0.0 is required, Please update version!",
    "2021-03-01 10:00:00 - ERROR - PaddlePaddle version 2.0.0 or higher is required, or a suitable develop "
    "version is satisfied as well.",
])
def test_a_stated_paddle_version_requirement(tmp_path, line):
    rc = _diagnose(tmp_path, _traceback("check_version()", line, "/home/u/work/tools/train.py")
                   if line.startswith("Exception") else line + "\n")
    assert rc is not None and rc.cause == CauseId.paddle_api_mismatch, (rc and rc.cause, rc and rc.why)


@pytest.mark.parametrize("lib", ["cudnn_cnn_infer64_8.dll", "cudnn_adv_train64_8.dll"])
def test_cudnn_8_on_windows_that_cannot_locate_a_sub_library(tmp_path, lib):
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  1000 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute "
                             "Capability: 7.5, Driver API Version: 11.6, Runtime API Version: 11.2\n"
                             f"Could not locate {lib}. Please make sure it is in your library path!\n")
    assert rc is not None and rc.cause == CauseId.cuda_cudnn_mismatch and lib in rc.message, (rc and rc.cause,
                                                                                           rc and rc.message)


@pytest.mark.parametrize("at", [r"C:\home\workspace\Paddle_release\paddle/fluid/operators/load_op.h:41",
                                r"D:\v2.1.0\paddle\paddle\fluid\operators\load_op.h:41"])
def test_a_windows_builds_load_operator_that_cannot_open_its_file(tmp_path, at):
    rc = _diagnose(tmp_path, "UnavailableError: Load operator fail to open file D:\\models\\infer\\conv1_weights, "
                             "please check whether the model file is complete or damaged.\n"
                             "  [Hint: Expected static_cast<bool>(fin) == true, but received static_cast<bool>(fin)"
                             f":0 != true:1.] (at {at})\n")
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)
