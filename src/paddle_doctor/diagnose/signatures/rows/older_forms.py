"""Signatures: older and localized wordings of causes the other tables read in their newer form.

Paddle 0.x (the v1 trainer) checked its Python data providers and its parameter files with glog CHECKs
and threw thrust's CUDA errors uncaught, protobuf 2.x/3.x files mixed in one install fail on their own
module attributes, Paddle 0.x-1.x (fluid) reported a failed CUDA call and a failed host allocation in words of its own,
its GPU memory pool's first chunk larger than the card's free memory, and an optimizer's accumulator of another
shape than the parameter it updates (a parameter loaded from a checkpoint of another model),
a shell in a non-English locale reports a killed job with its own word for "line" (:mod:`..tools.shells`, spliced
here), the host's kernel
module loader reports a machine without the NVIDIA driver, PaddleHub's modules check the GPU
variable themselves before predicting, 2.x refuses a static-graph API of 1.x code in its dynamic
default, and to_static's old name declarative refuses a keyword of a later release. The older launcher
(fleet.launch) checks the devices and its arguments before it starts a trainer.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..tools.shells import SHELL_ROWS
from .api_versions import PY2_IMPORT_ROWS
from .devices import KERNEL_FAULTS


OLDER_FORMS = (
    # Paddle 1.3-1.6 sized the GPU memory pool's first chunk from the free memory and checked it: the card is
    # already full (another process, an earlier run) or FLAGS_fraction_of_gpu_memory_to_use asks too much.
    _sig("gpu_pool_chunk_over_free", r"Expected allocating <= available|Insufficient GPU memory to allocation",
         "cause", CauseId.gpu_oom, 90,
         "paddle.fluid.core.EnforceNotMet: Enforce failed. Expected allocating <= available, but received "
         "allocating:20998686233 > available:19587333888.",
         title="the GPU memory pool asked for more than the card had free (another process holds memory, or "
               "FLAGS_fraction_of_gpu_memory_to_use is too high)",
         source="pp 1.3-1.6 paddle/fluid/platform/gpu_info.cc GpuMaxChunkSize (PADDLE_ENFORCE_LE(allocating, "
                "available, \"Insufficient GPU memory to allocation.\"))"),
    # The v2 trainer's GPU allocator (0.x) checked each cudaMalloc itself.
    _sig("v2_gpu_alloc_failed", r"Fail to allocate GPU memory (?P<bytes>\d+) bytes", "cause", CauseId.gpu_oom, 90,
         "F1213 13:58:37.907372 120471 Allocator.h:89] Check failed: ptr Fail to allocate GPU memory 37888 bytes",
         title="the GPU had no memory left for {bytes} more bytes (the v2 trainer's allocator)",
         source="pp 0.10-0.15 paddle/math/Allocator.h GpuAllocator::alloc (CHECK(ptr) << \"Fail to allocate GPU "
                "memory \" << size << \" bytes\")"),
    # 1.x optimizers create each accumulator (Velocity, Moment1/2) with the parameter's declared shape; the
    # parameter's tensor is what was loaded into it. 1.x loaders before 1.6 did not compare shapes, so a
    # pretrained parameter of another shape (a 1000-class head into a 14-class model) reaches the optimizer.
    _sig("optimizer_accumulator_shape", r"Param and (?P<acc>Velocity|Moment\d?)(?: input)? of (?P<op>\w+)Op should "
         r"have (?:the )?same dimension|Expected param_dims? == ctx->GetInputDim\(\"(?P<acc2>Velocity|Moment\d)\"\)",
         "cause", CauseId.state_dict_shape_mismatch, 85,
         "Param and Velocity of MomentumOp should have the same dimension. at "
         "[/paddle/paddle/fluid/operators/optimizers/momentum_op.h:65]",
         title="a parameter's loaded tensor has another shape than the model declares (its optimizer state does "
               "not fit it): pretrained weights of another model, e.g. another class count",
         source="pp 1.x paddle/fluid/operators/optimizers/momentum_op.h (PADDLE_ENFORCE_EQ(param_dim, "
                "ctx->GetInputDim(\"Velocity\"), \"Param and Velocity of MomentumOp should have the same "
                "dimension.\")), adam_op.cc (\"Param and Moment1 input of AdamOp should have same dimension\")",
         most="medium"),
    # Paddle 0.11-1.x: PADDLE_ENFORCE(cudaXxx(...), "cudaXxx failed in paddle::platform::Func") threw a
    # thrust::system_error, whose what() is the message, ": ", then cudaGetErrorString's text. The texts
    # that name a cause of their own (no device, out of memory, no kernel image, driver too old) are left
    # to the rows that read them.
    _sig("fluid_cuda_call_failed", r"\b(?P<api>cu\w+) failed in paddle::platform::(?P<func>\w+): "
         r"(?!no CUDA-capable device|invalid device ordinal|out of memory|no kernel image|CUDA driver version)"
         r"(?P<text>[a-z][^\[]*?)(?: at \[|\s*$)", "cause", CauseId.cuda_error_other, 80,
         "EnforceNotMet: cudaMemcpyAsync failed in paddle::platform::GpuMemcpyAsync: an illegal memory access was "
         "encountered at [/paddle/paddle/fluid/platform/gpu_info.cc:97]",
         title="{api} failed in {func}: {text}",
         source="pp 0.11-1.2 paddle/fluid/platform/gpu_info.cc (PADDLE_ENFORCE(cudaGetDeviceCount(&count), "
                "\"cudaGetDeviceCount failed in paddle::platform::GetCUDADeviceCount\"), ... \"cudaMemcpyAsync failed "
                "in paddle::platform::GpuMemcpyAsync\"); platform/enforce.h throw_on_error(cudaError_t, msg) "
                "throws thrust::system_error(e, thrust::cuda_category(), msg): what() is msg + \": \" + "
                "cudaGetErrorString(e) (Paddle#8392, Paddle#8700)"),
    # Paddle 0.x's v1 data providers (PyDataProvider2 and the SequenceHelper it reads samples with) check
    # what the user's provider yields with glog CHECKs: the 0.x form of a DataLoader worker's failure.
    _sig("v1_data_provider_check", r"(?P<file>PyDataProvider2?\.cpp|PythonUtil\.h):\d+\] Check failed: (?P<cond>.*\S)",
         "cause", CauseId.dataloader_worker_crash, 85,
         "F0627 17:52:19.446719 22211 PythonUtil.h:211] Check failed: PySequence_Check(seq_)",
         title="the v1 trainer's Python data provider failed a check ({file}: {cond})",
         source="pp 0.9-0.14 paddle/utils/PythonUtil.h SequenceHelper (CHECK(PySequence_Check(seq_)): a provider "
                "yielded a sample that is not a list or tuple); paddle/gserver/dataproviders/PyDataProvider2.cpp "
                "getNextBatchInternal (CHECK(poolPtr != nullptr)) (Paddle#2622, Paddle#1796)", most="medium"),
    # Paddle 0.x's Parameter::load opens one file per parameter in the model directory; a file it cannot
    # open is fatal under the default --load_missing_parameter_strategy=fail. The path names the file; a
    # directory that holds another network's parameters (other names) reads the same, hence medium.
    _sig("v1_parameter_file_missing", r"missing parameters \[(?P<path>[^\]]+)\] while loading model|"
         r"\] (?P<param>\S+) missing, not allowed\.?\s*$", "cause", CauseId.file_not_found, 85,
         "I0103 10:54:17.418331 19798 Parameter.cpp:339] missing parameters [./output/pass-00366/___conv_0__.w0] "
         "while loading model.",
         title="the parameter file {path}{param} is not in the model directory (a wrong path, or another model)",
         source="pp 0.9-0.14 paddle/parameter/Parameter.cpp Parameter::load (std::ifstream fs(filename); if (!fs) "
                "{ LOG(INFO) << \"missing parameters [\" << filename << \"] while loading model.\"; if "
                "(kMissParameterFail == FLAGS_load_missing_parameter_strategy) LOG(FATAL) << getName() << \" "
                "missing, not allowed.\"; }) (Paddle#1052, Paddle#2698)", most="medium"),
    # Paddle 0.10-0.11's v2 trainer builds the new (Go) pserver client when SGD is given pserver_spec/use_etcd;
    # a build without WITH_GOLANG (the pip wheels) throws UnsupportError, which SWIG raises as a bare RuntimeError.
    _sig("v2_new_remote_updater", r'File "[^"]*swig_paddle\.py", line \d+, in createNewRemoteUpdater', "cause",
         CauseId.config_error, 70,
         'File "/usr/local/lib/python2.7/dist-packages/py_paddle/swig_paddle.py", line 2179, in createNewRemoteUpdater',
         title="the v2 trainer was set up for the new (Go, etcd) pserver, which this build does not support",
         source="pp 0.10-0.11 paddle/api/ParameterUpdater.cpp ParameterUpdater::createNewRemoteUpdater (#ifndef "
                "PADDLE_WITHOUT_GOLANG ... #else throw UnsupportError(\"not compiled with WITH_GOLANG\")); "
                "python/paddle/v2/optimizer.py __create_new_remote_updater__ (called when the trainer has a "
                "pserver_spec or use_etcd; paddle.init(pservers=...) takes the C++ pserver's createRemoteUpdater) "
                "(Paddle#2920)", most="medium"),
    # The v2 API looks each parameter of the network up by name in the loaded parameters (names are generated from
    # the layer order, ___fc_layer_0__.w0): one the file lacks means the network is not the one that saved them.
    _sig("v2_no_such_parameter", r"ValueError: No such parameter (?P<name>\S+)", "cause",
         CauseId.state_dict_shape_mismatch, 75, "ValueError: No such parameter ___fc_layer_0__.w0",
         title="the loaded parameters have no {name}, which the network asks for: they were saved from another "
               "network definition (layer names follow the layer order)",
         source="pp 0.10-0.14 python/paddle/v2/parameters.py Parameters.get_shape (raise ValueError(\"No such "
                "parameter %s\" % key)), called by inference.py Inference.__init__ and Parameters.get", most="medium"),
    # fluid's OpDesc asked for an input the op in the program does not have: the program (a saved inference or hub
    # module's) was written by another Paddle release, whose op had other inputs than this release's grad maker
    # or kernel expects.
    _sig("fluid_op_input_missing", r"Input (?P<input>\w+) cannot be found in Op (?P<op>\w+)", "cause",
         CauseId.paddle_api_mismatch, 65, "EnforceNotMet: Input ShapeTensor cannot be found in Op reshape2 at "
         "[/paddle/paddle/fluid/framework/op_desc.cc:306]",
         title="the program's {op} op has no input {input}, which this Paddle expects of it: the program was saved by "
               "another Paddle release (re-export it with this one, or use the release that saved it)",
         source="pp 1.x paddle/fluid/framework/op_desc.cc OpDesc::Input (PADDLE_ENFORCE(it != inputs_.end(), \"Input %s "
                "cannot be found in Op %s\", name, Type()))", most="medium"),
    # Python 2's ImportError names the whole dotted path asked for, unquoted ("No module named paddle.trainer.X"),
    # not its first missing part (Python 3's 'paddle.trainer'): code for another release, or no Paddle at all for
    # this interpreter (installed for another Python, a script run outside the tools that set its path).
    *PY2_IMPORT_ROWS,
    # The v1/v2 gradient machine (and its C API) takes one argument per data layer of the network config: a config
    # loaded without the data layers the caller feeds (a merged or inference config of another shape).
    _sig("v2_inputs_unlike_data_layers", r"Check failed: inArgs\.size\(\) == dataLayers_\.size\(\) \((?P<got>\d+) vs\. "
         r"(?P<want>\d+)\)", "cause", CauseId.config_error, 80,
         "F0914 15:47:05.081784  3788 NeuralNetwork.cpp:250] Check failed: inArgs.size() == dataLayers_.size() (1 vs. 0)",
         title="the network was given {got} input(s) and its config declares {want} data layer(s): feed one argument "
               "per data layer, in the config the model was trained with", most="medium",
         source="pp 0.9-1.x paddle/legacy/gserver/gradientmachines/NeuralNetwork.cpp forward (CHECK_EQ(inArgs.size(), "
                "dataLayers_.size())), reached by the C API's paddle_gradient_machine_forward"),
    # Paddle 0.x's PyDataProvider2 reports the Python exception of the user's data provider, then aborts.
    _sig("pydataprovider_python_error", r"Python Error: <(?:type|class) '(?:exceptions\.)?(?P<exc>\w+)'> : (?P<msg>.*)",
         "exception", CauseId.python_exception, 50, "Python Error: <type 'exceptions.IndexError'> : too many indices "
         "for array", title="{exc}: {msg}",
         source="pp 0.9-0.14 paddle/utils/PythonUtil.cpp PyErr printing (\"Python Error: \" << type << \" : \" << "
                "value), reached by gserver/dataproviders/PyDataProvider2.cpp loadThread"),
    # libstdc++'s terminate handler prints the uncaught exception's what(); a thrust::system_error thrown
    # for a failed CUDA call (0.x ops, fluid's thrust kernels) carries cudaGetErrorString's text there.
    _sig("thrust_what_cuda_error", rf"^\s*what\(\):\s+(?P<text>{KERNEL_FAULTS})(?:\s+at \[[^\]\n]{{1,400}}\])?\s*$",
         "cause", CauseId.cuda_error_other, 80,
         "  what():  an illegal memory access was encountered",
         title="an uncaught CUDA error aborted the process: {text}",
         source="libstdc++ vterminate.cc __verbose_terminate_handler (\"  what():  %s\" after \"terminate called after "
                "throwing an instance of 'thrust::system::system_error'\"); thrust system_error(e, cuda_category()) "
                "whose what() is cudaGetErrorString(e): cudaErrorIllegalAddress, cudaErrorLaunchFailure, "
                "cudaErrorMisalignedAddress, cudaErrorIllegalInstruction, cudaErrorLaunchOutOfResources (Paddle#6896); pp "
                "0.11-0.14 platform/enforce.h EnforceNotMet (what() is the message and \" at [%s:%d]\", the file and line; "
                "its CUDA checks carry cudaGetErrorString's text)"),
    # The same text as the message of fluid's EnforceNotMet (0.13-1.x: PADDLE_ENFORCE(cudaStreamSynchronize(...)) in a
    # device context's Wait, whose message is cudaGetErrorString's text, then " at [file:line]").
    _sig("enforce_cuda_fault_text", rf"\bEnforceNotMet: (?P<text>{KERNEL_FAULTS}) at \[", "cause",
         CauseId.cuda_error_other, 80, "paddle.fluid.core.EnforceNotMet: an illegal memory access was encountered at "
         "[/paddle/paddle/fluid/platform/device_context.cc:179]",
         title="a CUDA kernel failed on the device: {text}",
         source="pp 0.13-1.x paddle/fluid/platform/device_context.cc CUDADeviceContext::Wait (PADDLE_ENFORCE("
                "cudaStreamSynchronize(stream_))) and platform/enforce.h (an EnforceNotMet whose message is "
                "cudaGetErrorString(e), then \" at [%s:%d]\"): cudaErrorIllegalAddress, cudaErrorLaunchFailure, "
                "cudaErrorMisalignedAddress, cudaErrorIllegalInstruction, cudaErrorLaunchOutOfResources"),
    # The same fault as 1.x's glog FATAL lines after a stream sync (the all-reduce handles, a device context's Wait):
    # "cudaStreamSynchronize <cudaGetErrorString>", some with " errno: N" after it.
    _sig("glog_cuda_sync_fault", rf"\bcuda(?:StreamSynchronize|GetLastError) +(?P<text>{KERNEL_FAULTS})\b", "cause",
         CauseId.cuda_error_other, 80, "F0823 14:54:47.975309 16507 all_reduce_op_handle.cc:192] cudaStreamSynchronize "
         "misaligned address",
         title="a CUDA kernel failed on the device: {text} (reported at the next stream sync)",
         source="pp 1.x paddle/fluid/framework/details/all_reduce_op_handle.cc and operators/collective/c_allreduce_op.h "
                "(LOG(FATAL) << \"cudaStreamSynchronize \" << cudaGetErrorString(e_sync); \"cudaGetLastError  \" << "
                "cudaGetErrorString(e_get) << \" errno:\" << e_get), platform/device_context.cc's Wait (the same text "
                "with \" errno: \")"),
    # protobuf's python package from two versions in one site-packages (a pip install over the distribution's
    # python-protobuf): its own descriptor_pool.py (3.x) reads a name its descriptor.py (2.x) lacks. (Generated
    # code newer than the runtime, _internal_create_key, is read by checks.library_name_missing.)
    _sig("protobuf_files_mixed", r"(?:'module' object|module 'google\.protobuf\.descriptor') has no attribute "
         r"'(?P<attr>_USE_C_DESCRIPTORS)'", "cause", CauseId.dependency_version_mismatch, 88,
         "AttributeError: 'module' object has no attribute '_USE_C_DESCRIPTORS'",
         title="protobuf's installed files are of two versions ({attr} is missing from its descriptor module)",
         source="protobuf 3.0-3.20 python/google/protobuf/descriptor_pool.py (_USE_C_DESCRIPTORS = "
                "descriptor._USE_C_DESCRIPTORS: a descriptor.py of protobuf 2.x beside it lacks the name) (Paddle#2708)"),
    # protoc 3.20 and later generate `from google.protobuf.internal import builder`, a module older runtimes lack.
    _sig("protobuf_builder_missing", r"cannot import name '?builder'? from '?google\.protobuf\.internal'?", "cause",
         CauseId.dependency_version_mismatch, 88,
         "ImportError: cannot import name 'builder' from 'google.protobuf.internal'",
         title="the installed protobuf (older than 3.20) cannot run _pb2.py files generated by protoc 3.20 or later",
         source="protobuf 3.20.0 adds python/google/protobuf/internal/builder.py, which protoc >= 3.20 imports in every "
                "generated _pb2.py (from google.protobuf.internal import builder as _builder); CPython ImportError "
                "(cannot import name %r from %r)"),
    # Paddle 1.x's host allocator: posix_memalign returns the error number, 12 is ENOMEM.
    _sig("fluid_cpu_alloc_enomem", r"posix_memalign\(&p, alignment, size\):\s*12 != 0", "cause",
         CauseId.host_out_of_memory, 95,
         "paddle.fluid.core.EnforceNotMet: Enforce failed. Expected posix_memalign(&p, alignment, size) == 0, but "
         "received posix_memalign(&p, alignment, size):12 != 0:0.",
         title="the host allocator's posix_memalign failed with ENOMEM (12): out of host memory",
         source="pp 1.0-1.8 paddle/fluid/memory/detail/system_allocator.cc AlignedMalloc (PADDLE_ENFORCE_EQ("
                "posix_memalign(&p, alignment, size), 0, \"Alloc %ld error!\", size)); posix_memalign returns the "
                "error number, ENOMEM = 12 on Linux (Paddle#17050)"),
    # The 0.x (v1/v2) trainers' host allocator: glog's CHECK_EQ on posix_memalign's return, 12 is ENOMEM.
    _sig("v1_cpu_alloc_enomem", r"Check failed: posix_memalign\(&ptr, \d+ul, size\) == 0 \(12 vs\. 0\)", "cause",
         CauseId.host_out_of_memory, 95,
         "F0314 12:03:39.361496 32630 Allocator.h:56] Check failed: posix_memalign(&ptr, 32ul, size) == 0 (12 vs. 0) ",
         title="the v1/v2 host allocator's posix_memalign failed with ENOMEM (12): out of host memory",
         source="pp 0.9-0.14 paddle/math/Allocator.h CpuAllocator::alloc (CHECK_EQ(posix_memalign(&ptr, 32ul, "
                "size), 0), 4096ul with MKL-DNN; glog prints \"Check failed: A == B (a vs. b)\"); ENOMEM = 12 on "
                "Linux"),
    # modprobe (kmod) when the NVIDIA kernel module is not installed for the running kernel: the CUDA
    # runtime then finds no device, whatever CUDA_VISIBLE_DEVICES says.
    _sig("nvidia_module_missing", r"(?:modprobe: )?FATAL: Module nvidia\S* not found\b", "context",
         CauseId.device_not_found, 96,
         "modprobe: FATAL: Module nvidia not found in directory /lib/modules/4.13.0-31-generic",
         title="the NVIDIA kernel module is not installed for this kernel: no GPU is usable here",
         source="kmod tools/modprobe.c (ERR(\"Module %s not found in directory %s\\n\"), printed as \"modprobe: "
                "FATAL: ...\"); module-init-tools (FATAL: Module %s not found.); the CUDA runtime then reports "
                "cudaErrorNoDevice (no CUDA-capable device is detected) (Paddle#7804)"),
    *SHELL_ROWS,
    # 2.x runs dynamic graphs by default; the static-graph APIs of 1.x code (paddle.static.data, fluid.data,
    # Program-building layers) assert the mode. Code written for 1.x, or 2.x static code without
    # paddle.enable_static() (a port half done): at most medium.
    _sig("static_api_in_dygraph", r"we turn on dynamic graph mode by default, and '(?P<api>[\w.]+)\(\)' is only supported in "
         r"static graph mode|is only supported in static graph mode\. So if you want to use this api", "cause",
         CauseId.paddle_api_mismatch, 80,
         "AssertionError: In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and 'data()' is only supported "
         "in static graph mode. So if you want to use this api, please call 'paddle.enable_static()' before this api "
         "to enter static graph mode.",
         title="{api} is a static-graph API, and Paddle 2.x runs in dynamic-graph mode: code written for 1.x",
         source="pp 2.0.2-3.3.1 fluid/framework.py (base/framework.py from 2.6) _static_only_ (assert not "
                "in_dygraph_mode(), \"In PaddlePaddle 2.x, we turn on dynamic graph mode by default, and '%s()' is only "
                "supported in static graph mode. So if you want to use this api, please call 'paddle.enable_static()' "
                "before this api to enter static graph mode.\")", most="medium"),
    # 1.6-2.x's fluid optimizers need the parameters in dynamic-graph mode: static-graph code (1.x's default) run
    # under 2.x, where dynamic graphs are the default, builds one without them. A 1.x dygraph script that forgot
    # parameter_list reads the same: at most medium.
    _sig("fluid_optimizer_without_parameters", r"parameter_list argument given to the Optimizer should not be None in "
         r"dygraph mode", "cause", CauseId.paddle_api_mismatch, 70,
         "AttributeError: parameter_list argument given to the Optimizer should not be None in dygraph mode.",
         title="a fluid optimizer was built without parameter_list in dynamic-graph mode: static-graph (1.x) code run "
               "under 2.x's default mode (call paddle.enable_static(), or pass parameter_list)",
         source="pp 1.6-2.x python/paddle/fluid/optimizer.py Optimizer.__init__ (if framework.in_dygraph_mode(): if "
                "parameter_list is None: raise AttributeError(\"parameter_list argument given to the Optimizer should "
                "not be None in dygraph mode.\"))", most="medium"),
    # Paddle's tensor classes changed with each era and mode (1.x's Variable and Parameter, 2.0-2.3's VarBase and
    # ParamBase, 2.4's eager Tensor, 2.6/3.x's pir Value; the Program that holds them): an attribute one lacks is code,
    # the user's or a suite's (an installed PaddleHub reading 1.7's Parameter.gradient_clip_attr), written for another
    # of them (.numpy() of a static Variable, .trainable of a plain Tensor given to a 2.0 optimizer), or a typo.
    # Any other class of Paddle's named by its module (the core bindings' AnalysisConfig, a Layer): a method the
    # code calls that this release, or this build (no MKLDNN on macOS, no XPU), does not have. So are the distributed
    # entry points whose API moved between releases (fleet's Fleet and DistributedStrategy, auto-parallel's ProcessMesh;
    # not ParallelEnv, whose missing _device_id is a CPU build's, batch54, nor a CompiledProgram passed where a Program
    # is wanted). A paste cut after "object has" keeps the class.
    _sig("tensor_attribute_missing", r"'(?P<cls>Tensor|Variable|VarBase|EagerTensor|EagerParamBase|ParamBase|Parameter|Program|"
         r"Fleet|DistributedStrategy|ProcessMesh|"
         r"paddle(?:lite)?(?:\.\w+)+)' "
         r"object has no attribute '(?P<name>\w+)'|AttributeError: '(?P<cut>paddle(?:\.\w+)+)' object has\s*$", "cause",
         CauseId.paddle_api_mismatch, 65, "AttributeError: 'Tensor' object has no attribute 'trainable'",
         title="a Paddle {cls}{cut} lacks an attribute the code uses ({name}) in this Paddle version, build or mode: "
               "code written for another version (or static vs dynamic graph), or a misspelt name",
         source="pp 1.8.5-3.3.1 the tensor classes: fluid/framework.py Variable, core.VarBase (2.0-2.3, "
                "varbase_patch_methods.py), Parameter and Program (fluid/framework.py), ParamBase (2.0-2.3), "
                "core.eager.Tensor (2.4+, tensor_patch_methods.py), pir Value (2.6+); the core "
                "bindings' classes (core_avx/libpaddle AnalysisConfig); CPython's AttributeError ('%.50s' object has no "
                "attribute '%U')); Paddle-Lite's Python bindings (paddlelite.lite.Tensor, ...); pp 1.x-2.x fleet's Fleet "
                "(incubate/fleet/base/fleet_base.py, distributed/fleet/base/fleet_base.py) and DistributedStrategy; 2.4+ "
                "auto-parallel's ProcessMesh (distributed/auto_parallel/process_mesh.py), whose methods grew each release",
         most="medium"),
    # 1.x's CUDADeviceContext makes its cuDNN/cuBLAS handles and workspace after the allocator has taken its
    # fraction of the GPU (FLAGS_fraction_of_gpu_memory_to_use): out of memory there is the job's own need.
    _sig("fluid_device_context_oom", r"\bout of memory at \[[^\]]*platform/device_context\.cc", "cause",
         CauseId.gpu_oom, 80, "paddle.fluid.core_avx.EnforceNotMet: out of memory at [/paddle/paddle/fluid/platform/"
         "device_context.cc:243]",
         title="the GPU ran out of memory while Paddle set up its CUDA context (cuDNN/cuBLAS handles, workspace) "
               "after its allocator took its share: lower FLAGS_fraction_of_gpu_memory_to_use or the batch, or free "
               "the GPU",
         source="pp 1.4-1.8 platform/device_context.cc CUDADeviceContext (PADDLE_ENFORCE(cudaMalloc/cudnnCreate/"
                "cublasCreate ...)), enforce.h's message for cudaErrorMemoryAllocation (out of memory)", most="medium"),
    # 2.6/3.x's new IR (PIR): its ops take pir Values; a legacy static Variable reaching one is static code of the
    # old IR (fluid/static programs, a suite's static export) run where PIR is on (3.x's default).
    _sig("pir_value_given_variable", r"argument \(position \d+\) must be (?:Value|pir\.Value), but got Variable",
         "cause", CauseId.paddle_api_mismatch, 75,
         "TypeError: (InvalidType) multiply(): argument (position 1) must be Value, but got Variable (at "
         "/paddle/paddle/fluid/pybind/eager_utils.cc:2262)",
         title="a legacy static-graph Variable reached an op of Paddle's new IR (PIR): static code of the old IR run "
               "where PIR is on (Paddle 3.x's default); use the suite release made for this Paddle, or "
               "FLAGS_enable_pir_api=0",
         source="pp 2.6-3.3.1 paddle/fluid/pybind/eager_utils.cc CastPyArg2Value (PADDLE_THROW(InvalidType(\"%s(): "
                "argument (position %d) must be Value, but got %s\")))", most="medium"),
    # 1.x's kernel choice: an op with no kernel for a float type on a device place is an op this release has not
    # brought to that device (data_norm's CUDA kernel came in 1.7), or a build for another device. Another
    # data type (int64, bool) is more often the caller's tensor: not read here.
    _sig("fluid_op_without_device_kernel", r"op (?P<op>\w+) does not have kernel for data_type\[(?:float|float32|"
         r"float16)\]:data_layout\[\w+\]:place\[(?P<place>CUDA|XPU|NPU|MLU|Custom)Place", "cause",
         CauseId.paddle_api_mismatch, 65,
         "PaddleCheckError: op data_norm does not have kernel for data_type[float]:data_layout[ANY_LAYOUT]:"
         "place[CUDAPlace(0)]:library_type[PLAIN] at [/paddle/paddle/fluid/framework/operator.cc:1010]",
         title="this Paddle has no {place} kernel for the operator {op}: a release that has not brought it to this "
               "device (a later one has, or run it on the CPU), or a build for another device",
         source="pp 1.x framework/operator.cc OperatorWithKernel::ChooseKernel (PADDLE_THROW(\"op %s does not have "
                "kernel for %s\", type_, KernelTypeToString(expected_kernel_key)))", most="medium"),
    # PaddleDetection's 1.x data sources (models/PaddleCV, ppdet 0.1-0.2) assert their annotation and image files.
    _sig("ppdet_source_file_invalid", r"invalid file\[(?P<path>(?!%s\])[^\]]+)\] for \w+", "cause", CauseId.file_not_found, 85,
         "AssertionError: invalid file[/root/.cache/paddle/dataset/coco/annotations/instances_train.json] for RoiDbSource",
         title="PaddleDetection's data source found no file at {path}: the annotation file is not where the config's "
               "dataset_dir/anno_path point",
         source="PaddleDetection 0.1-0.2 ppdet/data/source/roidb_source.py RoiDbSource.__init__ (assert "
                "os.path.isfile(anno_file), 'invalid file[%s] for RoiDbSource' % (anno_file))"),
    # Paddle 2.5 made reductions and indexing return 0-D tensors (shape []) where they gave shape [1]: a model
    # exported, or code written, before it meets the other kind in one op's shape check.
    _sig("zero_d_meets_one_d", r"input\[0\]'s shape = \[\], input\[\d+\]'s shape = \[1\]|input\[0\]'s shape = \[1\], "
         r"input\[\d+\]'s shape = \[\]", "cause", CauseId.paddle_api_mismatch, 75,
         "InvalidArgumentError: The shape of input[0] and input[1] is expected to be equal.But received input[0]'s shape "
         "= [], input[1]'s shape = [1].",
         title="a 0-D tensor (shape []) meets a shape-[1] one: a model exported, or code written, for a Paddle before "
               "2.5's 0-D tensors, run on one with them (or the reverse)",
         source="pp 2.5-3.3.1 phi/kernels/funcs/concat_funcs.h ComputeAndCheckShape (\"The shape of input[0] and "
                "input[%d] is expected to be equal.But received input[0]'s shape = [%s], input[%d]'s shape = [%s].\"); "
                "Paddle 2.5.0 release notes (0-D tensors)", most="medium"),
    # warp-ctc's own status (ctcGetStatusString): "execution failed" is its GPU kernel failing (the CTC loss on
    # a GPU the library was not built for, or a launch that failed).
    _sig("warpctc_execution_failed", r"warp-ctc \[version \d+\] Error in (?P<fn>\w+): execution failed", "cause",
         CauseId.cuda_error_other, 75,
         "RuntimeError: (PreconditionNotMet) warp-ctc [version 2] Error in get_workspace_size: execution failed",
         title="warp-ctc's GPU computation failed in {fn} (CTC_STATUS_EXECUTION_FAILED): its kernel could not run here",
         source="pp 2.1-2.6 phi/kernels/impl/warpctc_kernel_impl.h (PADDLE_ENFORCE_EQ(CTC_STATUS_SUCCESS, status, "
                "errors::PreconditionNotMet(\"warp-ctc [version %d] Error in get_workspace_size: %s\", ...)); warp-ctc "
                "src/ctc_entrypoint.cpp ctcGetStatusString (CTC_STATUS_EXECUTION_FAILED: \"execution failed\")",
         most="medium"),
    # PARL counts GPUs itself: from CUDA_VISIBLE_DEVICES when it is set (an id that is not an integer fails),
    # else from `nvidia-smi -L` (not on PATH, or no driver, fails); either way it falls back to the CPU.
    # medium: a machine with no GPU at all prints the same line.
    _sig("parl_gpu_count_failed", r"machine_info\.py:\d+\] Cannot find available GPU devices, using CPU",
         "cause", CauseId.cuda_visible_devices_misconfig, 70,
         "[05-26 17:14:35 MainThread @machine_info.py:90] Cannot find available GPU devices, using CPU or other "
         "devices now.",
         title="PARL found no GPU from CUDA_VISIBLE_DEVICES or nvidia-smi and runs on the CPU",
         source="PARL 1.x-2.x parl/utils/machine_info.py get_gpu_count (env_cuda_devices = os.environ.get("
                "'CUDA_VISIBLE_DEVICES'): [x for x in env_cuda_devices.split(',') if int(x) >= 0], else "
                "subprocess.check_output([\"nvidia-smi\", \"-L\"]).count('UUID'); except: logger.warn('Cannot find "
                "available GPU devices, using CPU now.')) (Paddle#33136)", most="medium"),
    # declarative, the 2.0-2.3 name of paddle.jit.to_static (its old form): a keyword it does not take is code
    # written for a later Paddle (property= came with 2.4), pasted with or without its TypeError.
    _sig("to_static_keyword_unknown", r"\b(?P<fn>declarative|to_static)\(\) got an unexpected keyword argument "
         r"'(?P<kw>\w+)'", "cause", CauseId.paddle_api_mismatch, 80,
         "TypeError: declarative() got an unexpected keyword argument 'property'",
         title="paddle.jit.{fn} does not take {kw}=: the code was written for another Paddle version",
         source="pp 2.0-2.3 python/paddle/fluid/dygraph/jit.py declarative(function=None, input_spec=None[, "
                "build_strategy=None]), exported as paddle.jit.to_static; pp 2.4 to_static(..., property=False) "
                "(PaddleSpeech#2512: develop needs paddle >= 2.4rc for property)", most="medium"),
    # 2.0-2.4's ParallelEnv sets its device id only in a build for a device (CUDA, XPU, NPU, MLU, a custom one):
    # reading it in a CPU-only build (the CPU wheel imported where the GPU one was meant) fails on the attribute.
    _sig("parallel_env_no_device_id", r"'ParallelEnv' object has no attribute '_device_id'", "cause",
         CauseId.device_not_found, 80, "AttributeError: 'ParallelEnv' object has no attribute '_device_id'",
         title="the Paddle imported is a CPU-only build: it has no device id to give",
         source="pp 2.0.2-2.4.2 python/paddle/fluid/dygraph/parallel.py ParallelEnv.__init__ (self._device_id set "
                "only if core.is_compiled_with_cuda() / _xpu() / _npu() / _mlu() or a custom device), device_id "
                "(return self._device_id)", most="medium"),
    # PaddleHub's modules (and copies of them) read CUDA_VISIBLE_DEVICES before predicting on a GPU.
    _sig("hub_gpu_env_unset", r"Attempt to use GPU for prediction, but environment variable CUDA_VISIBLE_DEVICES "
         r"was not set correctly", "cause", CauseId.cuda_visible_devices_misconfig, 95,
         "RuntimeError: Attempt to use GPU for prediction, but environment variable CUDA_VISIBLE_DEVICES was not "
         "set correctly.",
         title="use_gpu=True, but CUDA_VISIBLE_DEVICES is unset or does not start with a GPU id",
         source="PaddleHub 1.x-2.x modules/*/module.py (if use_gpu: try: int(os.environ[\"CUDA_VISIBLE_DEVICES\"][0]) "
                "except: raise RuntimeError(\"Attempt to use GPU for prediction, but environment variable "
                "CUDA_VISIBLE_DEVICES was not set correctly.\")); Paddle docs FAQ (AI Studio: %set_env "
                "CUDA_VISIBLE_DEVICES=0) (PaddleHub#548)"),
    # fleet.launch (the older launcher, 2.0-3.3.1) checks what it was given before it starts any trainer.
    _sig("fleet_launch_no_accelerator", r"this pod .{0,200}?can't see any accelerators", "cause",
         CauseId.config_error, 85, "AssertionError: this pod rank:0 id:abc endpoint:127.0.0.1:6170 can't see any "
         "accelerators",
         title="the launcher was given no GPU (or XPU) it can see on this node to start its trainers on",
         source="pp 2.0-3.3.1 paddle/distributed/fleet/launch_utils.py Cluster/Pod get_visible_accelerators "
                "(assert r != \"\", f\"this pod {self} can't see any accelerators\")"),
    _sig("fleet_launch_counts_misfit", r"trainer_endpoints size should be greater equal than accelerators size|"
         r"(?P<dev>gpus|xpus)' number:\d+ mod args\.nproc_per_node:\d+ must == 0", "cause", CauseId.config_error, 85,
         "AssertionError: gpus' number:3 mod args.nproc_per_node:2 must == 0",
         title="the launcher's arguments do not fit the devices: the endpoints, or nproc_per_node, against the GPUs",
         source="pp 2.0-3.3.1 paddle/distributed/fleet/launch_utils.py get_mapped_cluster (assert len(...) >= ..., "
                "\"current trainer_endpoints size should be greater equal than accelerators size.\") and "
                "get_device_proc_info (f\"gpus' number:{len(gpus)} mod args.nproc_per_node:{args.nproc_per_node} "
                "must == 0\")"),
    # The 2.x-3.x launcher refuses a multi-node --ips list holding the loopback address (no other node reaches it).
    _sig("launch_ips_loopback", r"127\.0\.0\.1 in ips is not allowed in multi-nodes", "cause", CauseId.config_error,
         90, "ValueError: 127.0.0.1 in ips is not allowed in multi-nodes.",
         title="--ips lists 127.0.0.1 for a job on several nodes: the other nodes cannot reach that address",
         source="pp 3.3.1 paddle/distributed/launch/plugins/__init__.py process_args (if '127.0.0.1' in ips and "
                "len(ips) != 1: raise ValueError(\"127.0.0.1 in ips is not allowed in multi-nodes.\"))"),
    # paddle-mobile (2018, Paddle-Lite's predecessor) reports its enforce failures as a block whose [detail] line is the
    # message: its model loader could not open the file it names.
    _sig("paddle_mobile_open_failed", r"\[detail\]\s*:\s*(?P<path>\S+) open failed", "cause", CauseId.file_not_found, 85,
         "    | [detail]  :  /storage/emulated/0/models/GoogleNet/__model__ open failed !",
         title="paddle-mobile could not open {path}: the model file is not where the loader looks",
         source="paddle-mobile (Paddle-Lite's history) 2018 src/io/loader.cpp:26, 2019 src/framework/loader.cpp "
                "(PADDLE_MOBILE_ENFORCE(fp != NULL, \" %s open failed !\", file_name)); src/common/enforce.h "
                "PaddleMobileException (\"%s| %s \\n| [in file] : %s\\n| [on line] : %d\\n| [detail]  : %s\\n\")"),
)
