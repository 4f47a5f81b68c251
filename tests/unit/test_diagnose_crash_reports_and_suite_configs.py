"""Issue 29, after gathered batch 25: lines whose emitter names the failure, in the words it printed them.

- bash reports a job a native fault ended with glibc's strsignal in the locale's words (zh_CN ``段错误``,
  ``非法指令``, ``浮点数例外``; de ``Speicherzugriffsfehler``; ja ``セグメンテーション違反です``) and its
  own ``line`` translated (zh_CN ``行``): a native crash, as the English ``Segmentation fault``.
- JetBrains' run console reports a process a signal ended as ``exit code 128+n (interrupted by signal n:
  SIGxxx)``: SIGSEGV, SIGILL and SIGFPE are a native crash (SIGKILL stays a kill from outside).
- numpy's ``Unable to allocate <size> for an array with shape ...`` is host memory, with or without the
  exception's name before it.
- PaddleSeg's tools check that the config file declares what they need and that its loss section fits the
  model (``... dataset is not specified in the configuration file``, ``The length of logits_list should
  equal to the types of loss config``): a configuration error, not just "an exception".

Lines follow the emitting code's template (cited in the rows); none is a corpus log.
"""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import FRAMES as TRACEBACK, verdict_of as _cause


@pytest.mark.parametrize("line", [
    "./run.sh: 行 12:  40211 段错误               (核心已转储)python3 tools/train.py -c configs/det.yml\n",
    "段错误 (核心已转储)\n",
    "./infer.sh: 行 3:  771 非法指令               (吐核)python infer.py\n",
    "浮点数例外 (核心已转储)\n",
    "./train.sh: Zeile 8:  5120 Speicherzugriffsfehler  (Speicherabzug geschrieben) python train.py\n",
    "セグメンテーション違反です (コアダンプ)\n",
])
def test_a_shell_report_of_a_native_crash_in_another_locale_is_a_segfault(tmp_path, line):
    rc = _cause(tmp_path, line)
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n",
    "Process finished with exit code 132 (interrupted by signal 4: SIGILL)\n",
    "Process finished with exit code 136 (interrupted by signal 8: SIGFPE)\n",
])
def test_an_ide_console_report_of_a_native_signal_is_a_segfault(tmp_path, line):
    rc = _cause(tmp_path, line)
    assert rc.cause == CauseId.segfault, (rc.cause, rc.why)


def test_an_ide_console_report_of_sigkill_stays_a_kill_from_outside(tmp_path):
    rc = _cause(tmp_path, "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)\n")
    assert rc.cause == CauseId.host_oom_killed, (rc.cause, rc.why)


@pytest.mark.parametrize("text", [
    "Unable to allocate 2.31 GiB for an array with shape (620, 1000, 1000) and data type float32\n",
    TRACEBACK.format(path="/work/PaddleGAN/ppgan/apps/base_predictor.py", line=88, func="run",
                     code="frames = np.stack(frames)")
    + "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 512. MiB for an array with shape (4, 4096, 4096, "
      "2) and data type float32\n",
])
def test_numpy_failing_to_allocate_an_array_is_host_memory(tmp_path, text):
    rc = _cause(tmp_path, text)
    assert rc.cause == CauseId.host_out_of_memory, (rc.cause, rc.why)


@pytest.mark.parametrize("message", [
    "RuntimeError: The training dataset is not specified in the configuration file.",
    "RuntimeError: The verification dataset is not specified in the configuration file.",
    "RuntimeError: No configuration file specified.",
    "RuntimeError: The length of logits_list should equal to the types of loss config: 2 != 1.",
    "RuntimeError: The length of coef should equal to types in loss config: 1 != 3.",
])
def test_a_paddleseg_config_that_does_not_fit_the_tool_is_a_config_error(tmp_path, message):
    rc = _cause(tmp_path, TRACEBACK.format(path="/work/PaddleSeg/paddleseg/core/train.py", line=31,
                                           func="check_logits_losses", code="raise RuntimeError(") + message + "\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_another_length_check_of_the_users_code_stays_an_exception(tmp_path):
    rc = _cause(tmp_path, TRACEBACK.format(path="/work/mycode/model.py", line=40, func="forward",
                                           code="raise RuntimeError(")
                + "RuntimeError: The length of inputs should equal to the number of heads: 3 != 2.\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)
