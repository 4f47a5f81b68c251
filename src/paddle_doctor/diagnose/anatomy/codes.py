"""Numeric error codes read in their era, as data: the CUDA <= 10.0 and cuDNN 7/8 numbers that differ
from the current headers, and cudaGetErrorString's texts, each to the enumerator it stands for.

The current headers' numbers are generated (``numbers.py``, by ``bench/extract_code_enums.py``);
what each enumerator, errno value and signal says about the cause is the catalog's
(``catalog/codes.toml``, read by ``paddle_doctor.catalog.codes``). tests/unit/test_error_codes.py
checks both against ``tests/fixtures/codes/*.txt``, extracted from the headers.
"""

from __future__ import annotations

# CUDA <= 10.0 numbered many errors differently (renumbered in 10.1); Paddle 1.x wheels were built
# with CUDA 8-10.0 and print the old number (e.g. `errno: 48` for no kernel image). Source: CUDA 10.0
# driver_types.h (enum cudaError), the values that differ from 12.x or that 12.x dropped.
CUDA_LEGACY_NUMBERS: dict[int, str] = {
    1: "cudaErrorMissingConfiguration", 4: "cudaErrorLaunchFailure", 5: "cudaErrorPriorLaunchFailure",
    6: "cudaErrorLaunchTimeout", 7: "cudaErrorLaunchOutOfResources", 8: "cudaErrorInvalidDeviceFunction",
    10: "cudaErrorInvalidDevice", 11: "cudaErrorInvalidValue", 14: "cudaErrorMapBufferObjectFailed",
    15: "cudaErrorUnmapBufferObjectFailed", 29: "cudaErrorCudartUnloading", 30: "cudaErrorUnknown",
    33: "cudaErrorInvalidResourceHandle", 34: "cudaErrorNotReady", 36: "cudaErrorSetOnActiveProcess",
    38: "cudaErrorNoDevice", 39: "cudaErrorECCUncorrectable", 40: "cudaErrorSharedObjectSymbolNotFound",
    41: "cudaErrorSharedObjectInitFailed", 42: "cudaErrorUnsupportedLimit", 47: "cudaErrorInvalidKernelImage",
    48: "cudaErrorNoKernelImageForDevice", 50: "cudaErrorPeerAccessAlreadyEnabled",
    51: "cudaErrorPeerAccessNotEnabled", 54: "cudaErrorDeviceAlreadyInUse", 55: "cudaErrorProfilerDisabled",
    59: "cudaErrorAssert", 60: "cudaErrorTooManyPeers", 63: "cudaErrorOperatingSystem",
    64: "cudaErrorPeerAccessUnsupported", 70: "cudaErrorNotPermitted", 71: "cudaErrorNotSupported",
    72: "cudaErrorHardwareStackError", 73: "cudaErrorIllegalInstruction", 74: "cudaErrorMisalignedAddress",
    75: "cudaErrorInvalidAddressSpace", 76: "cudaErrorInvalidPc", 77: "cudaErrorIllegalAddress",
    78: "cudaErrorInvalidPtx", 79: "cudaErrorInvalidGraphicsContext", 80: "cudaErrorNvlinkUncorrectable",
    81: "cudaErrorJitCompilerNotFound", 82: "cudaErrorCooperativeLaunchTooLarge",
}

# cudaGetErrorString texts (CUDA runtime), lower case: a message that quotes the text names the error
# whatever number (era) it prints.
CUDA_TEXTS: dict[str, str] = {
    "out of memory": "cudaErrorMemoryAllocation",
    "initialization error": "cudaErrorInitializationError",
    "cuda driver version is insufficient for cuda runtime version": "cudaErrorInsufficientDriver",
    "no cuda-capable device is detected": "cudaErrorNoDevice",
    "invalid device ordinal": "cudaErrorInvalidDevice",
    "no kernel image is available for execution on the device": "cudaErrorNoKernelImageForDevice",
    "invalid device function": "cudaErrorInvalidDeviceFunction",
    "an illegal memory access was encountered": "cudaErrorIllegalAddress",
    "unspecified launch failure": "cudaErrorLaunchFailure",
    "uncorrectable ecc error encountered": "cudaErrorECCUncorrectable",
    "all cuda-capable devices are busy or unavailable": "cudaErrorDevicesUnavailable",
    "cuda-capable device(s) is/are busy or unavailable": "cudaErrorDevicesUnavailable",
    "too many resources requested for launch": "cudaErrorLaunchOutOfResources",
    "device-side assert triggered": "cudaErrorAssert",
    "system has unsupported display driver / cuda driver combination": "cudaErrorSystemDriverMismatch",
    "forward compatibility was attempted on non supported hw": "cudaErrorCompatNotSupportedOnDevice",
    "cuda driver is a stub library": "cudaErrorStubLibrary",
    "the provided ptx was compiled with an unsupported toolchain.": "cudaErrorUnsupportedPtxVersion",
    "misaligned address": "cudaErrorMisalignedAddress",
    "an illegal instruction was encountered": "cudaErrorIllegalInstruction",
}

# cuDNN 7.6 / 8.x cudnnStatus_t (NVIDIA cuDNN API reference, "cudnnStatus_t"): not in the 9.x header.
CUDNN_LEGACY_NUMBERS: dict[int, str] = {
    1: "CUDNN_STATUS_NOT_INITIALIZED", 2: "CUDNN_STATUS_ALLOC_FAILED", 3: "CUDNN_STATUS_BAD_PARAM",
    4: "CUDNN_STATUS_INTERNAL_ERROR", 5: "CUDNN_STATUS_INVALID_VALUE", 6: "CUDNN_STATUS_ARCH_MISMATCH",
    7: "CUDNN_STATUS_MAPPING_ERROR", 8: "CUDNN_STATUS_EXECUTION_FAILED", 9: "CUDNN_STATUS_NOT_SUPPORTED",
    10: "CUDNN_STATUS_LICENSE_ERROR", 11: "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
    12: "CUDNN_STATUS_RUNTIME_IN_PROGRESS", 13: "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", 14: "CUDNN_STATUS_VERSION_MISMATCH",
}
