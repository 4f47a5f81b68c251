"""Issue 29, seventh session: the lead's readings (before the batches, between the rounds, and for round 2's two
misses; the helpers' are in test_diagnose_batch45/46/47_rows.py, and for batch 48 in
test_diagnose_wrapper_reports.py and test_diagnose_dependency_versions.py). Every line follows the emitting code's
template cited in the signatures; none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of

# The launcher's own code as a report quotes it (paddle/distributed/fleet/launch_utils.py, 2.0-3.3.1).
_QUOTED_WATCH = ("def watch_local_trainers(procs, nranks):\n    try:\n        error = False\n"
                 "    except SystemExit:\n        terminate_local_procs(procs)\n        return\n")


def test_a_report_quoting_the_launchers_code_is_about_the_launcher_at_low(tmp_path):
    rc = _diagnose(tmp_path, _QUOTED_WATCH + "the launcher exits with 0 after a trainer failed\n")
    assert rc.cause == CauseId.launcher_bug and rc.confidence == "low", (rc.cause, rc.confidence, rc.why)


def test_a_workers_own_error_beside_the_quoted_code_is_still_the_cause(tmp_path):
    rc = _diagnose(tmp_path, _QUOTED_WATCH + "Traceback (most recent call last):\n  File \"train.py\", line 3, in "
                             "<module>\n    x = paddle.load('m.pdparams')\nMemoryError\n")
    assert rc.cause != CauseId.launcher_bug, (rc.cause, rc.why)


def test_an_engines_start_up_failure_in_chinese_or_english_gets_a_verdict(tmp_path):
    """"Zero logs with an error and no verdict": an OCR engine's wrapper saying its start failed (任务失败 ...
    init fail) is an error line, read at worst as ``unknown`` with that line quoted."""
    for text in ("任务失败: 无法启动引擎\n", "engine init failed.\n"):
        rc = _diagnose(tmp_path, "options: -cpu_threads=10\n" + text)
        assert rc is not None and rc.cause == "unknown" and rc.confidence == "low", (text, rc)


def test_a_dotnet_dll_message_wrapped_before_its_reason_is_a_missing_library_at_medium(tmp_path):
    """.NET DllNotFoundException (Unable to load DLL '%s' or one of its dependencies: %s), its reason on the next line."""
    rc = _diagnose(tmp_path, "System.DllNotFoundException\nError initializing: Unable to load DLL 'Native' or one of "
                             "its dependencies:\n0x8007007E\n")
    assert rc.cause == CauseId.file_not_found and rc.confidence == "medium", (rc.cause, rc.confidence, rc.why)


def test_glibcs_static_tls_used_up_is_a_system_library_that_does_not_fit(tmp_path):
    """glibc elf/dl-open.c and elf/dl-reloc.c: both wordings of the exhausted static TLS surplus."""
    for line in ("ImportError: dlopen: cannot load any more object with static TLS",
                 "OSError: /lib/aarch64-linux-gnu/libgomp.so.1: cannot allocate memory in static TLS block"):
        rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'
                                 f"    import paddle\n{line}\n")
        assert rc.cause == CauseId.dependency_version_mismatch, (line, rc.cause, rc.why)


def _attribute_error(importer_path: str, module: str) -> str:
    return ('Traceback (most recent call last):\n  File "run.py", line 3, in <module>\n    main()\n'
            f'  File "{importer_path}", line 54, in __init__\n    self.model = lib.Model(config)\n'
            f"AttributeError: module '{module}' has no attribute 'Model'\n")


def test_an_installed_library_using_an_attribute_another_installed_library_lacks_is_a_version_misfit(tmp_path):
    rc = _diagnose(tmp_path, _attribute_error("/usr/lib/python3.8/site-packages/paddleocr/ppstructure/x.py",
                                              "layoutparser"))
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_an_attribute_of_the_librarys_own_module_or_of_the_standard_library_is_not(tmp_path):
    for path, module in (("/usr/lib/python3.8/site-packages/layoutparser/models.py", "layoutparser.models"),
                         ("/usr/lib/python3.8/site-packages/paddleocr/x.py", "collections"),
                         ("/home/me/project/x.py", "layoutparser")):
        rc = _diagnose(tmp_path, _attribute_error(path, module))
        assert rc.cause != CauseId.dependency_version_mismatch, (path, module, rc.cause)


def test_a_lite_demos_own_words_for_an_unloadable_native_library_are_a_missing_library(tmp_path):
    """Paddle-Lite demos' OCRPredictorNative.loadLibrary wraps System.loadLibrary's failure."""
    rc = _diagnose(tmp_path, "E/AndroidRuntime: FATAL EXCEPTION: Predictor Worker\njava.lang.RuntimeException: Load "
                             "libNative.so failed, please check it exists in apk file.\n        at com.demo.ocr."
                             "OCRPredictorNative.loadLibrary(OCRPredictorNative.java:63)\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_a_keyword_the_called_function_does_not_take_is_code_of_another_release_at_low(tmp_path):
    """CPython's "%U() got an unexpected keyword argument '%S'" as a suite's logger prints it: the words say a call
    of another release, never surely (a caller's typo words it the same)."""
    rc = _diagnose(tmp_path, "[2022-08-04 16:39:38,212] [   ERROR] - __init__() got an unexpected keyword argument "
                             "'negative_slope'\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "low", (rc.cause, rc.confidence, rc.why)


def test_paddle2onnx_without_a_mapper_for_the_models_operators_is_a_model_of_another_release(tmp_path):
    """Paddle2ONNX exporter.cc CheckIfOpSupported's list, then its Assert."""
    rc = _diagnose(tmp_path, "[Paddle2ONNX] Start to parsing Paddle model...\n[Paddle2ONNX] Oops, there are some "
                             "operators not supported yet, including max_pool2d_with_index,\n[ERROR] Due to the "
                             "unsupported operators, the conversion is aborted.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_the_error_summary_after_a_long_cpp_traceback_is_read(tmp_path):
    """Paddle 2.x prints the C++ traceback between the exception line and its Error Message Summary; forty frames of
    long C++ names put the summary kilobytes away, and it still names the cause."""
    frames = "".join(f"{n} paddle::framework::OperatorWithKernel::RunImpl<float>(paddle::framework::Scope const&, "
                     f"paddle::platform::Place const&) const\n" for n in range(40))
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "infer.py", line 9, in <module>\n'
                             "    predictor = inference.create_predictor(config)\n"
                             "paddle.fluid.core_avx.EnforceNotMet:\n\n--------------------------------------\n"
                             "C++ Traceback (most recent call last):\n--------------------------------------\n" + frames
                             + "\n----------------------\nError Message Summary:\n----------------------\n"
                             "NotFoundError: Operator (rnn) is not registered.\n"
                             "  [Hint: op_info_ptr should not be null.] (at /paddle/paddle/fluid/framework/op_info.h:151)\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_nvcc_without_the_gpus_architecture_is_a_toolkit_older_than_the_gpu(tmp_path):
    """nvcc's own refusal while a custom op builds (Paddle's cpp_extension)."""
    rc = _diagnose(tmp_path, "building 'custom_ops' extension\nnvcc fatal   : Unsupported gpu architecture 'compute_89'\n"
                             "error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_the_launchers_container_failed_line_alone_is_a_failure_whose_cause_is_in_the_worker_logs(tmp_path):
    """A paste cut to the 2.x-3.x launcher's last line still says the job failed, and where to look."""
    rc = _diagnose(tmp_path, "LAUNCH ERROR 2023-05-06 10:00:00,000 controller.py:123] Container failed !!!\n")
    assert rc is not None and rc.cause == "unknown" and rc.code == "cause_not_given", rc


def test_fleet_launchs_own_checks_of_devices_and_arguments(tmp_path):
    """fleet/launch_utils.py: no accelerator on the pod; endpoints or nproc_per_node that do not fit the GPUs."""
    rc = _diagnose(tmp_path, "AssertionError: this pod rank:0 id:a1 endpoint:127.0.0.1:6170 can't see any accelerators\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)  # as the coverage table reads it with its frames
    for line in ("AssertionError: gpus' number:3 mod args.nproc_per_node:2 must == 0",
                 "AssertionError: current trainer_endpoints size should be greater equal than accelerators size."):
        rc = _diagnose(tmp_path, line + "\n")
        assert rc.cause == CauseId.config_error, (line, rc.cause)


def test_the_launchers_refusal_of_loopback_in_a_multi_node_ips_list_is_a_config_error_even_alone(tmp_path):
    """paddle/distributed/launch/plugins/__init__.py process_args: the argument is refused before any node advertises
    it (the coverage table reads it so with the launcher's frames; the line alone now reads the same)."""
    rc = _diagnose(tmp_path, "ValueError: 127.0.0.1 in ips is not allowed in multi-nodes.\n")
    assert rc.cause == CauseId.config_error, (rc.cause, rc.why)


def test_onnx_runtimes_status_names_a_missing_model_or_a_runtime_older_than_the_model(tmp_path):
    """ONNX Runtime's "[ONNXRuntimeError] : code : NAME : message" (pybind exceptions), model.cc's IR version check."""
    rc = _diagnose(tmp_path, "onnxruntime.capi.onnxruntime_pybind11_state.NoSuchFile: [ONNXRuntimeError] : 3 : NO_SUCHFILE "
                             ": Load model from ./inference/det.onnx failed:Load model ./inference/det.onnx failed. File "
                             "doesn't exist\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)
    rc = _diagnose(tmp_path, "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model "
                             "from model.onnx failed:Unsupported model IR version: 9, max supported IR version: 8\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence == "medium", (rc.cause, rc.confidence)


def test_protobufs_missing_builder_module_is_a_runtime_older_than_the_generated_code(tmp_path):
    rc = _diagnose(tmp_path, "ImportError: cannot import name 'builder' from 'google.protobuf.internal' "
                             "(/usr/lib/python3/dist-packages/google/protobuf/internal/__init__.py)\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_tensorrts_cuda_runtime_out_of_memory_is_gpu_oom(tmp_path):
    rc = _diagnose(tmp_path, "[TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out of memory)\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


def test_chinese_error_and_abnormal_exit_lines_are_error_lines(tmp_path):
    """错误: (error:) and 异常退出 (exited abnormally) in a wrapper's or an IDE's Chinese output are error lines: at worst
    unknown, never "no failure"; the words after them are read (不存在: does not exist)."""
    rc = _diagnose(tmp_path, "错误：模型文件 ./inference/det/model.pdmodel 不存在\n")
    assert rc is not None and rc.cause == CauseId.file_not_found, rc
    rc = _diagnose(tmp_path, "程序异常退出\n")
    assert rc is not None and rc.cause == "unknown", rc


def test_a_custom_device_id_beyond_the_available_ones_is_a_device_not_found(tmp_path):
    """paddle/device/__init__.py (3.x): Device id {device} not found in available_custom_devices."""
    rc = _diagnose(tmp_path, "ValueError: Device id 3 not found in available_custom_devices: ['npu:0', 'npu:1']\n")
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.why)


def test_container_and_driver_reports_name_their_causes(tmp_path):
    """Docker's and libnvidia-container's GPU refusals, the kubelet's memory eviction, NVML's version mismatch."""
    cases = (
        ('docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
         CauseId.device_not_found),
        ("stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown",
         CauseId.device_not_found),
        ("Message: The node was low on resource: memory. Container trainer was using 30Gi, which exceeds its request "
         "of 16Gi.", CauseId.host_oom_killed),
        ("Failed to initialize NVML: Driver/library version mismatch", CauseId.cuda_cudnn_mismatch),
        # the container runtime's own words for the same mismatch: the driver, not a missing GPU runtime
        ("stderr: nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown",
         CauseId.cuda_cudnn_mismatch),
    )
    for line, cause in cases:
        rc = _diagnose(tmp_path, line + "\n")
        assert rc is not None and rc.cause == cause, (line, rc)


def test_an_undefined_nccl_symbol_is_an_nccl_older_than_the_library_that_calls_it(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "train.py", line 2, in <module>\n    import torch\n'
                             "ImportError: /usr/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
                             "ncclCommInitRankScalable\n")
    assert rc.cause == CauseId.nccl_version_mismatch, (rc.cause, rc.why)


def test_a_cuda_code_of_an_apis_refusal_is_at_most_medium_a_kernel_fault_stays_high(tmp_path):
    """codes.toml's [unsure]: cudaErrorInvalidConfiguration names no cause, and a build that does not fit the machine
    returns it as often as a bug; an illegal address (700) is a kernel's fault and keeps its high."""
    rc = _diagnose(tmp_path, "SystemError: (Fatal) Operator gaussian_random raises an thrust::system::system_error "
                             "exception.\nThe exception content is\n:parallel_for failed: cudaErrorInvalidConfiguration: "
                             "invalid configuration argument. (at /paddle/paddle/fluid/imperative/tracer.cc:221)\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "medium", (rc.cause, rc.confidence)
    rc = _diagnose(tmp_path, "OSError: (External) CUDA error(700), an illegal memory access was encountered.\n")
    assert rc.cause == CauseId.cuda_error_other and rc.confidence == "high", (rc.cause, rc.confidence)


def test_an_unsure_name_that_no_enum_lists_is_refused_by_the_catalog(tmp_path):
    from paddle_doctor.catalog.codes import CODES_FILE, load_codes
    from paddle_doctor.catalog.load import CatalogError

    bad = tmp_path / "codes.toml"
    bad.write_text(CODES_FILE.read_text().replace('"cudaErrorInvalidValue", "cudaErrorInvalidConfiguration"',
                                                  '"cudaErrorNoSuchThing", "cudaErrorInvalidConfiguration"', 1))
    with pytest.raises(CatalogError, match="cudaErrorNoSuchThing"):
        load_codes(bad)
