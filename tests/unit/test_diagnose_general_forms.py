"""General forms of messages a probe of everyday failures found unread (issue 29): the words of a
library or runtime, not of one report. Windows' access violation as CPython's faulthandler, the MSVC
debugger and the JVM print it; a library the suites depend on that lacks a module attribute (a release
boundary); Cython's numpy size checks; an error line that also quotes NCCL's version banner."""

from __future__ import annotations

import pytest

from pastes import root_cause_of, verdict_of
from paddle_doctor.catalog.ids import CauseId


@pytest.mark.parametrize("line", [
    "Windows fatal exception: access violation",
    "Exception thrown at 0x00007FFB1C2D3E4F (paddle_inference.dll) in app.exe: 0xC0000005: Access violation reading "
    "location 0x0000000000000000.",
    "#  EXCEPTION_ACCESS_VIOLATION (0xc0000005) at pc=0x00007ffd12345678, pid=4321, tid=8765",
])
def test_windows_access_violation_is_a_native_crash(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.segfault


@pytest.mark.parametrize("line", [
    "AttributeError: module 'PIL.Image' has no attribute 'ANTIALIAS'",
    "AttributeError: module 'cv2.dnn' has no attribute 'DictValue'",
    "AttributeError: module 'google.protobuf.descriptor' has no attribute '_internal_create_key'",
])
def test_a_library_lacking_a_module_attribute_is_a_version_boundary(tmp_path, line):
    finding = verdict_of(tmp_path, line + "\n")
    assert finding.cause == CauseId.dependency_version_mismatch
    assert finding.confidence.value == "medium"  # a misspelt name reads the same


@pytest.mark.parametrize("line", [
    # a misspelt name, or the user's own datasets.py shadowing the library: not a release boundary
    "ImportError: cannot import name 'Logwriter' from 'visualdl' (/env/lib/python3.8/site-packages/visualdl/__init__.py)",
    "AttributeError: module 'mytools' has no attribute 'resize'",
])
def test_other_missing_names_are_not_called_a_version_boundary(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause != CauseId.dependency_version_mismatch


def test_cythons_numpy_size_check_is_a_numpy_boundary(tmp_path):
    line = "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. Expected 96 from C header, got 88"
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.dependency_version_mismatch


def test_an_error_line_quoting_the_nccl_version_is_an_error(tmp_path):
    line = ("RuntimeError: NCCL error in: /paddle/paddle/fluid/platform/collective_helper.cc:66, unhandled system "
            "error, NCCL version 2.8.4")
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.nccl_error


@pytest.mark.parametrize("key", ["backbone.stage1.conv.weight", "head.fc.bias", "bn1._mean", "fc_0.w_0",
                                 "conv1_weights"])
def test_a_key_error_on_a_parameter_name_is_a_state_dict_mismatch(tmp_path, key):
    finding = verdict_of(tmp_path, f"KeyError: '{key}'\n")
    assert finding.cause == CauseId.state_dict_shape_mismatch
    assert finding.confidence.value == "medium"


@pytest.mark.parametrize("key", ["img_mean", "Optimizer", "weights"])
def test_a_key_error_on_another_name_is_not(tmp_path, key):
    assert verdict_of(tmp_path, f"KeyError: '{key}'\n").cause == CauseId.python_exception


def test_paddle_load_unparsable_without_its_backquotes(tmp_path):
    line = "ValueError: paddle.load can not parse the file:output/latest.pdparams."
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.checkpoint_corrupt


@pytest.mark.parametrize("line", [
    "Abort trap: 6",  # macOS's shell
    "The instruction at 0x00007FFB12345678 referenced memory at 0x0000000000000000. The memory could not be read.",
])
def test_native_crashes_as_macos_and_windows_report_them(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.segfault


@pytest.mark.parametrize("line", ["bash: python: command not found", "/bin/sh: 1: python3: not found",
                                  "/bin/bash: python：未找到命令"])
def test_a_shell_that_finds_no_python(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.launcher_python_not_found


def test_a_place_the_build_cannot_serve_is_a_missing_device(tmp_path):
    line = ("ValueError: (InvalidArgument) Place CUDAPlace(0) is not supported. Please check that your paddle compiles "
            "with WITH_GPU, WITH_XPU or WITH_IPU option or check that your train process set the correct device id if "
            "you use Executor.")
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.device_not_found


def test_a_compressed_stream_cut_short_is_a_corrupt_archive(tmp_path):
    line = "EOFError: Compressed file ended before the end-of-stream marker was reached"
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.checkpoint_corrupt


@pytest.mark.parametrize(("line", "cause"), [
    # Paddle's signal handler and paddle.load, pasted from a rendered page: Markdown ate their backquotes
    ("FatalError: Segmentation fault is detected by the operating system.", CauseId.segfault),
    ("FatalError: Bus error is detected by the operating system.", CauseId.segfault),
    ("ValueError: The path (output/best_model/model.pdparams) to load model not exists.", CauseId.file_not_found),
])
def test_paddles_messages_without_the_backquotes_markdown_ate(tmp_path, line, cause):
    assert verdict_of(tmp_path, line + "\n").cause == cause


@pytest.mark.parametrize("why", ["HeaderTooLarge", "HeaderTooSmall", "InvalidHeaderDeserialization"])
def test_a_safetensors_file_whose_header_cannot_be_read_is_corrupt(tmp_path, why):
    line = f"safetensors_rust.SafetensorError: Error while deserializing header: {why}"
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.checkpoint_corrupt


@pytest.mark.parametrize(("line", "cause"), [
    # Paddle's dynamic loader without its "(error code is ...)" tail: no "error" word on the line
    ("PreconditionNotMet: The third-party dynamic library (libnvrtc.so) that Paddle depends on is not configured "
     "correctly.", CauseId.cuda_cudnn_mismatch),
    # cuDNN 8.3+ on Windows loading zlib
    ("Could not locate zlibwapi.dll. Please make sure it is in your library path!", CauseId.cuda_cudnn_mismatch),
])
def test_cuda_library_loading_in_its_short_forms(tmp_path, line, cause):
    assert verdict_of(tmp_path, line + "\n").cause == cause


@pytest.mark.parametrize(("text", "cause"), [
    ("Process finished with exit code 139\n", CauseId.segfault),
    ("STATUS\nExited (139) 1 minute ago\n", CauseId.segfault),
    ("    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    139\n", CauseId.segfault),
    ("subprocess.CalledProcessError: Command 'python infer.py' returned non-zero exit status 139.\n", CauseId.segfault),
    ("worker exited with signal 11\n", CauseId.segfault),
    ("    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
     CauseId.host_oom_killed),
    ("subprocess.CalledProcessError: Command '['python', 'train.py']' died with <Signals.SIGKILL: 9>.\n",
     CauseId.host_oom_killed),
])
def test_a_signals_exit_status_as_docker_kubernetes_and_subprocess_report_it(tmp_path, text, cause):
    assert verdict_of(tmp_path, text).cause == cause


def test_another_exit_status_is_not_a_signal(tmp_path):
    finding = root_cause_of(tmp_path, "subprocess.CalledProcessError: Command 'make' returned non-zero exit status 2.\n")
    assert finding is None or finding.cause not in (CauseId.segfault, CauseId.host_oom_killed)


_NOTEBOOK = ("---------------------------------------------------------------------------\n"
             "{type:<42}Traceback (most recent call last)\n"
             "/tmp/ipykernel_99/3136689281.py in <module>\n"
             "----> 1 data = load_everything()\n")


def test_a_cut_notebook_traceback_of_another_type_names_it(tmp_path):
    finding = verdict_of(tmp_path, _NOTEBOOK.format(type="StopIteration"))
    assert finding.cause == CauseId.python_exception and "StopIteration" in finding.message


def test_enoent_in_a_chinese_locale(tmp_path):
    # glibc's zh_CN strerror(ENOENT), as a Chinese shell's cp or ls prints it, with no other trigger
    assert verdict_of(tmp_path, "cp: 无法获取'a.txt' 的文件状态(stat): 没有那个文件或目录\n").cause == CauseId.file_not_found


@pytest.mark.parametrize("line", [
    "RuntimeError: Parameter not found, Can't not find [ char_embedding.weight ] in stat_dictuse_structured_name is "
    "set to [True]",  # 1.8.5 set_dict
    "AssertionError: Parameter not found, Can't not find [ linear_0.w_0 ] in state_dict",  # 2.0.2-2.4.2
])
def test_dygraph_set_dict_missing_parameter_in_each_era(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.state_dict_shape_mismatch


@pytest.mark.parametrize("line", [
    "OSError: [WinError 1455] The paging file is too small for this operation to complete. Error loading "
    "\"C:\\py\\lib\\site-packages\\paddle\\libs\\cudnn64_8.dll\" or one of its dependencies.",
    "OSError: [WinError 1455] 页面文件太小，无法完成操作。",
    "The paging file is too small for this operation to complete.",
])
def test_windows_commit_limit_is_host_memory(tmp_path, line):
    finding = verdict_of(tmp_path, line + "\n")
    assert (finding.cause, finding.confidence.value) == (CauseId.host_out_of_memory, "high")


@pytest.mark.parametrize("api", ["data", "py_func"])
def test_a_static_graph_api_in_2x_dynamic_mode_is_1x_code(tmp_path, api):
    # pp 2.0.2-3.3.1 framework.py _static_only_ (the assertion's text, the API's name in it)
    line = (f"AssertionError: In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '{api}()' is only "
            "supported in static graph mode. So if you want to use this api, please call 'paddle.enable_static()' "
            "before this api to enter static graph mode.")
    finding = verdict_of(tmp_path, line + "\n")
    assert (finding.cause, finding.confidence.value) == (CauseId.paddle_api_mismatch, "medium")
    assert api in finding.message


@pytest.mark.parametrize("module", ["paddle", "cv2"])
def test_a_circular_import_is_no_missing_api(tmp_path, module):
    """CPython says "partially initialized module" when the user's own file, named like the package, imports
    it: the name is missing from a half-run module, not from the installed release."""
    line = (f"AttributeError: partially initialized module '{module}' has no attribute 'fluid' (most likely due to "
            "a circular import)")
    finding = verdict_of(tmp_path, line + "\n")
    assert finding.cause not in (CauseId.paddle_api_mismatch, CauseId.dependency_version_mismatch), finding.cause


@pytest.mark.parametrize("line", [
    "[2023/05/01 10:05:01] ppocr INFO: Error rate on eval set: 0.12",
    "2024-01-01 10:00:00 INFO eval top1 error: 0.12, top5 error: 0.03",
])
def test_a_metric_named_error_is_no_failure(tmp_path, line):
    assert root_cause_of(tmp_path, line + "\n") is None


def test_an_error_followed_by_a_status_number_stays_an_error(tmp_path):
    assert root_cause_of(tmp_path, "make: *** [all] Error 2\n") is not None


@pytest.mark.parametrize("line", [
    '            "OOMKilled": true,',  # docker inspect
    "paddle-job-trainer-0   0/1     OOMKilled   0          5m",  # kubectl get pods
])
def test_a_container_killed_for_memory_is_the_oom_killer(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.host_oom_killed


def test_docker_inspect_saying_no_oom_kill_is_no_failure(tmp_path):
    assert root_cause_of(tmp_path, '            "OOMKilled": false,\n') is None


@pytest.mark.parametrize("line", [
    "ERROR: paddlepaddle_gpu-2.5.0.post117-cp38-cp38-linux_x86_64.whl is not a supported wheel on this platform.",
    "`np.float` was a deprecated alias for the builtin `float`. To avoid this error in existing code, use `float` "
    "by itself.",
])
def test_a_wheel_or_alias_past_its_version_boundary(tmp_path, line):
    assert verdict_of(tmp_path, line + "\n").cause == CauseId.dependency_version_mismatch


def test_no_space_left_where_the_dataloader_shares_memory_is_dev_shm(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.8/dist-packages/paddle/io/dataloader/worker.py", line 372, in _worker_loop\n'
            "    out_queue.put((idx, batch, None))\n"
            "OSError: [Errno 28] No space left on device\n")
    assert verdict_of(tmp_path, text).cause == CauseId.shm_too_small
    # the same errno writing a checkpoint is a full disk: no catalog cause names it
    assert verdict_of(tmp_path, "OSError: [Errno 28] No space left on device\n").cause == CauseId.python_exception


@pytest.mark.parametrize("frame", [
    "<ipython-input-20-4d576eede298> in <module>()",  # IPython 7: a cell's frame
    "Cell In[3], line 1",  # IPython 8
])
def test_a_notebook_cells_frame_and_current_line_are_read(tmp_path, frame):
    """The cell's frame and its "----> 1" line are the traceback's frame and source: an import of a name a
    suite's installed release lacks reads as the API mismatch a CPython traceback gives."""
    text = ("ImportError                               Traceback (most recent call last)\n" + frame + "\n"
            "----> 1 from ppgan.apps import Photo2CartoonPredictor\n\n"
            "ImportError: cannot import name 'Photo2CartoonPredictor'\n")
    assert verdict_of(tmp_path, text).cause == CauseId.paddle_api_mismatch


def test_a_notebook_frame_of_the_users_own_module_stays_an_exception(tmp_path):
    text = ("ImportError                               Traceback (most recent call last)\n"
            "<ipython-input-2-aa> in <module>()\n----> 1 from mytools import helper\n\n"
            "ImportError: cannot import name 'helper'\n")
    assert verdict_of(tmp_path, text).cause == CauseId.python_exception


@pytest.mark.parametrize("line", [
    "ImportError: DLL load failed while importing cv2: The specified module could not be found.",
    "ImportError: DLL load failed while importing fastdeploy_main: 动态链接库(DLL)初始化例程失败。",
])
def test_an_extension_windows_cannot_load_lacks_a_dll(tmp_path, line):
    finding = verdict_of(tmp_path, line + "\n")
    assert (finding.cause, finding.confidence.value) == (CauseId.file_not_found, "medium")


def test_paddles_own_core_unloadable_is_a_library_not_found_with_cuda_as_its_near_cause(tmp_path):
    """A library Paddle's core links and the loader cannot find: the MSVC runtime or libgomp in 5 of the 7 labelled
    threads, a GPU build's CUDA library in 1; the line does not say which, so CUDA's reading comes second."""
    line = "ImportError: DLL load failed while importing libpaddle: The specified module could not be found.\n"
    finding = verdict_of(tmp_path, line)
    assert (finding.cause, finding.confidence.value) == (CauseId.file_not_found, "medium")
    assert finding.alternatives[0].cause == CauseId.cuda_cudnn_mismatch
    assert "Visual C++ Redistributable" in finding.fix and "absolute paths" not in finding.fix
