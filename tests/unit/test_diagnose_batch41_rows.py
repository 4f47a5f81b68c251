"""Issue 29, after gathered batch 41: the deployment tools' own words (Triton's model-config check, FastDeploy's
port check, Paddle-Lite's op attribute and shape checks, Android's JNI library search), Paddle's internal-op
argument check, the dynamic loader's missing C++ symbol and its "No such file" for an extension built for another
machine, and an import failure that a device warning printed before it does not explain. Every line follows the
emitting code's template cited in the signatures; none is a corpus log."""

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


def test_triton_rejecting_a_cpu_instance_group_with_gpus_is_a_config_error(tmp_path):
    """Triton model_config_utils.cc ValidateInstanceGroup."""
    rc = _diagnose(tmp_path, "E0301 10:00:00.000001 77 model_repository_manager.cc:1186] Poll failed for model "
                             "directory 'det': instance group det_0 of model det has kind KIND_CPU but specifies one "
                             "or more GPUs\n")
    assert rc.cause == CauseId.config_error and rc.code == "triton_cpu_group_gpus", (rc.cause, rc.why)


def test_fastdeploys_port_check_is_a_port_in_use(tmp_path):
    """FastDeploy api_server.py launch_api_server: raise Exception(f"The parameter `port`:{port} is already in use.")."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "api_server.py", line 600, in <module>\n'
                             "    main()\nException: The parameter `port`:8180 is already in use.\n")
    assert rc.cause == CauseId.port_in_use, (rc.cause, rc.why)


def test_a_lite_op_without_an_attribute_this_lite_reads_is_a_model_of_another_paddle(tmp_path):
    """Paddle-Lite op_desc.h GetAttr: CHECK(it != attrs().end()) << "No attributes called " << name ..."""
    rc = _diagnose(tmp_path, "[F  1/ 2  3: 4: 5.678 ...lite/core/model/general/op_desc.h:118 GetAttr] Check failed: "
                             "it != attrs().end(): No attributes called is_test found for batch_norm\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "lite_op_attr_missing", (rc.cause, rc.why)
    assert rc.confidence.value == "medium"


def test_a_lite_shape_check_failing_at_run_is_the_inputs_set_by_the_app(tmp_path):
    """Paddle-Lite program.cc Instruction::Run: CHECK(op_->CheckShape()); the app then aborts."""
    rc = _diagnose(tmp_path, "[F  3/ 1 10: 0: 0.100 /work/Paddle-Lite/lite/core/program.cc Run:692] Check failed: "
                             "op_->CheckShape(): \nA/libc: Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 301 "
                             "(GLThread 9), pid 300 (demo)\n")
    assert rc.cause == CauseId.config_error and rc.code == "lite_check_shape_failed", (rc.cause, rc.why)


def test_an_internal_op_called_with_another_argument_list_is_code_for_another_paddle(tmp_path):
    """op_function_common.cc CastPyArg2Int: "%s(): argument (position %d) must be int, but got %s"."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/py/site-packages/lib/ops.py", line 9, in '
                             "segment\n    return _C_ops.segment_pool(x, ids, 'SUM')\nValueError: (InvalidArgument) "
                             "segment_pool(): argument (position 3) must be int, but got str (at /paddle/paddle/fluid/"
                             "pybind/op_function_common.cc:90)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "c_ops_argument_type", (rc.cause, rc.why)


def test_androids_java_loader_not_finding_the_jni_library_is_a_missing_file(tmp_path):
    """Android Runtime.loadLibrary0: UnsatisfiedLinkError(loader + " couldn't find \\"" + name + "\\"")."""
    rc = _diagnose(tmp_path, 'java.lang.UnsatisfiedLinkError: dalvik.system.PathClassLoader[DexPathList[[zip file '
                             '"/data/app/com.x.demo-2/base.apk"],nativeLibraryDirectories=[/data/app/com.x.demo-2/lib/'
                             'arm, /system/lib]]] couldn\'t find "libpaddle_lite_jni.so"\n')
    assert rc.cause == CauseId.file_not_found and rc.code == "android_jni_library_missing", (rc.cause, rc.why)


def test_an_extension_module_the_importer_found_but_the_loader_calls_missing_is_a_build_for_another_machine(tmp_path):
    """glibc open_verify: an ELF of another machine is skipped with ENOENT."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "run.py", line 2, in <module>\n'
                             "    import paddlelite.lite\nImportError: /usr/lib/python3/dist-packages/paddlelite/lite.so: "
                             "cannot open shared object file: No such file or directory\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "extension_for_other_machine", rc.why
    assert rc.alternatives[0].cause == CauseId.file_not_found


def test_a_missing_cxx_symbol_is_a_library_of_another_version(tmp_path):
    """glibc dl-lookup.c: "undefined symbol: %s" for a mangled C++ name."""
    rc = _diagnose(tmp_path, "./demo: symbol lookup error: ./demo: undefined symbol: _ZN10fastdeploy6vision7Visual"
                             "izeC1Ev\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "cxx_symbol_undefined", (rc.cause, rc.why)


def test_a_device_plugin_that_cannot_open_keeps_its_own_row(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: (InvalidArgument) Fail to open library: /py/paddle_custom_device/libpaddle-"
                             "custom-mlu.so with error: /opt/neuware/lib64/libcnnl.so: undefined symbol: _ZN4cnnl3OpsEv\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch and rc.code == "device_lib_load_failed", (rc.cause, rc.why)


def test_a_device_warning_does_not_explain_a_later_failed_import(tmp_path):
    """refine/context.py: an ImportError of a name is about what is installed, not the device."""
    rc = _diagnose(tmp_path, "W0101 10:00:00.000000  100 init.cc:134] Compiled with WITH_GPU, but no GPU found in "
                             "runtime.\nTraceback (most recent call last):\n  File \"demo.py\", line 3, in <module>\n"
                             "    from mylib.tools import build\nImportError: cannot import name 'build'\n")
    assert rc.cause != CauseId.device_not_found, (rc.cause, rc.why)
