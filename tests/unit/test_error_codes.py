"""The code tables (catalog/codes.toml: enumerator -> cause; diagnose/anatomy: numbers) are checked
against the vendor headers' enum lines (tests/fixtures/codes/*.txt, extracted by
bench/extract_code_enums.py from the NVIDIA wheels)."""

from pathlib import Path

import pytest

from paddle_doctor.catalog.codes import code_tables, enum_causes
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose.anatomy import codes
from paddle_doctor.diagnose.anatomy.classify import classify, code_name
from paddle_doctor.diagnose.anatomy.numbers import NUMBERS
from paddle_doctor.diagnose.anatomy.parts import Code, parse_block

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "codes"
LEGACY = {"cudaError_t": {}, "ncclResult_t": {}, "cudnnStatus_t": codes.CUDNN_LEGACY_NUMBERS,
          "cublasStatus_t": {}, "cusolverStatus_t": {}}


def _header(enum: str) -> list[tuple[str, int]]:
    rows = [line.split(" = ") for line in (FIXTURES / f"{enum}.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    return [(name, int(value)) for name, value in rows]


@pytest.mark.parametrize("enum", LEGACY)
def test_every_enumerator_of_the_header_is_classified(enum):
    """A cause or deliberately none, for each name the header lists; names the header lacks come
    from an older numbering (listed there) only."""
    listed = enum_causes(enum)
    header = {name for name, _ in _header(enum)}
    assert header - set(listed) == set(), "classify the header's new enumerators in catalog/codes.toml"
    assert set(listed) - header <= set(LEGACY[enum].values())
    assert all(cause is None or isinstance(cause, CauseId) for cause in listed.values())


@pytest.mark.parametrize("enum", LEGACY)
def test_generated_numbers_match_the_header(enum):
    first = {}
    for name, value in _header(enum):
        first.setdefault(value, name)
    assert NUMBERS[enum] == first


def test_legacy_cuda_numbers_name_current_enumerators():
    names = {name for name, _ in _header("cudaError_t")}
    assert set(codes.CUDA_LEGACY_NUMBERS.values()) <= names
    assert set(codes.CUDA_TEXTS.values()) <= names


@pytest.mark.parametrize("text, name", [
    ("ExternalError: Cuda error(3), initialization error.", "cudaErrorInitializationError"),
    ("OSError: (External) CUDA error(2), out of memory.", "cudaErrorMemoryAllocation"),
    ("cudaGetLastError  no kernel image is available for execution on the device errno: 48",
     "cudaErrorNoKernelImageForDevice"),  # CUDA <= 10.0 numbering, named by its text
    ("ExternalError: CUDA error(209).", "cudaErrorNoKernelImageForDevice"),  # CUDA >= 10.1 numbering
    ("CUDA error(38)", "cudaErrorNoDevice"),  # 38 exists only in the old numbering
    ("OSError: (External) NCCL error(6), remote process exited or there was a network error.", "ncclRemoteError"),
])
def test_a_code_is_read_in_its_era(text, name):
    parts = parse_block([text])
    assert [code_name(c, parts.text) for c in parts.codes if c.kind in ("cuda", "nccl")][:1] == [name]


@pytest.mark.parametrize("text, cause", [
    ("OSError: (External) CUDA error(2), out of memory. (at /paddle/paddle/phi/backends/gpu/gpu_info.cc:1)",
     CauseId.gpu_oom),
    ("RuntimeError: CUDA_ERROR_NO_DEVICE", CauseId.device_not_found),
    # a ROCm build's enforce ("Hip error(%d), %s."): hipError_t keeps CUDA's numbers and texts
    ("ExternalError: Hip error(2), out of memory. (at /paddle/paddle/phi/backends/gpu/rocm/rocm_info.cc:1)",
     CauseId.gpu_oom),
    ("ExternalError: Hip error(100), no ROCm-capable device is detected.", CauseId.device_not_found),
    ("ExternalError: Hip error(209), no kernel image is available for execution on the device.",
     CauseId.cuda_arch_unsupported),
    ("ExternalError: Hip error(700), an illegal memory access was encountered.", CauseId.cuda_error_other),
    ("Error: CUDNN_STATUS_ARCH_MISMATCH at (/paddle/paddle/fluid/operators/conv_cudnn_op.cu:90)",
     CauseId.cuda_arch_unsupported),
    ("ExternalError: cuDNN error(14), CUDNN_STATUS_VERSION_MISMATCH.", CauseId.cuda_cudnn_mismatch),
    ("ExternalError: CUBLAS_STATUS_ALLOC_FAILED", CauseId.gpu_oom),
    ("OSError: [Errno 98] Address already in use", CauseId.port_in_use),
    ("OSError: [Errno 24] Too many open files", CauseId.too_many_open_files),
    ("OSError: (External) NCCL error(1), unhandled cuda error.", CauseId.nccl_error),
    ("OSError: (External) CUDA error(700), an illegal memory access was encountered.", CauseId.cuda_error_other),
])
def test_codes_decide_the_cause(text, cause):
    assert classify(parse_block([text])).cause == cause


def test_a_code_with_no_cause_of_its_own_falls_back_to_its_library():
    verdict = classify(parse_block(["ExternalError: CUBLAS_STATUS_MAPPING_ERROR"]))
    assert verdict.cause == CauseId.cuda_error_other and "names no cause" in verdict.why


@pytest.mark.parametrize("lines, cause", [
    (["OSError: (External) CUBLAS error(15). ", "  [Hint: 'CUBLAS_STATUS_NOT_SUPPORTED'.  The functionality "
      "requested is not supported ] (at /paddle/paddle/phi/kernels/funcs/blas/blas_impl.cu.h:41)"],
     CauseId.cuda_cudnn_mismatch),
    (["OSError: (External) CUBLAS error(13). "], CauseId.cuda_cudnn_mismatch),
    (["paddle.fluid.core.EnforceNotMet: CUDNN_STATUS_EXECUTION_FAILED at [/paddle/paddle/fluid/operators/"
      "batch_norm_op.cu.cc:183]"], CauseId.cuda_arch_unsupported),
])
def test_a_lone_library_status_is_the_library_failing_on_this_machine(lines, cause):
    """codes.toml's [lone]: a status that names no cause, with no other library's code in its error."""
    verdict = classify(parse_block(lines))
    assert verdict.cause == cause and "no other library's code" in verdict.why


def test_a_library_status_beside_a_cuda_fault_keeps_the_generic_id():
    """The 0.x trainer's cuBLAS failure followed by an illegal address: a fault while the job ran."""
    verdict = classify(parse_block([
        "F1104 11:19:11.596421 87418 hl_cuda_cublas.cc:220] Check failed: stat == CUBLAS_STATUS_SUCCESS (13 vs. 0) "
        "[cublas status]: execution failed",
        "F1104 11:19:11.596427 87426 hl_cuda_device.cc:661] Check failed: cudaSuccess == cudaStat (0 vs. 77) Cuda "
        "Error: an illegal memory access was encountered"]))
    assert verdict.cause == CauseId.cuda_error_other


@pytest.mark.parametrize("line, code", [
    ("Error: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, error code : 35, Please see "
     "detail in https://docs.nvidia.com/cuda/", Code("cuda", 35)),
    ("ResourceExhaustedError: Fail to alloc memory of 776212480 size, error code is 12.", Code("errno", 12)),
])
def test_paddles_own_wordings_of_a_failed_call_carry_its_code(line, code):
    assert code in parse_block([line]).codes


def test_a_failed_device_count_with_code_35_is_a_driver_older_than_the_runtime():
    verdict = classify(parse_block(["Error: cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCountImpl, "
                                    "error code : 35"]))
    assert verdict.cause == CauseId.cuda_cudnn_mismatch


def test_the_host_allocators_errno_12_is_host_memory():
    verdict = classify(parse_block(["ResourceExhaustedError: Fail to alloc memory of 776212480 size, error code is "
                                    "12.", "  [Hint: Expected error == 0, but received error:12 != 0:0.] (at "
                                    "/paddle/paddle/fluid/memory/detail/system_allocator.cc:67)"]))
    assert verdict.cause == CauseId.host_out_of_memory


def test_errno_and_signal_tables_name_catalog_ids_or_none():
    for table in (code_tables().errno, code_tables().signal):
        assert all(c.cause is None or isinstance(c.cause, CauseId) for c in table.values())
    assert Code("errno", 2) in parse_block(["FileNotFoundError: [Errno 2] No such file or directory: 'a'"]).codes
