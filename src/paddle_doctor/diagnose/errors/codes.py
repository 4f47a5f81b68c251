"""Numeric error codes of CUDA, NCCL, cuDNN and cuBLAS, errno and signals, as data: each enumerator
mapped to a cause id, or deliberately to none (``None``: the code says "something failed" and the
cause lies elsewhere; the generic id of its library is used then).

Every enumerator of the headers is listed by name (tests/unit/test_error_codes.py checks these
tables against ``tests/fixtures/codes/*.txt``, extracted from the headers by
``bench/extract_code_enums.py``): a new enumerator fails the test until it is classified here.
Grouped by cause: ``{cause: "Name Name ..."}``.
"""

from __future__ import annotations

from ...catalog.ids import CauseId as C

# cudaError_t, CUDA 12.9 driver_types.h (values from the header fixture; names only here).
CUDA_BY_CAUSE: dict[C | None, str] = {
    C.gpu_oom: "cudaErrorMemoryAllocation cudaErrorLaunchOutOfResources",
    C.cuda_cudnn_mismatch: "cudaErrorInsufficientDriver cudaErrorCallRequiresNewerDriver cudaErrorStubLibrary "
                           "cudaErrorSystemDriverMismatch cudaErrorCompatNotSupportedOnDevice "
                           "cudaErrorUnsupportedPtxVersion cudaErrorJitCompilerNotFound cudaErrorJitCompilationDisabled",
    C.cuda_arch_unsupported: "cudaErrorNoKernelImageForDevice cudaErrorInvalidKernelImage cudaErrorInvalidPtx "
                             "cudaErrorInvalidDeviceFunction cudaErrorInvalidSource",
    C.cuda_visible_devices_misconfig: "cudaErrorNoDevice cudaErrorInvalidDevice cudaErrorDeviceUninitialized",
    C.stale_process_holding_gpu: "cudaErrorDevicesUnavailable cudaErrorDeviceAlreadyInUse",
    # A kernel faulted, the hardware failed, or an API was misused: the code itself names no cause.
    None: "cudaErrorInvalidValue cudaErrorInitializationError cudaErrorCudartUnloading cudaErrorProfilerDisabled "
          "cudaErrorProfilerNotInitialized cudaErrorProfilerAlreadyStarted cudaErrorProfilerAlreadyStopped "
          "cudaErrorInvalidConfiguration cudaErrorInvalidPitchValue cudaErrorInvalidSymbol cudaErrorInvalidHostPointer "
          "cudaErrorInvalidDevicePointer cudaErrorInvalidTexture cudaErrorInvalidTextureBinding "
          "cudaErrorInvalidChannelDescriptor cudaErrorInvalidMemcpyDirection cudaErrorAddressOfConstant "
          "cudaErrorTextureFetchFailed cudaErrorTextureNotBound cudaErrorSynchronizationError "
          "cudaErrorInvalidFilterSetting cudaErrorInvalidNormSetting cudaErrorMixedDeviceExecution "
          "cudaErrorNotYetImplemented cudaErrorMemoryValueTooLarge cudaErrorInvalidSurface "
          "cudaErrorDuplicateVariableName cudaErrorDuplicateTextureName cudaErrorDuplicateSurfaceName "
          "cudaErrorIncompatibleDriverContext cudaErrorMissingConfiguration cudaErrorPriorLaunchFailure "
          "cudaErrorLaunchMaxDepthExceeded cudaErrorLaunchFileScopedTex cudaErrorLaunchFileScopedSurf "
          "cudaErrorSyncDepthExceeded cudaErrorLaunchPendingCountExceeded cudaErrorDeviceNotLicensed "
          "cudaErrorSoftwareValidityNotEstablished cudaErrorStartupFailure cudaErrorMapBufferObjectFailed "
          "cudaErrorUnmapBufferObjectFailed cudaErrorArrayIsMapped cudaErrorAlreadyMapped cudaErrorAlreadyAcquired "
          "cudaErrorNotMapped cudaErrorNotMappedAsArray cudaErrorNotMappedAsPointer cudaErrorECCUncorrectable "
          "cudaErrorUnsupportedLimit cudaErrorPeerAccessUnsupported cudaErrorInvalidGraphicsContext "
          "cudaErrorNvlinkUncorrectable cudaErrorUnsupportedExecAffinity cudaErrorUnsupportedDevSideSync "
          "cudaErrorContained cudaErrorFileNotFound cudaErrorSharedObjectSymbolNotFound "
          "cudaErrorSharedObjectInitFailed cudaErrorOperatingSystem cudaErrorInvalidResourceHandle "
          "cudaErrorIllegalState cudaErrorLossyQuery cudaErrorSymbolNotFound cudaErrorNotReady cudaErrorIllegalAddress "
          "cudaErrorLaunchTimeout cudaErrorLaunchIncompatibleTexturing cudaErrorPeerAccessAlreadyEnabled "
          "cudaErrorPeerAccessNotEnabled cudaErrorSetOnActiveProcess cudaErrorContextIsDestroyed cudaErrorAssert "
          "cudaErrorTooManyPeers cudaErrorHostMemoryAlreadyRegistered cudaErrorHostMemoryNotRegistered "
          "cudaErrorHardwareStackError cudaErrorIllegalInstruction cudaErrorMisalignedAddress "
          "cudaErrorInvalidAddressSpace cudaErrorInvalidPc cudaErrorLaunchFailure cudaErrorCooperativeLaunchTooLarge "
          "cudaErrorTensorMemoryLeak cudaErrorNotPermitted cudaErrorNotSupported cudaErrorSystemNotReady "
          "cudaErrorMpsConnectionFailed cudaErrorMpsRpcFailure cudaErrorMpsServerNotReady "
          "cudaErrorMpsMaxClientsReached cudaErrorMpsMaxConnectionsReached cudaErrorMpsClientTerminated "
          "cudaErrorCdpNotSupported cudaErrorCdpVersionMismatch cudaErrorStreamCaptureUnsupported "
          "cudaErrorStreamCaptureInvalidated cudaErrorStreamCaptureMerge cudaErrorStreamCaptureUnmatched "
          "cudaErrorStreamCaptureUnjoined cudaErrorStreamCaptureIsolation cudaErrorStreamCaptureImplicit "
          "cudaErrorCapturedEvent cudaErrorStreamCaptureWrongThread cudaErrorTimeout cudaErrorGraphExecUpdateFailure "
          "cudaErrorExternalDevice cudaErrorInvalidClusterSize cudaErrorFunctionNotLoaded cudaErrorInvalidResourceType "
          "cudaErrorInvalidResourceConfiguration cudaErrorUnknown cudaErrorApiFailureBase",
}

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

# ncclResult_t, nccl.h 2.32.3. ncclInvalidUsage with a version text is a mismatch (signatures).
NCCL_BY_CAUSE: dict[C | None, str] = {
    C.nccl_error: "ncclUnhandledCudaError ncclSystemError ncclInternalError ncclRemoteError ncclInvalidArgument "
                  "ncclInvalidUsage",
    C.collective_timeout: "ncclTimeout",
    None: "ncclSuccess ncclInProgress ncclNumResults",
}

# cudnnStatus_t, cuDNN 9.28 cudnn_graph.h; the cuDNN 7/8 names (cudnn.h / cudnn_ops_infer.h of 7.6
# and 8.x, values 0-14) are the same names with small values: CUDNN_LEGACY_NUMBERS.
# BAD_PARAM / NOT_SUPPORTED from one of Paddle's own kernels (whose arguments Paddle built) means the
# cuDNN loaded does not accept what the build expects: a version mismatch.
CUDNN_BY_CAUSE: dict[C | None, str] = {
    C.cuda_cudnn_mismatch: "CUDNN_STATUS_NOT_INITIALIZED CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH "
                           "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED "
                           "CUDNN_STATUS_BAD_PARAM CUDNN_STATUS_NOT_SUPPORTED "
                           "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER "
                           "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART "
                           "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING "
                           "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE CUDNN_STATUS_VERSION_MISMATCH "
                           "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
    C.cuda_arch_unsupported: "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH CUDNN_STATUS_ARCH_MISMATCH",
    C.gpu_oom: "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED CUDNN_STATUS_ALLOC_FAILED",
    C.host_out_of_memory: "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED",
    None: "CUDNN_STATUS_SUCCESS CUDNN_STATUS_DEPRECATED CUDNN_STATUS_LICENSE_ERROR CUDNN_STATUS_RUNTIME_IN_PROGRESS "
          "CUDNN_STATUS_RUNTIME_FP_OVERFLOW CUDNN_STATUS_BAD_PARAM_NULL_POINTER "
          "CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED "
          "CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT "
          "CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH "
          "CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE "
          "CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE "
          "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN CUDNN_STATUS_NOT_SUPPORTED_SHAPE "
          "CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE CUDNN_STATUS_NOT_SUPPORTED_LAYOUT "
          "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT CUDNN_STATUS_NOT_SUPPORTED_PADDING "
          "CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API "
          "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE CUDNN_STATUS_INTERNAL_ERROR "
          "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE "
          "CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED "
          "CUDNN_STATUS_EXECUTION_FAILED CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER CUDNN_STATUS_EXECUTION_FAILED_CUBLAS "
          "CUDNN_STATUS_EXECUTION_FAILED_CUDART CUDNN_STATUS_EXECUTION_FAILED_CURAND CUDNN_STATUS_INVALID_VALUE "
          "CUDNN_STATUS_MAPPING_ERROR",
}
# cuDNN 7.6 / 8.x cudnnStatus_t (NVIDIA cuDNN API reference, "cudnnStatus_t"): not in the 9.x header.
CUDNN_LEGACY_NUMBERS: dict[int, str] = {
    1: "CUDNN_STATUS_NOT_INITIALIZED", 2: "CUDNN_STATUS_ALLOC_FAILED", 3: "CUDNN_STATUS_BAD_PARAM",
    4: "CUDNN_STATUS_INTERNAL_ERROR", 5: "CUDNN_STATUS_INVALID_VALUE", 6: "CUDNN_STATUS_ARCH_MISMATCH",
    7: "CUDNN_STATUS_MAPPING_ERROR", 8: "CUDNN_STATUS_EXECUTION_FAILED", 9: "CUDNN_STATUS_NOT_SUPPORTED",
    10: "CUDNN_STATUS_LICENSE_ERROR", 11: "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
    12: "CUDNN_STATUS_RUNTIME_IN_PROGRESS", 13: "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", 14: "CUDNN_STATUS_VERSION_MISMATCH",
}

# cublasStatus_t, cuBLAS 12.9 cublas_api.h.
CUBLAS_BY_CAUSE: dict[C | None, str] = {
    C.gpu_oom: "CUBLAS_STATUS_ALLOC_FAILED",
    C.cuda_arch_unsupported: "CUBLAS_STATUS_ARCH_MISMATCH",
    C.cuda_cudnn_mismatch: "CUBLAS_STATUS_NOT_INITIALIZED",
    None: "CUBLAS_STATUS_SUCCESS CUBLAS_STATUS_INVALID_VALUE CUBLAS_STATUS_MAPPING_ERROR CUBLAS_STATUS_EXECUTION_FAILED "
          "CUBLAS_STATUS_INTERNAL_ERROR CUBLAS_STATUS_NOT_SUPPORTED CUBLAS_STATUS_LICENSE_ERROR",
}

# errno values that name a cause (Linux asm-generic/errno-base.h, errno.h), and the rest deliberately none.
ERRNO_CAUSES: dict[int, C | None] = {
    2: C.file_not_found,  # ENOENT
    12: C.host_out_of_memory,  # ENOMEM
    24: C.too_many_open_files,  # EMFILE
    23: C.too_many_open_files,  # ENFILE
    28: None,  # ENOSPC: disk full; no catalog entry yet
    98: C.port_in_use,  # EADDRINUSE
    99: C.wrong_host_ip,  # EADDRNOTAVAIL: binding an address this host does not have
    111: None,  # ECONNREFUSED: a peer not (yet) listening, a symptom
    104: None,  # ECONNRESET: a peer died, a symptom
    110: None,  # ETIMEDOUT
    13: None,  # EACCES
}

# Signals by number (Linux x86-64 signal(7)): what a process ended by it most likely met.
SIGNAL_CAUSES: dict[int, C | None] = {
    9: C.host_oom_killed,  # SIGKILL: the kernel OOM killer is the usual sender
    11: C.segfault,  # SIGSEGV
    6: C.segfault,  # SIGABRT: a native abort
    7: C.shm_too_small,  # SIGBUS: exhausted /dev/shm under a DataLoader
    4: C.segfault,  # SIGILL
    8: C.segfault,  # SIGFPE
    15: None,  # SIGTERM: the launcher ends the others; a victim
    2: None,  # SIGINT: the user pressed Ctrl-C
}


def by_name(table: dict[C | None, str]) -> dict[str, C | None]:
    """``{cause: "A B"}`` -> ``{"A": cause, "B": cause}``."""
    return {name: cause for cause, names in table.items() for name in names.split()}


CUDA_CAUSE = by_name(CUDA_BY_CAUSE)
NCCL_CAUSE = by_name(NCCL_BY_CAUSE)
CUDNN_CAUSE = by_name(CUDNN_BY_CAUSE)
CUBLAS_CAUSE = by_name(CUBLAS_BY_CAUSE)
