"""Issue 29, after gathered batch 23: what programs that embed Paddle (a .NET wrapper, a Windows host, a
weight converter) print when a Paddle job fails. Windows reports a process an illegal instruction ended,
and a native library whose initialisation failed, by their status codes; .NET reports a native library it
cannot find by its HRESULT; Paddle's tensor reader says a file is not a saved tensor; 1.7+ prints a
predictor's unopened model file with the location in parentheses; and a KeyError on a line that looks a
key up in a state dict is a parameter the checkpoint and the model name differently. Lines follow the
emitting code's template (cited in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


@pytest.mark.parametrize("line", [
    "The program '[1520] iisexpress.exe' has exited with code 3221225501 (0xc000001d) 'Illegal Instruction'.",
    "Process finished with exit code -1073741795 (0xC000001D)",
    "subprocess.CalledProcessError: Command '['ocr.exe']' returned non-zero exit status 3221225501.",
])
def test_windows_illegal_instruction_status_is_a_native_crash(tmp_path, line):
    rc = root_cause_of(tmp_path, line + "\n")
    assert rc is not None and rc.cause == CauseId.segfault, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value == "high"


@pytest.mark.parametrize("text", [
    "---------------------------\nocr.exe - Application Error\n---------------------------\nThe application was "
    "unable to start correctly (0xc0000142). Click OK to close the application.\n",
    "---------------------------\nocr.exe - 应用程序错误\n---------------------------\n应用程序无法正常启动(0xc0000142)。"
    "请单击“确定”关闭应用程序。\n",
    "System.DllNotFoundException: 无法加载 DLL“paddle_inference_c.dll”: 动态链接库(DLL)初始化例程失败。 "
    "(异常来自 HRESULT:0x8007045A)。\n",
])
def test_a_dll_whose_initialisation_failed_is_a_weak_native_crash(tmp_path, text):
    """The status names no cause of its own: the native-crash reading, never high."""
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.segfault, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value != "high"


@pytest.mark.parametrize("line", [
    "System.DllNotFoundException: Unable to load DLL 'paddle_inference_c' or one of its dependencies: The "
    "specified module could not be found. (Exception from HRESULT: 0x8007007E)",
    "无法加载 DLL“dll\\x64\\paddle_inference_c.dll”: 找不到指定的模块。 (异常来自 HRESULT:0x8007007E)。",
])
def test_a_native_library_dotnet_cannot_find_is_a_missing_file(tmp_path, line):
    rc = root_cause_of(tmp_path, line + "\n")
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)
    assert "paddle_inference_c" in rc.evidence[0].text


def test_a_cuda_dll_dotnet_cannot_find_is_left_to_the_cuda_rows(tmp_path):
    """A CUDA library is not the program's own file: the row does not claim it."""
    rc = root_cause_of(tmp_path, "System.DllNotFoundException: Unable to load DLL 'cudnn64_8.dll' or one of its "
                                 "dependencies: The specified module could not be found. (Exception from HRESULT: "
                                 "0x8007007E)\n")
    assert rc is None or rc.cause != CauseId.file_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("text, lib", [
    ("---------------------------\nocr.exe - System Error\n---------------------------\nThe program can't start "
     "because MSVCP140.dll is missing from your computer. Try reinstalling the program to fix this problem.\n",
     "MSVCP140.dll"),
    ("The program can\u2019t start because api-ms-win-crt-runtime-l1-1-0.dll is missing from your computer.\n",
     "api-ms-win-crt-runtime-l1-1-0.dll"),
    ("---------------------------\nocr.exe - 系统错误\n---------------------------\n无法启动此程序，因为计算机中丢失 "
     "paddle_inference.dll。尝试重新安装该程序以解决此问题。\n", "paddle_inference.dll"),
    ("Process finished with exit code -1073741515 (0xC0000135)\n", ""),
])
def test_a_dll_the_windows_loader_cannot_find_at_start_is_a_missing_file(tmp_path, text, lib):
    """Windows' STATUS_DLL_NOT_FOUND, as its loader dialog (which names the DLL) or as the exit status."""
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)
    assert lib in rc.message and "()" not in rc.message


def test_a_cuda_dll_the_windows_loader_cannot_find_is_left_to_the_cuda_rows(tmp_path):
    rc = root_cause_of(tmp_path, "The program can't start because cudnn64_8.dll is missing from your computer.\n")
    assert rc is None or rc.cause != CauseId.file_not_found, (rc.cause, rc.why)


LOAD_DYGRAPH = ("Traceback (most recent call last):\n"
                '  File "convert.py", line 10, in <module>\n'
                "    a = paddle.fluid.load_dygraph('./model/det_infer')\n"
                '  File "/py/site-packages/paddle/fluid/dygraph/tracer.py", line 307, in trace_op\n'
                "    self.trace(type, inputs, outputs, attrs,\n"
                "ValueError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle "
                "model(expected file format: 0, but 1904018048 found).\n"
                "  [Hint: Expected version == 0U, but received version:1904018048 != 0U:0.] (at "
                "/paddle/paddle/fluid/framework/lod_tensor.cc:276)\n"
                "  [operator < load > error]\n")


def test_a_file_that_is_not_a_saved_tensor_is_not_a_checkpoint(tmp_path):
    rc = root_cause_of(tmp_path, LOAD_DYGRAPH)
    assert rc is not None and rc.cause == CauseId.checkpoint_corrupt, (rc and rc.cause, rc and rc.why)


def test_a_predictor_file_it_cannot_open_with_the_1_7_location_is_missing(tmp_path):
    text = ("paddle.fluid.core_avx.EnforceNotMet: \n\n----------------------\nError Message Summary:\n"
            "----------------------\nError: Cannot open file C:\\py\\site-packages\\LAC\\seg_model\\model/__model__ "
            "at (D:\\1.8.2\\paddle\\paddle\\fluid\\inference\\api\\analysis_predictor.cc:703)\n")
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)


CONVERTER = ("Traceback (most recent call last):\n"
             '  File "./converter/det_converter.py", line 95, in <module>\n'
             "    converter = DetConverter(cfg, paddle_pretrained_model_path)\n"
             '  File "./converter/det_converter.py", line 57, in load_paddle_weights\n'
             "    {source}\n"
             "KeyError: '{key}'\n")


@pytest.mark.parametrize("source", ["self.net.state_dict()[k].copy_(torch.Tensor(para_state_dict[ppname]))",
                                    "model.set_state_dict({k: state_dict[k] for k in names})"])
def test_a_key_error_looking_up_a_state_dict_is_a_parameter_name_mismatch(tmp_path, source):
    rc = root_cause_of(tmp_path, CONVERTER.format(source=source, key="backbone.conv1_1._conv.weight"))
    assert rc is not None and rc.cause == CauseId.state_dict_shape_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence.value != "high"


def test_a_key_error_on_another_dict_stays_the_exception(tmp_path):
    rc = root_cause_of(tmp_path, CONVERTER.format(source="cfg = configs[name]", key="det_r50"))
    assert rc is not None and rc.cause == CauseId.python_exception, (rc and rc.cause, rc and rc.why)
