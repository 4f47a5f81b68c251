"""Issue 29, after gathered batches 5 and 6: phi dynload/cudnn.cc's own message (no "error" word in it); the
Windows start-up's DLL loader (paddle/__init__.py) failing on a CUDA library; gpu_resources.cc's second
architecture warning (a capability its name table lacks); the device line of a CUDA runtime older
than the GPU; a ZeroDivisionError by an epoch's batch count (an empty loader). Every line follows the
emitting code's template (cited in the signatures and in anatomy/classify.py); none is a corpus log. Batch 6:
Windows' crash statuses as exit codes, the inference predictor's GPU pool warning. Batch 7: the shells'
SIGILL (and zsh's SIGSEGV) reports, Paddle Serving's CUDA check."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths

SITE = "/usr/local/lib/python3.10/site-packages"


def _diagnose(tmp_path, text):
    log = tmp_path / "paste.log"
    log.write_text(text)
    return diagnose_paths([str(log)]).root_cause


def test_cudnn_that_cannot_be_loaded_is_read_without_an_error_word(tmp_path):
    """phi/backends/dynload/cudnn.cc: PADDLE_ENFORCE_NOT_NULL(cudnn_dso_handle, PreconditionNotMet("Cannot load
    cudnn shared library. Cannot invoke method cudnnGetVersion.")), pasted without the exception type."""
    rc = _diagnose(tmp_path, " (PreconditionNotMet) Cannot load cudnn shared library. Cannot invoke method "
                             "cudnnGetVersion.\n  [Hint: cudnn_dso_handle should not be null.] (at "
                             "/paddle/paddle/phi/backends/dynload/cudnn.cc:60)\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("err, dll", [
    ("[WinError 127] The specified procedure could not be found.", r"nvidia\cudnn\bin\cudnn_cnn64_9.dll"),
    ("[WinError 1114] A dynamic link library (DLL) initialization routine failed.", r"nvidia\cublas\bin\cublas64_12.dll"),
    ("[WinError 126] The specified module could not be found.", r"libs\cudart64_118.dll"),
])
def test_the_windows_loader_failing_on_a_cuda_dll_is_a_library_mismatch(tmp_path, err, dll):
    """paddle 3.0.0 win_amd64 paddle/__init__.py: err = ctypes.WinError(last_error); err.strerror +=
    f' Error loading "{dll}" or one of its dependencies.'; raise err."""
    path = rf"C:\Users\u\env\Lib\site-packages\paddle\..\{dll}"
    rc = _diagnose(tmp_path, f'OSError: {err} Error loading "{path}" or one of its dependencies.\n')
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "win_cuda_dll_load", (rc.cause, rc.code)


def test_a_dll_that_is_not_cudas_stays_an_exception(tmp_path):
    rc = _diagnose(tmp_path, 'OSError: [WinError 126] The specified module could not be found. Error loading '
                             r'"C:\env\Lib\site-packages\paddle\libs\mkldnn.dll" or one of its dependencies.' "\n")
    assert rc.cause != CauseId.cuda_cudnn_mismatch


@pytest.mark.parametrize("warning", [
    # gpu_resources.cc CheckDeviceArch, the branch for a capability its name table has
    "W0101 10:00:00.000000  1234 gpu_resources.cc:96] The GPU architecture in your current machine is Pascal, which "
    "is not compatible with Paddle installation with arch: 70 75 80 86 , it is recommended to install the "
    "corresponding wheel package according to the installation information on the official Paddle website.",
    # the other branch: a capability the table lacks
    "W0101 10:00:00.000000  1234 gpu_resources.cc:106] The GPU compute capability in your current machine is 100, "
    "which is not supported by Paddle, it is recommended to install the corresponding wheel package according to "
    "the installation information on the official Paddle website.",
    # the device line: an Ampere GPU with a CUDA 10.x runtime (sm_80 needs CUDA 11.0)
    "W0101 10:00:00.000000  1234 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 8.6, "
    "Driver API Version: 11.4, Runtime API Version: 10.2",
    # 1.x wording of the same line
    "W0101 10:00:00.000000  1234 device_context.cc:252] Please NOTE: device: 0, CUDA Capability: 80, Driver API "
    "Version: 11.0, Runtime API Version: 10.1",
])
def test_a_gpu_the_wheel_cannot_run_explains_the_device_error_after_it(tmp_path, warning):
    rc = _diagnose(tmp_path, warning + "\nOSError: (External) CUBLAS error(15).\n  [Hint: 'CUBLAS_STATUS_NOT_SUPPORTED'."
                             "  The functionality requested is not supported ] (at /paddle/paddle/phi/kernels/funcs/"
                             "blas/blas_impl.cu.h:35)\n")
    assert rc.cause == CauseId.cuda_arch_unsupported, (rc.cause, rc.why)


def test_a_runtime_new_enough_for_the_gpu_explains_nothing(tmp_path):
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  1234 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute "
                             "Capability: 7.5, Driver API Version: 11.4, Runtime API Version: 10.2\n"
                             "OSError: (External) CUBLAS error(15).\n  [Hint: 'CUBLAS_STATUS_NOT_SUPPORTED'.  The "
                             "functionality requested is not supported ]\n")
    assert rc.cause != CauseId.cuda_arch_unsupported


@pytest.mark.parametrize("source", ["self.inner_iter = self.current_iter % self.iters_per_epoch",
                                    "acc = correct / len(self.eval_loader)",
                                    "lr_step = step // steps_per_epoch",
                                    "avg = total_loss / num_batches"])
def test_a_division_by_an_epochs_batch_count_is_an_empty_loader(tmp_path, source):
    """BatchSampler.__len__ (paddle/io/dataloader/batch_sampler.py) is num_samples // batch_size with
    drop_last: 0 for a set smaller than a batch; CPython prints the line that divided."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n'
                             f"    {source}\nZeroDivisionError: integer division or modulo by zero\n")
    assert rc.cause == CauseId.sampler_too_few_samples, (rc.cause, rc.why)


def test_another_division_by_zero_stays_an_exception(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n'
                             "    ratio = width / height\nZeroDivisionError: division by zero\n")
    assert rc.cause == CauseId.python_exception


# --- after gathered batch 6 ----------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "Process finished with exit code -1073741819 (0xC0000005)",      # JetBrains console, signed + hex
    "Process finished with exit code -1073740791 (0xC0000409)",
    "Process finished with exit code -1073741571 (0xC00000FD)",
    "subprocess.CalledProcessError: Command '['python', 'train.py']' returned non-zero exit status 3221225477.",
    "error: the training process exited with code 3221226505",
])
def test_a_windows_native_crash_status_is_a_segfault(tmp_path, line):
    """ntstatus.h: STATUS_ACCESS_VIOLATION 0xC0000005, STATUS_STACK_BUFFER_OVERRUN 0xC0000409 (__fastfail),
    STATUS_STACK_OVERFLOW 0xC00000FD, the exit code Windows gives a process a native fault ended."""
    rc = _diagnose(tmp_path, line + "\n")
    # 0xC0000409 is also abort()'s status (the fail-fast row, read like SIGABRT: what failed is said before it)
    fail_fast = "0xC0000409" in line or "3221226505" in line
    assert rc.cause == CauseId.segfault and rc.code == ("windows_fail_fast" if fail_fast else "windows_native_crash"), (
        rc.cause, rc.code)


def test_an_ordinary_exit_code_is_not_a_crash(tmp_path):
    rc = _diagnose(tmp_path, "Process finished with exit code 1\n")
    assert rc is None or rc.cause != CauseId.segfault


def test_the_predictors_gpu_pool_warning_is_out_of_gpu_memory(tmp_path):
    """inference/api/analysis_predictor.cc: fraction_of_gpu_memory_for_pool() > 0.95 -> LOG(ERROR) << "Allocate
    too much memory for the GPU memory pool, assigned " << memory_pool_init_size_mb() << " MB"."""
    rc = _diagnose(tmp_path, "E0101 10:00:00.000000  1234 analysis_predictor.cc:585] Allocate too much memory for the "
                             "GPU memory pool, assigned 12000 MB\nE0101 10:00:00.000000  1234 analysis_predictor.cc:588] "
                             "Try to shink the value by setting AnalysisConfig::EnableGpu(...)\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


# --- after gathered batch 7 ----------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "Illegal instruction (core dumped)",                                       # bash, foreground
    "./run.sh: line 12: 4242 Illegal instruction     python train.py",         # bash, a job of a script
    "[1]    4242 illegal hardware instruction (core dumped)  python",          # zsh
    "[1]    4242 segmentation fault (core dumped)  python train.py",           # zsh's SIGSEGV report
])
def test_the_shells_reports_of_a_native_crash_are_read(tmp_path, line):
    """bash strsignal(SIGILL) 'Illegal instruction' / jobs.c '<script>: line N: <pid> ...'; zsh signames."""
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault, (rc.cause, rc.code)


def test_paddle_servings_cuda_check(tmp_path):
    """Paddle Serving server.py check_cuda: raise SystemExit("CUDA not found, please check your environment or
    use cpu version by \"pip install paddle_serving_server\"")."""
    rc = _diagnose(tmp_path, 'CUDA not found, please check your environment or use cpu version by "pip install '
                             'paddle_serving_server"\n')
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, rc.code)
