"""Readings added in issue 29's twenty-third session (batch130: an evaluation that divides by what it counted, a
choice check's broken English, a kernel the build lacks, an input never fed, a custom operator's failed build, and
a saved tensor that may be a newer Paddle's), and the near texts each must leave alone."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _cause(tmp_path, text: str):
    rc = _diagnose(tmp_path, text)
    return (rc.cause, rc.confidence.value) if rc else None


def _traceback(func: str, path: str, source: str, message: str = "float division by zero") -> str:
    return ("Traceback (most recent call last):\n  File \"run.py\", line 9, in <module>\n    main()\n"
            f"  File \"{path}\", line 42, in {func}\n    {source}\nZeroDivisionError: {message}\n")


@pytest.mark.parametrize("func, source", [
    ("eval_net", "class2_acc = class2_acc / (total_count - neu_count)"),
    ("eval", "metric['fps'] = total_frame / total_time + 0.001"),
    ("test", "acc = correct / float(total)"),
    ("run_eval", "avg_loss = loss_sum / cnt"),
    ("validation", "acc = right / self.sample_num"),
])
def test_an_evaluation_that_divides_by_what_it_counted_saw_no_batch(tmp_path, func, source):
    assert _cause(tmp_path, _traceback(func, "tools/program.py", source)) == (CauseId.sampler_too_few_samples, "medium")


@pytest.mark.parametrize("func, source", [
    # a train step's speed divides by a time, not by an evaluation's count
    ("update", "self.run_speed = self.run_step / self.run_time_used"),
    # an evaluation's ratio of its own predictions: no prediction is no empty reader
    ("eval", "precision = tp / (tp + fp)"),
    # a count in a function that is no evaluation, or a unit test's own
    ("normalize", "x = x / total"),
    ("test_divide", "assert 1 / count == 1"),
    ("unit_test", "x = a / total"),
    # names that hold a count's letters but count no batch
    ("eval", "precision = num_correct / num_pred"),
    ("eval", "miou = inter / paddle.numel(label)"),
    ("eval", "ret = reward / discount"),
    ("eval", "loss = loss / self.cfg['num_classes']"),
    ("test_speed", "fps = iters / total_time"),
])
def test_other_zero_divisions_stay_the_code(tmp_path, func, source):
    assert _cause(tmp_path, _traceback(func, "lib/metrics.py", source)) == (CauseId.python_exception, "medium")


@pytest.mark.parametrize("text", [
    "AssertionError: param lang must in dict_keys(['ch', 'en', 'french', 'german', 'korean', 'japan']), but got fa\n",
    "AssertionError: param model_type must in ['ocr_rec', 'cls'], but got det\n",
    "AssertionError: param lang must in odict_keys(['ch', 'en']), but got fa\n",
])
def test_a_choice_check_is_the_configuration(tmp_path, text):
    assert _cause(tmp_path, text)[0] == CauseId.config_error


@pytest.mark.parametrize("text", [
    # "must in" without a list of choices after it
    "AssertionError: the index must in range, but got 7\n",
    # a range of indexes or a layout is no list of choices
    "ValueError: axis must in [-2, 2), but received 3\n",
    "IndexError: index must in (0, 5), but got 7\n",
    "AssertionError: the input image should in (H, W, C) layout\n",
])
def test_words_that_only_look_like_a_choice_check_stay_the_code(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


def test_a_kernel_the_build_lacks_for_every_device_is_the_switch(tmp_path):
    text = ("RuntimeError: (NotFound) The kernel `memory_efficient_attention` is not registered.\n"
            "  [Hint: Expected iter != kernels_.end(), but received iter == kernels_.end().] "
            "(at .[.\\paddle\\phi\\core\\kernel_factory.cc:174]\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value, rc.code) == (CauseId.config_error, "medium", "phi_kernel_absent")
    assert "memory_efficient_attention" in rc.message
    # an older Paddle is the near cause; the catalog's table for config_error (hosts' addresses) is no alternative
    assert [a.cause for a in rc.alternatives] == [CauseId.paddle_api_mismatch]


def test_a_gradient_kernel_missing_is_a_gap_of_the_release_not_a_build(tmp_path):
    text = "RuntimeError: (NotFound) The kernel `view_shape_grad` is not registered.\n"
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


def test_a_kernel_missing_for_one_key_is_not_the_absent_kernel(tmp_path):
    # a kernel that exists for other places or types: the call's dtype or place, not a build without it
    text = ("RuntimeError: (NotFound) The kernel with key (CPU, NCHW, float16) of kernel `add` is not registered. "
            "Selected wrong DataType `float16`.\n")
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


@pytest.mark.parametrize("text", [
    "InvalidArgumentError: The input of Op(Conv) should be a 4-D or 5-D Tensor. But received: input's dimension is -1, "
    "input's shape is [].\n  [Hint: Expected in_dims.size() == 4 || in_dims.size() == 5 == true, but received "
    "in_dims.size() == 4 || in_dims.size() == 5:0 != true:1.] (at ../paddle/phi/kernels/cpu/conv_util.h:130)\n",
    "ValueError: (InvalidArgument) Input of Op(conv_transpose) should be 4-D or 5-D Tensor. But received: -1-D Tensor, "
    "the shape of input is []\n",
    "ValueError: (InvalidArgument) the input of Op(pool) should be 4-D or 5-D Tensor. But received: -1-D Tensor and it's "
    "shape is [].\n",
])
def test_an_input_never_fed_is_the_script_and_model_that_do_not_fit(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.config_error, "medium")
    assert [a.cause for a in rc.alternatives] == [CauseId.python_exception]


def test_an_input_of_the_wrong_rank_is_not_an_unfed_one(tmp_path):
    # a fed input of rank 3: the data's shape, not an input never given
    text = ("InvalidArgumentError: The input of Op(Conv) should be a 4-D or 5-D Tensor. But received: input's dimension "
            "is 3, input's shape is [3, 224, 224].\n")
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


def test_a_custom_operators_failed_build_is_read_without_its_exception_type(tmp_path):
    text = ("- Windows10\n- 报错：\n- Failed to run command: <built-in function compile>, errors: Command 'cd /d "
            "C:\\Users\\u\\paddlenlp\\ops\\extenstions && python.exe FasterTransformer_setup.py build' returned non-zero "
            "exit status 1.\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.python_exception, "low")
    assert "custom operator" in rc.message


def test_a_custom_operators_failed_build_with_its_type_stays_that_exception(tmp_path):
    text = ("RuntimeError: Failed to run command: <built-in function compile>, errors: Command 'cd ~/.cache/"
            "paddle_extensions && python custom_relu_setup.py build' returned non-zero exit status 1.\n")
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


def test_the_compilers_own_reason_above_the_failed_build_wins(tmp_path):
    text = ("/usr/local/cuda/include/crt/host_config.h:138:2: error: #error -- unsupported GNU version! gcc versions "
            "later than 10 are not supported!\n"
            "Failed to run command: <built-in function compile>, errors: Command 'python relu_setup.py build' returned "
            "non-zero exit status 1.\n")
    rc = _diagnose(tmp_path, text)
    assert rc.code != "custom_op_build_failed" and rc.cause != CauseId.python_exception


def test_a_saved_tensor_that_does_not_read_is_medium_with_a_newer_paddle_first(tmp_path):
    text = ("ValueError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle model"
            "(expected file format: 0, but 2150175445 found).\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.checkpoint_corrupt, "medium")
    assert rc.alternatives[0].cause == CauseId.paddle_api_mismatch


def test_other_damaged_files_do_not_blame_a_newer_paddle(tmp_path):
    for text in ("tarfile.ReadError: unexpected end of data\n",
                 "ValueError: `paddle.load` can not parse the file:output/model.pdparams.\n"):
        rc = _diagnose(tmp_path, text)
        assert rc.cause == CauseId.checkpoint_corrupt
        assert CauseId.paddle_api_mismatch not in [a.cause for a in rc.alternatives]


# --- batch131 ---------------------------------------------------------------------------------------------------

def _device_line(capability: str, runtime: str) -> str:
    return (f"W0807 01:14:14.705452  8948 device_context.cc:259] Please NOTE: device: 0, CUDA Capability: {capability}, "
            f"Driver API Version: 10.1, Runtime API Version: {runtime}\n")


_MUL_FAILED = ("Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
               "paddle.fluid.core_avx.EnforceNotMet: Invoke operator mul error.\n")


@pytest.mark.parametrize("capability, runtime, confidence", [
    # a new major the runtime predates has no code at all; Turing under CUDA 9 fails only in cuBLAS
    ("90", "11.2", "high"), ("120", "12.6", "high"), ("80", "10.2", "high"), ("75", "9.0", "medium"), ("75", "8.0", "medium")])
def test_a_runtime_older_than_the_gpus_architecture_is_the_arch(tmp_path, capability, runtime, confidence):
    rc = _diagnose(tmp_path, _device_line(capability, runtime) + _MUL_FAILED)
    assert (rc.cause, rc.confidence.value) == (CauseId.cuda_arch_unsupported, confidence)


def test_an_operators_own_check_under_that_device_line_is_that_check(tmp_path):
    # 1.x's wrapper with the failed check's details below it: a shape error, whatever the GPU
    text = _device_line("75", "9.0") + _MUL_FAILED + (
        "C++ Callstacks:\nEnforce failed. Expected x_mat_dims[1] == y_mat_dims[0], but received x_mat_dims[1]:784 != "
        "y_mat_dims[0]:1024.\nFirst matrix's width must be equal with second matrix's height. at "
        "[/paddle/paddle/fluid/operators/mul_op.cc:78]\n")
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")
    text = _device_line("90", "11.2") + "ValueError: (InvalidArgument) The shape of input X and Y mismatch.\n"
    assert _cause(tmp_path, text)[0] == CauseId.python_exception


@pytest.mark.parametrize("capability, runtime", [("86", "11.0"), ("89", "11.7"), ("75", "10.0"), ("90", "11.8"),
                                                 ("120", "12.8")])
def test_a_runtime_that_runs_the_gpu_is_not_the_arch(tmp_path, capability, runtime):
    # within one major a cubin of the older minor runs (sm_80's on sm_86 and sm_89)
    rc = _diagnose(tmp_path, _device_line(capability, runtime) + _MUL_FAILED)
    assert rc.cause != CauseId.cuda_arch_unsupported


@pytest.mark.parametrize("words", ["address/offset not properly aligned", "address/offset not page-aligned"])
def test_the_loaders_other_words_for_the_alignment_are_the_same_build(tmp_path, words):
    text = f"ImportError: /env/site-packages/paddle/fluid/libpaddle.so: ELF load command {words}\n"
    assert _diagnose(tmp_path, text).code == "elf_alignment_not_page"


def test_a_library_aligned_for_another_page_size_is_the_build(tmp_path):
    text = ("Error: Can not import paddle core while this file exists: /usr/lib/python3.7/site-packages/paddle/fluid/"
            "libpaddle.so\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
            "ImportError: /usr/lib/python3.7/site-packages/paddle/fluid/libpaddle.so: ELF load command alignment not "
            "page-aligned\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "elf_alignment_not_page")
    assert rc.message.startswith("the loader refused /usr/lib/python3.7/site-packages/paddle/fluid/libpaddle.so")


def test_a_core_that_calls_librt_without_linking_it_is_that_builds_defect(tmp_path):
    text = ("Error: Can not import paddle core while this file exists: /env/site-packages/paddle/fluid/libpaddle.so\n"
            "ImportError: /env/site-packages/paddle/fluid/libpaddle.so: undefined symbol: shm_unlink\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.python_exception, "librt_symbol_unlinked")


def test_a_cpp_programs_loader_naming_a_librt_symbol_is_the_same_defect(tmp_path):
    text = ("./build/ppocr: symbol lookup error: /opt/paddle_inference/paddle/lib/libpaddle_inference.so: undefined "
            "symbol: shm_unlink\n")
    assert _diagnose(tmp_path, text).code == "librt_symbol_unlinked"


def test_the_core_that_would_not_load_alone_is_still_a_library_not_found(tmp_path):
    text = "Error: Can not import avx core while this file exists...\n"
    assert _diagnose(tmp_path, text).code == "paddle_core_unloadable"


_SIGSEGV = ("W0318 11:19:35.638175   150 init.cc:217] *** SIGSEGV (@0x130) received by PID 150 (TID 0x7fd82fb11f40) "
            "from PID 304; stack trace: ***\nW0318 11:19:35.640535   150 init.cc:217]     @     0x7fd830016730 (unknown)\n")


def test_a_crash_while_pybind11_creates_a_type_is_two_packages_in_one_process(tmp_path):
    text = _SIGSEGV + "W0318 11:19:35.641213   150 init.cc:217]     @     0x7fd7e91a01aa pybind11::detail::make_new_python_type()\n"
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.dependency_version_mismatch, "medium")
    assert rc.alternatives[0].cause == CauseId.segfault


def test_a_pybind11_frame_without_a_crash_decides_nothing(tmp_path):
    # a hang's gdb backtrace, or a frame pasted alone
    for text in ("#2  0x00007f1 in pybind11::detail::generic_type::initialize() () from /x/core_avx.so\n",
                 "    @     0x7fd7e91a01aa pybind11::detail::make_new_python_type()\n"):
        rc = _diagnose(tmp_path, text)
        assert rc is None or rc.cause != CauseId.dependency_version_mismatch


def test_a_pybind11_frame_far_from_the_crash_is_not_its_stack(tmp_path):
    text = _SIGSEGV + "".join(f"I0318 11:19:36.{i:06d}   150 x.cc:1] step {i}\n" for i in range(50)) + (
        "W0318 11:19:35.641213   150 init.cc:217]     @     0x7fd7e91a01aa pybind11::detail::make_new_python_type()\n")
    assert _diagnose(tmp_path, text).cause == CauseId.segfault


def test_a_pybind11_frame_of_paddles_cpp_traceback_before_the_summary_counts(tmp_path):
    text = ("C++ Traceback (most recent call last):\n--------------------------------------\n"
            "0   PyInit_libpaddle\n1   pybind11::detail::generic_type::initialize(pybind11::detail::type_record const&)\n"
            "\n----------------------\nError Message Summary:\n----------------------\n"
            "FatalError: `Segmentation fault` is detected by the operating system.\n")
    assert _diagnose(tmp_path, text).cause == CauseId.dependency_version_mismatch


def test_a_crash_in_other_frames_stays_a_crash(tmp_path):
    text = _SIGSEGV + "W0318 11:19:35.641213   150 init.cc:217]     @     0x7fd7e91a01aa paddle::framework::Executor::Run()\n"
    assert _diagnose(tmp_path, text).cause == CauseId.segfault


@pytest.mark.parametrize("text", ["AssertionError: the module BlazeFace is not registered?\n",
                                  "ValueError: The module BlazeFace is not registered\n"])
def test_a_module_ppdet_does_not_register_is_another_release_of_it(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.paddle_api_mismatch, "medium")
    assert rc.alternatives[0].cause == CauseId.config_error


@pytest.mark.parametrize("text", [
    "InvalidArgumentError: The conv2d_fusion Op's Input Variable `Input` contains uninitialized Tensor.\n  [Hint: "
    "Expected t->IsInitialized() == true, but received t->IsInitialized():0 != true:1.] (at /paddle/paddle/fluid/"
    "framework/operator.cc:2411)\n",
    "InvalidArgumentError: The Tensor in the conv2d Op's Input Variable Input(image) is not initialized.\n",
])
def test_an_inference_ops_uninitialized_input_was_never_fed(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


@pytest.mark.parametrize("text", [
    # a training program's op, or a parameter's slot (the startup program never run, a branch not taken): not the feed
    "InvalidArgumentError: The conv2d Op's Input Variable `Filter` contains uninitialized Tensor.\n",
    "InvalidArgumentError: The fused_attention Op's Input Variable `QKVW` contains uninitialized Tensor.\n",
    "InvalidArgumentError: The fused_elemwise_add_activation Op's Input Variable `X` contains uninitialized Tensor.\n",
])
def test_a_training_ops_uninitialized_input_is_not_read_as_unfed(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.python_exception, "medium")


def test_a_cpp_build_looking_into_the_python_wheel_is_the_library_path(tmp_path):
    text = ("cp: cannot stat '/home/u/envs/ocr/lib/python3.7/site-packages/paddle/third_party/install/mklml/lib/"
            "libmklml_intel.so': No such file or directory\n")
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


def test_makes_missing_target_in_the_wheel_is_the_library_path(tmp_path):
    text = ("make[2]: *** No rule to make target '/home/u/envs/ocr/lib/python3.7/site-packages/paddle/paddle/lib/"
            "libpaddle_inference.so', needed by 'ppocr'.  Stop.\n")
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


def test_a_file_missing_elsewhere_in_the_wheel_is_not_the_library_path(tmp_path):
    text = "cp: cannot stat '/env/site-packages/paddle/libs/libmklml_intel.so': No such file or directory\n"
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.file_not_found and rc.code != "inference_lib_is_python_wheel"


def test_bold_around_words_inside_a_line_is_taken_off(tmp_path):
    text = ("ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.\n"
            "**_onnx_** 1.13.0 requires **_protobuf<4,>=3.20.2_**, but you have protobuf 3.20.0 which is incompatible.\n")
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.dependency_version_mismatch and "onnx needs" in rc.message


def test_python_double_stars_are_not_bold():
    from paddle_doctor.diagnose.read.markdown import plain
    for line in ("def f(*args, **kwargs):", "files **/*.py and **/x", "x = a ** b ** c", "    return (a)**2 + (b)**(0.5)",
                 "loss = paddle.mean((pred-label)**2)**(0.5)", "warning: pattern **/build/** did not match"):
        assert plain(line) == line


# --- batch132 ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Error: Input(X) dims[3] and Input(Grid) dims[2] should be equal.\n  [Hint: Expected grid_dims[2] == x_dims[3], but "
    "received grid_dims[2]:320 != x_dims[3]:100.] at (/paddle/paddle/fluid/operators/grid_sampler_op.cc:55)\n",
    "InvalidArgumentError: Input(X) dims[2] and Input(Grid) dims[1] should be equal, but received X dimension[2](48) != "
    "Grid dimension[1](32)\n",
])
def test_a_fixed_grid_given_another_size_is_the_input_shape(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.config_error, "medium")


@pytest.mark.parametrize("text", [
    "/src/paddle/cinn/runtime/cinn_runtime.h:32:10: fatal error: 'functional' file not found\n#include <functional>\n",
    "main.cc:1:10: fatal error: iostream: No such file or directory\n",
    "src/main.cc:3:10: fatal error: 'sstream' file not found\n",
    "src/main.cc:3:10: fatal error: chrono: No such file or directory\n",
    "demo.cc:1:10: 致命错误：iostream：没有那个文件或目录\n",
])
def test_the_standard_librarys_header_missing_is_the_toolchain(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.dependency_version_mismatch, "medium")


def test_a_librarys_own_header_missing_is_still_the_file(tmp_path):
    text = "demo.cc:3:10: fatal error: paddle_inference_api.h: No such file or directory\n"
    assert _cause(tmp_path, text)[0] == CauseId.file_not_found


def test_a_cpp_header_in_a_c_source_is_not_the_toolchain(tmp_path):
    rc = _diagnose(tmp_path, "main.c:1:10: fatal error: iostream: No such file or directory\n")
    assert rc.code != "cxx_standard_header_missing"


@pytest.mark.parametrize("text", [
    "In file included from /Paddle/third_party/gloo/gloo/common/linux.cc:15:\n/usr/include/linux/ethtool.h: In "
    "function 'int gloo::getInterfaceSpeedGLinkSettings(int, ifreq*)':\n/usr/include/linux/ethtool.h:2199:17: error: "
    "flexible array member 'ethtool_link_settings::link_mode_masks' not at end of 'struct gloo::<unnamed>'\n",
    "/usr/include/x86_64-linux-gnu/bits/floatn.h(74): error: invalid argument to attribute \"__mode__\"\n",
    "#12 45.3 /usr/include/linux/ethtool.h:2199:17: error: flexible array member not at end of struct\n",
])
def test_an_error_inside_the_kernels_or_glibcs_headers_is_code_of_another_age(tmp_path, text):
    assert _cause(tmp_path, text) == (CauseId.dependency_version_mismatch, "medium")


def test_an_error_inside_another_system_header_is_weak(tmp_path):
    text = "/usr/include/python3.8/pyport.h:726:2: error: #error \"LONG_BIT definition appears wrong for platform\"\n"
    assert _cause(tmp_path, text) == (CauseId.dependency_version_mismatch, "low")


@pytest.mark.parametrize("text", [
    # specific rows still read their lines under /usr/include
    "/usr/include/c++/4.8/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library support for "
    "the ISO C++ 2011 standard. This support is currently experimental, and must be enabled with the -std=c++11 or "
    "-std=gnu++11 compiler options.\n",
    # a template error in the C++ library's headers is the project's own code
    "main.cc:10:20:   required from here\n/usr/include/c++/9/bits/stl_vector.h:401:66: error: static assertion failed: "
    "std::vector must have a non-const, non-volatile value_type\n",
    "/work/demo/src/main.cc:12:5: error: 'foo' was not declared in this scope\n",
])
def test_lines_other_rows_read_are_not_a_system_header(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.code not in ("system_header_compile_error", "system_header_compile_error_other")
