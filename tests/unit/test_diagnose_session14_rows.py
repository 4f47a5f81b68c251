"""Readings added in issue 29's fourteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def _diagnose(tmp_path, text):
    return root_cause_of(tmp_path, text)


def _post_init(exc: str = "ValueError", through_dataclass: bool = True, func: str = "__post_init__") -> str:
    built = '  File "<string>", line 87, in __init__\n' if through_dataclass else ""
    return ("Traceback (most recent call last):\n  File \"/w/llm/run_pretrain.py\", line 354, in main\n"
            "    model_args, data_args, training_args = parser.parse_args_into_dataclasses()\n"
            "  File \"/w/paddlenlp/trainer/argparser.py\", line 223, in parse_args_into_dataclasses\n"
            f"    obj = dtype(**inputs)\n{built}"
            f"  File \"/w/paddlenlp/trainer/training_args.py\", line 817, in {func}\n    raise {exc}(\n"
            f"{exc}: pipeline parallel is not compatible for sharding stage2 or stage3, please using sharding stage1\n")


def test_an_arguments_dataclass_rejecting_its_values_is_the_config(tmp_path):
    rc = _diagnose(tmp_path, _post_init())
    assert rc.cause == CauseId.config_error and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert "__post_init__" in rc.why, rc.why


@pytest.mark.parametrize("kwargs", [{"through_dataclass": False}, {"func": "validate"}, {"exc": "TypeError"}])
def test_the_same_error_outside_a_dataclass_check_is_not_read_so(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _post_init(**kwargs))
    assert rc.cause != CauseId.config_error or "__post_init__" not in rc.why, (rc.cause, rc.why)


def _import_as(python: str = "python3.6", source: str = "import paddleseg.optimizers.custom_optimizers as custom_opt",
               package_dir: str = "paddleseg") -> str:
    site = f"/opt/conda/envs/pad/lib/{python}/site-packages"
    return ("Traceback (most recent call last):\n  File \"tools/predict.py\", line 20, in <module>\n    import paddleseg\n"
            f"  File \"{site}/paddleseg/optimizers/__init__.py\", line 14, in <module>\n    from .optimizer import *\n"
            f"  File \"{site}/{package_dir}/optimizers/optimizer.py\", line 19, in <module>\n    {source}\n"
            "AttributeError: module 'paddleseg' has no attribute 'optimizers'\n")


@pytest.mark.parametrize("python, sure", [("python3.6", True), ("python2.7", True), ("python", False)])
def test_import_as_inside_the_package_on_python_before_37_is_the_interpreter(tmp_path, python, sure):
    rc = _diagnose(tmp_path, _import_as(python))
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)
    assert ("3.7" in rc.why) and ((python in rc.why) == sure), rc.why


@pytest.mark.parametrize("kwargs", [{"python": "python3.8", "source": "from . import custom_optimizers as custom_opt"},
                                    {"source": "import paddleseg.models.losses as losses"},
                                    {"package_dir": "myproject"}])
def test_other_attribute_errors_of_a_package_are_not_the_interpreter(tmp_path, kwargs):
    rc = _diagnose(tmp_path, _import_as(**kwargs))
    assert rc.cause != CauseId.dependency_version_mismatch or "3.7" not in rc.why, (rc.cause, rc.why)


def test_load_combine_that_cannot_parse_a_tensor_description_is_a_corrupt_file(tmp_path):
    rc = _diagnose(tmp_path, "----------------------\nError Message Summary:\n----------------------\nInvalidArgumentError: "
                             "Cannot parse tensor desc\n  [Hint: Expected desc.ParseFromArray(buf.get(), size) == true, but "
                             "received desc.ParseFromArray(buf.get(), size):0 != true:1.] at (/paddle/paddle/fluid/framework/"
                             "tensor_util.cu:527)\n  [operator < load_combine > error]\n")
    assert rc.cause == CauseId.checkpoint_corrupt, (rc.cause, rc.why)


def test_a_tensor_description_outside_the_load_ops_is_not_read_as_a_checkpoint(tmp_path):
    rc = _diagnose(tmp_path, "InvalidArgumentError: Cannot parse tensor desc\n  [operator < feed > error]\n")
    assert rc.cause != CauseId.checkpoint_corrupt, (rc.cause, rc.why)


@pytest.mark.parametrize("line", ["/u01/anaconda3/bin/python: No module named paddle_serving_server_gpu.serve",
                                  "ModuleNotFoundError: No module named 'paddle_serving_server_gpu'"])
def test_servings_older_gpu_module_is_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.paddle_api_mismatch, "serving_gpu_module_merged",
                                                         "medium"), (rc.cause, rc.code)


def test_another_module_that_python_m_cannot_find_stays_the_generic_reading(tmp_path):
    rc = _diagnose(tmp_path, "/usr/bin/python3: No module named paddle_serving_server.serve\n")
    assert rc.code == "runpy_no_module", rc.code


@pytest.mark.parametrize("text", [
    "A/Paddle-Lite: [F  6/18 18:42: 6.401 ...e/kernels/opencl/matmul_image_compute.cc:342 ReInitWhenNeeded] unsupported "
    "input case.\nA/libc: Fatal signal 6 (SIGABRT), code -1 (SI_QUEUE) in tid 1\n",
    "06-18 18:42:06.401  4321  4350 F Paddle-Lite: [F  6/18 18:42: 6.401 ...lite/kernels/arm/conv_compute.cc:80 "
    "PrepareForRun] this type conv not impl\n06-18 18:42:06.402  4321  4350 F libc    : Fatal signal 6 (SIGABRT)\n",
    "[F  6/18 18:42: 6.401 ...lite/kernels/x86/pool_compute.h:51 Run] Pooling type is not supported: lp\n"])
def test_a_lite_kernel_stopping_on_a_case_it_does_not_support_is_another_release(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "lite_kernel_case_unsupported"), (rc.cause, rc.code)


def test_a_lite_kernels_other_fatal_line_is_not_read_as_unsupported(tmp_path):
    rc = _diagnose(tmp_path, "[F  6/18 18:42: 6.401 ...lite/kernels/opencl/conv_image_compute.cc:99 Run] "
                             "clEnqueueNDRangeKernel failed: -5\n")
    assert rc.code != "lite_kernel_case_unsupported", rc.code


@pytest.mark.parametrize("prefix", ["E/Paddle-Lite: ", "E/Paddle-Lite( 4321): ", "06-18 18:42:06.401  4321  4350 F Paddle-Lite: "])
def test_a_logcat_paste_is_read_without_its_prefixes(tmp_path, prefix):
    """The priority and tag come off each line, so a line read from its start (Lite's fatal log line) is read."""
    rc = _diagnose(tmp_path, f"{prefix}[I  6/18 18:42: 6.301 ...lite/api/light_api.cc:20 Build] load model\n{prefix}"
                             "[F  6/18 18:42: 6.401 ...lite/core/op_registry.cc:12 Create] Unknown supported target: X\n")
    assert rc.code == "fatal_log_line" and rc.evidence[-1].text.startswith("[F"), (rc.code, rc.evidence)
