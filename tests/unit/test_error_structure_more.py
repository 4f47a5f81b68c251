"""Issue 29, after gathered batch 3: more of an error read by its structure. The library a loader
names in either OS's spelling; glog's CHECK_EQ with the success constant written first (the 0.x
trainer); the C++ stack's allocator frame; the DataLoader's reader thread on the traceback (also
when CPython's threading module prints the traceback again after the exception line); a suite's own
loader skipping parameters; an NCCL failure at communicator creation read as what its code names.
Every line follows the emitting code's template (cited in the signatures and components); none is a
corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.anatomy.parts import Code, Frame, parse_block

SITE = "/usr/local/lib/python3.8/site-packages/paddle"
THREADING = ('  File "/usr/lib/python3.8/threading.py", line 932, in _bootstrap_inner\n    self.run()\n'
             '  File "/usr/lib/python3.8/threading.py", line 870, in run\n'
             "    self._target(*self._args, **self._kwargs)\n")


def _diagnose(tmp_path, text):
    log = tmp_path / "paste.log"
    log.write_text(text)
    return diagnose_paths([str(log)]).root_cause


@pytest.mark.parametrize("lib", ["cudnn64_8.dll", "cublas64_112.dll;cublas64_11.dll", "cudart64_110.dll",
                                 "curand64_10.dll", "libcudnn.so", "libcublas.so"])
def test_a_cuda_library_the_loader_cannot_load_is_named_in_either_os_spelling(tmp_path, lib):
    """pp 2.x-3.x platform/dynload/dynamic_loader.cc: win_cudnn_lib = "cudnn64_" CUDNN_MAJOR_VERSION
    ".dll", win_cublas_lib = "cublas64_" MAJOR MINOR ".dll;cublas64_" MAJOR ".dll"."""
    rc = _diagnose(tmp_path, f"RuntimeError: (PreconditionNotMet) The third-party dynamic library ({lib}) that "
                             "Paddle depends on is not configured correctly. (error code is 126)\n"
                             "  Suggestions:\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "cuda_lib_missing", (rc.cause, rc.why)


def test_nccl_is_still_nccls_own_library(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that "
                             "Paddle depends on is not configured correctly. (error code is libnccl.so: cannot "
                             "open shared object file: No such file or directory)\n")
    assert rc.cause == CauseId.nccl_library_missing


@pytest.mark.parametrize("line, code", [
    # hl_cuda_device.cc CHECK_EQ(cudaSuccess, cudaStat) << "Cuda Error: " << cudaGetErrorString(cudaStat)
    ("F1228 01:28:25.392861   173 hl_cuda_device.cc:399] Check failed: cudaSuccess == cudaStat (0 vs. 2) Cuda "
     "Error: out of memory", Code("cuda", 2)),
    # hl_cuda_cudnn.cc CHECK_EQ(CUDNN_STATUS_SUCCESS, cudnnStat)
    ("F0119 13:28:50.834202  2944 hl_cuda_cudnn.cc:186] Check failed: CUDNN_STATUS_SUCCESS == cudnnStat (0 vs. 3)",
     Code("cudnn", 3)),
    # hl_cuda_cublas.cc CHECK_EQ(stat, CUBLAS_STATUS_SUCCESS): the status first, as the newer checks write it
    ("F1104 11:19:11.596421 87418 hl_cuda_cublas.cc:220] Check failed: stat == CUBLAS_STATUS_SUCCESS (13 vs. 0)",
     Code("cublas", 13)),
    ("F0101 00:00:00.000000     1 nccl_helper.h:62] Check failed: ncclSuccess == result (0 vs. 2)", Code("nccl", 2)),
])
def test_a_glog_check_reads_the_status_on_either_side(line, code):
    assert code in parse_block([line]).codes


def test_the_0x_trainers_out_of_memory_check_is_gpu_oom(tmp_path):
    rc = _diagnose(tmp_path, "F1228 01:28:25.392861   173 hl_cuda_device.cc:399] Check failed: cudaSuccess == "
                             "cudaStat (0 vs. 2) Cuda Error: out of memory\n*** Check failure stack trace: ***\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


def test_a_cpp_stack_through_the_gpu_allocator_is_gpu_oom_even_without_its_message(tmp_path):
    rc = _diagnose(tmp_path, "--------------------------------------------\n"
                             "C++ Call Stacks (More useful to developers):\n"
                             "--------------------------------------------\n"
                             "0   std::string paddle::platform::GetTraceBackString<std::string>(std::string&&, char "
                             "const*, int)\n"
                             "1   paddle::memory::allocation::CUDAAllocator::AllocateImpl(unsigned long)\n"
                             "2   paddle::memory::allocation::AlignedAllocator::AllocateImpl(unsigned long)\n")
    assert rc is not None and rc.cause == CauseId.gpu_oom


def test_an_exception_raised_in_the_reader_thread_is_the_dataloaders(tmp_path):
    rc = _diagnose(tmp_path, "Exception in thread Thread-2:\nTraceback (most recent call last):\n" + THREADING
                   + f'  File "{SITE}/io/dataloader/dataloader_iter.py", line 231, in _thread_loop\n'
                   "    batch = self._get_data()\n"
                   f'  File "{SITE}/io/dataloader/dataloader_iter.py", line 310, in _get_data\n'
                   "    data = self._data_queue.get(timeout=self._timeout)\n"
                   "_queue.Empty\n")
    assert rc.cause == CauseId.dataloader_worker_crash and "reader thread" in rc.why, (rc.cause, rc.why)


def test_the_users_dataset_raising_in_the_reader_thread_itself_is_its_own_error(tmp_path):
    """num_workers=0: no worker process; the dataset runs in the reader thread and its exception is the
    user's own (what triage's `workers0` rerun relies on, tests/integration/test_triage.py)."""
    rc = _diagnose(tmp_path, "Exception in thread Thread-2:\nTraceback (most recent call last):\n" + THREADING
                   + f'  File "{SITE}/io/dataloader/dataloader_iter.py", line 231, in _thread_loop\n'
                   "    batch = self._dataset_fetcher.fetch(indices)\n"
                   '  File "/home/u/data/my_dataset.py", line 40, in __getitem__\n    label = int(parts[1])\n'
                   "IndexError: list index out of range\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


def test_a_missing_file_in_the_reader_thread_stays_a_missing_file(tmp_path):
    """The reader thread says where; a message that names a missing path says what: it decides."""
    rc = _diagnose(tmp_path, "Exception in thread Thread-2:\nTraceback (most recent call last):\n" + THREADING
                   + f'  File "{SITE}/fluid/dataloader/dataloader_iter.py", line 213, in _thread_loop\n'
                   "    batch = self._dataset_fetcher.fetch(indices)\n"
                   '  File "/home/u/PaddleOCR/ppocr/data/simple_dataset.py", line 120, in __getitem__\n'
                   '    raise Exception("{} does not exist!".format(img_path))\n'
                   "Exception: ./train_data/img_1.jpg does not exist!\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_the_threading_modules_reprint_gives_the_exception_its_frames(tmp_path):
    """The reader printed the exception; the threading module prints it again with the thread's frames:
    a paste holding the first one's last line and the second one's frames reads them together."""
    rc = _diagnose(tmp_path, "    obj, end = self.scan_once(s, idx)\n"
                   "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
                   "Exception in thread Thread-1:\nTraceback (most recent call last):\n" + THREADING
                   + f'  File "{SITE}/fluid/reader.py", line 1145, in __thread_main__\n'
                   "    six.reraise(*sys.exc_info())\n")
    assert rc.cause == CauseId.dataloader_worker_crash, (rc.cause, rc.why)


def test_a_frames_module_is_read_below_site_packages_whatever_the_environment_is_called():
    frame = Frame("/home/u/anaconda3/envs/paddle/lib/python3.7/site-packages/paddle/fluid/reader.py", "f")
    assert frame.module == "fluid/reader.py"


@pytest.mark.parametrize("line, cause", [
    ("[2022/06/10 12:01:44] ppocr WARNING: The shape of model params head.fc.weight [96, 6625] not matched with "
     "loaded params head.fc.weight [96, 6623] !", CauseId.state_dict_shape_mismatch),
    ("[2024/04/05 00:45:30] ppocr WARNING: The pretrained params conv1_weights not in model",
     CauseId.state_dict_shape_mismatch),
])
def test_paddleocrs_loader_skipping_parameters_is_named(tmp_path, line, cause):
    """PaddleOCR ppocr/utils/save_load.py load_pretrained_params warns and goes on with random weights."""
    rc = _diagnose(tmp_path, line + "\n")
    assert rc is not None and rc.cause == cause


def test_parameters_not_in_the_model_alone_are_a_low_verdict(tmp_path):
    rc = _diagnose(tmp_path, "[2024/04/05 00:45:30] ppocr WARNING: The pretrained params conv1_weights not in model\n")
    assert rc.confidence.value == "low"


def test_an_nccl_cuda_failure_at_communicator_creation_is_nccls_with_the_mismatch_as_alternative(tmp_path):
    """ncclUnhandledCudaError while the communicators are made: the code names an NCCL failure; a
    version mismatch is one reason, told apart by the versions, so it is an alternative."""
    rc = _diagnose(tmp_path, "OSError: (External)  Nccl error, unhandled cuda error  (at /paddle/paddle/fluid/"
                             "platform/collective_helper.cc:100)\n")
    assert rc.cause == CauseId.nccl_error
    assert CauseId.nccl_version_mismatch in [a.cause for a in rc.alternatives]


def test_the_workers_silence_read_in_the_reader_thread_is_the_dataloaders(tmp_path):
    """pp 2.x dataloader_iter.py _get_data: the reader thread's read of the workers' queue timed out."""
    rc = _diagnose(tmp_path, "Exception in thread Thread-5:\nTraceback (most recent call last):\n"
                   f'  File "{SITE}/io/dataloader/dataloader_iter.py", line 620, in _get_data\n'
                   "    data = self._data_queue.get(timeout=self._timeout)\n"
                   '  File "/usr/lib/python3.9/multiprocessing/queues.py", line 114, in get\n    raise Empty\n'
                   "_queue.Empty\n")
    assert rc.cause == CauseId.dataloader_worker_crash, (rc.cause, rc.why)


@pytest.mark.parametrize("lib", ["cufft", "cublas", "nvrtc"])
def test_a_cuda_link_time_stub_loaded_at_run_time_is_a_library_mismatch(tmp_path, lib):
    """CUDA's lib64/stubs print 'You are running using the stub version of <lib>' and fail every call."""
    rc = _diagnose(tmp_path, f"You are running using the stub version of {lib}\n"
                             "OSError: (External) CUFFT error(50).\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "cuda_stub_library", (rc.cause, rc.why)
