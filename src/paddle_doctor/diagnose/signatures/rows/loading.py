"""Signatures: Paddle's own checks while it loads saved parameters into a program or a layer, the
predictors' checks while they open a saved model's files, and Paddle's core library that cannot be
loaded at import (code built or written for another Python interpreter: :mod:`..tools.interpreter`).

These messages are raised only by the functions that copy a saved tensor into a parameter, or that
open a model file for a predictor, so the line names its cause whatever frames (or none) were
pasted with it.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from ..advice import LIBRARY_CONFIRM, LIBRARY_FIX
from .windows import CUDA_LIBRARIES

LOADING = (
    # Static-graph loaders compare each saved tensor's shape with the program's variable before copying it
    # (fluid.io.load_vars / load_params / load_persistables, static.set_program_state, fleet's load helpers);
    # the dygraph setter does the same per tensor (set_dict / set_state_dict -> Tensor.set_value). The
    # checkpoint was saved by another model (other layer sizes, another vocabulary or class count).
    _sig("load_shape_check", r"Shape not matching: the Program requires a parameter|(?:Variable|Parameter)'s shape "
         r"does not match, the Program requires a parameter|Shape mismatch, program needs a parameter with shape|"
         r"Variable Shape not match, Variable \[ ?(?P<key>[^\]\s]+) ?\] need tensor with shape", "cause",
         CauseId.state_dict_shape_mismatch, 90,
         "RuntimeError: Shape not matching: the Program requires a parameter with a shape of ((4096, 1133)), while "
         "the loaded parameter (namely [ layer_5_fc_weight ]) has a shape of  ((4096, 5304)).",
         title="a saved parameter's shape differs from the model's: the checkpoint was made for another model",
         source="pp 1.6-3.3.1 fluid/io.py load_vars, incubate/distributed/fleet/utils.py (Shape not matching: the "
                "Program requires a parameter with a shape of (%s), while the loaded parameter (namely [ %s ]) has a "
                "shape of  (%s).); pp 1.8-3.3.1 static/io.py load_vars, set_program_state (Variable's / Parameter's "
                "shape does not match, the Program requires a parameter with the shape of ...; Shape mismatch, "
                "program needs a parameter with shape (%s), but the loaded parameter ('%s') has a shape of (%s).); "
                "pp 2.0-3.3.1 dygraph tensor_patch_methods.py set_value (Variable Shape not match, Variable [ %s ] "
                "need tensor with shape %s but load set tensor with shape %s)"),
    # Paddle-Lite's loader of a separate-parameter model opens each parameter file named after a program
    # variable with a bare std::ifstream and no open check, then reads the tensor's version from it: a file
    # that is not in --model_dir (a combined model given as a directory, a wrong path) fails the version
    # check with whatever the unread variable held. A file that is there but not a saved tensor fails the
    # same way (refine/near.py gives checkpoint_corrupt as the near cause). The corpus's such logs are a combined model
    # given with --model_dir twice, a wrong path once: the command's options first.
    _sig("lite_param_unopened", r"model_parser\.cc:\d+\] Check failed: version == 0U \((?P<read>\d+) vs\. 0\) Only "
         r"version 0 is supported", "cause", CauseId.config_error, 70,
         "F0911 15:20:10.428884 22732 model_parser.cc:63] Check failed: version == 0U (32767 vs. 0) Only version 0 "
         "is supported",
         title="Paddle-Lite read a parameter file that is not one saved tensor: a combined model (one program file, one "
               "params file) given with --model_dir instead of --model_file and --param_file, or a model_dir that does "
               "not hold the model's files", most="medium",
         source="Paddle-Lite 2.x lite/model_parser/model_parser.cc LoadModel (std::ifstream file(model_dir + \"/\" + "
                "var.name()); LoadLoDTensor(file, ...), no is_open check) and TensorFromStream / LoadLoDTensor "
                "(CHECK_EQ(version, 0U) << \"Only version 0 is supported\"), a glog-style CHECK failure"),
    # Paddle's tensor reader takes the first four bytes of a saved tensor as its format version (0, the only
    # one ever written). A value of three or more digits is not a version at all: the bytes are another kind
    # of file (a program file, a separate-parameter file, a page saved in its place) handed over as the
    # parameters, i.e. model_filename/params_filename (or the converter's flags) name the wrong file. A damaged
    # or cut parameter file fails at the end of the stream instead (EOF, partial data), so it stays the near
    # cause only. One line, so medium.
    _sig("tensor_stream_not_a_tensor", r"tensor version (?P<read>\d{3,}) is not supported, Only version 0 is "
         r"supported", "cause", CauseId.config_error, 85,
         "InvalidArgumentError: tensor version 1818584946 is not supported, Only version 0 is supported",
         title="the file read as saved parameters is not a saved tensor (its version field reads {read}): the "
               "model/params file names point at another file",
         source="pp 1.6-3.3.1 paddle/fluid/framework/tensor_util.cc TensorFromStream (is.read(&version, "
                "sizeof(version)); PADDLE_ENFORCE_EQ(version, 0U, errors::InvalidArgument(\"tensor version %u is not "
                "supported, Only version 0 is supported\", version))), reached by load_combine_op.h / load_op.h",
         most="medium"),
    # X2Paddle's PyTorch converter checks every op of the traced graph against its own mappers before converting
    # and stops on the first model with ops it cannot map. Its mappers follow the PyTorch release it was written
    # for (a newer torch traces other aten ops) and some need an optional package (paddlenlp for aten::einsum):
    # the library versions around the converter, not the user's model, decide it. One line, so medium.
    # Paddle-Lite's runtime builds each op's kernel from the kernel type opt wrote into the optimised model
    # (op/alias/place): it asks its own registry for the op's kernels at that place, then for the one with that
    # alias. No kernel at all at that place: the model was optimised for a target this library does not run
    # (opt --valid_targets). Kernels there, but none with the alias: the alias set of the converting opt and of
    # this library differ, i.e. the model was converted by another Paddle-Lite build (the loader warns that opt's
    # version is not the library's). One line each, so at most medium.
    _sig("lite_kernel_alias_missing", r"program\.cc(?::\d+| \w+:\d+)\]\s*Check failed: it != kernels\.end\(\)",
         "cause", CauseId.paddle_api_mismatch, 75,
         "F0305 17:39:47.359110 13085 program.cc:214] Check failed: it != kernels.end(): ",
         title="the model names a kernel variant this Paddle-Lite library does not have: it was converted by another "
               "opt build than the library's",
         source="Paddle-Lite 2.7-2.10 lite/core/program.cc RuntimeProgram::RuntimeProgram (ParseKernelType(kernel_type, "
                "&op_type, &alias, &place); kernels = op->CreateKernels({place}); CHECK_GT(kernels.size(), 0); it = "
                "find_if(... it->alias() == alias); CHECK(it != kernels.end())); model_parser.cc LoadModelNaiveFrom"
                "File/Memory (warning: the version of opt that transformed this model is not consistent with current "
                "Paddle-Lite version.); a glog CHECK in full builds, lite/utils/logging.h's own ([F m/d time file "
                "func:line]) in light ones", most="medium"),
    _sig("lite_kernel_for_target_missing", r"This model is not supported, because kernel for '(?P<op>[^']+)' is not "
         r"supported by Paddle-Lite", "cause", CauseId.config_error, 75,
         "Error: This model is not supported, because kernel for 'conv2d' is not supported by Paddle-Lite.",
         title="this Paddle-Lite library has no '{op}' kernel for the target the model was optimised for (opt "
               "--valid_targets)",
         source="Paddle-Lite 2.10 lite/core/program.cc RuntimeProgram::RuntimeProgram (kernels = op->CreateKernels("
                "{place}) for the place of the model's kernel type, ARM falling back to Host; CHECK_GT(kernels.size(), "
                "0) << \"\\nError: This model is not supported, because kernel for '\" + op_type + \"' is not "
                "supported by Paddle-Lite.\"), a glog CHECK_GT", most="medium"),
    # Paddle-Lite reads each op's attributes from the model by name: an attribute the op of this Lite release reads
    # but the model's op lacks means the model was saved by a Paddle whose op definition differs (a newer or older
    # Paddle than this opt/library was made for).
    _sig("lite_op_attr_missing", r"Check failed: it != attrs\(\)\.end\(\):? No attributes called (?P<attr>\w+) found "
         r"for (?P<op>\w+)", "cause", CauseId.paddle_api_mismatch, 75,
         "[F  4/25 10:10:41.343 ...e-Lite/lite/core/model/general/op_desc.h:118 GetAttr] Check failed: it != "
         "attrs().end(): No attributes called fix_seed found for dropout",
         title="the model's {op} op has no '{attr}' attribute this Paddle-Lite reads: the model was saved by another "
               "Paddle release than this Paddle-Lite supports",
         source="Paddle-Lite 2.x lite/core/model/general/op_desc.h GetAttr (auto it = attrs().find(name); CHECK(it != "
                "attrs().end()) << \"No attributes called \" << name << \" found for \" << Type())", most="medium"),
    # The runtime checks each op's input shapes before it runs the kernel: a failure is the app feeding inputs the
    # model does not take (another shape, another count of inputs than the replaced model has).
    _sig("lite_check_shape_failed", r"program\.cc(?::\d+| \w+:\d+)\]\s*Check failed: op_->CheckShape\(\)", "cause",
         CauseId.config_error, 80,
         "[F  8/30 11:56:12. 70 /island/Paddle-Lite/lite/core/program.cc Run:619] Check failed: op_->CheckShape(): ",
         title="an op's input shapes failed Paddle-Lite's check: the inputs set by the app do not fit the model",
         source="Paddle-Lite 2.x lite/core/program.cc Instruction::Run (CHECK(op_->CheckShape()); each op's "
                "CheckShape() checks its inputs' dims)", most="medium"),
    # Triton (FastDeploy's and Paddle Serving's serving images) validates each model's config.pbtxt when it polls the
    # model repository: a CPU instance group that also lists GPUs is rejected and the model is not loaded.
    _sig("triton_cpu_group_gpus", r"instance group (?P<group>\S+) of model (?P<model>\S+) has kind KIND_CPU but "
         r"specifies one or more GPUs", "cause", CauseId.config_error, 90,
         "E0517 08:58:57.562967 604 model_repository_manager.cc:1890] Poll failed for model directory 'runtime': "
         "instance group runtime_0 of model runtime has kind KIND_CPU but specifies one or more GPUs",
         title="model {model}'s config.pbtxt gives instance group {group} the kind KIND_CPU and a list of GPUs",
         source="Triton Inference Server core src/model_config_utils.cc ValidateInstanceGroup (\"instance group \" + "
                "group.name() + \" of model \" + config.name() + \" has kind KIND_CPU but specifies one or more GPUs\")"),
    # Paddle's generated _C_ops functions check each positional argument's type against the op's signature of this
    # release: only code that calls the internal ops directly (a Paddle library of another release) gets it wrong.
    _sig("c_ops_argument_type", r"\b(?P<op>\w+)\(\): argument (?:'\w+' )?\(position (?P<pos>\d+)\) must be "
         r"(?P<want>[\w\[\], ]+?), but got (?P<got>\S+?)(?: \(at \S*op_function_common\.cc:\d+\))?$", "cause",
         CauseId.paddle_api_mismatch, 70,
         "ValueError: (InvalidArgument) scatter(): argument (position 4) must be bool, but got str (at ..\\paddle\\"
         "fluid\\pybind\\op_function_common.cc:124)",
         title="{op}() was called with another argument list than this Paddle's op takes: code written for another "
               "Paddle release calls Paddle's internal ops",
         source="pp 2.2-2.6 fluid/pybind/op_function_common.cc CastPyArg2Boolean / CastPyArg2Int / ... (PADDLE_THROW("
                "InvalidArgument(\"%s(): argument (position %d) must be bool, but got %s\", op_type, arg_pos + 1, "
                "...)))", most="medium"),
    # Python's importer found the extension module's file (its full path is in the message), yet the dynamic loader
    # answers "No such file": glibc reports an ELF file built for another machine (x86-64 on an ARM board) as not
    # found, to go on searching. The package installed is a build for another platform.
    _sig("extension_for_other_machine", r"ImportError: (?P<path>/\S*/(?:site|dist)-packages/\S+\.so): cannot open shared "
         r"object file: No such file or directory", "cause", CauseId.dependency_version_mismatch, 80,
         "ImportError: /home/u/.local/lib/python3.6/site-packages/paddlelite/lite.so: cannot open shared object file: No "
         "such file or directory",
         title="the installed extension {path} cannot be loaded though it is there: a build for another machine "
               "(architecture) than this one",
         source="glibc elf/dl-load.c open_verify (if (! elf_machine_matches_host (ehdr)) goto close_and_out; ... "
                "__set_errno (ENOENT)): an ELF for another machine is skipped as not found; CPython's importer "
                "(importlib FileFinder) only asks for a file it found", most="medium"),
    # A library built here (not an installed package) lacks a function of the global namespace (an unscoped mangled name,
    # _Z<length><name>: libraries keep theirs in namespaces, _ZN...): its own function, declared and called but not
    # compiled into it (a custom op's .cu left out of the build, a definition whose signature differs).
    _sig("cxx_own_symbol_undefined", r"ImportError: (?P<lib>(?![^:]*[/\\](?:site|dist)-packages[/\\])[^:\n]{1,300}\.(?:so|pyd))"
         r": undefined symbol: (?P<sym>_Z\d+(?!THP[A-Z]|_?Py[A-Z_])[A-Za-z_]\w*)", "cause", CauseId.python_exception, 62,
         "ImportError: /home/aistudio/PPlanedet/pplanedet/ops/nms_impl.so: undefined symbol: _Z16nms_cuda_forwardRKN6paddle"
         "12experimental6TensorES3_fl",
         title="{lib}, built here, lacks its own function {sym}: it is declared and called but no compiled source "
               "defines it (a .cu file left out of the build, or a definition with another signature)", most="medium",
         source="glibc elf/dl-lookup.c (\"undefined symbol: %s\"); Itanium C++ ABI mangling (<unscoped-name> "
                "_Z<length><identifier> for a global-namespace function, <nested-name> _ZN...E for a namespace's); pp "
                "2.x paddle.utils.cpp_extension (a custom op's sources listed in setup(ext_modules=...))"),
    # The dynamic loader resolves a native library's C++ symbols against the libraries it loaded: one missing means
    # the library was built against another version of them (an SDK updated on the build machine, not on the
    # device). A device plugin's failed load (Fail to open library) is read by its own row.
    _sig("cxx_symbol_undefined", r"^(?!.*Fail to open library).*\bundefined symbol: (?P<sym>_Z\w+)|symbol lookup error\b[^\n]{0,400}\bundefined "
         r"symbol (?P<sym2>_Z\w+)", "cause", CauseId.dependency_version_mismatch, 60,
         "./infer_demo: symbol lookup error: ./infer_demo: undefined symbol: _ZN10fastdeploy7RuntimeC1Ev",
         title="a native library needs the C++ symbol {sym}{sym2}, which the library loaded for it lacks: it was built "
               "against another version of that library",
         source="glibc elf/dl-lookup.c _dl_lookup_symbol_x (_dl_signal_cexception (0, &exception, N_(\"symbol lookup "
                "error\")) with \"undefined symbol: %s%s%s\"), a mangled C++ name (_Z...), or retyped without its colon", most="medium"),
    # The same loader error cut before its symbol (a paste, a wrapped line): a native program needs a symbol the
    # libraries it loaded lack (glibc's private _dl_sym of an older glibc, a library of another release). A CUDA,
    # NCCL or TensorRT library's is left to the rows and warnings that read their versions.
    _sig("native_symbol_lookup_error", rf"^(?P<prog>\S{{1,300}}): symbol lookup error: (?!.*lib(?:{CUDA_LIBRARIES}|cuda|nccl|nvinfer)[\w.]*\.so|.*undefined symbol: (?:shm_|timer_create|mq_open))", "cause",
         CauseId.dependency_version_mismatch, 55,
         "/site-packages/paddle_serving_server/serving-cpu-avx-mkl-0.9.0/serving: symbol lookup error: /site-packages/"
         "paddle_serving_server/serving-cpu-avx-mkl-0.9.0/serving: undefined symbol: _dl_sym, version GLIBC_PRIVATE",
         title="{prog} needs a symbol that the libraries loaded for it lack: it was built against other versions of "
               "them (the system's glibc, a library of another release)", most="medium",
         source="glibc elf/dl-lookup.c _dl_lookup_symbol_x (_dl_signal_cexception (0, &exception, N_(\"symbol lookup "
                "error\")) with \"undefined symbol: %s%s%s\"; the program's name first, as dl-error-skeleton.c prints)"),
    # nvcc knows only the architectures of its own CUDA release: a custom op (cpp_extension, a suite's ops) built for
    # a newer GPU (compute_89 needs CUDA 11.8, compute_90 12.0) than the installed toolkit.
    _sig("nvcc_arch_unknown", r"nvcc fatal\s*:\s*Unsupported gpu architecture '(?P<arch>compute_\d+\w*|sm_\d+\w*)'",
         "cause", CauseId.cuda_cudnn_mismatch, 75, "nvcc fatal   : Unsupported gpu architecture 'compute_89'",
         title="the CUDA toolkit's nvcc does not know the GPU architecture {arch}: it is older than the GPU",
         source="CUDA nvcc (nvcc fatal   : Unsupported gpu architecture '%s'), as Paddle's cpp_extension and the "
                "suites' custom-op builds run it; the CUDA 11.8 and 12.0 release notes add compute_89 and compute_90",
         most="medium"),
    # A library built against a newer NCCL (torch's libtorch_cuda, a Paddle build) finds an older libnccl loaded first
    # (another package's nvidia-nccl wheel, the system's): the function it calls does not exist there.
    _sig("nccl_symbol_undefined", r"\bundefined symbol: (?P<sym>nccl[A-Z]\w+)", "cause", CauseId.nccl_version_mismatch, 85,
         "ImportError: /usr/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
         "ncclCommInitRankScalable",
         title="the NCCL library loaded lacks {sym}: it is older than the NCCL the calling library was built with",
         source="glibc elf/dl-lookup.c (undefined symbol: %s), for a function of NCCL's API (nccl.h: ncclCommInitRankScalable "
                "since NCCL 2.23, ncclCommSplit since 2.18), which only a libnccl of that release or later exports"),
    # glibc reserves a fixed surplus of static TLS for libraries opened after start-up; an older glibc's is too small
    # for Paddle's core (with libgomp) and the extensions loaded beside it, whatever their own versions.
    _sig("glibc_static_tls_exhausted", r"cannot (?:load any more object with static TLS|allocate memory in static TLS "
         r"block)", "cause", CauseId.dependency_version_mismatch, 80,
         "ImportError: /usr/lib/aarch64-linux-gnu/libgomp.so.1: cannot allocate memory in static TLS block",
         title="the C library has no static TLS left for one more native library (an older glibc's fixed surplus)",
         source="glibc elf/dl-open.c dl_open_worker (\"cannot load any more object with static TLS\"), elf/dl-reloc.c "
                "_dl_allocate_static_tls (\"cannot allocate memory in static TLS block\"); glibc 2.32 made the surplus "
                "tunable (glibc.rtld.optional_static_tls); LD_PRELOAD of the library, or a newer glibc, avoids it"),
    # Reading a saved tensor starts with its format version (0): a file that is not one (a model's program or combined
    # parameters where a checkpoint is read, another framework's file, an error page saved by a download) fails there;
    # so does a model a newer Paddle saved, read by an older one (PP-OCRv5 on 2.x, PaddleOCR#16414): at most medium.
    _sig("tensor_not_saved_tensor", r"Deserialize to tensor failed, maybe the loaded file is not a paddle model",
         "cause", CauseId.checkpoint_corrupt, 88,
         "ValueError: (InvalidArgument) Deserialize to tensor failed, maybe the loaded file is not a paddle "
         "model(expected file format: 0, but 1904018048 found).",
         title="the file read as a saved tensor is not one (another kind of file, or not Paddle's): the file "
               "given is not the checkpoint the loader expects",
         source="pp 2.0-2.6 framework/lod_tensor.cc and 3.x phi/core DeserializeFromStream (PADDLE_ENFORCE_EQ("
                "version, 0U, InvalidArgument(\"Deserialize to tensor failed, maybe the loaded file is not a paddle "
                "model(expected file format: 0, but %u found).\", version)); 3.3.1 libphi_core.so strings) "
                "(PaddleOCR2Pytorch#66)", most="medium", near=True),
    # paddle.load tries every format it knows (a pickle of tensors, a static program's files) and raises this
    # when none reads the file: it is not a checkpoint paddle.load can read (truncated, another format).
    _sig("paddle_load_unparsable", r"`?paddle\.load`? can not parse the file:?\s*(?P<path>\S*)", "cause",
         CauseId.checkpoint_corrupt, 85, "ValueError: `paddle.load` can not parse the file:output/model.pdparams.",
         title="paddle.load cannot read {path}: it is not a checkpoint it knows (truncated, or another format)",
         source="pp 2.2-3.3.1 paddle/framework/io.py load (except: raise ValueError(f\"`paddle.load` can not parse "
                "the file:{path}.\"))"),
    # PaddleOCR's predictor utility checks its model and parameter files before it builds a predictor:
    # 1.x logs the missing path and exits 0, 2.x-3.x raises ValueError with the same words.
    _sig("ppocr_model_file_missing", r"not find (?:\w+ )?(?:model|params) file path (?P<path>\S+)", "cause",
         CauseId.file_not_found, 85, "2020-10-28 10:08:59,071-INFO: not find model file path ./inference/rec//model",
         title="the inference model file {path} does not exist",
         source="PaddleOCR 1.x-3.x tools/infer/utility.py create_predictor (if not os.path.exists(model_file_path): "
                "logger.info / raise ValueError(\"not find model file path {}\".format(model_file_path)); the same for "
                "\"not find params file path {}\")"),
    # A predictor reads the saved program and its deployment config before anything runs: the file is not
    # at the path it was given (a relative path from another working directory, a model exported elsewhere).
    _sig("model_file_unopened", r"\bCannot open file (?P<path>\S+?),? (?:at [\[(]|please confirm whether the file)|"
         r"Failed to load yaml file (?P<yaml>\S+?), maybe you should check this file|"
         r"fin\.is_open\(\)\s*:?\s*Cannot open file: (?P<lite>\S+)", "cause",
         CauseId.file_not_found, 85,
         "paddle.fluid.core_avx.EnforceNotMet: Cannot open file model/__model__ at [/paddle/paddle/fluid/inference/"
         "api/analysis_predictor.cc:639]",
         title="a model file the predictor opens is not where it looked",
         source="pp 1.2-1.8 fluid/inference/io.cc ReadBinaryFile and inference/api/analysis_predictor.cc "
                "LoadProgramDesc (PADDLE_ENFORCE(static_cast<bool>(fin), \"Cannot open file %s\", filename); from 1.7 the location is printed "
                "as at (file:line) in the Error Message Summary) (baidu/lac#92); pp "
                "2.x-3.x the same checks as NotFound (Cannot open file %s, please confirm whether the file is "
                "normal.); FastDeploy 0.x-1.x vision/*/preprocessor.cc BuildPreprocessPipelineFromConfig (Failed to "
                "load yaml file \" << config_file << \", maybe you should check this file.) (FastDeploy#750); "
                "Paddle-Lite 2.x lite/model_parser/model_parser.cc LoadModelPb (CHECK(fin.is_open()) << \"Cannot "
                "open file: \" << file), the program file opt or a full-API predictor reads first"),
    # ``import paddle`` loads the core extension (core_avx / core_noavx before 2.4, libpaddle after): a library it
    # links that the loader cannot find (the MSVC runtime or libgomp most often in the labelled threads, 5 of 7;
    # a GPU build's CUDA or cuDNN DLLs) fails that import (Windows' error 126), and core.py first names the core
    # file it could not import. A missing library is the corpus's file_not_found; CUDA's is the near alternative.
    # The loader's own line after it (an undefined symbol, a named library) says more, so its rows outrank this one.
    # The ImportError after core.py's line names the library the loader could not open: a CUDA library there, its
    # dlerror text cut or reworded by the paste, is CUDA's (dlerror's own words are cuda_lib_dlerror's).
    _sig("import_cuda_library_failed", rf"ImportError: (?P<lib>lib(?:{CUDA_LIBRARIES})[\w.-]*?\.so[\w.]*)"
         r"(?=:?\s*$|: (?!cannot open shared object file))", "cause",
         CauseId.cuda_cudnn_mismatch, 70, "ImportError: libnvrtc.so.13:",
         title="importing Paddle's core failed on {lib}, a CUDA library this build needs: not installed, or not of "
               "the build's CUDA version, or not on the library path", most="medium",
         source="CPython Python/dynload_shlib.c (ImportError with dlerror()'s \"<lib>: cannot open shared object file\"); "
                "pp 2.x-3.x base/core.py (from . import libpaddle)"),
    # Windows' 127 instead: a DLL the core links was found, of another version than the build's (one that lacks a
    # procedure the core calls), which for Paddle's core is most often CUDA's or cuDNN's.
    _sig("paddle_core_procedure_missing", r"DLL load failed while importing (?P<core>core_avx|core_noavx|libpaddle|core)"
         r": (?:The specified procedure could not be found|找不到指定的程序)", "cause", CauseId.cuda_cudnn_mismatch, 60,
         "ImportError: DLL load failed while importing libpaddle: The specified procedure could not be found.",
         title="a DLL that Paddle's core library links lacks a procedure it calls: another version of that DLL (most "
               "often CUDA's or cuDNN's) was found first",
         source="CPython 3.8+ Python/dynload_win.c (\"DLL load failed while importing %U: %s\"); Windows System Error "
                "Codes ERROR_PROC_NOT_FOUND 127 (en-US \"The specified procedure could not be found.\", zh-CN "
                "\"找不到指定的程序。\")", most="medium"),
    _sig("paddle_core_unloadable", r"DLL load failed while importing (?P<core>core_avx|core_noavx|libpaddle|core)\b|"
         r"Can not import (?:avx |noavx |paddle )?core while this file exists", "cause",
         CauseId.file_not_found, 50,
         "ImportError: DLL load failed while importing libpaddle: The specified module could not be found.",
         title="Paddle's core library could not be loaded: a library it links (the MSVC runtime, libgomp, a GPU "
               "build's CUDA or cuDNN) is not found",
         source="CPython 3.8+ Python/dynload_win.c (\"DLL load failed while importing %U: %s\"; 3.7 and older: "
                "\"DLL load failed: %s\"); pp 1.8.5-2.x fluid/core.py and 2.6-3.x base/core.py (sys.stderr.write("
                "'Error: Can not import avx core while this file exists: ' ...), 'Error: Can not import paddle core "
                "while this file exists: ' + current_path + os.sep + 'libpaddle.' + dy_lib_suffix; then raise e)",
         most="medium", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),  # which library is missing, the line does not say
    # Any other extension module (a suite's, FastDeploy's, OpenCV's) that Windows' loader cannot load: a DLL it
    # links is not on the search path (not installed, not bundled by PyInstaller) or cannot initialise. Windows'
    # own words follow (FormatMessage of the error: 126 not found, 1114 initialisation failed), in the locale.
    _sig("extension_dll_unloadable", r"DLL load failed(?: while importing (?P<ext>\w+))?: (?:The specified module could "
         r"not be found|找不到指定的模块|A dynamic link library \(DLL\) initialization routine failed|动态链接库\(DLL\)初始化例程"
         r"失败)", "cause", CauseId.file_not_found, 60,
         "ImportError: DLL load failed while importing fastdeploy_main: The specified module could not be found.",
         title="Windows could not load a DLL that an extension module ({ext}) needs (missing from the search path, or failing to start)",
         source="CPython 3.8+ Python/dynload_win.c (\"DLL load failed while importing %U: %s\", the message of "
                "FormatMessageW for the LoadLibraryEx error; 3.7 and older \"DLL load failed: %s\"); Windows System "
                "Error Codes ERROR_MOD_NOT_FOUND 126, ERROR_DLL_INIT_FAILED 1114 (en-US and zh-CN texts)", most="medium", confirm=LIBRARY_CONFIRM, fix=LIBRARY_FIX),
    # The download helpers are called for a weights or config file that is not on disk at the local path the
    # code built (paddle.utils.download, PaddleNLP's from_pretrained, the suites' copies); given a path that is
    # not a URL they assert: the local file the code expected (a checkpoint folder without model_state.pdparams,
    # a mistyped path) does not exist.
    _sig("download_path_not_url", r"downloading from (?P<path>(?!https?://)[^\s'\"{}]+) not a url", "cause",
         CauseId.file_not_found, 75, "AssertionError: downloading from ./premodel/model_state.pdparams not a url",
         title="the file {path} is not on disk, so it was taken for a URL to download (and is not one)",
         source="pp 2.0-3.3.1 paddle/utils/download.py get_path_from_url (assert is_url(url), f\"downloading from "
                "{url} not a url\"; is_url: http:// or https://), PaddleNLP 2.x paddlenlp/utils/downloader.py "
                "get_path_from_url (the same assertion), reached by from_pretrained when the local file is missing "
                "(PaddleNLP#210)"),
    # A layer's state dict set from a checkpoint that lacks one of the layer's parameter names (1.x dygraph, and
    # PaddleSeg 0.x-1.x's own loader, which skips it and goes on): the checkpoint names its parameters otherwise.
    _sig("set_dict_param_missing", r"Parameter not found, Can't not find \[ ?(?P<key>\S+?) ?\] in state?_?dict|"
         r"SKIP\] Pretrained weight (?P<weight>\S+) doesn't exist", "cause", CauseId.state_dict_shape_mismatch, 80,
         "RuntimeError: Parameter not found, Can't not find [ char_embedding.weight ] in stat_dictuse_structured_name "
         "is set to [True]",
         title="the checkpoint has no parameter {key}{weight} the model names: its names are another model's",
         source="pp 1.8.5 python/paddle/fluid/dygraph/layers.py Layer.set_dict (assert / raise RuntimeError(\"Parameter "
                "not found, Can't not find [ {} ] in stat_dict\" \"use_structured_name is set to [{}]\")); pp 2.0.2-2.4.2 "
                "the same file's set_state_dict (AssertionError ... in state_dict); the fluid-era "
                "pretrained-weight loaders of PaddleSeg 0.x-1.x and PaddleX 1.x (for a parameter with no file in the "
                "weights dir: print / logging.debug(\"[SKIP] Pretrained weight {}/{} doesn't exist\".format(weights_dir, "
                "var.name)), then go on without it)", most="medium"),
    # A safetensors checkpoint (PaddleNLP/PaddleFormers, PaddleMIX weights) whose header cannot be read: the
    # file is cut short, or is a git-lfs pointer saved under the weights' name (a clone without `git lfs pull`).
    _sig("safetensors_header_unreadable", r"Error while deserializing header: (?P<why>HeaderTooLarge|HeaderTooSmall|InvalidHeader\w*|"
         r"MetadataIncompleteBuffer|InvalidHeaderLength|InvalidHeaderStart)", "cause", CauseId.checkpoint_corrupt, 80,
         "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge",
         title="a safetensors weights file is truncated or not a safetensors file ({why}): a download cut short or a "
               "git-lfs pointer",
         source="safetensors 0.3-0.4 bindings/python/src/lib.rs (SafetensorError: Error while deserializing header: "
                "{err:?}, err one of safetensors/src/tensor.rs SafeTensorError: HeaderTooLarge, HeaderTooSmall, "
                "InvalidHeader, InvalidHeaderStart, InvalidHeaderDeserialization, MetadataIncompleteBuffer)"),
    # A downloaded archive (a pretrained model, an inference model's .tar) that the download left short, or
    # that is not an archive at all (an error page saved under the archive's name): extracting it fails.
    _sig("archive_unreadable", r"\b(?:tarfile\.ReadError|zipfile\.BadZip[Ff]ile)\b:?\s*(?P<msg>.*)|(?P<stream>Compressed file "
         r"ended before the end-of-stream marker was reached)", "cause",
         CauseId.checkpoint_corrupt, 60, "tarfile.ReadError: unexpected end of data",
         title="an archive (a downloaded model, most often) is truncated or not an archive: {msg}{stream}",
         source="CPython Lib/tarfile.py (ReadError: unexpected end of data; file could not be opened successfully; "
                "not a gzip file), Lib/zipfile.py (BadZipFile: File is not a zip file; Bad magic number for file "
                "header), Lib/_compression.py DecompressReader.read (EOFError: Compressed file ended before the "
                "end-of-stream marker was reached: a gzip, bz2 or xz stream cut short); the suites' download helpers extract what they fetched (ppdet/utils/download.py, "
                "ppocr/utils/network.py, ppgan/utils/download.py)", most="medium"),
    # HDF5 checks a file's signature before anything else: a weights file (a Keras .h5 given to a converter, a
    # suite's .h5 checkpoint) that is not HDF5 at all is truncated, an HTML page saved in its place, or another format.
    _sig("hdf5_signature_missing", r"Unable to open file \(file signature not found\)", "cause", CauseId.checkpoint_corrupt,
         80, "OSError: Unable to open file (file signature not found)",
         title="the weights file is not an HDF5 file at all (truncated, a page saved in its place, or another format)",
         source="HDF5 1.8-1.14 src/H5Fsuper.c H5F__super_read (\"file signature not found\"), raised by h5py 2.x-3.x "
                "h5py/_hl/files.py make_fid as OSError(\"Unable to open file (file signature not found)\")", most="medium"),
    # Paddle 0.x builds a network's layers from a registry its init fills (paddle.init, swig_paddle.initPaddle,
    # paddle_init in the C-API): a built-in layer type unknown there ("data", "fc") means the registry is empty, i.e.
    # the process built the network before initialising Paddle (glog's "Logging before InitGoogleLogging()" too).
    _sig("v1_registry_empty", r"Unknown class type: (?P<type>data|fc|mixed)\b", "cause", CauseId.python_exception, 75,
         "F0817 19:56:11.205682  5200 ClassRegistrar.h:65] Check failed: mapGet(type, creatorMap_, &creator) Unknown "
         "class type: data", title="Paddle's layer registry does not know the built-in layer {type}: the network was "
                               "built before Paddle was initialised (call paddle.init / initPaddle / paddle_init first)",
         most="medium",
         source="pp 0.9-0.14 paddle/utils/ClassRegistrar.h ClassRegistrar::createByType (CHECK(mapGet(type, creatorMap_, "
                "&creator)) << \"Unknown class type: \" << type), registered by initMain / paddle.init"),
    # pysoundfile's failed open (libsndfile's SF_ERR_SYSTEM: the file could not be opened). A "path" that goes on past
    # an audio file's extension with more words, or ends in a newline, is a whole line of a data list that was not
    # split (a space where the list wants a tab, a line not stripped): the list's form, not a missing file.
    _sig("soundfile_list_line_as_path", r"Error opening '[^'\n]{0,300}?\.(?:wav|flac|mp3|ogg|opus|m4a|pcm)(?:(?:\s|\\t)+"
         r"(?![^'\n]{0,200}\.(?:wav|flac|mp3|ogg|opus|m4a|pcm)')[^'\n]{0,200}|\\n)': System error", "cause", CauseId.config_error, 82,
         "RuntimeError: Error opening 'dataset/wav/G1.wav  神鹿五两\\n': System error.",
         title="the audio path soundfile was given is a whole line of the data list (path and transcript, or its "
               "newline): the list's lines are not in the form the reader splits (its delimiter, a tab)", most="medium",
         source="pysoundfile soundfile.py SoundFile._open (_error_check(..., \"Error opening {0!r}: \".format(self.name)); "
                "0.11+ LibsndfileError), libsndfile sf_error_number (SF_ERR_SYSTEM: \"System error.\")"),
    _sig("soundfile_unopened", r"Error opening '(?P<path>[^'\n]{1,400})': System error", "cause", CauseId.file_not_found,
         75, "soundfile.LibsndfileError: Error opening 'data/a.wav': System error.",
         title="soundfile could not open {path}: it is not there (or not readable)", most="medium",
         source="pysoundfile soundfile.py SoundFile._open (\"Error opening {0!r}: \"), libsndfile sf_error_number "
                "(SF_ERR_SYSTEM: \"System error.\")"),
    # PaddleDetection builds each component an architecture names from the config's section of that name; a name
    # the config never defines stays the schema's placeholder, and create() fails reading it as a section.
    _sig("ppdet_component_unconfigured", r"'SchemaValue' object has no attribute '(?:keys|items|__dict__|get)'", "cause",
         CauseId.config_error, 80, "AttributeError: 'SchemaValue' object has no attribute 'keys'",
         title="PaddleDetection's config names a component that it never defines (its section is missing, misnamed, or "
               "in a _BASE_ file that is not included)", most="medium",
         source="PaddleDetection 2.x ppdet/core/workspace.py create (target_key = config[k]; ... if 'name' not in "
                "target_key.keys()), ppdet/core/config/schema.py SchemaValue (a default that no config section replaced)"),
    # fluid 1.x's load_inference_model checks its model directory first (its ValueError takes the format and the name
    # as two arguments, so the message prints as a tuple).
    _sig("fluid_model_dir_missing", r"There is no directory named (?:'(?!%s')(?P<dir>[^'\n]+)'|'%s'\\?\"?,\s*'(?P<dir2>[^'\n]+)')",
         "cause", CauseId.file_not_found, 85,
         "ValueError: (\"There is no directory named '%s'\", 'image_classification_resnet.inference.model')",
         title="the model directory to load is not there ({dir}{dir2}): train and save the model first, or give the folder "
               "it was saved in", most="medium",
         source="pp 1.x python/paddle/fluid/io.py load_inference_model (if not os.path.isdir(load_dirname): raise "
                "ValueError(\"There is no directory named '%s'\", dirname))"),
    # A saved tensor starts with its version, 0: a number of thousands there is bytes of another file read as a tensor
    # (a model folder or a text file handed to paddle.load), as 2.x's enforce hint prints it.
    _sig("loaded_file_not_a_tensor", r"Expected version == 0U, but received version:\s*(?P<v>\d{3,})\s*!=\s*0U",
         "cause", CauseId.checkpoint_corrupt, 75, "[Hint: Expected version == 0U, but received version:1145131099!= 0U:0.] "
         "(at /home/Paddle/paddle/fluid/framework/lod_tensor.cc:276)", most="medium",
         title="the file read as a saved tensor is not one (its version field reads {v}): give paddle.load a .pdparams "
               "file, not a folder or another file", source="pp 1.x-2.x paddle/fluid/framework/lod_tensor.cc "
               "DeserializeFromStream (PADDLE_ENFORCE_EQ(version, 0U, ...): a saved tensor's first field)"),
)
