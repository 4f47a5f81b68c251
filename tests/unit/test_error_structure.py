"""Issue 29: the whole error read by its structure. A traceback's exception line found by the
traceback's shape whatever the type is called; the component that raised (C++ file, operator, Paddle
module) with what its message says; glog's fatal checks; BKCL as NCCL's sibling; a GPU asked of a
CPU-only build. Every line follows the emitting code's template (CPython's traceback.py, glog's
CHECK, Paddle's enforce messages of the era named in components.py); none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.anatomy.parts import parse_block
from paddle_doctor.diagnose.read.tracebacks import exception_after

TRACE = "Traceback (most recent call last):\n"
SITE = "/usr/local/lib/python3.8/site-packages/paddle"
USER = '  File "tools/train.py", line 12, in <module>\n    main()\n'


def _diagnose(tmp_path, text, name="paste.log"):
    log = tmp_path / name
    log.write_text(text)
    return diagnose_paths([str(log)]).root_cause


@pytest.mark.parametrize("last, exc", [
    ("Exception: ./train_data/x.jpg is not a valid sample", "Exception"),
    ("cv2.error: OpenCV(4.5.1) /tmp/resize.cpp:4051: error: (-215:Assertion failed) !ssize.empty() in function "
     "'resize'", "cv2.error"),
    ("StopIteration", "StopIteration"),
    ("SystemExit: 1", "SystemExit"),
    ("MyCustomErr: boom", "MyCustomErr"),
])
def test_the_exception_line_is_found_by_the_tracebacks_shape(tmp_path, last, exc):
    rc = _diagnose(tmp_path, TRACE + USER + '  File "tools/program.py", line 40, in step\n    run(batch)\n'
                   + last + "\n")
    assert rc.code != "traceback_without_exception" and rc.cause == CauseId.python_exception, rc.why
    assert rc.message.startswith(exc) and any(e.text == last for e in rc.evidence)


def test_a_rank_that_raised_an_oddly_named_exception_is_not_called_killed(tmp_path):
    """Rank 1 raises ``MyCustomErr``; rank 0 shows gloo's peer-closed TIMEOUT: rank 1 raised, with
    its exception quoted, not 'killed from outside, leaving no error text'."""
    (tmp_path / "workerlog.0").write_text(
        "terminate called after throwing an instance of 'gloo::IoException'\n"
        "  what():  [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = 0 pair_rank = 1 "
        "peer_str = [127.0.0.1]:43955\n")
    (tmp_path / "workerlog.1").write_text(TRACE + '  File "eval.py", line 30, in <module>\n    check(x)\n'
                                          '  File "eval.py", line 8, in check\n    raise MyCustomErr("boom")\n'
                                          "MyCustomErr: boom\n")
    rc = diagnose_paths([str(tmp_path)]).root_cause
    assert rc.cause == CauseId.python_exception and rc.ranks == (1,), (rc.cause, rc.why)
    assert any(e.text == "MyCustomErr: boom" for e in rc.evidence)


@pytest.mark.parametrize("frame, following, found", [
    ('  File "t.py", line 3, in f', ["    return g()", "KeyError: 'x'"], "KeyError: 'x'"),
    ('  File "t.py", line 3, in f', ["    g()", "    ^^^", "cv2.error: bad"], "cv2.error: bad"),
    ('File "t.py", line 3, in f', ["raise Exception('x')", "Exception: x"], "Exception: x"),  # a paste that lost indents
    ('  File "t.py", line 3, in f', ["    return", "INFO done"], None),  # the next unindented line is not one
    ('File "t.py", line 3, in f', ["return"], None),  # a lowercase bare word is a source line, not a type
    ('  File "t.py", line 3, in f', ["    g()", "INFO:root:epoch 3"], None),  # another thread's log line
    ('  File "t.py", line 3, in f', ['  File "u.py", line 9, in g', "ValueError: v"], None),  # not the last frame
])
def test_what_counts_as_the_exception_line(frame, following, found):
    hit = exception_after(frame, following)
    assert (hit[0] if hit else None) == found


def test_the_parts_read_a_plain_exception_after_frames():
    parts = parse_block(['  File "ppocr/data/simple_dataset.py", line 114, in __getitem__',
                         '    raise Exception("{} does not exist!".format(img_path))',
                         "Exception: ./train_data/a.jpg does not exist!"])
    assert (parts.exc_type, parts.message) == ("Exception", "./train_data/a.jpg does not exist!")


@pytest.mark.parametrize("text, cause, part", [
    # pp 0.12-1.8 load_op.cc, 3.3.1 load operator, 1.8-2.x load_combine_op.h: the file cannot be opened
    ("paddle.fluid.core.EnforceNotMet: Cannot open file model/15/conv2d_7.w_0 for load op at "
     "[/paddle/paddle/fluid/operators/load_op.cc:39]\n", CauseId.file_not_found, "component"),
    ("RuntimeError: (Unavailable) Load operator fail to open file ./infer/inference.pdiparams, please check whether "
     "the model file is complete or damaged.\n  [Hint: Expected static_cast<bool>(fin) == true, but received "
     "static_cast<bool>(fin):0 != true:1.] (at /paddle/paddle/fluid/operators/load_op.h:41)\n"
     "  [operator < load > error]\n", CauseId.file_not_found, "component"),
    ("RuntimeError: (PreconditionNotMet) Not allowed to load partial data via load_combine_op, please use load_op "
     "instead.\n  [Hint: Expected tensor_size == 0, but received tensor_size:1 != 0:0.] (at /paddle/paddle/fluid/"
     "operators/load_combine_op.h:90)\n  [operator < load_combine > error]\n", CauseId.config_error, "component"),
    # pp 0.11-0.14 gpu_info.cc GpuMaxChunkSize
    ("paddle.fluid.core.EnforceNotMet: enforce allocating <= available failed, 10513462067 > 1369702144\n"
     "at [/paddle/paddle/fluid/platform/gpu_info.cc:89]\n", CauseId.gpu_oom, "component"),
    # pp 2.0-2.6 set_dict -> set_value (varbase_patch_methods.py), with layers.py's other wording (no signature
    # row reads it; set_value's own template is signatures/rows/loading.py's load_shape_check): the frames decide
    (TRACE + USER + f'  File "{SITE}/fluid/dygraph/layers.py", line 1300, in set_dict\n    param.set_value(state)\n'
     f'  File "{SITE}/fluid/dygraph/varbase_patch_methods.py", line 129, in set_value\n'
     "    value.shape)\nValueError: linear_0.w_0 receives a shape [10, 3], but the expected shape is [10, 2].\n",
     CauseId.state_dict_shape_mismatch, "component"),
    # a dataset's own check that a file exists (PaddleOCR raises a plain Exception)
    (TRACE + USER + '  File "ppocr/data/simple_dataset.py", line 114, in __getitem__\n'
     '    raise Exception("{} does not exist!".format(img_path))\nException: ./train_data/a.jpg does not exist!\n',
     CauseId.file_not_found, "type"),
    # glog CHECK_EQ on an NCCL call made while running: the collective failed (not the library's loading)
    ("F1125 15:44:39.266677 200102 nccl_helper.h:62] Check failed: dynload::ncclGroupEnd() == ncclSuccess (1 vs. 0)\n"
     "*** Check failure stack trace: ***\n", CauseId.nccl_error, "call"),
])
def test_the_component_and_its_message_name_the_cause(tmp_path, text, cause, part):
    rc = _diagnose(tmp_path, text)
    assert rc.cause == cause and rc.code == f"structure_{part}", (rc.cause, rc.code, rc.why)


def test_a_missing_thing_that_is_not_a_path_stays_the_users_exception(tmp_path):
    rc = _diagnose(tmp_path, TRACE + USER + "Exception: Variable fc_0 does not exist in the scope\n")
    assert rc.cause == CauseId.python_exception


@pytest.mark.parametrize("line, cause", [
    ("[WARN][BKCL][/src/bkcl/src/init.cpp:714] init_bkcl_context failed", CauseId.nccl_error),
    ("PreconditionNotMetError: bkcl_init_rank failed, got wrong value [3].", CauseId.nccl_error),
    ("ExternalError: BKCL Error, BKCL_INVALID_ARGUMENT (at /paddle/paddle/fluid/platform/collective_helper.cc:305)",
     CauseId.nccl_error),
    ("Cannot use CUDAPlace in CPU only version at [/paddle/paddle/fluid/pybind/pybind.cc:806]",
     CauseId.device_not_found),
    ("E0721 22:36:11.350354 24760 pybind.cc:2342] Cannot use GPU because you have installed CPU version "
     "PaddlePaddle.", CauseId.device_not_found),
])
def test_library_and_build_lines_name_their_cause(tmp_path, line, cause):
    assert _diagnose(tmp_path, line + "\n").cause == cause


def test_bkcls_info_lines_are_not_errors(tmp_path):
    rc = _diagnose(tmp_path, "[INFO][BKCL][/src/bkcl/src/network/net_socket.cpp:45] NET/Socket : ipv6 net card "
                             "[docker0]\nValueError: boom\n")
    assert rc.cause == CauseId.python_exception


def test_paddles_gpu_architecture_warning_explains_the_device_error_after_it(tmp_path):
    """pp 2.4-3.x gpu_resources.cc CheckDeviceArch warns that the GPU is not among the wheel's
    architectures; a generic device error after it is what that leads to."""
    rc = _diagnose(tmp_path, "W0826 15:37:30.498044  6709 gpu_resources.cc:96] The GPU architecture in your current "
                             "machine is Pascal, which is not compatible with Paddle installation with arch: 70 75 80 "
                             "86 , it is recommended to install the corresponding wheel package according to the "
                             "installation information on the official Paddle website.\n" + TRACE + USER +
                             "OSError: (External) CUDA error(719), unspecified launch failure.\n")
    assert rc.cause == CauseId.cuda_arch_unsupported and rc.code == "gpu_arch_warning"


def test_the_shells_report_of_a_segfaulted_child_is_a_segfault(tmp_path):
    """bash reports a job SIGSEGV ended as '<script>: line N: <pid> Segmentation fault <command>'."""
    rc = _diagnose(tmp_path, "./run.sh: line 12:  4242 Segmentation fault      python train.py --epochs 3\n")
    assert rc.cause == CauseId.segfault
