"""Readings added in issue 29's nineteenth session (batch110's misses, each from its emitter's source)."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of as _diagnose


@pytest.mark.parametrize("op", ["pool2d", "unique"])
def test_an_op_paddle2onnx_cannot_express_is_the_models_release_even_when_it_aborts(tmp_path, op):
    text = (f"[ERROR][Paddle2ONNX][{op}: {op}_9.tmp_0] Adaptive only support static input shape.\n"
            f"[Paddle2ONNX] Due to the operator: {op}, this model cannot be exported to ONNX.\n"
            "[ERROR] Model exporting failed, you can report this problem to https://github.com/PaddlePaddle/Paddle2ONNX.git.\n"
            "Aborted (core dumped)\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.paddle_api_mismatch, "p2o_operator_not_exportable", "medium")
    assert op in rc.message


def test_paddleseg_dataset_check_that_did_not_pass_is_the_config(tmp_path):
    text = ("2020-10-22 15:27:17,570-INFO: \nNOT PASS EVAL_CROP_SIZE check\n\n"
            "EVAL_CROP_SIZE[1]: 1025 should >= max height of images 1080!\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.config_error, "seg_check_not_pass")
    assert "EVAL_CROP_SIZE" in rc.message and "***" not in rc.message
    # the label-class check keeps its own, more specific reading
    rc = _diagnose(tmp_path, "NOT PASS label class check!\nfatal error: label class is out of range [0, 1]\n")
    assert rc.code == "seg_label_class_out_of_range"


def test_a_line_that_only_says_not_pass_is_no_check(tmp_path):
    assert _diagnose(tmp_path, "tests NOT PASS yet, see the check list\n") is None


def test_paddle_mobiles_exception_is_read_by_its_detail(tmp_path):
    text = ("E/paddle_mobile: jni got an PaddleMobileException! paddle mobile C++ Exception: \n"
            "    | Custom Exception \n    | [in file] : /x/paddle-mobile/src/framework/cl/cl_image.h\n"
            "    | [on line] : 218\n    | [detail]  :  create image 2d error \n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.python_exception, "paddle_mobile_exception")
    assert "create image 2d error" in rc.message


def test_rknn_runtime_out_of_npu_memory_is_device_memory(tmp_path):
    text = ("E RKNN: [16:11:56.656] failed to malloc npu memory!, size: 7397955, flags: 0x2\n"
            "E RKNN: [16:11:56.656] rknn_init, load model failed!\n"
            "[ERROR] fastdeploy/runtime/runtime.cc(328)::CreateRKNPU2Backend Failed to initialize RKNPU2 backend.\n"
            "Aborted\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.gpu_oom, "rknn_npu_malloc_failed", "medium")


@pytest.mark.parametrize("line", [
    'Command "python setup.py egg_info" failed with error code 1 in /tmp/pip-install-berk85a8/paddle-bfloat/',
    'Command "/usr/bin/python3 -u -c "import setuptools, tokenize;__file__=\'/tmp/pip-install-x/lap/setup.py\';f=getattr('
    'tokenize, \'open\', open)(__file__)" install --record /tmp/pip-record-y/install-record.txt '
    '--single-version-externally-managed --compile" failed with error code 1 in /tmp/pip-install-x/lap/',
])
def test_old_pips_failed_build_of_a_dependency(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\nYou are using pip version 18.1, however version 23.2 is available.\n")
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "pip_build_subprocess_failed")


def test_another_command_pip_ran_is_no_build_of_a_dependency(tmp_path):
    line = 'Command "git clone -q https://github.com/x/y /tmp/pip-req-build-z" failed with error code 128 in None\n'
    rc = _diagnose(tmp_path, line)
    assert rc is None or rc.code != "pip_build_subprocess_failed"


def test_a_crash_inside_ncclcomminitall_is_nccl_at_medium(tmp_path):
    text = ("*** SIGSEGV (@0x50) received by PID 105250 (TID 0x7f22ef08b700) from PID 80; stack trace: ***\n"
            "    @     0x7f1feb014aed ncclCommInitAll\n"
            "    @     0x7f228c9da0be paddle::platform::NCCLContextMap::NCCLContextMap()\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.confidence.value) == (CauseId.nccl_error, "medium")


def test_a_paddle_check_location_is_not_a_missing_path(tmp_path):
    text = ("paddle.fluid.core.EnforceNotMet: Cannot find fetch variable in scope, fetch_var_name is chunk_eval_0.tmp_3 "
            "at [/paddle/paddle/fluid/operators/controlflow/fetch_op.cc:37]\n")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception
    # a path the message names is still read
    text = "Exception: cannot find /data/train/x.jpg at [/paddle/paddle/fluid/operators/controlflow/fetch_op.cc:37]\n"
    assert _diagnose(tmp_path, text).cause == CauseId.file_not_found


def test_a_lone_backtick_closing_a_code_span_is_not_part_of_the_error(tmp_path):
    text = ('  File "DeepSpeech/data_utils/utility.py", line 14, in <module>\n'
            "    from paddle.v2.dataset.common import md5file\nImportError: No module named v2.dataset.common `\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.paddle_api_mismatch, "py2_paddle_module_missing")


def test_paddle_0x_comparison_check_in_a_pservers_glog_line_is_a_paddle_check(tmp_path):
    text = ("E0410 03:00:20.918247   133 listen_and_serv_op.cc:56] run sub program error enforce grad_row_numel == "
            "param_out->numel() / grad_height failed, 1 != 5\nat [/paddle/paddle/fluid/operators/sgd_op.h:75]\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.python_exception, "enforce_hint")
    assert "1 != 5" in rc.message


def test_a_kernel_fault_thrust_reports_when_it_next_calls_cuda(tmp_path):
    text = ("temporary_buffer::allocate: get_temporary_buffer failed\n"
            "terminate called after throwing an instance of 'thrust::system::system_error'\n"
            "  what():  device free failed: unspecified launch failure\nAborted\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.cuda_error_other, "thrust_cuda_call_failed")
    # thrust's out of memory is not a kernel fault
    text = text.replace("device free failed: unspecified launch failure", "device malloc failed: out of memory")
    assert _diagnose(tmp_path, text).code != "thrust_cuda_call_failed"


@pytest.mark.parametrize("line", ["ValueError: Extraneous param for class<ResNet>: dcn_stages",
                                  "ValueError: Missing param for class<FPN>: in_channels, spatial_scales",
                                  "TypeError: Wrong param type for class<YOLOv3Head>: anchors"])
def test_paddledetections_config_schema_is_the_config(tmp_path, line):
    text = ('  File "/PaddleDetection/ppdet/core/config/schema.py", line 159, in validate\n'
            "    self.name, \", \".join(extra_keys)))\n" + line + "\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.config_error, "ppdet_schema_param")


def test_fluid_model_directory_that_is_not_there(tmp_path):
    text = ('-> 1081         raise ValueError("There is no directory named \'%s\'", dirname)\n'
            "ValueError: (\"There is no directory named '%s'\", 'image_classification_resnet.inference.model')\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.file_not_found, "fluid_model_dir_missing")
    assert "image_classification_resnet.inference.model" in rc.message


def test_cmakes_first_line_of_a_package_it_cannot_find(tmp_path):
    text = ("CMake Error at CMakeLists.txt:42 (find_package):\n"
            '  By not providing "FindOpenCV.cmake" in CMAKE_MODULE_PATH this\n')
    rc = _diagnose(tmp_path, text)
    assert rc.code == "cmake_package_config_missing" and "OpenCV_DIR" in rc.message


@pytest.mark.parametrize("line", [
    "F0823 14:54:47.975309 16507 all_reduce_op_handle.cc:192] cudaStreamSynchronize misaligned address",
    "F1030 00:01:42.205154   604 device_context.cc:318] cudaStreamSynchronize an illegal memory access was encountered "
    "errno: 77",
    "cudaStreamSynchronize an illegal memory access was encountered errno:77",
])
def test_paddle_1x_glog_line_after_a_stream_sync_is_a_kernel_fault(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n*** Check failure stack trace: ***\n    @     0x7ff2ccc25d4d  google::LogMessage::Fail()\n")
    assert (rc.cause, rc.code) == (CauseId.cuda_error_other, "glog_cuda_sync_fault")


def test_a_sync_that_reports_no_fault_is_not_this_row(tmp_path):
    rc = _diagnose(tmp_path, "F0823 all_reduce_op_handle.cc:192] cudaStreamSynchronize out of memory\n")
    assert rc is None or rc.code != "glog_cuda_sync_fault"


def test_fluid_1x_gpu_embedding_assertion(tmp_path):
    text = ("Exception: /paddle/paddle/fluid/operators/lookup_table_op.cu:36 Assertion `id < N` failed (received id: "
            "4202603142669781314).\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.cuda_error_other, "embedding_id_out_of_range_1x")


def test_paddledetections_reader_consumers_that_died(tmp_path):
    text = "".join(f"2020-06-04 18:47:00,840-WARNING: consumer[{9307 + i}] exit abnormally with exitcode[-11]\n"
                   for i in range(3)) + "2020-06-04 18:47:00,841-WARNING: 8 consumers have exited abnormally!!!\n"
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.dataloader_worker_crash, "ppdet_reader_consumers_died")
    assert "-11" in rc.message


def test_paddle_1x_loader_warning_names_the_library_a_bare_enforce_follows(tmp_path):
    text = ("W0321 17:36:40.948619 17754 dynamic_loader.cc:120] Can not find library: /env/site-packages/paddle_fl/mpc/"
            "libs/libpaddle_enc.so. The process maybe hang. Please try to add the lib path to LD_LIBRARY_PATH.\n"
            "    _paddle_enc_lib = fluid.load_op_library(lib)\npaddle.fluid.core_avx.EnforceNotMet:\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.file_not_found, "shared_library_not_found")
    assert "libpaddle_enc.so " in rc.message
    # a CUDA library in the same warning is CUDA's row
    rc = _diagnose(tmp_path, text.replace("/env/site-packages/paddle_fl/mpc/libs/libpaddle_enc.so", "libcudnn.so"))
    assert rc.cause == CauseId.cuda_cudnn_mismatch


def test_flash_attention_missing_from_the_build(tmp_path):
    text = ("NotImplementedError: (Unimplemented) FlashAttention is unsupported, please check the GPU compability and CUDA "
            "Version. (at ../paddle/phi/kernels/gpu/flash_attn_utils.h:286)\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.cuda_cudnn_mismatch, "flash_attention_unsupported", "medium")


def test_a_pserver_barrier_that_failed_and_an_endpoint_without_host(tmp_path):
    text = ("paddle.fluid.core.EnforceNotMet: internal error in RPCClient at [/paddle/paddle/fluid/operators/"
            "fetch_barrier_op.cc:43]\n")
    assert _diagnose(tmp_path, text).code == "pserver_barrier_failed"
    text = ('E0725 06:46:35.291726032    5849 server_chttp2.cc:38]        {"created":"@1532501195.29","description":'
            '"OS Error","errno":-2,"os_error":"Name or service not known","syscall":"getaddrinfo","target_address":'
            '":6174"}\nI0725 06:46:35.291788  5849 grpc_server.cc:264] Server listening on :6174 selected port: 0\n')
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.config_error, "grpc_endpoint_without_host")


@pytest.mark.parametrize("line, cause, code", [
    ("AttributeError: 'Fleet' object has no attribute 'DistributedStrategy'", CauseId.paddle_api_mismatch,
     "tensor_attribute_missing"),
    ("ImportError: cannot import name 'MazeTaskSampler' from 'metagym.metamaze' "
     "(D:\\Anaconda3\\lib\\site-packages\\metagym\\metamaze\\__init__.py)", CauseId.paddle_api_mismatch,
     "paddle_api_missing"),
    # a CPU build's ParallelEnv has no device id: not another release (the corpus's batch54)
    ("AttributeError: 'ParallelEnv' object has no attribute '_device_id'", CauseId.device_not_found, None),
    # a CompiledProgram given where a Program is wanted; the organisation's wheels define no __version__
    ("AttributeError: 'CompiledProgram' object has no attribute 'global_block'", CauseId.python_exception, None),
    ("AttributeError: module 'pahelix' has no attribute '__version__'", CauseId.python_exception, None),
])
def test_names_missing_from_paddles_distributed_classes_and_the_organisations_wheels(tmp_path, line, cause, code):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == cause and (code is None or rc.code == code)


def test_a_module_missing_below_an_organisation_wheel_is_not_its_release(tmp_path):
    text = ('  File "pretrain.py", line 34, in <module>\n    from pahelix.featurizers.gem_featurizer import GeoPredTransformFn\n'
            "ModuleNotFoundError: No module named 'pahelix.featurizers.gem_featurizer'\n")
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception


_PICODET = ('Traceback (most recent call last):\n  File "D:\\PaddleOCR\\ppocr\\postprocess\\picodet_postprocess.py", '
            "line 248, in __call__\n    label = self.labels[clsid]\nIndexError: list index out of range\n")


def test_a_predicted_class_past_the_label_list_is_the_label_list(tmp_path):
    rc = _diagnose(tmp_path, _PICODET)
    assert rc.cause == CauseId.config_error and "label list" in rc.why


@pytest.mark.parametrize("old, new", [
    ("self.labels[clsid]", "self.labels[i + 1]"),  # an index by position in a post-processor: the code's
    ("ppocr\\postprocess\\picodet_postprocess", "app\\infer"),  # a class id in the user's own file: the code's
])
def test_other_label_lookups_stay_the_codes(tmp_path, old, new):
    assert _diagnose(tmp_path, _PICODET.replace(old, new)).cause == CauseId.python_exception


def test_a_post_processor_indexing_more_dimensions_than_the_model_gives(tmp_path):
    text = ('Traceback (most recent call last):\n  File "./PaddleOCR/ppocr/postprocess/db_postprocess.py", line 140, in '
            "__call__\n    pred = pred[:, 0, :, :]\nIndexError: too many indices for array\n")
    assert _diagnose(tmp_path, text).cause == CauseId.config_error
    # the same error in the user's own script, or a decoder's tensor of another shape, is the code's
    assert _diagnose(tmp_path, text.replace("./PaddleOCR/ppocr/postprocess/db_postprocess.py", "my_eval.py")).cause \
        == CauseId.python_exception
    decoder = text.replace("./PaddleOCR/ppocr/postprocess/db_postprocess.py", "mymodel/transformer_decoder.py").replace(
        "too many indices for array", "too many indices (3) for tensor of dimension 2.")
    assert _diagnose(tmp_path, decoder).cause == CauseId.python_exception


def test_bytes_of_another_file_read_as_a_saved_tensor(tmp_path):
    text = ("[Hint: Expected version == 0U, but received version:1145131099!= 0U:0.] (at /home/Paddle/paddle/fluid/"
            "framework/lod_tensor.cc:276)\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.checkpoint_corrupt, "loaded_file_not_a_tensor", "medium")
    # a small version is no garbage: not this row
    assert _diagnose(tmp_path, text.replace("1145131099", "1")).code != "loaded_file_not_a_tensor"


def test_paddle_0x_openblas_without_gfortran(tmp_path):
    text = "  To build lapack in libopenblas, you need to set gfortran compiler: cmake ..\n  -DCMAKE_Fortran_COMPILER=...\n"
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "paddle_cmake_blas_missing")


def test_libprotobufs_version_check_is_two_protobufs_in_one_process(tmp_path):
    text = ("[libprotobuf FATAL google/protobuf/stubs/common.cc:83] This program was compiled against version 3.1.0 of the "
            "Protocol Buffer runtime library, which is not compatible with the installed version (3.20.0).  Contact the "
            "program author for an update.\nterminate called after throwing an instance of "
            "'google::protobuf::FatalException'\n  what():  This program was compiled against version 3.1.0 of the "
            "Protocol Buffer runtime library, which is not compatible with the installed version (3.20.0).\nAborted\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code) == (CauseId.dependency_version_mismatch, "protobuf_runtime_version")
    assert "3.1.0" in rc.message and "3.20.0" in rc.message


@pytest.mark.parametrize("line", [
    "2021-07-17 08:48:19 [ERROR]\tpretrain_weights and resume_checkpoint cannot be set simultaneously.",
    "ValueError: --use_gpu and --use_xpu are mutually exclusive",
])
def test_two_settings_that_cannot_be_given_together(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\nSystemExit: -1\n")
    assert rc.cause == CauseId.config_error and "two settings cannot be given together" in rc.why


def test_a_librarys_own_argument_check_is_not_two_settings(tmp_path):
    rc = _diagnose(tmp_path, "ValueError: 'stream' and 'filename' should not be specified together\n")
    assert rc.cause == CauseId.python_exception


def test_a_library_the_suites_install_outside_their_requirements_is_a_dependency(tmp_path):
    text = ('Traceback (most recent call last):\n  File "/x/PaddleOCR/ppstructure/predict_system.py", line 10, in <module>\n'
            "    import auto_log\nModuleNotFoundError: No module named 'auto_log'\n")
    assert _diagnose(tmp_path, text).cause == CauseId.dependency_version_mismatch


def test_review_mends_of_the_session(tmp_path):
    # Paddle 2.x's enforce suffix "(at /paddle/...cc:N)" is no path either
    text = "RuntimeError: Cannot find variable x@GRAD (at /paddle/paddle/fluid/framework/op_desc.cc:195)\n"
    assert _diagnose(tmp_path, text).cause == CauseId.python_exception
    # the loader's warning for CUDA's other libraries is no missing file of the run
    text = ("W0101 dynamic_loader.cc:120] Can not find library: libcupti.so. The process maybe hang. Please try to add "
            "the lib path to LD_LIBRARY_PATH.\n")
    rc = _diagnose(tmp_path, text)
    assert rc is None or rc.code != "shared_library_not_found"
    # 0.x's comparison of two shapes
    text = "E0410 listen_and_serv_op.cc:56] run sub program error enforce x_dims == y_dims failed, 3, 4 != 3, 5\n"
    assert "3, 4 != 3, 5" in _diagnose(tmp_path, text).message
    # libprotobuf's other wording of its version check
    text = ("[libprotobuf FATAL google/protobuf/stubs/common.cc:61] This program requires version 3.6.0 of the Protocol "
            "Buffer runtime library, but the installed version is 3.0.0.\n")
    rc = _diagnose(tmp_path, text)
    assert rc.code == "protobuf_runtime_version" and "3.6.0" in rc.message and "3.0.0" in rc.message
    # a lone closing backtick with a space after it
    text = "ImportError: No module named v2.dataset.common ` \n"
    assert _diagnose(tmp_path, text).code == "py2_paddle_module_missing"
    # titles with no empty aside where a group is absent
    assert "()" not in _diagnose(tmp_path, "8 consumers have exited abnormally!!!\n").message
    assert "( )" not in _diagnose(tmp_path, "TypeError: Wrong param type for class<YOLOv3Head>: anchors\n").message


def test_the_v1_trainer_that_finds_no_parameter_server(tmp_path):
    text = ("I1222 11:32:54.647704 23753 ParameterClient2.cpp:113] pserver 0 127.0.0.1:20134\n"
            + "W1222 11:32:54.648000 23753 LightNetwork.cpp:397] connection refused by pserver, try again!\n" * 3
            + "F1222 11:33:01.649802 23753 LightNetwork.cpp:399] connection refused by pserver, maybe pserver failed!\n"
            "*** Check failure stack trace: ***\n    @     0x7ff3756c1d2d  google::LogMessage::Fail()\n")
    rc = _diagnose(tmp_path, text)
    assert (rc.cause, rc.code, rc.confidence.value) == (CauseId.config_error, "v1_pserver_unreachable", "medium")


def test_an_optional_gpu_library_the_loader_cannot_open_on_import_is_still_a_missing_library(tmp_path):
    # only the 1.x loader's warning about it (it goes on without it) is left out, not an import that failed on it
    rc = _diagnose(tmp_path, "ImportError: libcupti.so.11.2: cannot open shared object file: No such file or directory\n")
    assert rc.code == "shared_library_not_found"
