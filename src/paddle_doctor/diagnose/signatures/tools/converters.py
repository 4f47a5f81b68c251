"""Signatures: the converters and servers around a deployed model: X2Paddle's and Paddle-Lite opt's lists of ops
they cannot convert, Paddle Serving's and Triton's failures to load or run a model, the brpc and xmlrpc links between
them, paddle2onnx's and onnx's version checks. Spliced at the end of :mod:`.inference`'s rows, in this order."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

_LITE_OPT_SOURCE = ("Paddle-Lite 2.x lite/api/opt.cc and lite/api/opt_base.cc CheckIfModelSupported (LOG(ERROR) / "
                    "OPT_LOG_FATAL << \"Error: This model is not supported, because \" << unsupported_ops.size() << \" ops "
                    "are not supported on '\" << targets_str << \"'. These unsupported ops are: '\" << ... << \"'.\")")

CONVERTERS = (
    # --- converters -------------------------------------------------------------------------------------------
    # X2Paddle lists the ops of the source model it has no mapper for, then refuses the model: this X2Paddle release
    # does not support them (a newer one may). A PyTorch op (aten::/prim::) may also come from a torch release newer
    # than the one X2Paddle was written for; the corpus labels it the converter's release 4 times in 6, so that first.
    _sig("x2paddle_torch_op_unsupported", r"^=+ (?P<op>(?:aten|prim)::\w+) =+$", "cause",
         CauseId.paddle_api_mismatch, 72, "========== aten::einsum ============",
         title="this X2Paddle release has no mapper for {op} (a newer X2Paddle may; or the installed PyTorch traces the "
               "model into ops newer than the torch release X2Paddle names)",
         source="X2Paddle 1.x x2paddle/op_mapper/pytorch2paddle/pytorch_op_mapper.py PyTorchOpMapper.op_checker "
                "(print(\"========== {} ============\".format(op)) per unsupported op; X2Paddle#698: written against "
                "PyTorch 1.6)", most="medium"),
    # PaddleSlim's ONNX loader (auto-compression) converts through X2Paddle and swallows the exception: its text is the
    # WARNING line just before. The corpus's such logs are X2Paddle's release against its caller's or the model's ops.
    _sig("paddleslim_x2paddle_failed", r"x2paddle threw an exception, you can ask for help", "cause",
         CauseId.paddle_api_mismatch, 60,
         "2023-02-09 11:47:31,706-ERROR: x2paddle threw an exception, you can ask for help at: "
         "https://github.com/PaddlePaddle/X2Paddle/issues",
         title="PaddleSlim's conversion of the ONNX model through X2Paddle failed (the WARNING line before it is the "
               "exception): the installed X2Paddle does not fit PaddleSlim's call or the model's ops; install the X2Paddle "
               "release PaddleSlim asks for (or X2Paddle's develop)", most="medium",
         source="PaddleSlim paddleslim/common/load_model.py load_onnx_model (except Exception as e: _logger.warning(e); "
                "_logger.error(\"x2paddle threw an exception, you can ask for help at: ...\"); sys.exit(1)); "
                "log_helper.py fmt '%(asctime)s-%(levelname)s: %(message)s'"),
    _sig("x2paddle_ops_unsupported", r"(?<!=)=+ ?(?P<n>\d+) O[Pp]s are not supported yet ?=+|Exception: Model is not supported "
         r"yet\.|There are (?P<n2>\d+) ops not supported yet, list as below", "cause",
         CauseId.paddle_api_mismatch, 70, "========= 1 OPs are not supported yet ===========",
         title="X2Paddle has no converter for some ops of the source model: this X2Paddle release does not "
               "support them yet (a newer release may)",
         source="X2Paddle 1.x x2paddle/op_mapper/*/..._op_mapper.py op_checker (print(\"\\n========= {} OPs are not "
                "supported yet ===========\".format(len(unsupported_ops))), one \"========== {} ============\" line "
                "per op; then __init__: raise Exception(\"Model is not supported yet.\")); X2Paddle 0.x "
                "x2paddle/op_mapper/tf_op_mapper.py (print(\"=========={} Ops are not supported yet======\")); X2Paddle "
                "0.x x2paddle/core/op_mapper.py (print(\"There are {} ops not supported yet, list as below\"))",
         most="medium"),
    _sig("x2paddle_op_unsupported_named", r"The op (?P<op>\w+) in model is not supported yet\.", "cause",
         CauseId.paddle_api_mismatch, 70, "Exception: The op DepthwiseConvolution in model is not supported yet.",
         title="X2Paddle has no converter for the source model's op {op}: this X2Paddle release does not support it yet "
               "(a newer release may)", most="medium",
         source="X2Paddle 0.x x2paddle/op_mapper/caffe_op_mapper.py CaffeOpMapper.__init__ (raise Exception(\"The op {} "
                "in model is not supported yet.\".format(op)))"),
    # Anakin's factories (operators, layers of a parsed graph) abort on a name nothing registered: the graph was
    # converted with ops this Anakin build or target does not have.
    _sig("anakin_op_unregistered", r"\bfactory\.h:\d+\] (?P<op>\S{1,120}?) (?:'s original \S{1,120} )?has not been "
         r"registered!", "cause", CauseId.paddle_api_mismatch, 72,
         "FTL| 16:01:55.00997| 0.221s| main_thread| factory.h:37] LRN has not been registered!",
         title="this Anakin build has no {op}: the model was converted with an op (or a fused op) that this Anakin "
               "release or target does not register", most="medium",
         source="Anakin framework/core/factory.h FactoryBase::Create / ObjectRegisterBase::Get (LOG(FATAL) << type_id << "
                "\" has not been registered! \"), __ALIAS__ (\" 's original \" << ori_type_id << \" has not been "
                "registered! \")"),
    # Paddle-Lite's opt lists the ops of the model it has no kernel for on the asked targets. Ops that only a training
    # program holds (gradients, optimizers, readers) mean the file is not an inference model (save_inference_model /
    # paddle.jit.save make one); other ops are ones this Lite release does not support on the target.
    _sig("lite_opt_training_program", r"This model is not supported, because \d+ ops are not supported on '[^']*'\. "
         r"These unsupported ops are: '(?=[^']*(?:_grad\b|\b(?:sgd|momentum|adam|adamw|rmsprop|create_py_reader|read)\b))",
         "cause", CauseId.config_error, 85, "Error: This model is not supported, because 2 ops are not supported on "
         "'arm'. These unsupported ops are: 'conv2d_grad, momentum'.",
         title="the model given to Paddle-Lite's opt is a training program (its gradient, optimizer or reader ops "
               "have no inference kernels): export an inference model (save_inference_model, paddle.jit.save) first",
         source=_LITE_OPT_SOURCE),
    # An NNAdapter device's targets with no CPU among them (huawei_ascend_npu, rockchip_npu, ... alone): an op the
    # device lacks has nowhere to fall back to, so opt refuses the model; listing arm (or x86) after the device lets
    # such ops run on the CPU. (OpenCL and XPU alone are not read so: whether opt adds a CPU place is not known here.)
    _sig("lite_opt_targets_without_cpu", r"This model is not supported, because (?P<n>\d+) ops are not supported on "
         r"'(?P<target>(?![^']*\b(?:arm|x86|host|X86|ARM)\b)(?=[^']*(?:nnadapter|npu|huawei|rockchip|mediatek|cambricon|"
         r"verisilicon|kunlunxin|amlogic|imagination|nnapi|openvino))[^']+)'", "cause", CauseId.config_error, 78,
         "Error: This model is not supported, because 1 ops are not supported on 'nnadapter'. These unsupported ops "
         "are: 'rnn'.",
         title="the targets given to opt ({target}) hold no CPU target, so the {n} op(s) the device lacks have nowhere "
               "to run: add arm (or x86) after the device in valid_targets", most="medium",
         source=_LITE_OPT_SOURCE + "; lite/core/(optimizer/)mir/static_kernel_pick_pass.cc (each op's kernel is picked "
                "from the valid places in order, so an op without a kernel on the device takes the next place's)"),
    _sig("lite_opt_ops_unsupported", r"This model is not supported, because (?P<n>\d+) ops are not supported on "
         r"'(?P<target>[^']*)'", "cause", CauseId.paddle_api_mismatch, 75,
         "Error: This model is not supported, because 1 ops are not supported on 'arm'. These unsupported ops are: "
         "'pad'.",
         title="this Paddle-Lite release has no kernel on {target} for {n} op(s) of the model: use a release (or a "
               "with_extra build) that supports them, or export the model with ops Lite supports",
         source=_LITE_OPT_SOURCE, most="medium"),
    # X2Paddle's ONNX mappers wrap each op's conversion: one that fails names the node and its op type.
    _sig("x2paddle_node_failed", r"convert failed node:\s*(?P<node>\S+?), op_type is (?P<op>\w+)", "cause",
         CauseId.paddle_api_mismatch, 65, "WARNING: convert failed node:onnx__Concat_649, op_type is Resize",
         title="X2Paddle's mapper for the source model's {op} node failed: this X2Paddle release does not convert "
               "that node's form (a newer release may, or simplify the model first)",
         source="X2Paddle 1.x x2paddle/op_mapper/onnx2paddle/opset*/opset.py print_mapping_info (raise Exception("
                "\"convert failed node:{}, op_type is {}\"); opset9: print(...) then raise)", most="medium"),
    # gunicorn's arbiter ends a worker silent for longer than --timeout (SIGABRT, then SIGKILL, which it then reports
    # as "Perhaps out of memory?"): a model load or a request slower than the timeout.
    _sig("gunicorn_worker_timeout", r"WORKER TIMEOUT \(pid:\s?(?P<pid>\d+)\)", "cause", CauseId.config_error, 80,
         "[2024-03-27 07:25:18 +0000] [229325] [CRITICAL] WORKER TIMEOUT (pid:236752)",
         title="gunicorn ended worker {pid} after its --timeout (the worker was busy longer: loading the model or "
               "serving a request): raise --timeout, or load the model before forking (--preload)",
         source="gunicorn 20.x-23.x gunicorn/arbiter.py murder_workers (self.log.critical(\"WORKER TIMEOUT (pid:%s)\", "
                "worker.pid); self.kill_worker(pid, signal.SIGABRT), then SIGKILL)", most="medium"),
    # Triton (FastDeploy's serving) found a model folder without a numbered version folder holding the model.
    _sig("triton_model_version_missing", r"failed to load model '(?P<model>[^']+)': at least one version must be "
         r"available", "cause", CauseId.file_not_found, 80, "E1202 06:13:21.330861 189 model_repository_manager.cc:1395] "
         "failed to load model 'pp_ocr': at least one version must be available under the version policy of model "
         "'pp_ocr'",
         title="the model repository has no version of {model} (a numbered folder, e.g. {model}/1/, holding its "
               "files): the repository's layout is not the one the server reads",
         source="Triton Inference Server 2.x core/src/model_repository_manager.cc (\"at least one version must be "
                "available under the version policy of model '%s'\"), FastDeploy's fastdeployserver", most="medium"),
    # ONNX's checker knows the ops of each opset up to its own release: a model exported at a newer opset (torch's Einsum
    # at 12) fails the checker of an older onnx package (x2paddle's ONNX decoder runs it first).
    _sig("onnx_op_not_in_opset", r"No Op registered for (?P<op>\w+) with domain_version of (?P<opset>\d+)", "cause",
         CauseId.dependency_version_mismatch, 70, "onnx.onnx_cpp2py_export.checker.ValidationError: No Op registered for "
         "Einsum with domain_version of 12",
         title="the installed onnx knows no {op} at opset {opset}: it is older than the exporter that wrote the model (or "
               "the model was exported at an opset the converter does not read)", most="medium",
         source="onnx onnx/checker.cc check_node (fail_check(\"No Op registered for \" + node.op_type() + \" with "
                "domain_version of \" + ...)), raised as onnx.onnx_cpp2py_export.checker.ValidationError"),
    # A text-format model file (Caffe's prototxt) with a field the reading tool's schema lacks: a layer or parameter of
    # another framework release (Faster R-CNN's proposal_param) that the converter's copy of caffe.proto never defined.
    _sig("prototxt_field_unknown", r"Message type \"(?P<type>[\w.]{1,80})"
         r"\" has no field named \"(?P<field>\w{1,80})\"", "cause", CauseId.paddle_api_mismatch, 70,
         "[libprotobuf ERROR google/protobuf/text_format.cc:298] Error parsing text-format caffe.NetParameter: 243:18: "
         "Message type \"caffe.LayerParameter\" has no field named \"proposal_param\".",
         title="the model file uses {field}, which the tool's {type} schema does not have: a layer or option of another "
               "release than the converter reads", most="medium",
         source="protobuf src/google/protobuf/text_format.cc ParserImpl::ConsumeField (ReportError(\"Message type \\\"\" + "
                "descriptor->full_name() + \"\\\" has no field named \\\"\" + field_name + \"\\\".\")), logged as "
                "Error parsing text-format %s: %d:%d: %s"),
    # A model's config asks for GPU instances of a server built or run without GPU support (a CPU-only image).
    _sig("triton_gpu_instance_on_cpu_server", r"instance group \S+ of model (?P<model>\S+) has kind KIND_GPU but server "
         r"does not support GPUs", "cause", CauseId.config_error, 80, "E0408 03:22:22.416058 364 model_repository_manager."
         "cc:1890] Poll failed for model directory 'cls_runtime': instance group cls_runtime_0 of model cls_runtime has "
         "kind KIND_GPU but server does not support GPUs",
         title="the config of model {model} asks for GPU instances (KIND_GPU) and this server has no GPU support: set "
               "its instance_group to KIND_CPU, or run a GPU image on a GPU", most="medium",
         source="Triton Inference Server 2.x core/src/model_config_utils.cc ValidateInstanceGroup (\"instance group \" "
                "+ group.name() + \" of model \" + name + \" has kind KIND_GPU but server does not support GPUs\"), "
                "FastDeploy's fastdeployserver"),
    # Paddle Serving's pipeline calls each Op's hooks with the arguments of its own release: a web service's Op written
    # for another release (PaddleClas's, PaddleOCR's deploy/pipeline) defines preprocess/postprocess with fewer or more.
    _sig("serving_op_hook_signature", r"Failed to (?P<hook>preprocess|postprocess|process): (?P=hook)\(\) (?:takes \d+ "
         r"positional arguments? but \d+ (?:was|were) given|missing \d+ required positional arguments?)", "cause",
         CauseId.paddle_api_mismatch, 75, "{'err_no': 8, 'err_msg': '(data_id=4 log_id=0) [det|0] Failed to postprocess: "
         "postprocess() takes 4 positional arguments but 5 were given'}",
         title="the pipeline's Op defines {hook}() for another release of Paddle Serving (its arguments differ): the "
               "web service's code and the installed Serving do not fit", most="medium",
         source="Paddle Serving python/pipeline/operator.py Op._run_preprocess / _run_postprocess (\"{} Failed to "
                "postprocess: {}\"); the hooks' arguments changed between releases (self.postprocess(parsed_data, "
                "midped_data) in the early pipeline; (input_dicts, fetch_dict, data_id, log_id) in the later)"),
    # brpc (Paddle Serving's client, the parameter server) finds nothing listening at the address it was given.
    _sig("brpc_connection_refused", r"Fail to connect Socket\{id=\d+ addr=(?P<addr>[^}\s]+)\}[^:]*: Connection refused",
         "cause", CauseId.config_error, 70, "W0827 14:56:09.752732   538 predictor.hpp:129] inference call failed, "
         "message: [E112]1/1 channels failed, fail_limit=1 [C0][E111]Fail to connect Socket{id=1 addr=127.0.0.1:9400} "
         "(0x0x558f976c7070): Connection refused",
         title="nothing listens at {addr}: the client's address or port is not the one the server serves on (or the "
               "server is not up)",
         source="brpc src/brpc/socket.cpp Socket::Connect (\"Fail to connect %s: %s\", ECONNREFUSED's strerror), "
                "reached by Paddle Serving's client (core/general-client/include/predictor.hpp)", most="medium"),
    # A brpc server (Paddle's parameter servers, PGL's graph engine) that cannot bind the endpoint its list gives it:
    # the address is not one of this host's (a list written for other machines, or in another order) or the port is
    # taken. Either way the endpoints the job was given do not fit the host it runs on.
    _sig("brpc_listen_failed", r"\] Fail to listen (?P<ep>\S+)", "cause", CauseId.config_error, 60,
         "E1216 14:35:24.990741  2665 server.cpp:965] Fail to listen 10.0.0.2:8814",
         title="the server could not listen on {ep}: that address is not one of this host's (the endpoint list names "
               "another machine) or its port is taken", most="medium",
         source="brpc src/brpc/server.cpp Server::StartInternal (LOG(ERROR) << \"Fail to listen \" << _listen_addr), "
                "then Paddle's distributed/ps/service/graph_brpc_server.cc (\"GraphBrpcServer start failed, ip_port=\")"),
    # Go's net.Dial names the address it dialed: ":2379" (no host) is an endpoint built from an empty variable (the
    # etcd or master address the job's environment should have set), not a server that is down.
    _sig("go_dial_empty_host", r"dial tcp :(?P<port>\d+): (?:getsockopt: |connect: )?connection refused", "cause",
         CauseId.missing_dist_env, 65,
         "time=\"2017-08-07T09:41:47Z\" level=error msg=\"connect to etcd error: dial tcp :2379: getsockopt: connection "
         "refused\"", title="the address dialed has no host (\":{port}\"): the variable that should name the server "
                           "(etcd's or the master's endpoint) was empty in this job's environment", most="medium",
         source="Go net/net.go OpError.Error (\"dial tcp \" + addr + \": \" + err, the address as host:port, \":port\" for an "
                "empty host); PaddleCloud's Go pserver and master (etcd client) of the v2 era"),
    # A JSON reader handed an empty or non-JSON text (a server's answer on the wrong port or protocol, an empty file):
    # CPython's json says so at the first character. Only as a client logs it: a traceback's JSONDecodeError is read by
    # its frames (a DataLoader's reader thread, the user's own file).
    _sig("json_empty_input", r"^(?!.*(?:JSONDecodeError|ValueError))[^\n]*Expecting value: line 1 column 1 \(char 0\)", "cause",
         CauseId.config_error, 55, "[2023-12-07 15:44:23,956] [   ERROR] - Expecting value: line 1 column 1 (char 0)",
         title="a JSON reader got an empty or non-JSON text: the file given is empty, or the server answered something "
               "else (another port, protocol or service)", most="medium",
         source="CPython Lib/json/decoder.py JSONDecoder.raw_decode (raise JSONDecodeError(\"Expecting value\", s, "
                "err.value)); json/__init__.py: the message \"Expecting value: line 1 column 1 (char 0)\" for '' or text "
                "that does not start a JSON value"),
    # A remote call's fault carries the server's exception as text: read it as that exception.
    _sig("xmlrpc_fault", r"xmlrpc\.client\.Fault: <Fault \d+: [\"']<class '(?:[\w.]*\.)?(?P<exc>\w+)'>:(?P<msg>.*)",
         "exception", CauseId.python_exception, 50, "xmlrpc.client.Fault: <Fault 1: \"<class 'AssertionError'>:ocr_version "
         "must in ['PP-OCR', 'PP-OCRv2', 'PP-OCRv3'], but get PP-OCRv4\">", title="{exc}: {msg}",
         source="CPython Lib/xmlrpc/server.py _marshaled_dispatch (Fault(1, \"%s:%s\" % (exc_type, exc_value))), "
                "Lib/xmlrpc/client.py Fault.__repr__ (\"<%s %s: %r>\")"),
    # Paddle Serving's pipeline catches an op's exception and logs its message in its own format.
    _sig("serving_op_failed", r"failed to (?:init|run|process) op: .*?Raise_msg: (?P<msg>.+?)\s+ClassName: (?P<cls>\S+)",
         "exception", CauseId.python_exception, 50, "[det|2] failed to init op: Log_id: 0  Raise_msg: sequence item 0: "
         "expected str instance, NoneType found  ClassName: Op._run.<locals>.check_helper  FunctionName: check_helper",
         title="a Serving pipeline op failed: {msg}",
         source="Paddle Serving 0.7-0.9 python/pipeline/error_catch.py ErrorCatch (\"Log_id: {}  Raise_msg: {}  "
                "ClassName: {}  FunctionName: {}\"), operator.py (_LOGGER.error(\"{} failed to init op: {}\"))"),
    # Rockchip's NPU runtime checks an .rknn model's header: another file (an ONNX or Paddle model) has no RKNN magic.
    _sig("rknn_not_rknn_model", r"invalid RKNN_MAGIC|Invalid RKNN format", "cause", CauseId.config_error, 80,
         "E RKNN: [02:14:42.649] parseRKNN: invalid RKNN_MAGIC!",
         title="the model given to the RKNPU2 backend is not an .rknn model (convert it with rknn-toolkit2 first, or "
               "use another backend)",
         source="Rockchip RKNPU2 librknnrt (\"E RKNN: parseRKNN: invalid RKNN_MAGIC!\", \"parseRKNN from path: Invalid "
                "RKNN format!\"), reached by FastDeploy 1.x runtime/backends/rknpu2/rknpu2_backend.cc LoadModel",
         most="medium"),
    # protobuf's parser refuses bytes that are not the message the tool expects: the file given is another kind of
    # model (a TensorFlow SavedModel for a frozen GraphDef, an ONNX file for a Paddle program) or damaged.
    _sig("protobuf_wrong_message", r"DecodeError: Error parsing message(?: with type '(?P<type>[\w.]+)')?", "cause",
         CauseId.config_error, 60, "google.protobuf.message.DecodeError: Error parsing message with type "
         "'tensorflow.GraphDef'",
         title="the file read as {type} is not one: another kind of model file was given (or it is damaged)",
         source="protobuf 3.x-4.x python/google/protobuf/message.py DecodeError (\"Error parsing message\"; the C++ "
                "implementation: \"Error parsing message with type '%s'\")", most="medium"),
    # paddle2onnx before 1.0 converted in Python and listed the ops it had no mapper for the same way.
    _sig("p2o_legacy_ops_unsupported", r"There's (?P<n>\d+) ops are not supported yet", "cause",
         CauseId.paddle_api_mismatch, 70, "There's 1 ops are not supported yet",
         title="paddle2onnx has no converter for {n} op(s) of the model: this paddle2onnx release does not support "
               "them (a newer release may, or the model holds ops of another Paddle release)",
         source="Paddle2ONNX 0.x paddle2onnx/op_mapper (print(\"There's {} ops are not supported yet\".format(...)), "
                "one \"=========== {} ===========\" line per op, then raise NotImplementedError)", most="medium"),
    # onnx's checker refuses a model whose IR version is newer than the onnx package knows: the model was
    # written by a newer exporter (paddle2onnx) than the installed onnx reads.
    _sig("onnx_ir_newer_than_checker", r"Your model ir_version(?: \d+)? is higher than the checker'?s",
         "cause", CauseId.dependency_version_mismatch, 85,
         "onnx.onnx_cpp2py_export.checker.ValidationError: Your model ir_version is higher than the checker's.",
         title="the ONNX model's IR version is newer than the installed onnx reads: upgrade onnx, or export with an "
               "older opset/IR",
         source="onnx 1.x onnx/checker.cc check_model (fail_check(\"Your model ir_version \", ..., \" is higher than "
                "the checker's (\", IR_VERSION, \").\"); older: \"Your model ir_version is higher than the "
                "checker's.\")"),
    # paddle2onnx exports at the opset the user asked for (--opset_version); an op of the model that needs a later
    # opset stops the export unless auto_upgrade_opset is on: the option asks too low.
    _sig("p2o_opset_too_low", r"Due to opset version, the model exporting is aborted|This (?:PaddlePaddle )?model "
         r"(?:is not able to|cannot) export to (?:ONNX|onnx) with opset[_ ]version ?= ?(?P<asked>\d+)", "cause",
         CauseId.config_error, 85, "[ERROR] Due to opset version, the model exporting is aborted.",
         title="an op of the model needs a later ONNX opset than the export asked for ({asked}): set a higher "
               "--opset_version (or auto_upgrade_opset)",
         source="Paddle2ONNX 0.9-1.x paddle2onnx/mapper/exporter.cc ModelExporter::SetOpsetVersion (P2OLogger: \"This "
                "PaddlePaddle model is not able to export to ONNX with opset_version=\" ...; Assert(opset_is_legal, "
                "\"Due to opset version, the model exporting is aborted.\")); 0.x paddle2onnx/exporter (\"This model "
                "cannot export to onnx with opset version = \" ...)"),
    # paddle2onnx reads each op's attributes by the names of the Paddle version its mappers were written for: a
    # model saved by a Paddle that did not write the attribute (or renamed it) lacks it.
    _sig("p2o_attribute_missing", r"Cannot found attribute (?P<attr>\w+) in op: (?P<op>\w+)", "cause",
         CauseId.paddle_api_mismatch, 80, "[ERROR] Cannot found attribute padding_algorithm in op: conv2d_transpose",
         title="paddle2onnx expects attribute {attr} of op {op}, which the model's Paddle version did not write: "
               "export the model with the Paddle this paddle2onnx supports, or use the paddle2onnx of the model's",
         source="Paddle2ONNX 0.9-1.x paddle2onnx/parser/parser.cc PaddleParser::GetOpAttr (Assert(found, "
                "\"Cannot found attribute \" + name + \" in op: \" + op.type()))", most="medium"),
    # Paddle-Lite's host allocator checks what malloc returned: a board (or phone) without the memory the model needs.
    _sig("lite_host_malloc_failed", r"TargetWrapper::Malloc period: no enough for mallocing (?P<bytes>\d+) bytes",
         "cause", CauseId.host_out_of_memory, 90, "[F  8/ 5 17: 3:21.389 ...ite/lite/backends/host/target_wrapper.cc:29 "
         "Malloc] Check failed: p: Error occurred in TargetWrapper::Malloc period: no enough for mallocing 57446400 bytes.",
         title="Paddle-Lite could not allocate {bytes} bytes of host memory: the device has less free memory than the "
               "model needs", source="Paddle-Lite 2.x lite/backends/host/target_wrapper.cc TargetWrapper<kHost>::Malloc "
         "(CHECK(p) << \"Error occurred in TargetWrapper::Malloc period: no enough for mallocing \" << size << \" "
         "bytes.\")"),
    # onnxruntime 1.9+ built with CUDA or TensorRT wants the execution providers named: code written for an older
    # onnxruntime (or its CPU package) that creates the session without them (the suites' ONNX paths did).
    _sig("ort_providers_required", r"This ORT build has \[[^\]\n]{0,200}\] enabled\. Since ORT 1\.9, you are required to "
         r"explicitly set the providers parameter", "cause", CauseId.dependency_version_mismatch, 80,
         "ValueError: This ORT build has ['CUDAExecutionProvider', 'CPUExecutionProvider'] enabled. Since ORT 1.9, you are "
         "required to explicitly set the providers parameter when instantiating InferenceSession.",
         title="the code creates an onnxruntime session without providers, which onnxruntime 1.9+ with CUDA/TensorRT "
               "refuses: code written for an older onnxruntime (or its CPU package); pass providers=[...] or install "
               "the onnxruntime the code was written for", most="medium",
         source="ONNX Runtime 1.9+ python/onnxruntime_inference_collection.py InferenceSession._create_inference_session "
                "(raise ValueError(\"This ORT build has {} enabled. Since ORT 1.9, you are required to explicitly set the "
                "providers parameter when instantiating InferenceSession. ...\"))"),
    # onnxruntime given a file that is no ONNX model: a Paddle model (or its folder) where the ONNX one belongs (a
    # suite's use_onnx switched on), a file cut short.
    _sig("ort_model_unparsed", r"INVALID_PROTOBUF : Load model from (?P<path>[^\n]{1,300}?) failed:\s?Protobuf parsing failed|"
         r"INVALID_PROTOBUF : Failed to load model because protobuf parsing failed",
         "cause", CauseId.config_error, 70,
         "[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model from ./inference/det/ failed:Protobuf parsing failed.",
         title="onnxruntime could not read {path} as an ONNX model: a Paddle model or folder given where the .onnx file "
               "belongs (an ONNX switch turned on), or a file cut short", most="medium",
         source="ONNX Runtime onnxruntime/core/session/inference_session.cc InferenceSession::Load (\"Load model from \" << "
                "path << \" failed:\" << status: INVALID_PROTOBUF \"Protobuf parsing failed.\"); model.cc Model::Load from a "
                "stream (\"Failed to load model because protobuf parsing failed.\")"),
    # The ONNX checker refuses a node whose op its opset does not define (ScatterND before opset 11, an attribute a
    # later opset added): the opset chosen for the export is too low for the model's ops.
    _sig("onnx_checker_node_refused", r"Bad node spec(?: for node\. Name: (?P<node>[^\n]{0,200}?) OpType: (?P<op>\w{1,80})|: "
         r"[^\n]{0,2000}?op_type: \"(?P<op2>\w{1,80})\")", "cause", CauseId.config_error, 65,
         "==> Context: Bad node spec for node. Name: ScatterND@0 OpType: ScatterND",
         title="the ONNX checker refused the {op}{op2} node: most often an op or attribute the model's opset does not "
               "define (export with a higher opset_version); the error above it says which check failed", most="medium",
         source="onnx 1.x onnx/checker.cc check_graph (a ValidationError of check_node gets ex.AppendContext(\"Bad node spec "
                "for node. Name: \" + node.name() + \" OpType: \" + node.op_type()), printed as \"==> Context: ...\"; onnx "
                "1.5-1.7 \"Bad node spec: \" then the node)"),
)

