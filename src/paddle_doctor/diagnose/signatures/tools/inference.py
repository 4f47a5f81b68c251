"""Signatures: deploying a saved model: Paddle Inference's TensorRT subgraphs, TensorRT's own engine files,
FastDeploy's backends, and the converters around them (paddle2onnx, onnx's checker); PaddleX's own checks are
:mod:`.paddlex`.

These are the messages an inference or conversion tool prints when the model or the runtime was set up for
something else than what it meets: a TensorRT subgraph whose input shapes vary but were given no range, an
engine file written by another TensorRT, a build without the backend the device asks for, a model whose ops
the converter reads by another version's attributes.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig
from .converters import CONVERTERS

_DYNAMIC_SHAPE_FIX = "set min/max/opt shapes for every input of the TensorRT subgraphs (SetTRTDynamicShapeInfo)"

INFERENCE = (
    # --- Paddle Inference with TensorRT: inputs whose shape varies need a configured range ----------------
    # A TensorRT subgraph's input with a -1 dimension can only be built in dynamic-shape mode, and in that mode
    # every input of every subgraph needs its min/max/opt shapes; the runtime then checks each real input
    # against them. All three say the predictor's config (the user's or the suite's deploy script) does not
    # fit the model's inputs: the fix is in the config, not the model.
    _sig("trt_dynamic_shape_needed", r"The input \[(?P<input>[^\]]+)\] shape of trt subgraph is \[[^\]]*\], please "
         r"enable trt dynamic_shape mode by SetTRTDynamicShapeInfo", "cause", CauseId.config_error, 85,
         "ValueError: (InvalidArgument) The input [deformable_conv_16.tmp_0] shape of trt subgraph is "
         "[-1,128,-1,-1], please enable trt dynamic_shape mode by SetTRTDynamicShapeInfo.",
         title="the TensorRT subgraph's input {input} has a variable shape and the predictor was configured "
               f"without dynamic shapes: {_DYNAMIC_SHAPE_FIX}",
         source="pp 2.0-2.6 paddle/fluid/inference/tensorrt/engine.h Vec2TRT_Dims (PADDLE_THROW(InvalidArgument("
                "\"The input [%s] shape of trt subgraph is %s, please enable trt dynamic_shape mode by "
                "SetTRTDynamicShapeInfo.\")))"),
    _sig("trt_dynamic_shape_unset", r"some trt inputs dynamic shape info not set", "cause", CauseId.config_error,
         85, "ValueError: (InvalidArgument) some trt inputs dynamic shape info not set, check the INFO log above for "
             "more details.",
         title=f"an input of a TensorRT subgraph has no dynamic-shape range in the predictor's config: "
               f"{_DYNAMIC_SHAPE_FIX} (the INFO log names the input)",
         source="pp 2.1-2.6 paddle/fluid/inference/tensorrt/convert/op_converter.h ConvertBlockToTRTEngine "
                "(PADDLE_ENFORCE_EQ(all_dynamic_shape_set, true, InvalidArgument(\"some trt inputs dynamic shape "
                "info not set, check the INFO log above for more details.\")))"),
    _sig("trt_runtime_shape_outside", r"TRT runtime input shape of (?P<input>\S+) is invalid\. Expect runtime input "
         r"shape to be within min/max input shape", "cause", CauseId.config_error, 85,
         "InvalidArgumentError: TRT runtime input shape of image is invalid. Expect runtime input shape to be within "
         "min/max input shape configured in SetTRTDynamicShapeInfo(),but got runtime input shape = [1, 3, 704, 1344], "
         "min input shape = [1, 3, 1, 1], max input shape = [1, 3, 1280, 1280].",
         title="input {input} is outside the min/max shapes the predictor's TensorRT config gives it: widen the "
               "range (SetTRTDynamicShapeInfo) or resize the input",
         source="pp 2.2-2.6 paddle/fluid/operators/tensorrt/tensorrt_engine_op.h RunTrt (PADDLE_ENFORCE_EQ("
                "is_input_shape_valid(...), true, InvalidArgument(\"TRT runtime input shape of %s is invalid. Expect "
                "runtime input shape to be within min/max input shape configured in SetTRTDynamicShapeInfo(),but "
                "got runtime input shape = [%s], min input shape = [%s], max input shape = [%s].\")))"),
    # Before dynamic shapes (TensorRT 5, Paddle 1.x-2.0), an engine is built for the input shape it first met; a
    # later input of another shape (variable-width text crops) is refused: the predictor needs the shape fixed.
    _sig("trt_static_shape_differs", r"Input shapes are inconsistent with the model\. Expect \[(?P<want>[^\]]*)\] in "
         r"model description, but got \[(?P<got>[^\]]*)\]", "cause", CauseId.config_error, 80,
         "ValueError: (InvalidArgument) Input shapes are inconsistent with the model. Expect [3, 32, 100] in model "
         "description, but got [3, 32, 163] in runtime.",
         title=f"the TensorRT engine was built for input [{{want}}] and got [{{got}}]: {_DYNAMIC_SHAPE_FIX}, or feed "
               "the shape it was built for", most="medium",
         source="pp 1.8-2.2 paddle/fluid/operators/tensorrt/tensorrt_engine_op.h (\"Input shapes are inconsistent with "
                "the model. Expect [%s] in model description, but got [%s] in runtime. TRT 5 or lower version does not "
                "support dynamic input shapes. Please check and modify your input shapes.\")"),
    # A serialized engine (Paddle-TRT's or FastDeploy's cache) is only readable by the TensorRT release that wrote
    # it; a cache left from another release fails its version check. Deleting the cache rebuilds it.
    _sig("trt_engine_other_version", r"Serialization assertion stdVersionRead == serializationVersion failed|"
         r"Version tag does not match\. Note: Current Version: \d+, Serialized Engine Version: \d+", "cause",
         CauseId.cuda_cudnn_mismatch, 85,
         "Error Code 1: Serialization (Serialization assertion stdVersionRead == serializationVersion failed.Version "
         "tag does not match. Note: Current Version: 232, Serialized Engine Version: 205)",
         title="a serialized TensorRT engine (a cache file) was written by another TensorRT release than the one "
               "loaded: delete the engine cache so it is rebuilt, or use the TensorRT that wrote it",
         source="TensorRT 8.x runtime StdArchiveReader (\"Serialization assertion stdVersionRead == "
                "serializationVersion failed.Version tag does not match. Note: Current Version: %d, Serialized Engine "
                "Version: %d\"), as FastDeploy's trt_backend.cc and Paddle-TRT log it", most="medium"),
    # The predictor's config enables the TensorRT engine and this Paddle (or inference library) was built without it:
    # its subgraph pass is not registered. The message's own advice: a build with TensorRT, or the engine off.
    _sig("trt_pass_not_built", r"Pass (?P<pass>\w+) has not been registered\. Please use the paddle inference library "
         r"compiled with tensorrt", "cause", CauseId.config_error, 85,
         "(InvalidArgument) Pass tensorrt_subgraph_pass has not been registered. Please use the paddle inference library "
         "compiled with tensorrt or disable the tensorrt engine in inference configuration! ",
         title="the config enables TensorRT and this Paddle was built without it ({pass} is not registered): use a "
               "build with TensorRT, or turn the TensorRT engine off", most="medium",
         source="pp 2.1-3.3.1 so: framework/ir/pass.h PassRegistry::Get (\"Pass %s has not been registered. Please use "
                "the paddle inference library compiled with tensorrt or disable the tensorrt engine in inference "
                "configuration! \")"),
    # A predictor's config turns TensorRT on in an inference build without it (a package of another variant).
    _sig("trt_not_compiled", r"To use Paddle-TensorRT, please compile with TENSORRT first", "cause", CauseId.config_error, 85,
         "PreconditionNotMetError: To use Paddle-TensorRT, please compile with TENSORRT first.", most="medium",
         title="the config turns TensorRT on, but this Paddle Inference build has no TensorRT: use a package built with "
               "it, or run without EnableTensorRtEngine", source="pp 2.x-3.x paddle/fluid/inference/api/analysis_config.cc "
         "AnalysisConfig::EnableTensorRtEngine (PADDLE_THROW(PreconditionNotMet(\"To use Paddle-TensorRT, please compile with "
         "TENSORRT first.\")))"),
    # The engine declares its first input before any TensorRT network exists: TensorRT could not make one (no TensorRT
    # the build can load, or a build without it). The same config-versus-build reading, its near cause the library.
    _sig("trt_network_uncreated", r"The TRT network should be initialized first", "cause", CauseId.config_error, 70,
         "ValueError: (InvalidArgument) The TRT network should be initialized first.",
         title="the config enables TensorRT and no TensorRT network could be made: this Paddle has no TensorRT it can "
               "load (a build without it, or TensorRT's libraries missing); use a build with TensorRT, or turn it off",
         most="medium", source="pp 1.x-3.3.1 fluid/inference/tensorrt/engine.cc TensorRTEngine::DeclareInput "
         "(PADDLE_ENFORCE_EQ(network() != nullptr, true, InvalidArgument(\"The TRT network should be initialized first.\")))"),
    # --- FastDeploy: the build has no backend for what the runtime option asks ------------------------------
    _sig("fastdeploy_no_backend", r"Found no valid backend for model: (?P<model>\w+)", "cause", CauseId.config_error,
         80, "[ERROR] fastdeploy/fastdeploy_model.cc(229)::CreateCpuBackend   Found no valid backend for model: ArcFace",
         title="FastDeploy has no backend for {model} on the device the runtime option chose: the build lacks it "
               "(compiled for another device) or the model does not support it",
         source="FastDeploy 1.x fastdeploy/fastdeploy_model.cc CreateCpuBackend/CreateGpuBackend/... (FDERROR << "
                "\"Found no valid backend for model: \" << ModelName() << std::endl)", most="medium"),
    _sig("fastdeploy_no_device_backend", r"Cannot find an available (?P<device>\w+) backend to load this model",
         "cause", CauseId.config_error, 80, "[ERROR] fastdeploy/fastdeploy_model.cc(200)::CreateRKNPUBackend Cannot "
         "find an available npu backend to load this model.",
         title="this FastDeploy has no {device} backend for the model: the package was built without it (the generic "
               "wheel; build or install the one for the device) or the model's format is not the backend's",
         source="FastDeploy 1.x fastdeploy/fastdeploy_model.cc CreateRKNPUBackend / CreateTimVXBackend / ... (FDERROR "
                "<< \"Cannot find an available npu backend to load this model.\" << std::endl)", most="medium"),
    # FastDeploy's compiled module holds its vision/text bindings only where the build enabled them (ENABLE_VISION,
    # ENABLE_TEXT): a wheel built without one lacks the submodule its Python package then reads.
    _sig("fastdeploy_part_not_built", r"module 'fastdeploy\.c_lib_wrap' has no attribute '(?P<part>text|vision)'",
         "cause", CauseId.config_error, 80, "AttributeError: module 'fastdeploy.c_lib_wrap' has no attribute 'text'",
         title="this FastDeploy was built without its {part} part: rebuild it with that part on (-DENABLE_TEXT=ON or "
               "-DENABLE_VISION=ON), or install a prebuilt wheel that has it",
         source="FastDeploy python/fastdeploy/c_lib_wrap.py.in (from .libs.@PY_LIBRARY_NAME@ import *) and "
                "fastdeploy/pybind/main.cc.in (the text and vision submodules, defined only #ifdef ENABLE_TEXT / "
                "ENABLE_VISION); CMake options ENABLE_TEXT / ENABLE_VISION"),
    # FastDeploy's own checks of its build (FDASSERT/FDERROR): a backend or device support the build left out. Its
    # warnings of the same kind (", will force to use CPU") are not failures and are not read.
    _sig("fastdeploy_built_without", r"FastDeploy (?:didn'?t compiled?|was not compiled|is not compiled) (?:with|under) "
         r"(?P<what>[^,.!]+)(?=[.!]|, so|, but)|\b(?P<backend>[A-Z]\w*Backend) is not available, please compiled with|"
         r"(?P<backend2>Backend::\w+) is not compiled with current FastDeploy library|require the FastDeploy is compiled "
         r"with (?P<backend3>[\w ]{1,40}?Backend)", "cause", CauseId.config_error, 85,
         "FastDeploy didn't compile with TrtBackend.",
         title="this FastDeploy was built without what the run asks for ({what}{backend}{backend2}{backend3}): use the "
               "package built "
               "with it (the GPU/device wheel) or rebuild with that option on",
         source="FastDeploy 1.0.x fastdeploy/runtime/runtime_option.cc (FDASSERT(false, \"The FastDeploy didn't compile "
                "with TrtBackend.\")), runtime/runtime.cc (\"TrtBackend is not available, please compiled with "
                "ENABLE_TRT_BACKEND=ON.\"), core/fd_tensor.cc (\"The FastDeploy didn't compile under -DWITH_GPU=ON, so "
                "...\"), fastdeploy_model.cc (\"... is not compiled with current FastDeploy library.\"), runtime.cc "
                "EnablePaddleToTrt (\"require the FastDeploy is compiled with Paddle Inference Backend\")"),
    # FastDeploy's build refuses a backend on a platform its release has no package for (Paddle Inference on
    # Jetson/aarch64 before 1.0): what the run asks for is not in this release for this machine.
    _sig("fastdeploy_backend_platform_unsupported", r"\b(?P<backend>\w{1,40}) Backend doesn't support (?P<platform>[\w .-]"
         r"{1,40}?) now", "cause", CauseId.paddle_api_mismatch, 88,
         "  Paddle Backend doesn't support linux aarch64 now.",
         title="this FastDeploy release has no {backend} backend for {platform}: a release (or a backend) that supports "
               "this platform", most="medium",
         source="FastDeploy 0.x-1.0 cmake/paddle_inference.cmake, onnxruntime.cmake, ... (message(FATAL_ERROR \"Paddle "
                "Backend doesn't support linux aarch64 now.\"))"),
    _sig("fastdeploy_file_unreadable", r"Can't found file from (?P<path>\S+?)[.,]?(?:\s|$)|Fail to open file:\s*"
         r"(?P<path2>\S+?)[.,]?(?:\s|$)|Failed to load yaml file (?P<path3>\S+?)[.,]?(?:\s|$)", "cause", CauseId.file_not_found, 80,
         "[ERROR] fastdeploy/utils/utils.cc(30)::ReadBinaryFromFile  Fail to open file:./ppyoloe/model.pdmodel",
         title="FastDeploy cannot read {path}{path2}{path3}: the model, parameters or deploy config is not at that path",
         source="FastDeploy 1.0.x fastdeploy/utils/utils.cc ReadBinaryFromFile (FDERROR << \"Fail to open file:\" << "
                "path), vision/*/preprocessor.cc BuildPreprocessPipelineFromConfig (\"Failed to load yaml file \" << "
                "config_file), runtime backends (\"Can't found file from \" << path)"),
    # A FastDeploy backend maps each input's data type to its own; one it has no mapping for (a uint8 image input of
    # a model exported with the normalisation folded in, under a release before that backend took it) stops
    # the run: the model needs another FastDeploy release or another export. FastDeploy spells its name so.
    _sig("fastdeploy_dtype_unmapped", r"Unrecognized fastdeply data type:\s*(?P<dtype>[\w:]+)", "cause",
         CauseId.paddle_api_mismatch, 70,
         "[ERROR] fastdeploy/runtime/backends/ort/utils.cc(30)::GetOrtDtype\tUnrecognized fastdeply data type:"
         "FDDataType::UINT8.",
         title="this FastDeploy's backend cannot take the model's input type {dtype}: the model needs another "
               "FastDeploy release, or an export with another input type",
         source="FastDeploy 0.x-1.x fastdeploy/backends/ort/utils.cc, runtime/backends/ort/utils.cc GetOrtDtype "
                "(FDERROR << \"Unrecognized fastdeply data type:\" << Str(fd_dtype) << \".\" << std::endl)",
         most="medium"),
    # Paddle Serving's client keeps only the fetch names its client config (serving_client_conf.prototxt, written with
    # the model) saves; none of the names asked for is one of them (an example's names, another export's).
    _sig("serving_fetch_name_unknown", r"Fetch names should not be empty or out of saved fetch list", "cause",
         CauseId.config_error, 80, "ValueError: Fetch names should not be empty or out of saved fetch list.",
         title="the client asked for fetch names that the model's client config does not save (or none): use the fetch "
               "vars listed in serving_client_conf.prototxt", most="medium",
         source="Paddle Serving 0.2-0.9 python/paddle_serving_client/__init__.py Client.predict (fetch names kept only if "
                "in self.fetch_names_; if len(fetch_names) == 0: raise ValueError(\"Fetch names should not be empty "
                "or out of saved fetch list.\"))"),
    # Paddle-Lite's ops check their shapes in InferShape with CHECK_*_OR_FALSE, which logs the condition and returns
    # false (the predictor then stops): the model's shapes do not fit what this Lite's op computes.
    _sig("lite_op_shape_check", r"lite/(?:operators|kernels)/(?:\w+/)*(?P<file>\w+)\.cc \w+:\d+\] (?P<cond>[^\n]{1,200}?) "
         r"check failed!", "exception", CauseId.python_exception, 50,
         "[I  1/ 4  0:28: 2.711 /Paddle-Lite/lite/operators/concat_op.cc InferShape:44] out_dims[j] == input_dims[i][j] "
         "check failed!",
         title="Paddle-Lite's {file} shape check failed ({cond}): the model's shapes do not fit what this Lite computes",
         source="Paddle-Lite 2.x OpLite's check macros, first in Paddle 1.5's paddle/fluid/framework/lite (CHECK_EQ_OR_FALSE: "
                "LOG(ERROR) << #a__ << \" == \" << #b__ << \" check failed!\"; LOG(ERROR) << a__ << \" != \" << b__; return "
                "false; CHECK_GT/GE_OR_FALSE alike), in the ops' InferShape", most="medium"),
    # Paddle-Lite reads a model directory in the formats it lists; Paddle 3.x saves its programs as model.json
    # (PIR), which Lite's parser does not read, and a directory of neither is the wrong one: medium.
    _sig("lite_model_format_unknown", r"PrintPbModelErrorMessage\]|Error, Unsupported model format!", "cause",
         CauseId.paddle_api_mismatch, 60, " Error, Unsupported model format!",
         title="Paddle-Lite reads none of the model formats it knows in that directory: a model saved by Paddle 3.x "
               "(model.json, its new IR) that this Lite cannot read, or a directory without the model files",
         source="Paddle-Lite 2.x lite/model_parser/model_parser.cc PrintPbModelErrorMessage (LOG(FATAL) << \"\\n Error, "
                "Unsupported model format!\\n\" ... \"(3) model.pdmodel + model.pdiparams\")", most="medium"),
    # TensorRT's ONNX parser (through FastDeploy or Paddle2ONNX's users) refused the model: an op or opset this
    # TensorRT release cannot read (the older TensorRT of a Jetson's JetPack most often).
    _sig("trt_onnx_unparsed", r"Failed to parse ONNX model by TensorRT|In node -?\d+ (?:with name: [^\n]{0,200}? and operator: \w+ )?"
         r"\((?!importFallbackPluginImporter)\w+\): UNSUPPORTED_NODE\b", "cause",
         CauseId.dependency_version_mismatch,
         60, "[ERROR] fastdeploy/backends/tensorrt/trt_backend.cc(637)::CreateTrtEngineFromOnnx\tFailed to parse ONNX "
         "model by TensorRT.", title="TensorRT's ONNX parser could not read the model: an op or opset this TensorRT "
         "release does not support (a newer TensorRT, or export the model with a lower opset)",
         source="FastDeploy 1.0 fastdeploy/runtime/backends/tensorrt/trt_backend.cc CreateTrtEngineFromOnnx (if "
                "(!parser_->parse(...)) FDERROR << \"Failed to parse ONNX model by TensorRT.\"); onnx-tensorrt 7.x-8.x, "
                "TensorRT's ONNX parser, its errors (\"In node %d (%s): UNSUPPORTED_NODE: Assertion failed: ...\", e.g. "
                "importRange's \"this version of TensorRT only supports INT32!\")", most="medium"),
    # TensorRT validates its kernel library (libnvinfer_builder_resource) when a builder is made: a size it does not
    # expect is a library of another TensorRT release beside this libnvinfer (a minor version that does not fit).
    _sig("trt_kernel_library_invalid", r"createCaskKernelLibraryImpl|validateCaskKLibSize", "cause",
         CauseId.cuda_cudnn_mismatch, 80, "2: [builder.cpp::nvinfer1::builder::createCaskKernelLibraryImpl::137] Error "
         "Code 2: Internal Error (Assertion validateCaskKLibSize(buffer.size) failed. )",
         title="TensorRT's kernel library does not fit its libnvinfer: the TensorRT libraries on the path are of "
               "another release (minor version) than the one the program was built for",
         source="TensorRT 8.5-8.6 builder.cpp createCaskKernelLibraryImpl (Assertion validateCaskKLibSize(buffer.size) "
                "failed), as FastDeploy's trt_backend.cc FDTrtLogger and Paddle-TRT log it", most="medium"),
    # Paddle-Lite's NNAdapter subgraph runs on the devices the program names (set_nnadapter_device_names); a model
    # converted for NNAdapter run by a program that names none (the ARM-CPU demos) has no device.
    _sig("lite_nnadapter_no_device", r"Check failed: \(device_names\.size\(\) > 0\)[^\n]*No device specified", "cause",
         CauseId.config_error, 85, "[F 12/ 1 14:47:20.689 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check "
         "failed: (device_names.size() > 0): 0!>0 No device specified.",
         title="Paddle-Lite's NNAdapter subgraph was given no device: the program must name the NNAdapter device "
               "(set_nnadapter_device_names) the model was converted for",
         source="Paddle-Lite 2.10-2.13 lite/kernels/nnadapter/engine.cc Engine::Engine (CHECK_GT(device_names.size(), 0) "
                "<< \"No device specified.\")"),
    # Lite's opt inserts casts between kernels of different precisions; a pair it has no cast kernel for (an int64
    # host tensor into an ARM float op) is a model this release's kernels cannot join.
    _sig("lite_no_cast_kernel", r"Can't find a Cast kernel for Cast op", "cause", CauseId.paddle_api_mismatch, 70,
         "[F  2/27 11:55: 5.352 ...ite/core/mir/type_precision_cast_pass.cc:133 AddCastInst] Check failed: is_found: "
         "Can't find a Cast kernel for Cast op: Tensor<host,int64_t,NCHW,0>:x->Tensor<arm,float,NCHW,0>:y",
         title="Paddle-Lite's opt has no cast kernel to join two of the model's ops (types or targets it cannot "
               "convert between): a model this Lite release does not support",
         source="Paddle-Lite v2.3.0 lite/core/mir/type_precision_cast_pass.cc PrecisionCastPass::AddCastInst "
                "(CHECK(is_found) << \"Can't find a Cast kernel for Cast op: \" << from << ...)", most="medium"),
    # --- paddle2onnx ------------------------------------------------------------------------------------------
    # paddle2onnx reads the file given as the model and parses it as a Paddle program (a ProgramDesc): the
    # file is there but is not one: a training checkpoint or a parameter file given as the model (the export
    # to an inference model was skipped), or a model format this paddle2onnx does not read (refine/near.py).
    # protobuf's own line before it says why the parse failed: an op attribute whose `type` this reader's copy of
    # framework.proto does not know (an enum value it lacks is dropped, and `type` is required): the program was saved
    # by a newer Paddle (attribute types such as SCALAR were added later). Paddle's own loader prints the same.
    _sig("program_attr_type_unknown", r"Can't parse message of type \"(?P<proto>[\w.]{0,40}framework\.proto\."
         r"ProgramDesc)\" because it is missing required fields: [^\n]{0,400}?attrs\[\d+\]\.type\b", "cause",
         CauseId.paddle_api_mismatch, 78,
         "[libprotobuf ERROR message_lite.cc:133] Can't parse message of type \"paddle2onnx.framework.proto.ProgramDesc"
         "\" because it is missing required fields: blocks[0].ops[27].attrs[7].type",
         title="the model was saved by a newer Paddle than this reader's program format ({proto}): its op attributes "
               "have types the reader does not know; export with the Paddle release the reader supports, or upgrade "
               "the reader", most="medium",
         source="protobuf src/google/protobuf/message_lite.cc LogParseError (\"Can't parse message of type \\\"%s\\\" "
                "because it is missing required fields: %s\"); Paddle framework.proto OpDesc.Attr (required AttrType "
                "type; types added in later releases); Paddle2ONNX carries its own copy of the proto"),
    _sig("p2o_model_unparsed", r"Failed to parse (?:paddlepaddle|PaddlePaddle) model from (?:read content|memory "
         r"buffer)", "cause", CauseId.config_error, 70,
         "[Paddle2ONNX] Failed to parse paddlepaddle model from read content.",
         title="paddle2onnx read the model file but it is not a saved Paddle program: a checkpoint or parameter file "
               "given as the model, or a model format this paddle2onnx does not read",
         source="Paddle2ONNX 1.x paddle2onnx/parser/parser.cc PaddleParser::LoadProgram (prog->ParseFromString("
                "contents) fails: P2OLogger() << \"Failed to parse paddlepaddle model from read content.\"; from a "
                "buffer: \"Failed to parse PaddlePaddle model from memory buffer.\")", most="medium"),
    # paddle2onnx's parameter reader: a file it cannot open, or more tensors in it than the program's persistables (a
    # parameters file of another export than the model file given with it).
    _sig("p2o_params_unread", r"Cannot open file (?P<path>\S+) to read\.|Unexcepted situation happend while reading "
         r"parameters of PaddlePaddle model", "cause", CauseId.file_not_found, 70,
         "[Paddle2ONNX] Cannot open file ./inference.pdiparams to read.", most="medium",
         title="paddle2onnx could not read the parameters file ({path}): missing, or not the one exported with the model",
         source="Paddle2ONNX 1.x paddle2onnx/parser/parser.cc PaddleParser::LoadParams (P2OLogger() << \"Cannot open "
                "file \" << path << \" to read.\"; \"Unexcepted situation happend while reading parameters of "
                "PaddlePaddle model.\" when more tensors than variables)"),
    # The same reader's failure reported by its caller, its reason's line not in the text: a file it could not open,
    # or more tensors than the program's parameters (damaged, or another export's): low.
    _sig("p2o_params_unloaded", r"Failed to load parameters of PaddlePaddle model", "cause", CauseId.checkpoint_corrupt,
         55, "[Paddle2ONNX] Failed to load parameters of PaddlePaddle model.", most="low",
         title="paddle2onnx could not read the tensors of the parameters file: damaged or cut short (download or export "
               "it again), or not the one exported with the model",
         source="Paddle2ONNX 1.x paddle2onnx/parser/parser.cc PaddleParser::Init (if (!LoadParams(_params)) P2OLogger() "
                "<< \"Failed to load parameters of PaddlePaddle model.\"), pir_parser.cc alike"),
    # paddle.onnx.export hands the layer to paddle2onnx's dygraph2onnx, which saves it with paddle.jit.save into
    # paddle_model_temp_dir and reads model.pdmodel back: a Paddle that saves its new IR (model.json, 3.x) leaves
    # no such file for a paddle2onnx that reads only the old program. Any other path unread is the path.
    _sig("p2o_temp_model_unread", r"Failed to read model file: \S*paddle_model_temp_dir[/\\]model\.pdmodel", "cause",
         CauseId.paddle_api_mismatch, 80, "[Paddle2ONNX] Failed to read model file: paddle_model_temp_dir/model.pdmodel, "
         "please make sure your model file or file path is valid.",
         title="paddle2onnx could not read back the model paddle.onnx.export saved: this Paddle saves model.json (its "
               "new IR) and this paddle2onnx reads only model.pdmodel (use the paddle2onnx made for this Paddle)",
         source="Paddle2ONNX 1.x paddle2onnx/convert.py dygraph2onnx (paddle.jit.save(layer, paddle_model_temp_dir/"
                "model), then model_file = .../model.pdmodel) and parser.cc (\"Failed to read model file: %s, please "
                "make sure your model file or file path is valid.\"); pp 3.0 paddle.jit.save writes model.json",
         most="medium"),
    _sig("p2o_model_unread", r"\[Paddle2ONNX\] Failed to read model file: (?P<path>\S+?),? please make sure", "cause",
         CauseId.file_not_found, 75, "[Paddle2ONNX] Failed to read model file: ./inference/model.pdmodel, please make "
         "sure your model file or file path is valid.",
         title="paddle2onnx cannot read the model file {path}: it is not at that path (or the directory holds another "
               "format)",
         source="Paddle2ONNX 1.x paddle2onnx/parser/parser.cc PaddleParser::Init (P2OLogger() << \"Failed to read "
                "model file: \" << model_file << \", please make sure your model file or file path is valid.\")",
         most="medium"),
    # paddle2onnx has no mapper for some of the model's operators: ops of a newer Paddle than this converter
    # knows (fused or renamed ops), or ones it converts only as experimental.
    _sig("p2o_operators_unsupported", r"Oops, there are some operators not supported yet(?P<ops>, including \w+(?:, ?\w+)*)"
         r"|Due to the unsupported operators, the conversion is aborted", "cause", CauseId.paddle_api_mismatch, 70,
         "[Paddle2ONNX] Oops, there are some operators not supported yet, including fused_conv2d_add_act,",
         title="paddle2onnx cannot convert some of the model's operators{ops}: the model holds ops of another Paddle "
               "release than this converter knows",
         source="Paddle2ONNX 1.x paddle2onnx/mapper/exporter.cc ModelExporter::CheckIfOpSupported (P2OLogger() << "
                "\"Oops, there are some operators not supported yet, including \"; then Assert(1 == 0, \"Due to the "
                "unsupported operators, the conversion is aborted.\"))", most="medium"),
    # An op whose mapper exists but refuses this model's use of it (GetMinOpset < 0: adaptive pooling on a dynamic
    # input shape, an attribute the mapper cannot express): the model as exported cannot be converted by this
    # release; the same reading as an op with no mapper (the corpus labels both so), and the abort after it follows.
    _sig("p2o_operator_not_exportable", r"Due to the operator: (?P<op>\w+), this model cannot be exported to ONNX",
         "cause", CauseId.paddle_api_mismatch, 70,
         "[Paddle2ONNX] Due to the operator: pool2d, this model cannot be exported to ONNX.",
         title="paddle2onnx cannot express the model's {op} as it is used here (the lines before it say why, e.g. a "
               "dynamic input shape): fix the model's input shape or the op before exporting, or use a release "
               "that maps it",
         source="Paddle2ONNX 1.x paddle2onnx/mapper/exporter.cc ModelExporter::GetMinOpset (P2OLogger(verbose) << "
                "\"Due to the operator: \" << op.type() << \", this model cannot be exported to ONNX.\" when the op's "
                "mapper returns a min opset < 0)", most="medium"),
    # Paddle-Lite's loader warns when the .nb was made by another opt release than the library's (only then), and
    # says so when an OpenCL model meets a library without OpenCL: facts a later missing kernel is read with
    # (refine/versions.py explained_by_lite_versions).
    _sig("lite_opt_version_differs", r"the version of opt that transformed this model is not consistent with current "
         r"Paddle-Lite version", "version_banner",
         example="warning: the version of opt that transformed this model is not consistent with current Paddle-Lite "
                 "version.", source="Paddle-Lite 2.x lite/model_parser/model_parser.cc LoadModelFbsFromFile (LOG(WARNING) << "
                 "\"\\nwarning: the version of opt that transformed this model is not consistent with current "
                 "Paddle-Lite version.\" ... \"version of opt:\" ...); the other loader's LOG(FATAL) \"Error: the version "
                 "of opt ...\""),
    _sig("lite_opencl_model_unsupported", r"Unsupport opencl nb model", "version_banner",
         example="Unsupport opencl nb model.", source="Paddle-Lite 2.10-2.13 lite/demo/cxx/x86_mobilenetv1_light_demo/"
         "mobilenet_light_api.cc (std::cout << \"Unsupport opencl nb model.\" when is_opencl_backend_valid() is false), "
         "the demo programs users build on"),
    # Paddle-Lite's opt reads the model file's program and asks for its first block: a file that holds no program
    # (a training checkpoint's .pdparams/.pdopt given as --model_file, an empty or foreign file) has none.
    _sig("lite_program_without_blocks", r"GetBlock\] Check failed: \(idx < static_cast<int32_t>\(BlocksSize\(\)\)\): "
         r"0!<0", "cause", CauseId.config_error, 80,
         "[F  4/11 15:16:32.660 .../lite/core/model/general/program_desc.cc:51 GetBlock] Check failed: (idx < "
         "static_cast<int32_t>(BlocksSize())): 0!<0 idx >= blocks.size()",
         title="the file given as the model holds no program (no block 0): a training checkpoint or another file, "
               "not an inference model (export one with paddle.jit.save / the suite's export script)",
         source="Paddle-Lite 2.8-2.13 lite/core/model/general/program_desc.cc GetBlock (CHECK_LT(idx, "
                "static_cast<int32_t>(BlocksSize())) << \"idx >= blocks.size()\")", most="medium"),
    # --- The C++ deploy programs' YAML (yaml-cpp) and the libraries they load ---------------------------------
    # yaml-cpp's LoadFile throws BadFile when the file cannot be opened: the config or model yml is not at that path.
    _sig("yaml_cpp_bad_file", r"\bYAML::BadFile\b", "cause", CauseId.file_not_found, 80,
         "terminate called after throwing an instance of 'YAML::BadFile'",
         title="the deploy program could not open its YAML file (yaml-cpp BadFile): the config or model yml is not at "
               "the path it was given", most="medium",
         source="yaml-cpp 0.5-0.8 src/parse.cpp LoadFile (if (!fin) throw BadFile(filename)), include/yaml-cpp/"
                "exceptions.h (ErrorMsg::BAD_FILE \"bad file\")"),
    # ... and InvalidNode when the program reads a key the YAML does not have (node[key].as<T>() on a missing key).
    _sig("yaml_cpp_invalid_node", r"\bYAML::InvalidNode\b|invalid node; (?:this may result from using a map iterator as "
         r"a sequence iterator|first invalid key: \"(?P<key>[^\"]*)\")", "cause", CauseId.config_error, 70, "Microsoft C++ 异常: YAML::InvalidNode",
         title="the deploy program read a key its YAML file does not have (yaml-cpp InvalidNode): the config or the "
               "exported model's yml lacks a field this program reads (another release's export, or an edited file)",
         most="medium",
         source="yaml-cpp 0.6-0.8 include/yaml-cpp/node/impl.h Node::as / operator[] on an undefined node (throw "
                "InvalidNode), exceptions.h (ErrorMsg::INVALID_NODE \"invalid node; this may result from using a map "
                "iterator as a sequence iterator, or vice-versa\"; 0.7+: \"invalid node; first invalid key: \\\"%s\\\"\")"),
    # yaml-cpp's other exceptions of a YAML that does not parse into what the program reads: a syntax error, a value
    # of another type, a key or a map that is not there. The program's config (or the exported model's yml) is at fault.
    _sig("yaml_cpp_config_unparsed", r"\bYAML::(?P<type>ParserException|(?:Typed)?BadConversion|(?:Typed)?KeyNotFound|"
         r"BadSubscript|InvalidScalar|NonUniqueMapKey)\b|yaml-cpp: error at line \d+, column \d+: (?P<msg>\S.{0,120})",
         "cause", CauseId.config_error, 70,
         "terminate called after throwing an instance of 'YAML::TypedBadConversion<int>'",
         title="the program's YAML file does not parse into what it reads (yaml-cpp {type}{msg}): a syntax error, a "
               "value of another type or a missing key in the config or the exported model's yml", most="medium",
         source="yaml-cpp 0.5-0.8 include/yaml-cpp/exceptions.h (ParserException, BadConversion \"bad conversion\", "
                "KeyNotFound \"key not found: %s\", BadSubscript \"operator[] call on a scalar\", InvalidScalar, "
                "NonUniqueMapKey; Exception::build_what \"yaml-cpp: error at line %d, column %d: %s\")"),
    # PaddleSeg 0.x-2.x's C++ deploy demo: its config parser returned false (a DEPLOY field it reads is missing, or the
    # file did not load); LOG(FATAL) aborts.
    _sig("seg_deploy_config_unloaded", r"seg_predictor\.cpp:\d+\] Fail to load config file: \[(?P<path>[^\]]+)\]",
         "cause", CauseId.config_error, 65,
         "F1107 10:07:00.807379 15320 seg_predictor.cpp:22] Fail to load config file: [D:\\freeze_model\\deploy.yaml]",
         title="PaddleSeg's C++ deploy demo could not load {path}: the file lacks a DEPLOY field it reads (or is not at "
               "that path)", most="medium",
         source="PaddleSeg 0.x-2.x deploy/cpp/predictor/seg_predictor.cpp Predictor::init (if (!_model_config."
                "load_config(conf)) LOG(FATAL) << \"Fail to load config file: [\" << conf << \"]\")"),
    # ONNX Runtime's input check: a dimension the exported graph fixed (an export with a static input shape) that the
    # input does not have. The model was exported for another input size than the pipeline feeds it.
    _sig("ort_input_dims_fixed", r"Got invalid dimensions for input: (?P<input>\S+) for the following indices", "cause",
         CauseId.config_error, 70, "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got invalid dimensions for input: x for "
         "the following indices", title="the ONNX model fixes a dimension of its input {input} that the input fed "
         "differs in: it was exported with a static shape of another size (export with that dimension dynamic, or "
         "feed that size)", most="medium",
         source="ONNX Runtime 1.x onnxruntime/core/framework/utils / session/inference_session.cc ValidateInputs "
                "(\"Got invalid dimensions for input: \" << name << \" for the following indices\\n index: \" ...)"),
    # ONNX Runtime's C API refuses an API version newer than the library loaded: the program was built against a
    # newer onnxruntime than the DLL or .so found first (an older one earlier on PATH, or beside another program).
    _sig("ort_api_version_unsupported", r"The given version \[(?P<asked>\d+)\] is not supported, only version 1 to "
         r"(?P<max>\d+) is supported in this build", "cause", CauseId.dependency_version_mismatch, 80,
         "The given version [11] is not supported, only version 1 to 7 is supported in this build.",
         title="the onnxruntime library loaded supports its C API up to version {max}, and the program asks for "
               "{asked}: an older onnxruntime found first (another copy on PATH or the library path)", most="medium",
         source="ONNX Runtime 1.x onnxruntime/core/session/onnxruntime_c_api.cc GetApi (\"The given version [%u] is not "
                "supported, only version 1 to %u is supported in this build.\")"),
    *CONVERTERS,
)
