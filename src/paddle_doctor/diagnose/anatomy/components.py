"""Paddle's components that raise, as data: C++ source files, operators, Python modules, and
exception type x component -> cause. Read from the wheels' Python sources and the core libraries'
``strings`` (pp = paddlepaddle-gpu of those versions; 3.3.1 from the installed CPU wheel).
Each row: (pattern, cause, specificity, why, source). Patterns are matched case-insensitively
against the part they name; the first row that matches wins.
"""

from __future__ import annotations

from ...catalog.ids import CauseId as C
from .wording import PATH

# The C++ file an error was raised at (``at /paddle/.../FILE:N``), by its path.
CPP_FILES: tuple[tuple[str, C, int, str, str], ...] = (
    (r"platform/nccl_helper\.h$", C.nccl_library_missing, 88,
     "raised while creating the NCCL communicators of a system libnccl loaded at run time",
     "pp 0.14-1.8 platform/nccl_helper.h NCCLContextMap (ncclCommInitAll through dynload)"),
    (r"dynload/(?:nccl|dynamic_loader)\.(?:cc|h)$", C.nccl_library_missing, 70,
     "raised by the dynamic loader, which could not load a library Paddle needs",
     "pp 1.8.5-3.3.1 platform/dynload/dynamic_loader.cc (GetNCCLDsoHandle, ...)"),
    (r"mmap_allocator\.cc$", C.shm_too_small, 95,
     "raised while mapping shared memory for a DataLoader batch",
     "pp 1.8.5-3.3.1 memory/allocation/mmap_allocator.cc"),
    (r"(?:gpu_info|cuda_device_context|device_context)\.cc$", None, 0, "", ""),
    (r"parallel_executor\.cc$", None, 0, "", ""),
)

# Paddle's error class (errors.h: the enforce macros' category) x what the message names -> cause.
# (class, message pattern, cause, specificity, why)
ERROR_CLASSES: tuple[tuple[str, str, C, int, str], ...] = (
    ("Unavailable", r"shared memory|\bshm\b|memory map", C.shm_too_small, 92,
     "Paddle reports shared memory unavailable (errors::Unavailable)"),
    ("ResourceExhausted", r"\b(?:GPU|CUDA|gpu|device)\b", C.gpu_oom, 90,
     "Paddle reports device memory exhausted (errors::ResourceExhausted)"),
    ("ResourceExhausted", r"\bCPU\b|host|alloc memory of", C.host_out_of_memory, 88,
     "Paddle reports host memory exhausted (errors::ResourceExhausted)"),
    ("NotFound", r"\bfile\b|\bpath\b|director|No such file|cannot open", C.file_not_found, 85,
     "Paddle reports a file it needs not found (errors::NotFound)"),
    ("ExecutionTimeout", r"", C.collective_timeout, 80,
     "Paddle reports an operation that timed out (errors::ExecutionTimeout: communication waits)"),
)

# A component (C++ file, operator or Paddle module) x what its message says -> cause. The component is
# read from the error's parts as "cpp:<file> op:<operator> py:<module>" (anatomy/classify.py).
# (component pattern, message pattern, cause, specificity, why, source)
_LOAD_OPS = r"cpp:\S*load(?:_combine)?_op\.(?:cc|h)\b|op:load(?:_combine)?\b|\bload(?:_combine)? operator\b"
COMPONENT_MESSAGES: tuple[tuple[str, str, C, int, str, str], ...] = (
    (_LOAD_OPS, r"(?:cannot|fails?|failed|unable) to open\b|cannot open file|fail to open file", C.file_not_found, 88,
     "the parameter-loading operator could not open a parameter file: it is not where the program looks",
     "pp 0.12-1.8 operators/load_op.cc/.h (Cannot open file %s for load op); pp 1.8-2.x load_combine_op.h "
     "(LoadCombine operator fail(s) to open file %s, please check whether the model file is complete or damaged.); "
     "pp 3.3.1 libpaddle.so strings (Load operator fail to open file %s, please check ...)"),
    # load_combine reads one tensor per parameter of the program, then asks for the end of the file: data left over
    # means the file holds more parameters than the program has, i.e. the network the script built is not the one
    # saved (other layer sizes or shared weights in its arguments, or the parameters of another model).
    (_LOAD_OPS, r"partial data|not allowed to load", C.config_error, 80,
     "the parameter file holds more parameters than the program loads: the network built is not the one that was "
     "saved (its config or arguments differ, or the file is another model's)",
     "pp 1.8-3.3.1 load_combine_op.h LoadParamsFromBuffer (after one DeserializeFromStream per output variable: "
     "PADDLE_ENFORCE_EQ(buffer->eof(), true, \"Not allowed to load partial data via load_combine_op, please use "
     "load_op instead.\"))"),
    (_LOAD_OPS, r"complete or damaged|tensor version|EOF|cannot read more from file|cannot parse tensor desc",
     C.checkpoint_corrupt, 80,
     "the parameter-loading operator read a parameter file that is incomplete or not what the program expects",
     "pp 1.8-3.3.1 load_combine_op.h / libpaddle.so strings (There is a problem with loading model parameters); pp 0.14-1.3 "
     "operators/load_combine_op.cc RunImpl (the file opened, then before each variable PADDLE_ENFORCE("
     "static_cast<bool>(fin), \"Cannot read more from file %s\"): it ended before every variable was read); pp "
     "1.6-3.3.1 framework/tensor_util.cc TensorFromStream (PADDLE_ENFORCE_EQ(desc.ParseFromArray(buf.get(), size), "
     "true, InvalidArgument(\"Cannot parse tensor desc\")): the bytes where a tensor's description should be are not "
     "one)"),
    # nccl_helper.h both makes the communicators (NCCLContextMap, when ParallelExecutor is built, an error
    # that reaches Python) and guards every collective of the graph's op handles (NCCLGroupGuard), which run
    # on the executor's threads: an uncaught exception there ends the process with std::terminate, and a
    # stack through an op handle's run says the same. The communicators existed; a collective failed.
    (r"cpp:nccl_helper\.h\b", r"terminate called after throwing an instance of '[\w:]*EnforceNotMet'|"
     r"\b(?:AllReduceOpHandle|FusedAllReduceOpHandle|BroadcastOpHandle|ReduceOpHandle|"
     r"OpHandleBase::RunAndRecordEvent)\b", C.nccl_error, 85,
     "an NCCL collective of the graph's op handles failed at run time, on an executor thread (the communicators "
     "had been made)",
     "pp 1.0-1.8 framework/details/all_reduce_op_handle.cc RunAllReduce / broadcast_op_handle.cc (NCCLGroupGuard "
     "and the ncclAllReduce/ncclBcast calls under platform/nccl_helper.h, enforced with ncclGetErrorString's text, "
     "e.g. unhandled cuda error) (Paddle#18576)"),
    # NCCLContextMap's enforce carries ncclGetErrorString's text when the library was loaded and its call failed: that
    # is NCCL's own failure, not a library that could not be found (nccl_helper.h's reading by its file alone).
    # (Not "unhandled cuda error": at the communicators' creation the corpus's log with it is a libnccl that does not
    # fit, real-dev3/102; nor "invalid argument", which a libnccl of another version gives as often.)
    (r"cpp:nccl_helper\.h\b", r"\b(?:unhandled system error|internal error|invalid usage|remote process exited or there "
     r"was a network error)\b", C.nccl_error, 90,
     "NCCL's own error string: the library was loaded and one of its calls failed",
     "NCCL src/init.cc ncclGetErrorString (unhandled system error, internal error, invalid "
     "usage, remote process exited or there was a network error), enforced by pp 0.14-1.8 "
     "platform/nccl_helper.h NCCLContextMap (PADDLE_ENFORCE(platform::dynload::ncclCommInitAll(...)) prints it)"),
    (r"cpp:\S*gpu_info\.cc\b", r"allocating\s*<=\s*available", C.gpu_oom, 85,
     "the GPU allocator's first chunk is larger than the GPU memory still free (another process holds it, or "
     "the fraction to use is too high)",
     "pp 0.11-0.14 platform/gpu_info.cc GpuMaxChunkSize (PADDLE_ENFORCE_LE(allocating, available): "
     "enforce allocating <= available failed, %d > %d)"),
    ("", r"Cannot use CUDAPlace in CPU only version|"
     r"Cannot use GPU because you have installed CPU version", C.device_not_found, 92,
     "a GPU place was asked of a CPU-only Paddle build",
     "pp 1.x pybind/pybind.cc (PADDLE_THROW(\"Cannot use CUDAPlace in CPU only version\")); pp 2.x-3.3.1 pybind.cc "
     "(PermissionDenied: Cannot use CUDAPlace in CPU only version, Please recompile or reinstall Paddle with CUDA "
     "support.; Cannot use GPU because you have installed CPU version PaddlePaddle.)"),
    (r"py:\S*(?:dygraph/layers|nn/layer/layers|varbase_patch_methods|tensor_patch_methods|dygraph/base|"
     r"framework)\.py\b", r"shape (?:not match|mismatch|does not match)|receives a shape|expected shape|"
     r"need tensor with shape", C.state_dict_shape_mismatch, 85,
     "setting a parameter from a state dict (set_dict/set_state_dict -> set_value) found another shape",
     "pp 2.0.2-2.6 fluid/dygraph/varbase_patch_methods.py set_value (Variable Shape not match, Variable [ %s ] need "
     "tensor with shape %s but load set tensor with shape %s); nn/layer/layers.py set_state_dict (%s receives a "
     "shape %s, but the expected shape is %s)"),
)

# Operators that exist only in builds with NCCL: "has not been registered" names a build without it.
NCCL_OPERATORS = ("gen_nccl_id", "c_gen_nccl_id", "c_comm_init", "c_comm_init_all", "c_comm_init_multitrainer",
                  "ncclInit", "ncclAllReduce", "c_allreduce_sum", "c_broadcast", "c_sync_comm_stream",
                  "c_sync_calc_stream", "c_allgather", "c_reducescatter")

# Launcher variables (set per worker by every launcher era): a KeyError for one names a process
# started without the launcher. pp 1.8.5-3.3.1 fleet/base/role_maker.py, distributed/parallel.py,
# launch/controllers/collective.py.
LAUNCHER_VARIABLES = ("TRAINING_ROLE", "PADDLE_TRAINER_ID", "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ENDPOINTS",
                      "PADDLE_CURRENT_ENDPOINT", "PADDLE_PSERVERS_IP_PORT_LIST", "PADDLE_PORT", "POD_IP",
                      "PADDLE_TRAINERS", "PADDLE_RANK_IN_NODE", "PADDLE_LOCAL_RANK", "PADDLE_GLOBAL_RANK",
                      "PADDLE_MASTER", "PADDLE_NNODES", "PADDLE_WORLD_SIZE", "FLAGS_selected_gpus",
                      "PADDLE_PSERVER_NUMS", "PADDLE_TRAINER_ENDPOINT", "PADDLE_HETER_TRAINER_IP_PORT_LIST")

# A message that names a path (wording.py's token: a separator, or a data or model file's extension) and says
# it is missing.
_MISSING_PATH = rf"{PATH}\W*\s+(?:does not exist|doesn't exist|not exists?|is not exist|not found)|" \
                rf"(?:no such file|not exist|not found|cannot find|can't find)\W[^\n]*?{PATH}"

# A missing path named None (None.pdparams, 'None', .../None): built from a setting that has no value.
_NONE_PATH = r"(?:(?<=[/\\'\"(])None(?:\.\w+)?|(?<![\w.])None\.\w+)['\")]?\W*\s+(?:does not exist|doesn't exist|" \
             r"not exists?|is not exist|not found)|(?:not found any \w+(?: files?)? in|no such file or directory:?|can ?not " \
             r"(?:find|open|load)|does not exist:?)\s+['\"(]?None['\")]?\W{0,2}$"

# A Windows path's repr ('E:\\data\\x07nntest') with a control character in it (see its row).
_ESCAPED_PATH = r"'[A-Za-z]:\\\\[^']*?(?:\\x[01][0-9a-fA-F]|(?<!\\)\\[tnr])[^']*'"

# Exception type x the Python module that raised (innermost Paddle frame) -> cause.
# (exception types, module pattern, message pattern, cause, specificity, why, source)
TYPE_BY_MODULE: tuple[tuple[tuple[str, ...], str, str, C, int, str, str], ...] = (
    (("EOFError", "UnpicklingError", "UnicodeDecodeError"), r"framework/io\.py|fluid/io\.py|static/io\.py|"
     r"framework/io_utils\.py|^pickle\.py|hapi/model\.py", r"", C.checkpoint_corrupt, 92,
     "raised while unpickling a checkpoint in paddle.load: the file is truncated, empty or not a checkpoint",
     "pp 2.0.2-3.3.1 paddle/framework/io.py load -> _pickle_loads_mac / pickle.load"),
    (("EOFError", "UnpicklingError"), r"", r"ran out of input|pickle data was truncated|invalid load key",
     C.checkpoint_corrupt, 80, "unpickling ran out of data: a truncated or empty pickle (a checkpoint)",
     "CPython Lib/pickle.py (Ran out of input; pickle data was truncated)"),
    (("KeyError",), r"", "|".join(LAUNCHER_VARIABLES), C.missing_dist_env, 92,
     "a variable that only the launcher sets is missing from the environment",
     "pp 1.8.5-3.3.1 fleet/base/role_maker.py, distributed/parallel.py (os.environ[...])"),
    (("AssertionError",), r"role_maker\.py", r"PADDLE_|TRAINING_ROLE", C.missing_dist_env, 92,
     "the role maker found no launcher variables", "pp 1.8.5-3.3.1 role_maker.py (assert ..., \"can't find ...\")"),
    # A suite's own check that a path exists, on a path named None: Python's str(None) of a setting left unset
    # (YAML reads None as that string, null as no value), so the setting is what is wrong.
    (("Exception", "ValueError", "AssertionError", "RuntimeError", "OSError", "IOError"), r"", _NONE_PATH, C.config_error, 85, "the missing path is named None: it was built from a setting that has no value",
     "CPython str(None) == 'None' in a formatted path; PaddleOCR 2.x-3.x ppocr/utils/save_load.py load_model "
     "(assert os.path.exists(checkpoints + \".pdparams\"), \"The {}.pdparams does not exists!\")"),
    # A Windows path whose repr shows a control character (\a \b \f \v as \x07 ..., or a lone \t \n \r beside
    # escaped separators): a backslash in a plain string literal became an escape ("E:\Record\annotest" ->
    # "\x07nntest"). The code's string, not the file system, is wrong: write r"..." or forward slashes.
    (("OSError", "IOError", "FileNotFoundError", "Exception", "ValueError"), r"",
     _ESCAPED_PATH, C.python_exception, 80, "the path holds a control character where a backslash was: a plain "
     "string literal turned a separator into an escape (write r\"...\" or /)",
     "CPython string literal escapes (\\a \\b \\f \\v \\t \\n \\r), repr() of a str (\\x07 ...), OSError's "
     "\"[Errno 22] Invalid argument: %r\" / \"[Errno 2] No such file or directory: %r\""),
    (("FileNotFoundError",), r"", r"", C.file_not_found, 90, "a file the run needs does not exist",
     "CPython (errno ENOENT)"),
    # A YAML file that does not parse, or names a tag no registered class answers (PaddleDetection's configs
    # build their objects from tags): the suites' configs are YAML, read before anything runs.
    (("yaml.scanner.ScannerError", "yaml.parser.ParserError", "yaml.composer.ComposerError",
      "yaml.constructor.ConstructorError"), r"", r"", C.config_error, 85,
     "a YAML file (the run's configuration) does not parse, or names a tag nothing registered",
     "PyYAML 3.x-6.x yaml/scanner.py, parser.py, composer.py, constructor.py (ScannerError: mapping values are not "
     "allowed here; ParserError: while parsing a block mapping; ConstructorError: could not determine a constructor "
     "for the tag %r)"),
    # A KeyError whose key is a parameter's name (a layer path ending in weight/bias/_mean/_variance, a static
    # graph's w_0/b_0, a 1.x model's conv1_weights): a checkpoint and a model that name their parameters differently. The frame's own
    # lookup (classify's from_state_dict_lookup) says the same when the traceback is there.
    (("KeyError",), r"", r"^'?(?:\w+\.)+(?:weights?|bias|_mean|_variance|running_mean|running_var|w_\d+|b_\d+)'?$|^'?\w+_weights'?$",
     C.state_dict_shape_mismatch, 70, "the missing key is a parameter's name: the checkpoint and the model name "
     "their parameters differently", "Paddle's and the suites' parameter names (nn.Layer's <layer>.weight/.bias, "
     "BatchNorm's _mean/_variance, static graphs' <op>_N.w_0/b_0)"),
    # Whatever raised it (a suite's dataset, the user's loader), a message that a path does not exist.
    (("Exception", "ValueError", "AssertionError", "RuntimeError", "OSError", "IOError", "EnforceNotMet"), r"",
     _MISSING_PATH, C.file_not_found, 80, "the message says a file or directory it names does not exist",
     "PaddleOCR 2.x ppocr/data/simple_dataset.py (raise Exception(\"{} does not exist!\".format(img_path))), "
     "PaddleDetection/PaddleSeg dataset checks (assert os.path.exists(...), \"... does not exist\")"),
    # A suite's own dataset checks, raised while the dataset is built from the config (suite frames are not
    # Paddle's, so the message is what names them): the configured files are not there, or the config's
    # lists disagree with each other.
    (("ValueError",), r"", r"is not valid and cannot parse dataset type", C.file_not_found, 85,
     "PaddleDetection found no dataset at the configured dataset_dir/anno_path/image_dir (its log says which "
     "one above) and cannot download a dataset of that name",
     "PaddleDetection 1.x-2.x ppdet/utils/download.py get_dataset_path (after _dataset_exists fails: raise "
     "ValueError(\"Dataset {} is not valid and cannot parse dataset type '{}' for automaticly downloading, ...\"))"),
    (("AssertionError",), r"", r"length of ratio_list should be the same as the file_list|"
     r"Either data_dir or data_dir_list must be provided", C.config_error, 80,
     "the dataset's config disagrees with itself: label_file_list (a list of files) and ratio_list (one ratio "
     "per file) differ in length, or no data_dir is given",
     "PaddleOCR 2.x-3.x ppocr/data/simple_dataset.py, pgnet_dataset.py, lmdb_dataset.py __init__ (assert "
     "len(ratio_list) == data_source_num, \"The length of ratio_list should be the same as the file_list.\"; "
     "assert self.data_dir is not None, \"Either data_dir or data_dir_list must be provided.\")"),
    # The static graph's DataFeeder reshapes each sample to the shape the feed variable declares: a sample of
    # another size is data (image size, sequence layout) the program's input was not built for.
    (("ValueError",), r"data_feeder\.py", r"cannot reshape array of size \d+ into shape", C.config_error, 65,
     "the DataFeeder could not reshape a sample to the shape the feed variable declares: the reader's data (its "
     "image size, its layout) is not what the program's input takes",
     "pp 1.x-2.x paddle/fluid/data_feeder.py DataToLoDTensorConverter.done (arr = arr.reshape(self.shape)), "
     "numpy's ValueError (cannot reshape array of size %d into shape %s)"),
    (("ValueError", "RuntimeError"), r"distributed/spawn\.py", r"device|gpu|xpu|place",
     C.config_error, 85, "paddle.distributed.spawn rejected the device setting it was given",
     "pp 2.0.2-3.3.1 paddle/distributed/spawn.py _get_subprocess_env_list (The selected gpu card ...)"),
    # Deliberate checks (assert / ValueError) in the launchers' argument handling: the start-up
    # configuration was rejected. Other types there (AttributeError, TypeError) are the launcher's own bug.
    (("AssertionError", "ValueError", "RuntimeError"), r"distributed/(?:fleet/launch(?:_utils)?\.py|launch/|utils/"
     r"launch_utils\.py|launch\.py|utils\.py)", r"", C.config_error, 80,
     "a check of the launcher's arguments failed at start-up", "pp 1.8.5-3.3.1 paddle/distributed/launch/, "
     "fleet/launch.py, launch_utils.py (assert / raise ValueError on --gpus, --ips, --servers, nproc_per_node)"),
    (("AssertionError", "ValueError", "RuntimeError"), r"(?:framework|fluid|static|base)/io(?:_utils)?\.py",
     r"does not exist|not exi[s]?ts|no directory named|no such file", C.file_not_found, 88,
     "the checkpoint or model file to load does not exist", "pp 2.4.2-3.3.1 static/io.py, fluid/io.py "
     "(Parameter file [%s] does not exist; Optimizer file [%s] not exits; There is no directory named %s)"),
    (("AssertionError", "ValueError", "RuntimeError"), r"(?:framework|fluid|static|base)/io(?:_utils)?\.py",
     r"shape (?:does not match|mismatch)|shape of \(|has a shape of", C.state_dict_shape_mismatch, 88,
     "a loaded parameter's shape differs from the program's", "pp 2.4.2-3.3.1 static/io.py (Shape mismatch, "
     "program needs a parameter with shape (%s), but the loaded parameter ('%s') has a shape of (%s))"),
    (("AssertionError", "ValueError", "RuntimeError"), r"(?:framework|fluid|static|base)/io(?:_utils)?\.py",
     r"can not parse the file|failed to load model file", C.checkpoint_corrupt, 85,
     "the file given to paddle.load is not a checkpoint it can read", "pp 2.4.2-3.3.1 framework/io.py "
     "(`paddle.load` can not parse the file:%s), static/io.py (Failed to load model file ...)"),
    (("AssertionError", "ValueError"), r"^device/", r"exceeds .*card number|not found in available|"
     r"not compiled with", C.device_not_found, 88, "the device asked for does not exist in this build or machine",
     "pp 2.4.2-3.3.1 paddle/device/__init__.py set_device (The device id %d exceeds gpu card number %d; "
     "... since PaddlePaddle is not compiled with CUDA)"),
)

# A traceback cut before its exception line (a paste that stops at the raise): the innermost frame's
# raise statement, in a Paddle function where that statement raises one message only, says what was raised.
# (module path pattern, function pattern, raise statement pattern, cause, what it checks, source)
RAISE_SITES: tuple[tuple[str, str, str, C, str, str], ...] = (
    (r"paddle/(?:framework/io|fluid/dygraph/checkpoint)\.py$", r"_build_load_path_and_config|load_dygraph",
     r"raise ValueError\(error_msg % path\)", C.file_not_found,
     "paddle.load's check that the path exists (neither it nor a model saved under that prefix does)",
     "pp 2.0.2-3.3.1 paddle/framework/io.py _build_load_path_and_config, fluid/dygraph/checkpoint.py "
     "load_dygraph (error_msg = \"The ``path`` (%s) to load model not exists.\" ... raise ValueError(error_msg % path))"),
    (r"paddle/distributed/parallel\.py$", r"_check_var_exists", r"raise ValueError\(", C.missing_dist_env,
     "init_parallel_env's check for a variable only the launcher sets",
     "pp 2.0.2-3.3.1 paddle/distributed/parallel.py _check_var_exists (raise ValueError(\"paddle.distributed "
     "initialize error, environment variable %s is needed, but not set.\"))"),
)
