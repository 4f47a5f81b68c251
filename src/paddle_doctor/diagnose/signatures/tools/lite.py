"""Signatures: Paddle-Lite's loaders of an optimized (.nb) model and NNAdapter's of a device's model files: a file opt
wrote in another format than this runtime reads, read through another release's API, cut short or not there. (Lite's
program and kernel checks are :mod:`..rows.loading`'s, its host allocator :mod:`.inference`'s.)"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

LITE_LOADERS = (
    # Paddle-Lite's loaders of an optimized (.nb) model: a file opt wrote in another format than this runtime reads.
    _sig("lite_model_format_version", r"Paddle-Lite v2\.7 has upgraded the naive-buffer model format|Unspported model "
         r"meta_version (?P<meta>\d+)|Unsupported opt meta_version|Tiny-publish mode is not supported to read the 0 "
         r"version model", "cause", CauseId.paddle_api_mismatch, 80, "[F  1/ 1  1: 1: 1.000 ...lite/model_parser/"
         "model_parser.cc:764 LoadModelNaiveFromFile] Paddle-Lite v2.7 has upgraded the naive-buffer model format. Please "
         "use the OPT to generate a new model. Thanks!",
         title="the model is not in the format this Paddle-Lite runtime reads (an .nb of another opt release, or a model "
               "opt never converted): convert it with the opt of the runtime's release",
         source="Paddle-Lite 2.7-2.13 lite/model_parser/model_parser.cc LoadModelNaiveFromFile (LOG(FATAL) << \"Paddle-"
                "Lite v2.7 has upgraded the naive-buffer model format. ...\"; \"Unspported model meta_version \" << "
                "meta_version), SaveModelNaive (\"Error: Unsupported opt meta_version, ...\"), lite/model_parser/pb/"
                "tensor_io.cc (\"Tiny-publish mode is not supported to read the 0 version model.\")", most="medium"),
    # Reading a naive-buffer model, Lite consumes the bytes each field's size says: a size past the buffer's end
    # means the bytes are not laid out as this runtime reads them (an .nb of another opt release, or a single-file .nb
    # handed to the older set_model_dir API), not a short read (that is Read file error).
    _sig("lite_naive_buffer_overrun", r"No free memory of \d+, should Require the memory first", "cause",
         CauseId.paddle_api_mismatch, 70, "[F  9/25 15:28:58.946 ...odel_parser/naive_buffer/naive_buffer.cc:30 Consume] "
         "Check failed: bytes <= free_size(): 8!<=7 No free memory of 8, should Require the memory first",
         title="Paddle-Lite parsed the model past its end: the .nb is not laid out as this runtime reads it (converted by "
               "another opt release, or loaded through another release's API)", most="medium",
         source="Paddle-Lite 2.x lite/model_parser/naive_buffer/naive_buffer.cc BinaryTable::Consume (CHECK_LE(bytes, "
                "free_size()) << \"No free memory of \" << bytes << \", should Require the memory first\")"),
    _sig("lite_model_file_short", r"Read file error: (?P<path>\S+)", "cause", CauseId.checkpoint_corrupt, 75,
         "[F  1/ 1  1: 1: 1.000 ...lite/model_parser/naive_buffer/naive_buffer.cc:75 LoadFromFile] Read file error: "
         "./mobilenet_v1.nb",
         title="Paddle-Lite read fewer bytes of {path} than the model needs: the file is cut short (a copy or a "
               "download that did not finish)", most="medium",
         source="Paddle-Lite 2.x lite/model_parser/naive_buffer/naive_buffer.cc BinaryTable::LoadFromFile (if (fread"
                "(...) != buffer_size) LOG(FATAL) << \"Read file error: \" << filename)"),
    _sig("nnadapter_file_unopened", r"Open file: \[(?P<path>[^\]]{1,300})\] failed", "cause", CauseId.file_not_found, 80,
         "[F  1/ 1  1: 1: 1.000 ...nnadapter/src/utility/utility.cc:613 ReadFile] Open file: [/data/local/tmp/model.om] "
         "failed.", title="Paddle-Lite's NNAdapter could not open {path}",
         source="Paddle-Lite 2.10-2.13 lite/backends/nnadapter/nnadapter/src/utility/utility.cc ReadFile "
                "(NNADAPTER_LOG(FATAL) << \"Open file: [\" << filename << \"] failed.\")"),
    # This Lite release's op reads an input or output slot (by name) that the model's op does not have: the model was
    # exported by a Paddle of another release (its ops' slots renamed or changed) than the opt or runtime reading it.
    _sig("lite_op_slot_missing", r"op_desc\.cc:\d+ (?:Input|Output)\] Check failed: it != (?:inputs|outputs)_\.end\(\)",
         "cause", CauseId.paddle_api_mismatch, 70, "[F  8/27  2:35:29.277 ...-Lite/lite/core/model/general/op_desc.cc:63 "
         "Output] Check failed: it != outputs_.end(): ",
         title="an op of the model lacks an input or output this Paddle-Lite release reads: the model was exported by "
               "a Paddle of another release than this opt or runtime supports (use a Lite release made for it)",
         most="medium",
         source="Paddle-Lite 2.x lite/core/model/general/op_desc.cc OpDesc::Input / OpDesc::Output (auto it = "
                "inputs_.find(param); CHECK(it != inputs_.end()); the same for outputs_)"),
    # Lite's program builder creates each op of the model from its registry: an op type this Lite release (or this
    # build of it, tiny publish) never registered stops the build. The model uses an op the release does not support.
    # A kernel of one backend (lite/kernels/<target>/: arm, opencl, x86, xpu, metal, ...) stops on an input it was never
    # written for: about half of the kernels' LOG(FATAL) messages say so ("unsupported ...", "... not supported", "not
    # implemented"). The model asks this release's kernel for a case it lacks (another backend or release, or a model
    # exported otherwise).
    _sig("lite_kernel_case_unsupported", r"\[F\s+\d+/\s?\d+ [\d: .]{1,24} [^\]\s]{0,200}?kernels[/\\](?P<target>\w+)[/\\](?:\w+[/\\]){0,3}\w+\.(?:cc|h|cpp|mm):\d+ \w+\] ?"
         r"(?P<said>[^\n]{0,200}?(?i:unsupport|not (?:be )?support|not implement|not impl\b)[^\n]*)", "cause",
         CauseId.paddle_api_mismatch, 70, "[F  6/18 18:42: 6.401 ...e/kernels/opencl/matmul_image_compute.cc:342 "
         "ReInitWhenNeeded] unsupported input case.",
         title="Paddle-Lite's {target} kernel does not support what the model asks of it ({said}): another backend (the "
               "CPU's), another Lite release, or a model exported for it", most="medium",
         source="Paddle-Lite 2.x lite/kernels/<target>/*.cc (LOG(FATAL) << \"unsupported input case.\" in "
                "opencl/matmul_image_compute.cc; 177 of the 367 LOG(FATAL) messages under lite/kernels at develop say "
                "unsupported, not supported or not implemented), printed by lite/utils/log/logging.h ([F m/ d time "
                "file:line func] <message>)"),
    # feed and fetch have only host kernels: a predictor whose valid places name only a device (kOpenCL, kARM, ...)
    # and not kHost picks none for them. The user's MobileConfig/CxxConfig, not the model or the release.
    _sig("lite_io_kernel_unpicked", r"No kernels found for (?P<op>feed|fetch)\b", "cause", CauseId.config_error, 75,
         "F0322 10:22:15.475234 29111 static_kernel_pick_pass.cc:71] Check failed: !instruct.kernels().empty() No "
         "kernels found for feed",
         title="Paddle-Lite picked no kernel for {op}, which runs on the host only: the predictor's valid places lack "
               "Place{{TARGET(kHost), PRECISION(kFloat)}} (add it beside the device's places)", most="medium",
         source="Paddle-Lite 2.x lite/core/optimizer/mir/static_kernel_pick_pass.cc StaticKernelPickPass::Apply "
                "(CHECK(!instruct.kernels().empty()) << \"No kernels found for \" << instruct.op_type()); feed/fetch "
                "kernels are registered for kHost only (lite/kernels/host/feed_compute.cc, fetch_compute.cc)"),
    # paddle-mobile (Lite's predecessor) throws one exception type for every failed check; its [detail] line says
    # what failed. No table maps its checks: the generic exception reading, with the detail as its title.
    _sig("paddle_mobile_exception", r"^\s*\| \[detail\]\s*:\s*(?P<detail>\S.{0,200})", "exception",
         CauseId.python_exception, 50, "    | [detail]  :  create image 2d error ",
         title="paddle-mobile raised its C++ exception: {detail}",
         source="paddle-mobile src/common/enforce.h PaddleMobileException (exception_prefix \"paddle mobile C++ "
                "Exception: \\n\", then \"| [in file] : \", \"| [on line] : \", \"| [detail]  : \" << detail)"),
    # The Lite kernel of this release declares no type for an argument the model's op carries (an input or output
    # that Paddle added to the op after this Lite release, e.g. generate_proposals' RpnRoisLod): model and Lite differ.
    _sig("lite_kernel_argument_undeclared", r"no type registered for kernel \[(?P<op>\w+)[/\]]\S*\s*(?:\] )?(?P<io>input|"
         r"output) argument \[(?P<arg>\w+)\]", "cause", CauseId.paddle_api_mismatch, 70,
         "F0927 17:52:51.326489 46117 kernel.cc:44] Check failed: type no type registered for kernel "
         "[generate_proposals/def] output argument [RpnRoisLod]",
         title="this Paddle-Lite release's {op} kernel does not know the {io} {arg} the model's op carries: a model "
               "exported by a newer Paddle than this Lite supports (a Lite release that matches it, or an older export)",
         source="Paddle-Lite 2.x lite/core/kernel.cc KernelBase::GetInputDeclType / GetOutputDeclType (CHECK(type) << "
                "\"no type registered for kernel [\" << op_type_ << \"] input argument [\" << arg_name << \"]\")",
         most="medium"),
    # feed and fetch are ops every Lite release registers: missing, the registrations were not linked in (the static
    # library linked without its whole archive drops the registrars nothing calls), not a release without them.
    _sig("lite_io_op_not_linked", r"Check failed: op: no Op found for (?P<op>feed|fetch)\b", "cause", CauseId.config_error, 75,
         "[F  8/ 5 16:17:51.482 ...rkspace/Paddle-Lite/lite/core/program.cc:185 RuntimeProgram] Check failed: op: no Op "
         "found for feed", title="the program's Paddle-Lite has no {op} op, which every release registers: the ops' "
         "registrations were not linked in (link the shared library, or the static one whole: --whole-archive)",
         source="Paddle-Lite 2.x lite/core/program.cc RuntimeProgram (CHECK(op) << \"no Op found for \" << op_type); "
                "lite/api/paddle_use_ops.h (USE_LITE_OP(feed), USE_LITE_OP(fetch): registrars a static link keeps only "
                "when referenced)", most="medium"),
    # opt's static kernel pick reads the input scale a quantized op's successor recorded; a model quantized by a Paddle
    # release this Lite does not match has none there.
    _sig("lite_quant_scale_missing", r"(?:static_kernel_pick_pass\.cc:\d+ \w+\] )?Check failed: [^\n]*HasInputScale\(", "cause",
         CauseId.paddle_api_mismatch, 70, "[F  1/ 6 17:15:49.431 ...optimizer/mir/static_kernel_pick_pass.cc:126 Apply] "
         "Check failed: one_adj_instruct.op_info()->HasInputScale(out_node_name): ",
         title="Paddle-Lite's opt finds a quantized op without the input scale it reads: the model was quantized and "
               "exported by a Paddle release this Lite does not match (export it with the release Lite's docs name)",
         source="Paddle-Lite 2.9-2.13 lite/core/optimizer/mir/static_kernel_pick_pass.cc Apply (CHECK(one_adj_instruct."
                "op_info()->HasInputScale(out_node_name)))", most="medium"),
    _sig("lite_op_not_found", r"no Op found for (?P<op>\w+)", "cause", CauseId.paddle_api_mismatch, 70,
         "[F 10/15 20:31:47. 20 .../github/Paddle-Lite/lite/core/program.cc:141 Build] Check failed: op: no Op found "
         "for depthwise_conv2d_transpose",
         title="this Paddle-Lite release (or build) has no {op} op, which the model uses: a Lite release (or a full "
               "build) that supports it, or a model without it",
         source="Paddle-Lite 2.0-2.13 lite/core/program.cc RuntimeProgram / Program::Build (auto op = "
                "LiteOpRegistry::Global().Create(op_type); CHECK(op) << \"no Op found for \" << op_type)", most="medium"),
)
