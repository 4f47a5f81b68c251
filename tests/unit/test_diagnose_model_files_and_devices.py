"""Issue 29, after gathered batch 15: a predictor's model file it cannot open (Paddle 1.x inference,
2.x-3.x's NotFound wording, FastDeploy's deployment config), glog's faulting-instruction line when the
signal line was cut away, a GPU id given as a physical id under CUDA_VISIBLE_DEVICES, and an NCCL
failure of fluid's op handles at run time told apart from the communicators' creation. Every line
follows the emitting code's template (cited in the rows); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

PREDICT_TRACE = ("Traceback (most recent call last):\n"
                 '  File "infer.py", line 40, in <module>\n'
                 "    predictor = create_paddle_predictor(config)\n")
ABORT = "terminate called after throwing an instance of 'paddle::platform::EnforceNotMet'\n"


_diagnose = root_cause_of


@pytest.mark.parametrize("text", [
    PREDICT_TRACE + "paddle.fluid.core_avx.EnforceNotMet: Cannot open file inference/__model__ at "
                    "[/paddle/paddle/fluid/inference/api/analysis_predictor.cc:618]\n",
    ABORT + "  what():  Cannot open file ./models/det//model at [/paddle/paddle/fluid/inference/io.cc:50]\n"
            "PaddlePaddle Call Stacks: \n",
    "[ERROR] fastdeploy/vision/classification/ppcls/preprocessor.cc(28)::BuildPreprocessPipelineFromConfig\t"
    "Failed to load yaml file model/inference_cls.yaml, maybe you should check this file.\n"
    "Aborted (core dumped)\n",
])
def test_a_model_file_the_predictor_cannot_open_is_a_missing_file(tmp_path, text):
    rc = _diagnose(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)


def test_the_load_ops_own_wording_is_still_read_by_its_component_row(tmp_path):
    rc = _diagnose(tmp_path, PREDICT_TRACE + "paddle.fluid.core.EnforceNotMet: Cannot open file ./model/fc_0.w_0 "
                                             "for load op at [/paddle/paddle/fluid/operators/load_op.cc:39]\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


def test_a_faulting_instruction_in_a_named_function_is_a_native_crash(tmp_path):
    rc = _diagnose(tmp_path, "I0910 01:24:13.452847  3085 GradientMachine.cpp:141] Init parameters done.\n"
                             '*** Aborted at 1473495865 (unix time) try "date -d @1473495865" if you are using GNU '
                             "date ***\n"
                             "PC: @           0x4c1a2f paddle::CpuMatrix::mul()\n")
    assert rc is not None and rc.cause == CauseId.segfault and rc.code == "native_fault_pc", (rc and rc.code)


def test_an_unknown_pc_alone_names_no_native_crash(tmp_path):
    rc = _diagnose(tmp_path, '*** Aborted at 1517215622 (unix time) try "date -d @1517215622" if you are using GNU '
                             "date ***\nPC: @                0x0 (unknown)\n")
    assert rc is None or rc.code != "native_fault_pc", rc.code


def _place_error(asked: int, count: int) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "test.py", line 67, in <module>\n'
            f"    place = fluid.CUDAPlace({asked})\n"
            f"paddle.fluid.core_avx.EnforceNotMet: Invalid CUDAPlace({asked}), must inside [0, {count}) at "
            "[/paddle/paddle/fluid/pybind/pybind.cc:792]\n")


def test_an_out_of_range_cuda_place_is_a_device_not_found(tmp_path):
    rc = _diagnose(tmp_path, _place_error(2, 2))
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.why)


def test_a_physical_gpu_id_under_cuda_visible_devices_is_the_device_selection(tmp_path):
    rc = _diagnose(tmp_path, "+ export CUDA_VISIBLE_DEVICES=3\n" + _place_error(3, 1))
    assert rc.cause == CauseId.cuda_visible_devices_misconfig and rc.code == "visible_devices_renumbered", rc.code
    assert rc.alternatives[0].cause == CauseId.device_not_found


def test_an_id_that_no_visible_label_names_stays_a_device_not_found(tmp_path):
    rc = _diagnose(tmp_path, "+ export CUDA_VISIBLE_DEVICES=0,1\n" + _place_error(2, 2))
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.code)


NCCL_HELPER = "unhandled cuda error at [/paddle/paddle/fluid/platform/nccl_helper.h:70]"


def test_an_nccl_failure_on_an_executor_thread_is_an_nccl_error(tmp_path):
    rc = _diagnose(tmp_path, "2019-07-09 18:08:16, iter: 346094, lr: 0.001000, 'loss': 78.400635\n" + ABORT
                   + f"  what():  {NCCL_HELPER}\nPaddlePaddle Call Stacks: \n")
    assert rc.cause == CauseId.nccl_error, (rc.cause, rc.why)


def test_the_same_failure_while_the_executor_is_built_stays_the_library_reading(tmp_path):
    rc = _diagnose(tmp_path, "Traceback (most recent call last):\n"
                             '  File "train.py", line 216, in train\n'
                             "    train_exe = fluid.ParallelExecutor(use_cuda=True, loss_name=avg_cost.name)\n"
                             '  File "/usr/local/lib/python2.7/dist-packages/paddle/fluid/parallel_executor.py", line '
                             "132, in __init__\n    use_default_grad_scale)\n"
                             f"paddle.fluid.core.EnforceNotMet: {NCCL_HELPER}\n")
    assert rc.cause == CauseId.nccl_library_missing, (rc.cause, rc.why)
