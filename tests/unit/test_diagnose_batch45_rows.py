"""Issue 29, after gathered batch 45: two 0.x/1.x forms of messages the rules read in their later wording — the v1/v2
host allocator's glog check on posix_memalign (ENOMEM, 12), and fluid 1.x load_combine's "Cannot read more from file"
(the parameter file ended before every variable was read). Every line follows the emitting code's template cited in the
signatures; none is a corpus log."""

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


def test_the_v1_host_allocators_failed_posix_memalign_is_host_out_of_memory(tmp_path):
    """paddle/math/Allocator.h CpuAllocator::alloc: CHECK_EQ(posix_memalign(&ptr, 4096ul, size), 0) (MKL-DNN build)."""
    rc = _diagnose(tmp_path, "F1102 08:15:02.000100  4410 Allocator.h:52] Check failed: posix_memalign(&ptr, 4096ul, "
                             "size) == 0 (12 vs. 0) \n*** Check failure stack trace: ***\n"
                             "    @     0x7f0000001000  paddle::CpuAllocator::alloc()\n")
    assert rc.cause == CauseId.host_out_of_memory and rc.code == "v1_cpu_alloc_enomem", (rc.cause, rc.why)
    assert rc.confidence.value == "high"


def test_another_errno_of_the_v1_allocator_is_not_read_as_out_of_memory(tmp_path):
    """EINVAL (22) is an alignment the allocator asked wrongly, not memory running out."""
    rc = _diagnose(tmp_path, "F1102 08:15:02.000100  4410 Allocator.h:52] Check failed: posix_memalign(&ptr, 32ul, "
                             "size) == 0 (22 vs. 0) \n")
    assert rc is None or rc.code != "v1_cpu_alloc_enomem", (rc.cause, rc.why)


def test_load_combine_running_out_of_file_is_a_checkpoint_that_ends_early(tmp_path):
    """fluid 0.14-1.3 operators/load_combine_op.cc: PADDLE_ENFORCE(static_cast<bool>(fin), "Cannot read more from
    file %s", filename) before each variable."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "infer.py", line 20, in <module>\n'
                             "    fluid.io.load_inference_model(dirname, exe, params_filename='params')\n"
                             "paddle.fluid.core.EnforceNotMet: Cannot read more from file ./model/params at "
                             "[/paddle/paddle/fluid/operators/load_combine_op.cc:58]\n")
    assert rc.cause == CauseId.checkpoint_corrupt, (rc.cause, rc.why)


def test_load_combine_not_opening_the_file_stays_file_not_found(tmp_path):
    """The same operator's open check, just before: "Cannot open file %s for load_combine op"."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "infer.py", line 20, in <module>\n'
                             "    fluid.io.load_inference_model(dirname, exe, params_filename='params')\n"
                             "paddle.fluid.core.EnforceNotMet: Cannot open file ./model/params for load_combine op "
                             "at [/paddle/paddle/fluid/operators/load_combine_op.cc:39]\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)
