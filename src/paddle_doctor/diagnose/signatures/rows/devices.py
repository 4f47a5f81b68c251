"""Signatures: what a device reports about the work it was given or about itself: a GPU kernel's own
assertion (Paddle's device-side checks of their inputs), and an accelerator runtime that cannot open the
device it was asked for (Ascend's ACL through PaddleCustomDevice); ``DEVICE_LINES``, the line every GPU process prints
about its device (a GPU newer than the wheel's CUDA runtime); ``DEVICE_FACTS``, the device lists a run states
(its launch command, CUDA_VISIBLE_DEVICES), matched after every other row; ``OTHER_COLLECTIVES``, the collective
libraries of devices other than NVIDIA's.

A kernel's assertion says its input was out of range (a NaN, an index or label past a dimension); the
CUDA error that follows (device-side assert, launch failure) says only that a kernel failed.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

# cudaGetErrorString's texts for a kernel that faulted on the device (CUDA runtime's cudaErrorIllegalAddress,
# cudaErrorLaunchFailure, cudaErrorMisalignedAddress, cudaErrorIllegalInstruction, cudaErrorLaunchOutOfResources,
# cudaErrorLaunchTimeout, cudaErrorAssert), however the code that next called CUDA reports them (:mod:`.older_forms`).
KERNEL_FAULTS = (r"an illegal memory access was encountered|unspecified launch failure|misaligned address|an illegal "
                 r"instruction was encountered|too many resources requested for launch|the launch timed out and was "
                 r"terminated|device-side assert triggered")

# The device line every GPU process prints (pp 1.x-3.x platform/device_context.cc, phi/backends/gpu/gpu_resources.cc
# InitGpuProperties: "Please NOTE: device: %d, GPU Compute Capability: %d.%d (1.x: CUDA Capability: %d), Driver API
# Version: %d.%d, Runtime API Version: %d.%d"): the GPU's architecture, the newest CUDA the driver runs, the wheel's.
_CC = r"(?:GPU Compute Capability: |CUDA Capability: )"
_VERSIONS = r", Driver API Version: [\d.]+, Runtime API Version: "
# what a GPU the wheel cannot target fails with (1.x's bare op wrapper: refine/context.py says when the failed check's
# details below it decide instead); not an op's own shape check, which runs before any kernel
_DEVICE_FAILED = (r"(?i)cublas|cudnn|no kernel image|NoKernelImage|invalid device function|cudaError|CUDA error|SIGSEGV|"
                  r"Segmentation|Invoke operator \w+ error\.?\s*$")
_DEVICE_SOURCE = ("pp 1.x-3.x platform/device_context.cc / phi/backends/gpu/gpu_resources.cc InitGpuProperties (LOG_FIRST_N("
                  "WARNING, 1) << \"Please NOTE: device: \" << ... << \", GPU Compute Capability: \" (1.x: \"CUDA Capability: "
                  "\") << ... << \", Runtime API Version: \" ...)")

DEVICE_LINES = (
    # A runtime older than the GPU's architecture (a new major: sm_80 needs CUDA 11.0, sm_90 11.8, sm_100/sm_120 12.8)
    # has no code for it: the device errors that follow (cuBLAS, no kernel image) are that.
    _sig("runtime_older_than_gpu", _CC + r"(?:(?:8\.\d|8\d)" + _VERSIONS + r"(?=(?:8|9|10)\.)|(?:9\.\d|9\d)" + _VERSIONS +
         r"(?=(?:8|9|10)\.|11\.[0-7]\b)|(?:1[0-2]\.\d|1[0-2]\d)" + _VERSIONS + r"(?=(?:8|9|10|11)\.|12\.[0-7]\b))"
         r"(?P<runtime>\d+\.\d)", "context", CauseId.cuda_arch_unsupported, 90, "gpu_resources.cc:61] Please NOTE: device: 0, "
         "GPU Compute Capability: 8.0, Driver API Version: 11.2, Runtime API Version: 10.2", explains_only=_DEVICE_FAILED,
         title="this GPU is newer than the CUDA runtime the Paddle wheel carries ({runtime}): the wheel cannot run on it",
         source=_DEVICE_SOURCE + "; CUDA 11.0/11.8/12.8 release notes: first toolkits with sm_80/sm_90/sm_100 and sm_120"),
    # Turing (sm_75) under CUDA 8-9: sm_70's cubins run on it, but CUDA 9's cuBLAS fails there (Paddle#22874: the
    # CUDA 10 wheel for the RTX 20 series): at most medium.
    _sig("runtime_older_than_turing", _CC + r"(?:7\.5|75)" + _VERSIONS + r"(?P<runtime>[89]\.\d)", "context",
         CauseId.cuda_arch_unsupported, 80, "device_context.cc:259] Please NOTE: device: 0, CUDA Capability: 75, Driver "
         "API Version: 10.1, Runtime API Version: 9.0", explains_only=_DEVICE_FAILED, most="medium",
         title="this Turing GPU runs a wheel built for CUDA {runtime}, whose cuBLAS fails on it: install the CUDA 10 (or "
               "later) wheel", source=_DEVICE_SOURCE + "; CUDA 10.0 release notes (first toolkit with sm_75)"),
    # The device line: the newest CUDA the driver runs (cudaDriverGetVersion) and the wheel's runtime; a driver below
    # the runtime cannot serve it. Not on a line that also reports an error (a one-line paste): that is the error.
    _sig("device_cuda_versions", r"^(?!.*\b(?i:error|could not|cannot|failed)\b).*?Driver API Version: (?P<driver_api>\d+\.\d+), Runtime API Version: "
         r"(?P<runtime_api>\d+\.\d+)", "version_banner",
         example="W1204 12:00:00.000 1 gpu_resources.cc:119] Please NOTE: device: 0, GPU Compute Capability: 8.6, "
                 "Driver API Version: 11.4, Runtime API Version: 12.0",
         source="pp 1.x-3.x platform/device_context.cc / phi/backends/gpu/gpu_resources.cc InitGpuProperties "
                "(\", Driver API Version: \" << driver_version / 1000 << \".\" << (driver_version % 100) / 10 << "
                "\", Runtime API Version: \" << runtime_version / 1000 << ...)"),
)

DEVICES = (
    *DEVICE_LINES,  # first among the device rows, where they stood (after the launchers' rows)
    # Paddle Inference's config asked for the GPU (a suite's use_gpu=True default) in a CPU-only build. It only logs
    # this and goes on on the CPU: any error after it (a model file not found, a None image) says more, so it ranks
    # low, below every row that names a cause of its own.
    _sig("inference_gpu_in_cpu_build", r"Please compile with gpu to EnableGpu\(\)", "cause", CauseId.config_error, 30,
         "E0921 22:37:35.347833 13728 analysis_config.cc:73] Please compile with gpu to EnableGpu()",
         title="the inference config asks for the GPU and this Paddle is a CPU-only build: predict with use_gpu=False, "
               "or install paddlepaddle-gpu", most="medium",
         source="pp 1.6-2.x paddle/fluid/inference/api/analysis_config.cc EnableUseGpu (LOG(ERROR) << \"Please compile "
                "with gpu to EnableGpu()\"; use_gpu_ = false)"),
    # SyncBatchNorm has kernels for GPUs only (its op is built with CUDA; phi registers sync_batch_norm for GPU and XPU):
    # a CPU build has no such op at all, a CPU run no kernel for it. A config asking for synchronized BN (the suites'
    # use_sync_bn, norm_type: sync_bn) where it cannot run, not code of another Paddle release.
    _sig("sync_batch_norm_without_gpu", r"module 'paddle\.(?:fluid\.core(?:_avx|_noavx)?|base\.core|core)\.ops' has no attribute "
         r"'sync_batch_norm_?'|module 'paddle\._(?:legacy_)?C_ops' has no attribute 'sync_batch_norm_?'|kernel with key \((?:CPU|Undefined)"
         r"[^)]*\) of kernel `sync_batch_norm_?` is not registered", "cause", CauseId.config_error, 80,
         "AttributeError: module 'paddle.fluid.core_avx.ops' has no attribute 'sync_batch_norm'",
         title="synchronized BatchNorm runs only on GPUs: this build or run has no GPU kernel for it (train on GPU, or "
               "switch the config to plain BatchNorm: use_sync_bn false, norm_type bn)",
         source="pp 1.8-2.6 paddle/fluid/operators/CMakeLists.txt (sync_batch_norm_op built only with WITH_GPU/ROCm), "
                "sync_batch_norm_op.cu (REGISTER_OP_CUDA_KERNEL only); 2.4-3.x phi/kernels/gpu/sync_batch_norm_kernel.cu "
                "(PD_REGISTER_KERNEL(sync_batch_norm, GPU, ...)); kernel_factory.cc (\"The kernel with key %s of kernel "
                "`%s` is not registered.\")", most="medium"),
    # Without a key, phi found no kernel of that name for any backend: this build was made without it (a GPU-only or
    # Linux-only kernel such as memory_efficient_attention, fused or flash attention, on a Windows or CPU build), or
    # the kernel is newer than the installed Paddle (PaddleNLP#5924). A gradient kernel missing is a gap of that
    # release (view_shape_grad in 2.6, Paddle#64894), not a build: left to the exception.
    _sig("phi_kernel_absent", r"The kernel `(?P<kernel>\w+)(?<!_grad)` is not registered\.", "cause", CauseId.config_error,
         60, "RuntimeError: (NotFound) The kernel `memory_efficient_attention` is not registered.",
         title="the installed Paddle has no kernel {kernel} for any device: a build without it (a GPU-only or Linux-only "
               "kernel on a CPU or Windows build), or one older than the kernel",
         fix="turn off the switch that asks for the kernel (xformers or flash attention, a fused op), or install a Paddle "
             "build that has it (the Linux GPU build, a newer release)",
         source="pp 2.3-3.3.1 phi/core/kernel_factory.cc KernelFactory::SelectKernelOrThrowError and HasKernel "
                "(PADDLE_ENFORCE_NE(iter, kernels_.end(), NotFound(\"The kernel `%s` is not registered.\", kernel_name)); "
                "2.2 pten/core/kernel_factory.cc; 3.3.1 libphi_core.so strings)", most="medium", near=True),
    # Creating a GPU's device context checks that cuDNN loaded: its frame on the C++ stack says so even where the
    # message was cut from the paste (1.x-2.x print the stack before the message).
    _sig("cudnn_load_check_frame", r"\bdynload::EnforceCUDNNLoaded\b", "cause", CauseId.cuda_cudnn_mismatch, 80,
         "2   paddle::platform::dynload::EnforceCUDNNLoaded(char const*)",
         title="Paddle could not load cuDNN when it set up the GPU (its cuDNN load check failed): cuDNN is not "
               "installed, not on the library path, or not the version this build needs", most="medium",
         source="pp 1.6-2.6 paddle/fluid/platform/dynload/cudnn.cc EnforceCUDNNLoaded (PADDLE_ENFORCE_NOT_NULL("
                "cudnn_dso_handle, \"Cannot load cudnn shared library. Cannot invoke method %s.\")), called from "
                "CUDADeviceContext's constructor (device_context.cc)"),
    # Paddle's PADDLE_ENFORCE in device code cannot throw: it printf's the check and traps, and the host then
    # sees a CUDA error (cudaErrorAssert, or a launch failure on an asynchronous call). The check's message says
    # which input was out of range; that data fault (NaN from a diverged loss, a label or index past its
    # dimension) is the catalog's generic CUDA failure, at medium: the data, not the GPU, is usually at fault. More
    # specific than the CUDA or cuDNN status that follows it (the trap breaks the context for every later call).
    # The embedding kernel's own range check: an id past the table (a vocabulary larger than the model's, a sequence
    # longer than its position table, ids read as garbage) is the data or config not fitting the model. Labelled as
    # every other kernel's input check (cuda_error_other, 12 gathered logs; one labelled config_error), at medium.
    _sig("embedding_id_out_of_range", r"\.cu:\d+ Assertion `[^`\n]{1,80}` failed\. Variable value \(input\) of "
         r"OP\(fluid\.layers\.embedding\) expected >= 0 and < (?P<n>\d+), but got (?P<got>-?\d+)", "cause",
         CauseId.cuda_error_other, 90,
         "Error: /paddle/paddle/fluid/operators/lookup_table_v2_op.cu:43 Assertion `id < N` failed. Variable value "
         "(input) of OP(fluid.layers.embedding) expected >= 0 and < 1024, but got 1053. Please check input value.",
         title="an embedding got id {got}, past its table of {n} rows: the data's ids (vocabulary, sequence length) do "
               "not fit the model's config (vocab_size, max position)",
         source="pp 2.0-2.6 paddle/fluid/operators/lookup_table_v2_op.cu and phi/kernels/gpu/embedding_kernel.cu "
                "(PADDLE_ENFORCE(id >= 0 && id < N, \"Variable value (input) of OP(fluid.layers.embedding) expected >= "
                "0 and < %ld, but got %ld. Please check input value.\", N, id))", most="medium"),
    # fluid 1.x's GPU lookup table asserted on the device without the table's size in the message.
    _sig("embedding_id_out_of_range_1x", r"lookup_table(?:_v2)?_op\.cu:\d+ Assertion `id < N` failed \(received id: "
         r"(?P<got>-?\d+)\)", "cause", CauseId.cuda_error_other, 90,
         "Exception: /paddle/paddle/fluid/operators/lookup_table_op.cu:36 Assertion `id < N` failed (received id: "
         "4202603142669781314).",
         title="an embedding on the GPU got id {got}, past its table: the data's ids do not fit the model's config "
               "(vocab_size), or the reader feeds another tensor in the ids' place",
         source="pp 1.x paddle/fluid/operators/lookup_table_op.cu LookupTable kernel (PADDLE_ENFORCE(id < N, \"received "
                "id:\", id), as in center_loss_op.cu), which in device code is platform/assert.h's PADDLE_ASSERT_MSG "
                "(\"%s:%d Assertion `%s` failed (%s %ld).\")"),
    # The CPU kernel's same check (lookup_table_op.h: an enforce, not a device trap): no CUDA in it, the data's ids
    # against the table; the user's data or config, read as the program's own error (10810, labelled so). As specific
    # as the device's check: the abort that follows it (an uncaught exception) is its consequence.
    _sig("embedding_id_out_of_range_cpu", r"of OP\(fluid\.layers\.embedding\) expected >= 0 and < (?P<n>\d+), but got "
         r"(?P<got>-?\d+)", "cause", CauseId.python_exception, 90,
         "Error: Variable value (input) of OP(fluid.layers.embedding) expected >= 0 and < 283925, but got 284239. Please "
         "check input value.",
         title="an embedding got id {got}, past its table of {n} rows: the data's ids (vocabulary, sequence length) do "
               "not fit the model's config (vocab_size, max position)", most="medium",
         source="pp 1.6-2.x paddle/fluid/operators/lookup_table_op.h and lookup_table_v2_op.h LookupTableKernel "
                "(PADDLE_ENFORCE_LT(ids[i], row_number, \"Variable value (input) of OP(fluid.layers.embedding) expected "
                ">= 0 and < %ld, but got %ld. Please check input value.\"))"),
    _sig("gpu_kernel_assertion", r"(?:^|\bError: )(?P<file>\S+?\.cu(?:\.h)?):(?P<line>\d+):? (?:\w+: )?(?:[^`\n:]*: )?"
         r"(?:block: \[[\d,]+\], thread: \[[\d,]+\] )?Assertion (?:`(?P<cond>[^`]+)`|(?P<bare>[^`\n]+?)) failed|"
         r"\bError: (?P<file2>\S+?\.cu(?:\.h)?):(?P<line2>\d+)\s*$",
         "cause", CauseId.cuda_error_other, 85,
         "Error: ../paddle/phi/kernels/gpu/bce_loss_kernel.cu:41 Assertion `(x_mt >= zero) && (x_mt <= one)` failed. "
         "Input is expected to be within the interval [0, 1], but received nan.",
         title="a GPU kernel's own check failed ({file}{file2}:{line}{line2}): its input is out of range (a NaN from a diverged "
               "loss, a label or index past its dimension)",
         source="pp 2.0-3.3.1 paddle/phi/core/enforce.h and pp 1.8 platform/enforce.h, PADDLE_ENFORCE in device code "
                "(__CUDA_ARCH__: printf(\"Error: %s:%d Assertion `%s` failed. \" __FORMAT \"\\n\", __FILE__, __LINE__, "
                "#_IS_NOT_ERROR, ...); asm(\"trap;\")); pp 1.x kernels' own assert() (CUDA's device assert: \"%s:%d: %s: "
                "block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` failed.\", or the file, line and condition "
                "alone; 2.x without the backticks, or with the condition on the next line)", most="medium"),
    # Kubernetes cannot place a pod that asks for more GPUs (or CPU, memory) than any node has free: the job
    # waits, never fails by itself (nodes may be added and the pods start): below an exception line, so any error
    # the job met once running is read first; alone, the job's request is what does not fit the cluster.
    _sig("k8s_insufficient_resource", r"(?:FailedScheduling\b.*?|nodes are available:.*?\d+ |match all of the following "
         r"predicates::\s*)Insufficient (?P<res>[\w/-](?:[\w./-]*[\w/-])?)", "cause", CauseId.config_error, 45,
         "Warning  FailedScheduling  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
         title="Kubernetes cannot schedule the job's pods: no node has enough {res} for what each asks (ask for "
               "fewer per pod or fewer pods, or add nodes)",
         source="Kubernetes scheduler (FailedScheduling events: \"0/%d nodes are available: %d Insufficient %s.\"; 1.7-1.9 "
                "\"No nodes are available that match all of the following predicates:: Insufficient %s (%d).\")",
         most="medium"),
    # The Ascend runtime refuses a device id it does not see (none visible to the container, another process's
    # exclusive use, an id past the count): the plugin loaded, the device did not open.
    _sig("ascend_device_unopened", r"Call aclrtSetDevice\([^)]*\) failed : (?P<code>\d+)|The device ID is invalid\.",
         "cause", CauseId.device_not_found, 80,
         "Call aclrtSetDevice(device->id) failed : 507033 at file /work/PaddleCustomDevice/backends/npu/runtime/"
         "runtime.cc line 430",
         title="the Ascend runtime could not open the NPU it was asked for (not visible here, held by another "
               "process, or an id past the count)",
         source="PaddleCustomDevice backends/npu/runtime/runtime.cc SetDevice (ACL_CHECK(aclrtSetDevice(device->id)): "
                "\"Call %s failed : %d at file %s line %d\"); Ascend CANN error EL0002 (\"The device ID is invalid.\")",
         most="medium"),
    # Paddle 1.x checked a CUDA runtime call with glog's fatal log, naming the call, cudaGetErrorString's text and the
    # error number: read as an exception, so the number decides through the CUDA code table (9, an invalid launch
    # configuration, is the generic failure; 2 is out of memory; 35 a driver older than the runtime).
    _sig("glog_cuda_call_failed", r"^F\d{4} [\d:.]+\s+\d+ \S+:\d+\]\s*(?P<exc>cuda[A-Z]\w+)\s+(?P<msg>.+?\berrno\s*:\s*\d+)\s*$",
         "exception", CauseId.python_exception, 50,
         "F0425 09:12:42.189702  9812 device_context.cc:337] cudaGetLastError  invalid configuration argument errno:9",
         title="{exc}: {msg}", source="pp 1.x paddle/fluid/framework/details/all_reduce_op_handle.cc (LOG(FATAL) << "
         "\"cudaGetLastError  \" << cudaGetErrorString(e_get) << \" errno:\" << e_get); the same check at 1.4's "
         "platform/device_context.cc:337, as the gathered log names it (its source not read), as glog's F line"),
    # thrust's parallel_for (fluid's elementwise and reduction kernels) throws system_error("parallel_for failed: " +
    # cudaGetErrorString; newer thrust puts the error's name first): a kernel of the op failed, most often its launch
    # was refused ("invalid configuration argument": a grid of no blocks or too many threads, an empty tensor). Out of
    # memory is the memory rows', no kernel image the row above's.
    # thrust asks the runtime for a kernel's attributes before it launches it; "invalid device function" (or "no kernel
    # image") there is cudaErrorInvalidDeviceFunction: the build has no code for this GPU's architecture.
    _sig("thrust_no_kernel_for_gpu", r"(?:after cuda[A-Z]\w*|parallel_for failed): (?:cudaError\w+: )?(?P<text>invalid "
         r"device function|no kernel image is available for execution on the device)", "cause",
         CauseId.cuda_arch_unsupported, 85,
         "RuntimeError: function_attributes(): after cudaFuncGetAttributes: invalid device function",
         title="the GPU build has no kernel for this GPU's architecture ({text}, thrust's kernel launch): a build for "
               "this compute capability",
         source="thrust 1.8-1.9 thrust/system/cuda/detail/bulk/detail/cuda_launcher/runtime_introspection.inl "
                "function_attributes (throw_on_error(cudaFuncGetAttributes(...), \"function_attributes(): after "
                "cudaFuncGetAttributes\")), system_error what() + \": \" + cudaGetErrorString: CUDA driver_types.h "
                "cudaErrorInvalidDeviceFunction (\"invalid device function\")"),
    # thrust's other CUDA calls (freeing device memory, its temporary buffers) throw the same system_error,
    # whose what() is "<call> failed: <CUDA's error string>": a kernel fault earlier on the stream surfaces there. The
    # uncaught exception's abort (cpp_terminate) is only how it ended.
    _sig("thrust_cuda_call_failed", r"^\s*what\(\):\s+(?P<call>device free|[\w:]{3,40}(?: \w+){0,3}) failed: "
         rf"(?:cudaError\w+: )?(?P<text>{KERNEL_FAULTS})\s*$", "cause", CauseId.cuda_error_other, 75,
         "  what():  device free failed: unspecified launch failure",
         title="a GPU kernel failed ({text}), reported when thrust next called CUDA ({call}): run with "
               "CUDA_LAUNCH_BLOCKING=1 to see the kernel", most="medium",
         source="thrust 1.9-1.17 thrust/system/cuda/detail/malloc_and_free.h (cuda_cub::throw_on_error(status, \"device "
                "free failed\")), system_error what() \"<what_arg>: \" + cudaGetErrorString: "
                "CUDA driver_types.h (cudaErrorLaunchFailure \"unspecified launch failure\", cudaErrorIllegalAddress \"an "
                "illegal memory access was encountered\", ...)"),
    # Paddle's FlashAttention kernels exist only for CUDA >= 11.4 builds on sm80+ GPUs: without them the call says so.
    # The CUDA build is the corpus's reading (Paddle#63568); the GPU's architecture is its near cause.
    _sig("flash_attention_unsupported", r"FlashAttention is unsupported, please check the GPU compability and CUDA "
         r"Version", "cause", CauseId.cuda_cudnn_mismatch, 75, "NotImplementedError: (Unimplemented) FlashAttention is "
         "unsupported, please check the GPU compability and CUDA Version. (at ../paddle/phi/kernels/gpu/"
         "flash_attn_utils.h:286)",
         title="this Paddle has no FlashAttention for this setup: it needs a GPU build with CUDA 11.4 or newer and an "
               "sm80+ GPU (or call attention without flash)", most="medium",
         source="pp 2.5-2.6 paddle/phi/kernels/gpu/flash_attn_utils.h (PADDLE_THROW(phi::errors::Unimplemented("
                "\"FlashAttention is unsupported, please check the GPU compability and CUDA Version.\")))"),
    # Rockchip's RKNN runtime (the RKNPU2 backend of FastDeploy, rknn-toolkit-lite) could not allocate NPU memory:
    # the models loaded exceed it (a model loaded again per request), or, with errno 14 just before, an rknpu driver
    # too old for the runtime: medium.
    _sig("rknn_npu_malloc_failed", r"failed to malloc npu memory\b", "cause", CauseId.gpu_oom, 70,
         "E RKNN: [16:11:56.656] failed to malloc npu memory!, size: 7397955, flags: 0x2",
         title="the RKNN runtime could not allocate NPU memory: the models loaded exceed the NPU's "
               "memory (load a model once and reuse it), or the rknpu driver is too old for this runtime", most="medium",
         source="Rockchip RKNN runtime librknnrt.so (closed source; its log line \"E RKNN: failed to malloc npu memory, "
                "size: N, flags: 0xN\", as quoted from rknn-toolkit2 and rkllm runs)"),
    _sig("thrust_parallel_for_failed", r"parallel_for failed: (?:cudaError\w+: )?(?!out of memory)(?P<text>[a-z][a-z ]{5,80}"
         r"[a-z])", "cause", CauseId.cuda_error_other, 80,
         "W1104 19:03:37.945456 29266 operator.cc:187] elementwise_max raises an exception thrust::system::system_error, "
         "parallel_for failed: invalid configuration argument",
         title="a GPU kernel thrust's parallel_for ran failed: {text} (\"invalid configuration argument\": a launch "
               "with no blocks or too many threads, often an empty tensor)",
         source="thrust 1.9-1.17 thrust/system/cuda/detail/parallel_for.h (cuda_cub::throw_on_error(status, "
                "\"parallel_for failed\"): system_error what() \"parallel_for failed: \" + cudaGetErrorString); pp "
                "1.x framework/operator.cc (LOG(WARNING) << type << \" raises an exception \" << demangled type << "
                "\", \" << what)", most="medium"),
    # Paddle's import found no AVX on this CPU (or a virtual CPU that hides its flags) and only the AVX core is installed:
    # the wheel is not the build for this machine (the noavx wheels).
    _sig("avx_core_without_avx", r"AVX is not support(?:ed)? on your machine, but you have installed paddlepaddle with "
         r"avx core", "cause", CauseId.dependency_version_mismatch, 85,
         "Error: AVX is not support on your machine, but you have installed paddlepaddle with avx core, you should "
         "reinstall paddlepaddle by 'python -m pip install -U paddlepaddle-gpu[==version] -f "
         "https://paddlepaddle.org.cn/whl/stable_noavx.html'",
         title="this CPU reports no AVX and the installed Paddle has only its AVX core: install the noavx build (or "
               "give the virtual machine the host CPU's flags)", most="medium",
         source="pp 2.0-2.4 fluid/core.py (import of core_avx failed and has_avx_core without AVX: \"Error: AVX is not "
                "support on your machine, but you have installed paddlepaddle with avx core, you should reinstall ...\")"),
    # A single-process dygraph DataLoader takes one place; fluid.cuda_places() with no ids returns every visible GPU,
    # so a demo run on a machine that shows several cards fails here: one card visible (CUDA_VISIBLE_DEVICES=0).
    _sig("dygraph_loader_places", r"Number of places must be 1 in (?:dygraph|imperative) mode", "cause",
         CauseId.cuda_visible_devices_misconfig, 70, "AssertionError: Number of places must be 1 in dygraph mode",
         title="a single-process dygraph DataLoader was given several places (every visible GPU): make one card "
               "visible (CUDA_VISIBLE_DEVICES=0) or pass one place, or start one process per card with the launcher",
         source="pp 1.6-1.8 python/paddle/fluid/reader.py GeneratorLoader.set_batch_generator (assert len(self._places) "
                "== 1, \"Number of places must be 1 in dygraph mode\"); 2.0-2.x DygraphGeneratorLoader (\"... in imperative "
                "mode\")", most="medium"),
)

# Device facts (rules/devices.py checks them against each other): matched after every other row, so that a line
# that says an error is read as that error first.
DEVICE_FACTS = (
    _sig("launch_cmd_devices", r"--(?:gpus|devices|selected_gpus)(?:[= ]+|['\"],\s*)['\"]?\d+(?:\s*,\s*\d+)*",
         "device_fact", example='python -m paddle.distributed.launch --gpus 0,1,2,3 train.py',
         source="pp 2.4.2 paddle/distributed/fleet/launch.py (--gpus, alias --selected_gpus) and launch/context/"
                "args_envs.py (--devices, alias --gpus)"),
    _sig("launch_args_devices", r"(?:^|\s)(?:gpus|devices|selected_gpus): \d+(?:,\d+)*\s*$", "device_fact",
         example="LAUNCH INFO 2024-10-23 18:26:56,088 devices: 0,1,2,3",
         source="pp 2.4.2 paddle/distributed/launch/context/__init__.py print_config (ctx.logger.info('%s: %s')) "
                "and fleet/launch.py _print_arguments (print('%s: %s' % (arg, value)))"),
    _sig("visible_devices_env", r"CUDA_VISIBLE_DEVICES['\"]?\s*[=:]\s*['\"]?\d", "device_fact",
         example="export CUDA_VISIBLE_DEVICES=0,1",
         source="CUDA runtime (CUDA_VISIBLE_DEVICES); read by pp 2.4.2 launch/context/device.py parse_device and "
                "fleet/launch_utils.py get_gpus"),
    _sig("cpu_run_requested", r"--use_gpu[= ]['\"]?(?:false|False|0)\b|\buse_gpu\s*=\s*(?:False|false)\b|"
         r"--device[= ]['\"]?cpu\b", "device_fact", example="paddle_trainer --config=trainer_config.py --use_gpu=false",
         source="pp 0.x-1.x paddle_trainer / paddle.init(use_gpu=...) flags, PaddleOCR/PaddleDetection "
                "Global.use_gpu, pp 2.x-3.x --device cpu of the tools' command lines: the run asked for no GPU"),
    _sig("selected_gpus_env", r"FLAGS_selected_gpus(?:['\"]?\s*[=:]\s*['\"]?|', current_value=')\d", "device_fact",
         example="FLAGS(name='FLAGS_selected_gpus', current_value='3', default_value='')",
         source="pp 2.4.2 launch/controllers/collective.py and fleet/launch_utils.py set FLAGS_selected_gpus per "
                "worker; pp 3.x prints it in the 'Modified FLAGS detected' banner (FLAGS(name=..., current_value=...))"),
)


# The collective libraries of the other devices (Kunlun XPU's BKCL, DCU's RCCL, Ascend's HCCL, MLU's CNCL, a custom
# device's XCCL): their failures are the catalog's collective failure, as NCCL's. Spliced into
# :data:`.libraries.LIBRARIES` right after NCCL's rows.
OTHER_COLLECTIVES = (
    # The collective family beside NCCL: Kunlun XPU's BKCL. Paddle's own checks name it; the library's
    # log lines carry their level and the library's name ([WARN][BKCL][src:line]); INFO/DBG lines do not count.
    _sig("bkcl_error", r"\[(?:WARN|WARNING|ERR|ERROR|FATAL)\]\s*\[BKCL\]|\bBKCL [Ee]rror\b|\bbkcl_\w+ failed\b",
         "cause", CauseId.nccl_error, 88,
         "PreconditionNotMetError: bkcl_init_rank failed, got wrong value [3].",
         title="the collective library (BKCL, Kunlun XPU) reported an error",
         source="pp 2.x platform/collective_helper / bkcl_context (PreconditionNotMet: bkcl_init_rank failed), "
                "platform/device/xpu/enforce_xpu.h build_xpu_error_msg (BKCL Error, %s; BKCL Error <%d>, %s), the "
                "XPU collective tests' check (Failed, BKCL error %s:%d '%d'); the BKCL runtime's log lines "
                "[LEVEL][BKCL][file:line] (levels DBG, INFO, WARN, ERR)"),
    # ROCm's RCCL (NCCL's API, its own library): Paddle's ROCm builds enforce its results with their own
    # prefix; its log lines are NCCL's ("NCCL WARN"), read by the rows above.
    _sig("rccl_error", r"\b(?:RCCL|Rccl|rccl) error\b", "cause", CauseId.nccl_error, 90,
         "OSError: (External)  Rccl error, unhandled system error  (at /paddle/paddle/fluid/platform/"
         "collective_helper.cc:94)", title="the collective library (RCCL, ROCm) reported an error",
         source="pp 2.x-3.x ROCm builds: platform/enforce.h, phi/core/enforce.h build_rocm_error_msg(ncclResult_t) "
                "(std::string msg(\" Rccl error, \"); msg + ncclGetErrorString(nccl_result)), as PADDLE_ENFORCE_GPU_"
                "SUCCESS raises it; as a Paddle ROCm run printed it in ROCm/rccl#328)"),
    # Ascend NPU: a process of an earlier run still holds the device (CANN's own diagnosis, EJ0001).
    _sig("hccp_leftover_process", r"Failed to initialize the HCCP process\. Reason: Maybe the last training "
         r"process is running", "cause", CauseId.stale_process_holding_gpu, 96,
         "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training "
         "process is running.",
         title="the NPU is still held by the process of an earlier run (HCCP could not start on it)",
         source="Ascend CANN error code EJ0001 (Failed to initialize the HCCP process. Reason: Maybe the last training "
                "process is running. Solution: Wait for 10s after killing the last training process and try again.), "
                "printed by the CANN runtime under any framework (quoted in LlamaFactory#3839, verl#332)"),
    # Ascend NPU's HCCL: Paddle's own NPU builds (2.1-2.4) enforce HcclResult with their prefix; through
    # PaddleCustomDevice every HCCL call is checked by RUNTIME_CHECK, which prints the call and its
    # HcclResult, then exits; CANN's own log lines carry the level and the module ([ERROR] HCCL(pid,proc)).
    _sig("hccl_call_failed", r"Call (?P<call>Hccl\w+)\(.*\) failed : (?P<code>-?\d+)|\bHCCL error, the error code "
         r"is : -?\d+|\[ERROR\] HCCL\(\d+,", "cause",
         CauseId.nccl_error, 88,
         "Call HcclCommInitRootInfo(nranks, reinterpret_cast<HcclRootInfo *>(unique_id->data), rank, "
         "reinterpret_cast<HcclComm *>(comm)) failed : 7 at file /PaddleCustomDevice/backends/npu/runtime/"
         "runtime.cc line 1060",
         title="the collective library (HCCL, Ascend NPU) reported an error",
         source="pp 2.1-2.4 platform/device/npu/enforce_npu.h build_npu_error_msg(HcclResult) (\" HCCL error, the "
                "error code is : \" << stat); Ascend CANN slog lines ([ERROR] HCCL(%d,%s):%s [%s:%d]...: "
                "HcclCommInitRootInfo failed., as in gpustack#2021); "
                "PaddleCustomDevice backends/npu/runtime/runtime.h RUNTIME_CHECK via HCCL_CHECK (std::cerr << "
                "\"Call \" << #func << \" failed : \" << acl_ret << \" at file \" << __FILE__ << \" line \" ..., "
                "then exit(-1)), used for HcclCommInitRootInfo, HcclGetRootInfo, HcclAllReduce, ... in "
                "runtime.cc (pp 2.5-3.x custom device plugin)"),
    # Cambricon MLU's CNCL, enforced by Paddle's MLU builds (2.3-2.4) and by the MLU custom-device plug-in.
    _sig("cncl_error", r"\bMLU CNCL error\(-?\d+\)", "cause", CauseId.nccl_error, 88,
         "ExternalError: MLU CNCL error(7), CNCL_RET_ERR_SYSTEM.  (at /paddle/paddle/fluid/platform/collective_helper"
         ".cc:356)", title="the collective library (CNCL, Cambricon MLU) reported an error",
         source="pp 2.3-2.4 platform/device/mlu/enforce.h build_mlu_error_msg(cnclResult_t) (\"MLU CNCL error(\" << e "
                "<< \"), \" << cnclGetErrorStr(e) << \". \"), as PADDLE_ENFORCE_MLU_SUCCESS raises it; the same function "
                "in PaddleCustomDevice backends/mlu/runtime/runtime.h, the MLU plug-in of XCCL)"),
    # A custom device's collective library (XCCL: Paddle's plug-in interface) fails with the custom device's
    # generic status; the C++ frame of the call names the collective.
    _sig("xccl_frame", r"\bphi::CustomDevice::CCL(?:CommInitRank|GetUniqueId|AllReduce|Broadcast|AllGather|"
         r"ReduceScatter|Reduce|Send|Recv|GroupStart|GroupEnd)\b|\bxccl_(?:comm_init_rank|get_unique_id)\b",
         "cause", CauseId.nccl_error, 60,
         "2   phi::CustomDevice::CCLCommInitRank(unsigned long, std::vector<unsigned char>*, unsigned long, "
         "void**)",
         title="the custom device's collective library (XCCL) failed a call (its frame is on the C++ stack)",
         source="pp 2.5-3.3.1 phi/backends/custom/custom_device.cc CustomDevice::CCLCommInitRank, CCLAllReduce, ... "
                "(PADDLE_ENFORCE_CUSTOM_DEVICE_SUCCESS(pimpl_->xccl_comm_init_rank(...)) raises ' CustomDevice "
                "error, the error code is : %d. ' from phi/backends/custom/enforce_custom.h; enforce.h prints the "
                "C++ stack with the call's frame)"),
    # FlashAttention's kernels exist for Ampere (sm8x) and Hopper (sm90) only: Paddle's flash-attn C API checks the
    # device and refuses an older GPU (a V100, a T4) where a model turns flash attention on. Dao's message only as an
    # error (models also warn it and fall back).
    _sig("flash_attn_arch_unsupported", r"`?is_sm8x \|\| is_sm90`? check failed|(?:Error|what\(\)):\s*FlashAttention only "
         r"supports Ampere GPUs or newer", "cause", CauseId.cuda_arch_unsupported, 85,
         "(External) Error in Flash-Attention, detail information is: `is_sm8x || is_sm90` check failed at "
         "/paddle/third_party/flashattn/csrc/capi/flash_attn.cu:626",
         title="FlashAttention runs only on Ampere (compute capability 8.x) or Hopper (9.0) GPUs: turn flash attention "
               "off for this GPU, or run on a newer one", most="medium",
         source="pp 2.5-3.x third_party/flashattn csrc/capi/flash_attn.cu (FLASHATTNLIB_CHECK(is_sm8x || is_sm90), "
                "reported by phi/kernels/gpu/flash_attn_utils.h as \"Error in Flash-Attention, detail information is: "
                "`is_sm8x || is_sm90` check failed\"); Dao-AILab flash_attn_api.cpp (\"FlashAttention only supports "
                "Ampere GPUs or newer.\")"),
)

