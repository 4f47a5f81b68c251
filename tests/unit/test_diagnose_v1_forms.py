"""Issue 29, after gathered batch 40: the v1 trainer's (Paddle 0.x) own wordings of known causes: its
Python data providers' glog CHECKs, Parameter::load's missing parameter file, the v2 trainer's new (Go)
pserver updater in a build without it; an uncaught thrust CUDA error on libstdc++'s what() line, a
protobuf install of mixed versions, PARL's own GPU count. Every line follows the emitting code's template
(cited in diagnose/signatures/rows/older_forms.py); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

STACK = ("*** Check failure stack trace: ***\n"
         "    @     0x7f41dac9ba1d  google::LogMessage::Fail()\n"
         "    @     0x7f41daca09de  google::LogMessageFatal::~LogMessageFatal()\n")


@pytest.mark.parametrize("line", [
    "F0301 08:00:00.000000  4242 PythonUtil.h:211] Check failed: PySequence_Check(seq_)",
    "F0301 08:00:00.000000  4242 PyDataProvider2.cpp:572] Check failed: poolPtr != nullptr",
])
def test_a_v1_data_provider_check_is_a_data_loading_failure(tmp_path, line):
    rc = root_cause_of(tmp_path, line + "\n" + STACK + "/usr/local/bin/paddle: line 109:  261 Aborted"
                       "                 (core dumped) ${DEBUGGER} $MYDIR/../opt/paddle/bin/paddle_trainer ${@:2}\n")
    assert rc.cause == CauseId.dataloader_worker_crash and rc.code == "v1_data_provider_check", (rc.cause, rc.code)
    assert rc.confidence.value == "medium"


def test_another_glog_check_is_not_read_as_the_data_provider(tmp_path):
    rc = root_cause_of(tmp_path, "F0301 08:00:00.000000  4242 Matrix.cpp:123] Check failed: height_ == b.height_\n")
    assert rc is None or rc.code != "v1_data_provider_check", rc.code


def test_a_v1_parameter_file_that_cannot_be_opened_is_a_missing_file(tmp_path):
    rc = root_cause_of(tmp_path, "I0301 08:00:00.000000  4242 GradientMachine.cpp:85] Loading parameters from "
                                 "/data/model/pass-00010\n"
                                 "I0301 08:00:00.000100  4242 Parameter.cpp:339] missing parameters [/data/model/"
                                 "pass-00010/___fc_layer_0__.w0] while loading model.\n"
                                 "F0301 08:00:00.000200  4242 Parameter.cpp:345] ___fc_layer_0__.w0 missing, not "
                                 "allowed.\n" + STACK + "Aborted (core dumped)\n")
    assert rc.cause == CauseId.file_not_found and rc.code == "v1_parameter_file_missing", (rc.cause, rc.code)
    assert rc.confidence.value == "medium"


def test_a_missing_parameter_set_to_random_is_not_a_failure_of_its_own(tmp_path):
    rc = root_cause_of(tmp_path, "I0301 08:00:00.000200  4242 Parameter.cpp:350] ___fc_layer_0__.w0 missing, set "
                                 "to random.\n")
    assert rc is None or rc.code != "v1_parameter_file_missing", rc.code


def test_the_v2_new_remote_updater_in_a_build_without_go_is_a_configuration_error(tmp_path):
    rc = root_cause_of(tmp_path, "Traceback (most recent call last):\n"
                                 '  File "/usr/lib/python2.7/dist-packages/paddle/v2/optimizer.py", line 52, in '
                                 "__create_new_remote_updater__\n"
                                 "    self.__opt_conf__, pserver_spec, use_etcd)\n"
                                 '  File "/usr/lib/python2.7/dist-packages/py_paddle/swig_paddle.py", line 2179, in '
                                 "createNewRemoteUpdater\n"
                                 "    return _swig_paddle.ParameterUpdater_createNewRemoteUpdater(config, pserverSpec, "
                                 "useEtcd)\n"
                                 "RuntimeError:  \n")
    assert rc.cause == CauseId.config_error and rc.code == "v2_new_remote_updater", (rc.cause, rc.code)


@pytest.mark.parametrize("text", ["an illegal memory access was encountered", "unspecified launch failure",
                                  "misaligned address"])
def test_an_uncaught_thrust_cuda_error_is_a_cuda_error_not_a_bare_abort(tmp_path, text):
    rc = root_cause_of(tmp_path, "terminate called after throwing an instance of 'thrust::system::system_error'\n"
                                 f"  what():  {text}\nAborted (core dumped)\n")
    assert rc.cause == CauseId.cuda_error_other and rc.code == "thrust_what_cuda_error", (rc.cause, rc.code)


def test_another_uncaught_exception_stays_an_abort(tmp_path):
    rc = root_cause_of(tmp_path, "terminate called after throwing an instance of 'std::runtime_error'\n"
                                 "  what():  vector::_M_range_check\nAborted (core dumped)\n")
    assert rc.code != "thrust_what_cuda_error" and rc.cause != CauseId.cuda_error_other, (rc.cause, rc.code)


@pytest.mark.parametrize("line", [
    "AttributeError: 'module' object has no attribute '_USE_C_DESCRIPTORS'",
    "AttributeError: module 'google.protobuf.descriptor' has no attribute '_USE_C_DESCRIPTORS'",
])
def test_protobuf_files_of_two_versions_are_a_dependency_mismatch(tmp_path, line):
    rc = root_cause_of(tmp_path, "Traceback (most recent call last):\n"
                                 '  File "/usr/lib/python3/dist-packages/paddle/proto/TrainerConfig_pb2.py", line 9, '
                                 "in <module>\n    from google.protobuf import symbol_database as _symbol_database\n"
                                 + line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "protobuf_files_mixed", (rc.cause, rc.code)


def test_another_missing_module_attribute_is_not_read_as_protobuf(tmp_path):
    rc = root_cause_of(tmp_path, "Traceback (most recent call last):\n"
                                 '  File "train.py", line 3, in <module>\n    reader.shuffle_batch()\n'
                                 "AttributeError: 'module' object has no attribute 'shuffle_batch'\n")
    assert rc.code != "protobuf_files_mixed", rc.code


def test_parl_falling_back_to_the_cpu_points_at_the_gpu_variable(tmp_path):
    rc = root_cause_of(tmp_path, "[03-01 08:00:00 MainThread @machine_info.py:88] Cannot find available GPU devices, "
                                 "using CPU now.\n")
    assert rc.cause == CauseId.cuda_visible_devices_misconfig and rc.code == "parl_gpu_count_failed", (rc.cause,
                                                                                                        rc.code)
    assert rc.confidence.value == "medium"


def test_a_cpu_only_build_has_no_parallel_device_id(tmp_path):
    """2.0-2.4's ParallelEnv sets _device_id only in a device build: reading it in the CPU wheel fails."""
    rc = root_cause_of(tmp_path, "Traceback (most recent call last):\n"
                       '  File "/usr/lib/python3.8/site-packages/paddle/fluid/dygraph/parallel.py", line 200, in device_id\n'
                       "    return self._device_id\n"
                       "AttributeError: 'ParallelEnv' object has no attribute '_device_id'\n")
    assert (rc.cause, rc.confidence.value) == ("device_not_found", "medium")
