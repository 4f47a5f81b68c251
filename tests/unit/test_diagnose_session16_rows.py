"""Readings added in issue 29's sixteenth session, each from an emitter's template or a mechanism."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


def _said(rc) -> str:
    """What the verdict says: a signature row's title is its message, a reading of the error's parts its why."""
    return f"{rc.message} {rc.why}"


# --- an operator without a gradient on the backward path ---------------------------------------------------------

_BACKWARD = ("Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n    optimizer.minimize(loss)\n"
             "  File \"/usr/lib/python3.8/site-packages/paddle/fluid/backward.py\", line 297, in _append_backward_ops_\n"
             "    op.desc, cpt.to_text(no_grad_dict[block.idx]), grad_sub_block_list)\n{exc}\n")


@pytest.mark.parametrize("exc", [
    "paddle.fluid.core.EnforceNotMet: grad_op_maker_ should not be null\nOperator GradOpMaker has not been registered. "
    "at [D:\\1.4.1\\paddle\\paddle/fluid/framework/op_info.h:64]",
    "NotFoundError: Operator gaussian_random's GradOpMaker has not been registered.\nPlease check whether "
    "(gaussian_random) operator has gradient operator.",
    "NotFoundError: Neither operator cast's GradOpMaker nor CompGradOpMaker has been registered."])
def test_backward_through_an_operator_without_a_gradient_is_the_users_network(tmp_path, exc):
    rc = _diagnose(tmp_path, _BACKWARD.format(exc=exc))
    assert rc.cause == CauseId.python_exception and "stop_gradient" in _said(rc), (rc.cause, _said(rc))


def test_an_operator_the_registry_lacks_is_still_another_release(tmp_path):
    rc = _diagnose(tmp_path, _BACKWARD.format(exc="NotFoundError: Operator \"fused_op_x\" has not been registered."))
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, _said(rc))


# --- gflags: a file linked both statically and dynamically --------------------------------------------------------

def test_a_flag_registered_twice_by_one_file_linked_twice_is_two_copies_of_a_library(tmp_path):
    rc = _diagnose(tmp_path, "I0815 21:27:52.719660 13596 Util.cpp:166] commandline: paddle_merge_model\n"
                             "ERROR: something wrong with flag 'check_sparse' in file '/b/paddle/pserver/S.cpp'.  One "
                             "possibility: file '/b/paddle/pserver/S.cpp' is being linked both statically and "
                             "dynamically into this executable.\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "check_sparse" in _said(rc), (rc.cause, _said(rc))


# --- a level glued to its timestamp by a hyphen; PaddleSlim's swallowed X2Paddle exception -----------------------

def test_an_error_level_glued_to_a_timestamp_by_a_hyphen_is_a_failure(tmp_path):
    rc = _diagnose(tmp_path, "2023-02-09 11:47:31,706-INFO: starting\n2023-02-09 11:47:31,706-ERROR: the job broke\n")
    assert rc.code == "error_without_cause" and rc.evidence[0].line == 2, (rc.code, rc.evidence)


@pytest.mark.parametrize("line", ["see the pre-error handling notes", "epoch 3 val top1-error: 0.231 top5-error: 0.052",
                                  "Epoch[3] Train-top1-error=0.23 Val-top1-error 0.25",
                                  "[2023-01-01 10:00:00] eval: cifar10-error 0.045, best 0.043"])
def test_a_hyphenated_word_is_not_an_error_line(tmp_path, line):
    assert _diagnose(tmp_path, f"{line}\n") is None


def test_paddleslims_x2paddle_failure_is_the_converters_release(tmp_path):
    rc = _diagnose(tmp_path, "2023-02-09 11:47:31,706-INFO: Now translating model from onnx to paddle.\n"
                             "2023-02-09 11:47:31,706-WARNING: __init__() missing 1 required positional argument: "
                             "'enable_onnx_checker'\n2023-02-09 11:47:31,706-ERROR: x2paddle threw an exception, you can "
                             "ask for help at: https://github.com/PaddlePaddle/X2Paddle/issues\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "X2Paddle" in _said(rc), (rc.cause, _said(rc))


# --- a program whose op attributes have types the reader does not know -------------------------------------------

_P2O = ("[Paddle2ONNX] Start to parsing Paddle model...\n{protobuf}[Paddle2ONNX] Failed to parse paddlepaddle model from "
        "read content.\n[Paddle2ONNX] Paddle model convert failed.\n")


def test_an_attribute_type_the_readers_proto_lacks_is_a_newer_paddles_model(tmp_path):
    rc = _diagnose(tmp_path, _P2O.format(protobuf="[libprotobuf ERROR /w/message_lite.cc:133] Can't parse message of type "
                                         "\"paddle2onnx.framework.proto.ProgramDesc\" because it is missing required "
                                         "fields: blocks[0].ops[27].attrs[7].type\n"))
    assert rc.cause == CauseId.paddle_api_mismatch and "newer Paddle" in _said(rc), (rc.cause, _said(rc))


def test_an_unparsed_model_without_protobufs_reason_is_still_the_file_given(tmp_path):
    rc = _diagnose(tmp_path, _P2O.format(protobuf=""))
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


# --- Paddle-Lite: feed and fetch need the host among the valid places --------------------------------------------

def test_no_kernel_for_feed_is_the_valid_places_without_the_host(tmp_path):
    rc = _diagnose(tmp_path, "F0322 10:22:15.475234 29111 static_kernel_pick_pass.cc:71] Check failed: "
                             "!instruct.kernels().empty() No kernels found for feed\n")
    assert rc.cause == CauseId.config_error and "kHost" in _said(rc), (rc.cause, _said(rc))


def test_no_kernel_for_a_models_op_is_not_read_as_the_host(tmp_path):
    rc = _diagnose(tmp_path, "F0322 10:22:15.475234 29111 static_kernel_pick_pass.cc:71] Check failed: "
                             "!instruct.kernels().empty() No kernels found for conv2d_transpose\n")
    assert "kHost" not in _said(rc), _said(rc)


# --- a configured value named bare at the end of the message -------------------------------------------------------

_ASSERT = ("Traceback (most recent call last):\n  File \"tools/eval.py\", line 86, in main\n"
           "    assert cfg.metric in ['COCO', 'VOC'], \"unknown metric type {{}}\".format(cfg.metric)\n{exc}\n")


def test_an_unknown_value_named_bare_at_the_end_is_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, _ASSERT.format(exc="AssertionError: unknown metric type voc"))
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


@pytest.mark.parametrize("exc", ["RuntimeWarning: invalid value encountered in divide",
                                 "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
                                 "AssertionError: unknown metric type voc was given by the reader, then"])
def test_other_words_after_an_unknown_type_are_not_a_bare_value(tmp_path, exc):
    rc = _diagnose(tmp_path, _ASSERT.format(exc=exc))
    assert rc is None or rc.cause != CauseId.config_error, (rc.cause, _said(rc))


# --- a download URL joined with Windows' separator -------------------------------------------------------------------

def test_a_community_url_with_a_backslash_names_the_separator_and_the_release(tmp_path):
    rc = _diagnose(tmp_path, "[2022-10-31 13:23:56,544] [   ERROR] - Downloading from https://bj.bcebos.com/paddlenlp/"
                             "models/community/Salesforce/codegen-350M-mono\\vocab.json failed with code 404!\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "separator" in _said(rc) and "Salesforce" not in _said(rc), _said(rc)


def test_a_community_url_without_a_backslash_names_the_model(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: Downloading from https://bj.bcebos.com/paddlenlp/models/community/"
                             "my-model/model_state.pdparams failed with code 404!\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "my-model" in _said(rc), _said(rc)


# --- batch 98: a double-spaced paste, a rank's endpoint by its id, a config key that does not exist -----------------

_FLEET = ("Traceback (most recent call last):\n  File \"train.py\", line 82, in set_optimizer\n"
          "    sgd_optimizer.minimize(loss)\n  File \"/usr/lib/python2.7/site-packages/paddle/fluid/incubate/fleet/"
          "collective/__init__.py\", line 125, in minimize\n    current_endpoint = fleet.worker_endpoints()[trainer_id]\n"
          "IndexError: list index out of range\n")


def _double_spaced(text: str) -> str:
    return "".join(line + "\n\n" for line in text.splitlines())


@pytest.mark.parametrize("text", [_FLEET, _double_spaced(_FLEET)], ids=["plain", "double-spaced"])
def test_a_ranks_endpoint_read_by_its_id_past_the_list_is_the_launch_environment(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == CauseId.missing_dist_env and "PADDLE_TRAINER_ENDPOINTS" in _said(rc), (rc.cause, _said(rc))


def test_another_index_past_a_list_is_not_the_launch_environment(tmp_path):
    rc = _diagnose(tmp_path, _FLEET.replace("fleet.worker_endpoints()[trainer_id]", "boxes[trainer_id]"))
    assert rc.cause != CauseId.missing_dist_env, (rc.cause, _said(rc))


def test_a_double_spaced_frames_source_is_quoted_from_its_own_line():
    import io
    from types import SimpleNamespace

    from paddle_doctor.diagnose.read.scan import scan_stream
    from paddle_doctor.diagnose.verdict import _evidence

    hits = list(scan_stream(io.BytesIO(_double_spaced(_FLEET).encode())))
    frame = next(h for h in hits if "collective/__init__.py" in h.text)
    assert frame.line == 7 and frame.next_text.strip().startswith("current_endpoint"), frame
    event = SimpleNamespace(file="paste.log", line=frame.line, text=frame.text, role="frame", next_text=frame.next_text)
    assert [e.line for e in _evidence([event])] == [7, 9]  # the frame, then its source after the blank line 8


def test_a_run_of_blank_lines_after_a_frame_is_not_walked():
    import io

    from paddle_doctor.diagnose.read.scan import scan_stream

    text = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n" + "  \n" * 50000 + \
        "    x = 1\nValueError: x\n"
    frame = next(h for h in scan_stream(io.BytesIO(text.encode())) if h.text.startswith("  File"))
    assert frame.next_text == "  ", frame  # the blank line itself: the source far below is not looked for


def test_a_frame_line_after_a_blank_one_is_not_a_frames_source():
    import io

    from paddle_doctor.diagnose.read.scan import scan_stream

    text = "Traceback (most recent call last):\n  File \"core.pyx\", line 12, in run\n\n  File \"b.py\", line 3, in f\n"
    frame = next(h for h in scan_stream(io.BytesIO(text.encode())) if "core.pyx" in h.text)
    assert not frame.next_text.strip(), frame


def test_a_config_key_that_does_not_exist_is_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"pdseg/utils/collect.py\", line 90, in "
                             "update_from_segconfig\n    raise KeyError('Non-existent config key: {}'.format(key))\n"
                             "KeyError: 'Non-existent config key: MODEL.HRNET.OCR_MID_CHANNELS'\n")
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


# --- batch 98: native and toolchain messages ------------------------------------------------------------------------

@pytest.mark.parametrize("line", ["#  SIGILL (0x4) at pc=0x00007feb1f99806e, pid=25314, tid=0x00007feb349b8700",
                                  "#  EXCEPTION_ACCESS_VIOLATION (0xc0000005) at pc=0x000000006d0a1b2c, pid=4, tid=8"])
def test_the_jvms_fatal_error_report_is_a_native_crash(tmp_path, line):
    rc = _diagnose(tmp_path, f"#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n{line}\n")
    assert rc.cause == CauseId.segfault and "Java" in _said(rc), (rc.cause, _said(rc))


def test_cudas_own_double_atomic_add_against_old_code_is_the_toolkit(tmp_path):
    rc = _diagnose(tmp_path, "/p/paddle/cuda/include/hl_device_functions.cuh:39:13: error: 'double hppl::atomicAdd("
                             "double*, double)' conflicts with a previous declaration\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, _said(rc))


@pytest.mark.parametrize("line", ["Intel MKL function load error: cpu specific dynamic library is not loaded.",
                                  "Intel MKL FATAL ERROR: Cannot load libmkl_avx2.so or libmkl_def.so."])
def test_mkl_without_its_cpu_library_is_the_environments_packages(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "MKL" in _said(rc), (rc.cause, _said(rc))


def test_a_paddle_jar_calling_a_native_method_its_library_lacks_is_two_releases(tmp_path):
    rc = _diagnose(tmp_path, "E/AndroidRuntime: FATAL EXCEPTION: main\n    java.lang.UnsatisfiedLinkError: No "
                             "implementation found for boolean com.baidu.paddle.lite.Tensor.nativeSetData(long[]) "
                             "(tried Java_com_baidu_paddle_lite_Tensor_nativeSetData and ...)\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "com.baidu.paddle.lite.Tensor" in _said(rc), _said(rc)


def test_a_fastdeploy_backend_its_release_lacks_for_the_platform_is_the_release(tmp_path):
    rc = _diagnose(tmp_path, "CMake Error at cmake/paddle_inference.cmake:67 (message):\n  Paddle Backend doesn't "
                             "support linux aarch64 now.\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "no Paddle backend for linux aarch64" in _said(rc), _said(rc)


def test_fastdeploy_asking_for_a_backend_it_was_built_without_is_the_build(tmp_path):
    rc = _diagnose(tmp_path, "[ERROR] fastdeploy/runtime.cc(319)::EnablePaddleToTrt   While using TrtBackend with "
                             "EnablePaddleToTrt, require the FastDeploy is compiled with Paddle Inference Backend, please "
                             "rebuild your FastDeploy.\n")
    assert rc.cause == CauseId.config_error and "Paddle Inference Backend" in _said(rc), _said(rc)


# --- batch 99: builds, sanitizers, cuDNN's load check, a cut hint, config words, class ids ----------------------------

def test_cmake_without_a_languages_compiler_is_a_missing_build_tool(tmp_path):
    rc = _diagnose(tmp_path, "CMake Error at CMakeLists.txt:22 (project):\n  No CMAKE_Go_COMPILER could be found.\n")
    assert rc.cause == CauseId.dependency_version_mismatch and "Go compiler" in _said(rc), _said(rc)


def test_a_build_linking_paddle_1xs_library_name_is_another_release(tmp_path):
    rc = _diagnose(tmp_path, "make[2]: *** No rule to make target '/d/paddle_inference/paddle/lib/libpaddle_fluid.a', "
                             "needed by 'lac_demo'.  Stop.\nmake[1]: *** [CMakeFiles/lac_demo.dir/all] Error 2\n")
    assert rc.cause == CauseId.paddle_api_mismatch and "libpaddle_inference" in _said(rc), _said(rc)


def test_make_without_another_target_is_not_read_as_paddles_library(tmp_path):
    rc = _diagnose(tmp_path, "make[2]: *** No rule to make target '/usr/lib/libfoo.a', needed by 'demo'.  Stop.\n")
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, _said(rc)


def test_addresssanitizers_report_is_a_native_memory_fault(tmp_path):
    rc = _diagnose(tmp_path, "==1816849==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x625000a4bff8 at pc "
                             "0x7f3a bp 0x7ffd sp 0x7ffd\nWRITE of size 8 at 0x625000a4bff8 thread T0\n")
    assert rc.cause == CauseId.segfault and "heap-buffer-overflow" in _said(rc), _said(rc)


def test_cudnns_load_check_on_the_stack_is_cudnn(tmp_path):
    rc = _diagnose(tmp_path, "paddle.fluid.core_avx.EnforceNotMet: \n\n--------------------------------------------\n"
                             "C++ Call Stacks (More useful to developers):\n-------------------------------------------\n"
                             "0   std::string paddle::platform::GetTraceBackString<char const*>(char const*&&, char const*, int)\n"
                             "2   paddle::platform::dynload::EnforceCUDNNLoaded(char const*)\n"
                             "3   paddle::platform::CUDADeviceContext::CUDADeviceContext(paddle::platform::CUDAPlace)\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, _said(rc))


def test_a_hint_whose_position_the_paste_cut_is_still_the_check(tmp_path):
    rc = _diagnose(tmp_path, "Error Message Summary:\n----------------------\n  [Hint: Expected dim_a.width_ == "
                             "dim_b.height_, but received dim_a.width_:256 != dim_b.height_:1024.] at (/paddle/paddle/fluid\n")
    assert rc.cause == CauseId.python_exception and "dim_a.width_" in rc.message, rc.message


def test_a_config_that_should_contain_keys_is_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"paddleseg/cvlibs/config.py\", line 236, in "
                             "loss\n    raise ValueError('Loss config should contain keys of \"types\" and \"coef\"')\n"
                             "ValueError: Loss config should contain keys of \"types\" and \"coef\"\n")
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


_TARGET = ("Traceback (most recent call last):\n  File \"ppdet/data/transform/batch_operators.py\", line 240, in __call__\n"
           "    {source}\nIndexError: index 834 is out of bounds for axis 1 with size 56\n")


def test_a_class_id_past_the_class_channels_is_num_classes(tmp_path):
    rc = _diagnose(tmp_path, _TARGET.format(source="target[best_n, 6 + cls, gj, gi] = 1."))
    assert rc.cause == CauseId.config_error and "num_classes" in _said(rc), (rc.cause, _said(rc))


def test_another_index_past_an_axis_is_not_num_classes(tmp_path):
    rc = _diagnose(tmp_path, _TARGET.format(source="target[best_n, 6 + k, gj, gi] = 1."))
    assert "num_classes" not in _said(rc), _said(rc)


def test_a_label_name_a_labels_map_lacks_is_the_configured_labels(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"ppocr/data/imaug/vqa/token/vqa_token_chunk.py\", "
                             "line 110, in <listcomp>\n    self.entities_labels[x] for x in item['entities']['label']\n"
                             "KeyError: 'NAME_KEY'\n")
    assert rc.cause == CauseId.config_error, (rc.cause, _said(rc))


# --- batch 100: a bare word where the script's path goes ----------------------------------------------------------

@pytest.mark.parametrize("line", ["python3.7: can't open file 'gpu': [Errno 2] No such file or directory",
                                  "/usr/bin/python3: can't open file '/home/u/PaddleDetection/gpu|cpu': [Errno 2] No "
                                  "such file or directory"])
def test_a_bare_word_given_as_the_script_is_the_command_line(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and "script's path" in _said(rc), (rc.cause, _said(rc))


def test_a_missing_script_file_is_still_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "python: can't open file '/home/u/tools/train.py': [Errno 2] No such file or directory\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))



# --- the review of the session's rows (bench/results/29-batch97.md): what they must not read -------------------------

_CUT = ("Traceback (most recent call last):\n  File \"train.py\", line 5, in <module>\n    model = paddle.load(p)\n"
        "  File \"/usr/lib/python3.8/site-packages/paddle/framework/io.py\", line 981, in load\n"
        "    model_path, config = _build_load_path_and_config(path, config)\n"
        "  File \"/usr/lib/python3.8/site-packages/paddle/framework/io.py\", line 161, in _build_load_path_and_config\n"
        "    raise ValueError(error_msg % path)\n")


def test_a_double_spaced_cut_traceback_quotes_each_frames_source_from_its_own_line(tmp_path):
    from paddle_doctor.diagnose import diagnose_paths

    (tmp_path / "paste.log").write_text(_double_spaced(_CUT))
    rc = diagnose_paths([str(tmp_path / "paste.log")]).root_cause
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))
    quoted = {e.line: e.text for e in rc.evidence}
    assert quoted.get(13, "").startswith("raise ValueError") and quoted.get(11, "").startswith("File"), quoted


def test_a_double_spaced_cut_traceback_under_padded_srun_labels_reads_its_raise_site(tmp_path):
    started = "".join(f"{r:2d}: I0101 10:00:00 start\n" for r in range(12))
    rc = _diagnose(tmp_path, started + "".join(" 3: " + line + "\n\n" for line in _CUT.splitlines()))
    assert rc.cause == CauseId.file_not_found, (rc.cause, _said(rc))


def test_hashlibs_unsupported_hash_type_is_not_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/usr/lib/python3.8/hashlib.py\", line 116, "
                             "in __get_builtin_constructor\n    raise ValueError('unsupported hash type ' + name)\n"
                             "ValueError: unsupported hash type md5\n")
    assert rc.cause != CauseId.config_error, (rc.cause, _said(rc))


@pytest.mark.parametrize("exc", ["RuntimeError: unknown data type 7", "OSError: tried to load a non-existent model file"])
def test_a_librarys_words_about_its_input_are_not_a_config_value(tmp_path, exc):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"/usr/lib/python3.8/site-packages/lib/io.py\", "
                             f"line 3, in read\n    raise convert(code)\n{exc}\n")
    assert rc.cause != CauseId.config_error, (rc.cause, _said(rc))


@pytest.mark.parametrize("source", ["ep = self.endpoints[index]", "url = server_endpoints[model_idx]"])
def test_a_server_list_read_past_its_end_is_not_the_launch_environment(tmp_path, source):
    rc = _diagnose(tmp_path, _FLEET.replace("fleet.worker_endpoints()[trainer_id]", source.split(" = ")[1])
                   .replace("current_endpoint", source.split(" = ")[0]))
    assert rc.cause != CauseId.missing_dist_env, (rc.cause, _said(rc))


@pytest.mark.parametrize("source", ["gt = sample['gt_class'][i]", "lab = batch['label'][j]", "return cls._table[cls.size]"])
def test_a_class_word_as_a_dict_key_or_a_classmethod_is_not_num_classes(tmp_path, source):
    rc = _diagnose(tmp_path, _TARGET.format(source=source))
    assert "num_classes" not in _said(rc), _said(rc)


def test_a_file_name_key_of_a_labels_map_is_not_a_class(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"reader.py\", line 9, in __getitem__\n"
                             "    lab = self.train_labels[img_name]\nKeyError: 'img_0001.jpg'\n")
    assert "maps class" not in _said(rc), _said(rc)


def test_a_users_batch_that_should_contain_keys_is_not_a_config_value(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n  File \"train.py\", line 9, in feed\n"
                             "    raise ValueError('the batch arguments should contain keys image and label')\n"
                             "ValueError: the batch arguments should contain keys image and label\n")
    assert rc.cause != CauseId.config_error, (rc.cause, _said(rc))


def test_paddle_1xs_library_at_a_wrong_path_is_not_another_release(tmp_path):
    rc = _diagnose(tmp_path, "make[2]: *** No rule to make target '/home/u/fluid_inference_install_dir/paddle/lib/"
                             "libpaddle_fluid.so', needed by 'demo'.  Stop.\n")
    assert rc is None or rc.cause != CauseId.paddle_api_mismatch, _said(rc)


def test_cmake_without_nvcc_is_the_cuda_toolkit(tmp_path):
    rc = _diagnose(tmp_path, "CMake Error at CMakeLists.txt:3 (project):\n  No CMAKE_CUDA_COMPILER could be found.\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, _said(rc))


def test_asans_report_names_the_whole_kind_and_an_allocation_is_memory(tmp_path):
    rc = _diagnose(tmp_path, "==4321==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:\n")
    assert rc.cause == CauseId.segfault and "(attempting double-free)" in _said(rc), _said(rc)
    rc = _diagnose(tmp_path, "==12==ERROR: AddressSanitizer: out of memory: allocator is trying to allocate "
                             "0x10000000000 bytes\n")
    assert rc.cause == CauseId.host_out_of_memory, (rc.cause, _said(rc))


def test_titles_take_one_backend_word_and_a_library_without_the_period(tmp_path):
    rc = _diagnose(tmp_path, "  The Paddle Backend doesn't support linux aarch64 now.\n")
    assert "no Paddle backend" in _said(rc), _said(rc)
    rc = _diagnose(tmp_path, "Intel MKL FATAL ERROR: Cannot load mkl_intel_thread.dll.\n")
    assert "(mkl_intel_thread.dll)" in _said(rc), _said(rc)


def test_another_suites_url_with_a_backslash_is_not_read_as_paddlenlp(tmp_path):
    rc = _diagnose(tmp_path, "RuntimeError: Downloading from https://paddledet.bj.bcebos.com/models\\ppyolo_r50vd_dcn_1x_"
                             "coco.pdparams failed with code 404!\n")
    assert "paddlenlp" not in _said(rc), _said(rc)


# --- the readers' patterns made linear keep what they read -------------------------------------------------------

@pytest.mark.parametrize("line,read", [('  File "a.py", line 3, in f', True), ("---> 12 x = f()", True),
                                       ("  > 3 y = 1", True), ("   12 foo", True), ("a.py in f(x)", True),
                                       ("ValueError: 3 things", False), ("    ", False)])
def test_the_frame_or_source_shape_is_read_as_before(line, read):
    from paddle_doctor.diagnose.anatomy.wording import _FRAME_OR_SOURCE

    assert bool(_FRAME_OR_SOURCE.match(line)) is read


@pytest.mark.parametrize("source,read", [("from paddle.fluid import core", True), ("  import cv2", True),
                                         ("mod = importlib.import_module(name)", True), ("x = important(1)", False)])
def test_the_import_line_shape_is_read_as_before(source, read):
    from paddle_doctor.diagnose.anatomy.installed import _IMPORT_CALL

    assert bool(_IMPORT_CALL.match(source)) is read


def test_a_hint_ends_at_its_first_bracket_without_its_trailing_spaces():
    from paddle_doctor.diagnose.anatomy.parts import parse_block

    parts = parse_block(["ValueError: (InvalidArgument) bad", "  [Hint: Expected x.dims()  ] at (/p/a.cc:1)"])
    assert parts.hint == "Expected x.dims()", parts.hint


# --- PaddleOCR-json's engine that exited while starting (five corpus logs: three a CPU without AVX) ------------------

@pytest.mark.parametrize("line", ["[Error] OCR init fail. Argd: {'enable_mkldnn': True, 'cpu_threads': 4}",
                                  "Exception: OCR init fail."])
def test_paddleocr_jsons_engine_that_exited_at_start_is_read_as_a_native_crash_first(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.segfault and rc.confidence.value == "medium" and "AVX" in _said(rc), _said(rc)


# --- Paddle-Lite's NNAdapter HAL: a library the loader cannot find is a missing file, a symbol the SDK's version --------

def test_a_hal_whose_sdk_library_the_loader_cannot_find_is_a_missing_file(tmp_path):
    rc = _diagnose(tmp_path, "Failed to load the nnadapter device HAL library for 'huawei_ascend_npu' from "
                             "libhuawei_ascend_npu.so, libascendcl.so: cannot open shared object file: No such file or "
                             "directory\n")
    assert rc.cause == CauseId.file_not_found and "libascendcl.so" in _said(rc), (rc.cause, _said(rc))


def test_a_hal_missing_a_symbol_of_its_sdk_is_still_the_sdks_version(tmp_path):
    rc = _diagnose(tmp_path, "Failed to load the nnadapter device HAL library for 'huawei_ascend_npu' from "
                             "libhuawei_ascend_npu.so, libhuawei_ascend_npu.so: undefined symbol: _ZN2ge8Operator7Set\n")
    assert rc.cause == CauseId.cuda_cudnn_mismatch, (rc.cause, _said(rc))


@pytest.mark.parametrize("lines", [
    ["paddle.fluid.core.EnforceNotMet: grad_op_maker_ should not be null",
     "Operator GradOpMaker has not been registered. at [D:\\1.4.1\\paddle/fluid/framework/op_info.h:64]"],
    ["  [operator < gaussian_random > error]",
     "NotFoundError: Operator gaussian_random's GradOpMaker has not been registered."]])
def test_a_gradients_maker_not_registered_is_not_an_operator_the_release_lacks(lines):
    from paddle_doctor.diagnose.anatomy.classify import from_operator
    from paddle_doctor.diagnose.anatomy.parts import parse_block

    parts = parse_block(lines)
    assert parts.operator != "GradOpMaker" and from_operator(parts) is None, (parts.operator, from_operator(parts))
