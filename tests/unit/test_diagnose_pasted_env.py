"""Issue 29, gathered batches 8-9: what pasted environment failures say, read by mechanism (each case
is a wording of Paddle, the shell or glog; the threads they came from are named beside each)."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths


def _diagnose(tmp_path, text):
    log = tmp_path / "paste.log"
    log.write_text(text, encoding="utf-8")
    return diagnose_paths([str(log)]).root_cause


def test_no_gpu_found_does_not_explain_the_driver_error_that_caused_it(tmp_path):
    """Paddle warns "no GPU found in runtime" after any failed device count; the error after it says
    why (the driver is older than the runtime: Paddle#28360)."""
    rc = _diagnose(tmp_path, "W1102 23:37:44.784431   516 init.cc:157] Compiled with WITH_GPU, but no GPU found in "
                   "runtime.\nExternalError:  Cuda error(35), CUDA driver version is insufficient for CUDA runtime "
                   "version.\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch


def test_no_driver_at_all_still_explains_the_driver_error(tmp_path):
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  1 dynamic_loader.cc:1] libcuda.so.1: cannot open shared object "
                   "file: No such file or directory\nOSError: (External) CUDA error(35), CUDA driver version is "
                   "insufficient for CUDA runtime version.\n")
    assert rc.cause == CauseId.device_not_found


@pytest.mark.parametrize("line", [
    "ValueError: (InvalidArgument) Device id must be less than GPU count, but received id is: 0. GPU count is: 0.",
    "`trainer_count * num_devices_in_model (4*1)=4 exceeds number of GPU devices(1)`",
])
def test_more_gpus_asked_than_the_process_sees(tmp_path, line):
    assert _diagnose(tmp_path, line + "\n").cause == CauseId.device_not_found


@pytest.mark.parametrize("word", ["Killed", "已杀死", "強制終了", "Getötet", "Убито"])
def test_the_shells_killed_in_its_locale(tmp_path, word):
    rc = _diagnose(tmp_path, "2020-08-14 12:31:32,695-INFO: test tackling num:64\n" + word + "\n")
    assert rc.cause == CauseId.host_oom_killed


def test_a_data_file_the_trainer_could_not_open(tmp_path):
    rc = _diagnose(tmp_path, "Check failed: is Fail to open ./train_data_dir/20171016/dnn_instance_007855\n")
    assert rc.cause == CauseId.file_not_found


def test_an_error_line_in_markdown_bold_is_read_as_the_error(tmp_path):
    """A pasted issue wraps the exception line in ``**`` (PaddleOCR#7166)."""
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n"
                   '  File "ppocr/utils/save_load.py", line 86, in load_model\n'
                   '    assert os.path.exists(checkpoints + ".pdparams"), \\\n'
                   "**AssertionError: The ./pretrain_models/MobileNetV3_large_x0_5_pretrained.pdparams does not "
                   "exists!**\n")
    assert rc.cause == CauseId.file_not_found


def test_glogs_star_banner_is_not_bold(tmp_path):
    rc = _diagnose(tmp_path, "*** Aborted at 1541212980 (unix time) try \"date -d @1541212980\" ***\n"
                   "*** SIGSEGV (@0x50) received by PID 12833 (TID 0x7f56686c9700) from PID 80; stack trace: ***\n")
    assert rc.cause == CauseId.segfault


def test_a_native_crash_inside_ncclCommInit_is_nccls(tmp_path):
    """Paddle#18232: SIGSEGV with frames commFree / ncclCommInitAll / NCCLContextMap."""
    rc = _diagnose(tmp_path, "*** SIGSEGV (@0x50) received by PID 12833 (TID 0x7f56686c9700) from PID 80; stack "
                   "trace: ***\n    @     0x7f56682a0160 (unknown)\n    @     0x7f54bff09c20 commFree()\n"
                   "    @     0x7f54bff10cc5 ncclCommInitAll\n"
                   "    @     0x7f561a1cd190 paddle::platform::NCCLContextMap::NCCLContextMap()\n")
    assert rc.cause == CauseId.nccl_error


def test_a_suites_check_that_the_cpu_wheel_was_installed(tmp_path):
    """PaddleClas/PaddleDetection's check_gpu: the CPU wheel imported where a GPU run was asked."""
    rc = _diagnose(tmp_path, "2020-09-08 09:14:59 ERROR: You are using paddlepaddle cpu version! Please try to install "
                   "paddlepaddle-gpu to run model on GPU.\n")
    assert rc.cause == CauseId.device_not_found


def test_a_dead_jupyter_kernel_is_a_native_crash_at_low_confidence(tmp_path):
    rc = _diagnose(tmp_path, "The kernel appears to have died. It will restart automatically.\n")
    assert rc.cause == CauseId.segfault and rc.confidence == "low"
