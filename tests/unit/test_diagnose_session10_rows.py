"""Issue 29, tenth session: readings added from emitters' templates (cited in the signatures); none is a corpus
log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "RuntimeError: CUDA error: out of memory",
    "cupy.cuda.driver.CUDADriverError: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
    "OSError: (External) CUDNN error(2), CUDNN_STATUS_ALLOC_FAILED.",
])
def test_cuda_stack_out_of_memory_statuses_are_gpu_memory_not_a_generic_cuda_error(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.code, rc.why)
