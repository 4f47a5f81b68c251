"""Signatures: the suites' own checks of their data and options, before or while a run reads them: PaddleOCR's label
lines (a line it cannot parse, an image it names that is not there), PaddleDetection's config and record lists,
PaddleSeg's label classes, the suites' -o overrides; a model input a suite's script never filled. Spliced into :data:`..rows.checks.CHECKS` at their old place.
"""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

_PPOCR_PARSE = ("PaddleOCR 2.x ppocr/data/simple_dataset.py SimpleDataSet.__getitem__ (self.logger.error(\"When parsing line "
                "{}, error happened with msg: {}\".format(data_line, traceback.format_exc())), the line split on "
                "Train.dataset.delimiter (a tab by default))")

SUITE_DATA_ROWS = (
    _sig("ppdet_config_not_given", r"Please specify --config=configure_file_path", "cause", CauseId.config_error, 85,
         "AssertionError: Please specify --config=configure_file_path.",
         title="PaddleDetection's tool was run without -c/--config: give it the config file (configs/...yml)",
         source="PaddleDetection 1.x-2.x ppdet/utils/cli.py ArgsParser.parse_args (assert args.config is not None, "
                "\"Please specify --config=configure_file_path.\")"),
    _sig("ppocr_label_line_image_missing", r"\\nException: (?P<path>(?!(?:\S*[/\\])?None\b)[^\s\\]{1,300}) does not exist!", "cause",
         CauseId.file_not_found, 72,
         "When parsing line train/1.jpg\ttext, error happened with msg: Traceback ...\\nException: train/1.jpg does not exist!",
         title="PaddleOCR's dataset could not read an image its label file names: it is not under data_dir",
         most="medium", source=_PPOCR_PARSE),
    _sig("ppocr_label_line_unparsed", r"When parsing line (?P<line>[^\n]{0,200}?), error happened with msg", "cause",
         CauseId.config_error, 70, "When parsing line train/1.jpg 文本, error happened with msg: Traceback (most recent call "
         "last): ... IndexError: list index out of range",
         title="PaddleOCR's dataset could not parse a line of its label file ({line}): the line is not in the form the "
               "config's delimiter and columns say (image path, a tab, the label)", most="medium", source=_PPOCR_PARSE),
    # The same line whose message broke at the label line's own newline (a CRLF file, a line copied with its break),
    # so ", error happened with msg" went to the next line, or a paste that kept only its first line: it explains the
    # parsing errors after it (a column missing, a value of another type), not an image that does not exist.
    _sig("ppocr_label_line_cut", r"ppocr ERROR: When parsing line (?P<line>[^\n]{0,200}?)\s*$", "context",
         CauseId.config_error, 55, "[2023/12/09 20:45:37] ppocr ERROR: When parsing line crop_img/1.jpg      6.车辆识别代号",
         title="PaddleOCR's dataset could not parse a line of its label file ({line}): the line is not in the form the "
               "config's delimiter and columns say", most="medium", source=_PPOCR_PARSE,
         explains_only=r"\b(?:IndexError|ValueError|KeyError|TypeError|AttributeError|UnicodeDecodeError)\b"),
    # The suites' -o overrides (PaddleOCR tools/program.py, PaddleDetection ppdet/utils/cli.py) are split on "=": an item
    # without one (a space around "=", a path with no key) fails in the parser, before anything runs.
    _sig("suite_option_unparsed", r'[/\\](?:program|cli)\.py", line \d+, in _parse_opt\b',
         "cause", CauseId.config_error, 70, 'File "/content/PaddleOCR/tools/program.py", line 70, in _parse_opt',
         title="an -o override of the command line is not one key, '=' and a YAML value (no '=', a second '=', a space "
               "in an unquoted value): the suite's option parser failed on it",
         most="medium", source="PaddleOCR 2.x tools/program.py ArgsParser._parse_opt (for s in opts: k, v = s.split('=')); "
                               "PaddleDetection 2.x ppdet/utils/cli.py ArgsParser._parse_opt (k, v = s.split('=', 1)); PaddleOCR 1.0's "
                               "program.py (another folder: the same ArgsParser)"),
    # PaddleSeg's dataset check (pdseg/check.py, before training) reads every label image: a class value past the
    # configured number of classes (and not the ignore index) fails it.
    _sig("seg_label_class_out_of_range", r"label class is out of range \[(?P<low>\d+), (?P<high>\d+)\]", "cause",
         CauseId.config_error, 80, "fatal error: label class is out of range [0, 1]",
         title="label images hold class values outside [{low}, {high}], the range the configured number of classes "
               "allows: set NUM_CLASSES to the data's classes, or map the label values", most="medium",
         source="PaddleSeg 0.x pdseg/check.py and its dataset check tools (logger.info(error_print(\"label class check!\")), "
                "printed as \"NOT PASS label class check!\"; \"fatal error: label class is out of range [0, {}]\".format("
                "cfg.DATASET.NUM_CLASSES - 1))"),
    # Any other check of PaddleSeg's dataset checker that failed (its header; the line after it says which value): the
    # config does not fit the dataset (EVAL_CROP_SIZE below the images' size, image and label sizes that differ).
    _sig("seg_check_not_pass", r"^NOT PASS (?P<check>[\w ./-]{3,60}?) check!?\s*$", "cause", CauseId.config_error, 60,
         "NOT PASS EVAL_CROP_SIZE check", most="medium",
         title="PaddleSeg's dataset check of {check} failed, so the config does not fit the dataset (the line after "
               "it names the value and what it should be)",
         source="PaddleSeg 0.x pdseg/check.py (error_print(str): \"\\nNOT PASS \" + str; e.g. logger.info(error_print("
                "\"EVAL_CROP_SIZE check\")) then \"EVAL_CROP_SIZE[1]: {} should >= max height of images {}!\")"),
    # PaddleDetection's config schema: a class built from the YAML given a parameter it does not take, lacking one it
    # needs, or of the wrong type. The config does not fit the code; most often a config of another release of the
    # suite (a renamed parameter), which the catalog's near cause says.
    _sig("ppdet_schema_param", r"(?P<kind>Missing|Extraneous|Wrong) param (?:type )?for class<(?P<cls>\w+)>: "
         r"(?P<params>[\w, ]{1,200})", "cause", CauseId.config_error, 80,
         "ValueError: Extraneous param for class<ResNet>: dcn_stages",
         title="the config gives {cls} parameters its code does not match ({kind}: {params}): a config of another "
               "release of the suite, or a misspelt key", most="medium",
         source="PaddleDetection 0.x-2.x ppdet/core/config/schema.py SchemaDict.validate (\"Missing param for class<{}>: "
                "{}\", \"Extraneous param for class<{}>: {}\", \"Wrong param type for class<{}>: {}\")"),
    # PaddleDetection 0.x-1.x's own multiprocess reader (parallel_map) found its consumer processes dead: a data
    # worker crash; the exit code says how (-11 a native crash in a transform, -9 killed: memory or /dev/shm).
    _sig("ppdet_reader_consumers_died", r"consumer\[(?P<pid>\d+)\] exit abnormally(?: with exitcode\[(?P<code>-?\d+)\])?|"
         r"(?P<n>\d+) consumers have exited abnormally", "cause", CauseId.dataloader_worker_crash, 75,
         "2020-06-04 18:47:00,840-WARNING: consumer[9307] exit abnormally with exitcode[-11]",
         title="PaddleDetection's reader processes died: a data worker crashed or was killed (its exit code says how: "
               "-11 a native crash in a transform, -9 killed for memory or /dev/shm)", most="medium",
         source="PaddleDetection 0.x-1.x ppdet/data/parallel_map.py ParallelMap._consumer_healthy (logger.warn(\"consumer"
                "[{}] exit abnormally with exitcode[{}]\"); \"{} consumers have exited abnormally!!!\")"),
    # PaddleDetection's dataset sources found no record at all in the annotation list: every image it names is missing
    # or unreadable where dataset_dir/image_dir say (paths joined twice, another folder layout).
    _sig("ppdet_no_records", r"not found any (?P<kind>voc|coco|widerface) rec", "cause", CauseId.config_error, 75,
         "AssertionError: not found any voc record in ./dataset/voc/trainval.txt",
         title="PaddleDetection found no {kind} record: the images its annotation list names are not where dataset_dir "
               "and image_dir say (check the paths it logs as illegal or missing)", most="medium",
         source="PaddleDetection 0.x-2.x ppdet/data/source/voc.py load_roidb_and_cname2cid (assert len(records) > 0, "
                "'not found any voc record in %s' % (self.anno_path)); coco.py ('not found any coco record in %s')"),
    # PaddleOCR's C++ programs (deploy/cpp_infer, its Lite demo) read the recognition dictionary at start and exit
    # when the path (rec_char_dict_path, default ../../ppocr/utils/ppocr_keys_v1.txt, relative to the working folder)
    # names no file.
    _sig("ppocr_cpp_dict_missing", r"no such label file:\s*(?P<path>[^,\n]{1,300}), exit the program", "cause",
         CauseId.file_not_found, 80, "no such label file: ../../ppocr/utils/ppocr_keys_v1.txt, exit the program...",
         title="PaddleOCR's C++ program found no dictionary ({path}); start it in the folder that path is relative to, "
               "or give rec_char_dict_path", most="medium",
         source="PaddleOCR 2.x deploy/cpp_infer/src/utility.cpp Utility::ReadDict (std::cout << \"no such label file: \" "
                "<< path << \", exit the program...\" << std::endl; exit(1))"),
    # A tensor that was never given data has rank -1 and no shape (2.6+'s default DDim, common/ddim.h DDim() :
    # rank_(-1)): an operator's first check of its input then reports it. The program's input was not fed: the script
    # feeds other names or shapes than the model takes (PP-StructureV3's layout model under PaddleOCR 2.x's
    # ppstructure/predict_system.py, PaddleOCR#16318), or its own feeding is wrong.
    # Before 2.6, an operator that only a predictor runs (a fused op of the inference passes) names the same as a data
    # input "uninitialized": a predictor loads every parameter, so what it did not fill is the script's feed; 1.x-2.1
    # word it "The Tensor in the conv2d Op's Input Variable Input(image) is not initialized", a feed's name given.
    _sig("op_input_never_fed", r"input's dimension is -1, input's shape is \[\]|But received: -1-D Tensor(?:,| and) "
         r"(?:the shape of input is|it's shape is) \[\]|The (?:conv2d_fusion|conv2d_inception_fusion|fc|multihead_matmul|"
         r"fused_multi_transformer|fused_embedding_eltwise_layernorm|fusion_gru|fusion_lstm) Op's Input Variable "
         r"`(?:Input|X|Ids)` contains uninitialized (?:Tensor|phi::DenseTensor)|The Tensor in the \w+ Op's Input Variable "
         r"(?:Input|X)\((?:image|img|im_shape|scale_factor|x|inputs?|input_ids|data|pixel_values)\) is not initialized",
         "cause",
         CauseId.config_error, 60, "InvalidArgumentError: The input of Op(Conv) should be a 4-D or 5-D Tensor. But "
         "received: input's dimension is -1, input's shape is [].",
         title="an operator's input was never given data: the script does not feed the inputs the "
               "model takes (a model of another kind or release than the script is written for)",
         most="medium", near=True,
         fix="run the model with the script (or the suite release) it was exported for; compare the predictor's "
             "get_input_names() with the names the script feeds",
         source="pp 2.6-3.3.1 phi/infermeta ConvInferMeta (\"The input of Op(Conv) should be a 4-D or 5-D Tensor. But "
                "received: input's dimension is %u, input's shape is [%s].\"), ConvTransposeInferMeta and PoolInferMeta "
                "(\"... But received: %u-D Tensor, the shape of input is [%s]\" / \"and it's shape is [%s]\"); 3.3.1 "
                "libphi_core.so strings; pp 2.2-3.x framework/operator.cc (\"The %s Op's Input Variable `%s` contains "
                "uninitialized Tensor.\"), 1.x-2.1 ParseInputDataType (\"The Tensor in the %s Op's Input Variable %s(%s) "
                "is not initialized.\")"),
    # PaddleDetection builds each part a config names from its registry: a name the installed ppdet does not register
    # is most often a config of a newer release run with an older ppdet (a pip-installed paddledet beside a newer
    # clone, PaddleDetection#3806); a misspelt name or a module of one's own never imported is the near cause.
    _sig("ppdet_module_unregistered", r"\b[Tt]he module (?P<name>\w+) is not registered\b", "cause",
         CauseId.paddle_api_mismatch, 65, "AssertionError: the module BlazeFace is not registered",
         title="the installed ppdet has no module {name}, which the config names: a config of another release than the "
               "installed ppdet (a pip-installed paddledet shadowing the clone), or a misspelt name",
         fix="run from the PaddleDetection clone the config comes from (`pip uninstall paddledet` if a pip package "
             "shadows it), or use a config of the installed release", most="medium", near=True,
         source="PaddleDetection 0.x-2.x ppdet/core/workspace.py create (assert name in global_config ..., \"the module "
                "{} is not registered\".format(name)); the workspace's ports (RT-DETR's src/core/workspace.py: raise "
                "ValueError('The module {} is not registered'.format(name)))"),
    # ppdet registers its data operators as YAML tags (!DecodeImage): a config whose tag the installed ppdet does not
    # register is a config of another release than the code reading it, most often a pip-installed paddledet shadowing
    # the clone the config came from (PaddleDetection#3522: a static-graph config read by the dygraph package).
    _sig("ppdet_config_tag_unregistered", r"could not determine a constructor for the tag '!(?P<tag>\w+)'", "cause",
         CauseId.paddle_api_mismatch, 60, "yaml.constructor.ConstructorError: could not determine a constructor for the "
         "tag '!DecodeImage'", title="the config names an operator (!{tag}) the installed suite does not register: a "
         "config of another release than the code that reads it (a pip-installed package shadowing the clone), or a "
         "misspelt name", fix="run from the clone the config comes from (`pip uninstall paddledet` if a pip package "
         "shadows it), or use a config of the installed release", most="medium", near=True,
         source="PyYAML constructor.py SafeConstructor.construct_undefined (\"could not determine a constructor for the "
                "tag %r\"); PaddleDetection ppdet/core/workspace.py (register/serializable: each operator a YAML tag)"),
    # A grid built for a fixed input size (a TPS rectifier, a spatial transformer) has the height and width of its
    # training input: such a model given another size (PaddleOCR's variable-width prediction) fails grid_sampler's
    # shape check, which 1.6-1.8 make before sampling (2.x sizes the output from the grid instead).
    _sig("tps_input_width_mismatch", r"Input\(X\) dims\[[23]\] and Input\(Grid\) dims\[[12]\] should be equal", "cause",
         CauseId.config_error, 70, "Error: Input(X) dims[3] and Input(Grid) dims[2] should be equal.",
         title="grid_sampler's input is not the height or width its grid was built for: a model with a fixed-size grid "
               "(TPS/STN) needs the input shape it was trained with (--rec_image_shape, and rec_char_type en for "
               "PaddleOCR's 1.x scripts)",
         most="medium", source="pp 1.6-1.8 fluid/operators/grid_sampler_op.cc GridSampleOp::InferShape (PADDLE_ENFORCE_EQ("
                "grid_dims[2], x_dims[3], \"Input(X) dims[3] and Input(Grid) dims[2] should be equal\"; 1.8 adds \", but "
                "received X dimension[3](%d) != Grid dimension[2](%d)\"; the same for dims[2]/dims[1]); Paddle-Lite "
                "lite/operators/grid_sampler_op.cc CheckShape (CHECK_EQ); PaddleOCR doc/doc_en/FAQ_en.md (\"TPS does not "
                "support variable shape\")"),
    # A PaddleX 3.x pipeline makes a part's models when it is created, from its config: a call (or the CLI's
    # --use_x flag) that asks for a part the config left off finds no models, and the pipeline logs this and
    # returns nothing (PaddleX#4500: PP-StructureV3's seal recognition, off in its default config).
    _sig("paddlex_pipeline_part_not_built", r"Set use_(?P<opt>\w+), but the models? for (?P<part>[\w -]{1,60}?) "
         r"(?:are|is) not initialized", "cause", CauseId.config_error, 75,
         "Set use_seal_recognition, but the models for seal recognition are not initialized.",
         title="the pipeline was created without its {part} models (its config leaves use_{opt} off), and the call "
               "asked for them: turn the part on in the pipeline's config",
         fix="`paddlex --get_pipeline_config <pipeline>`, set use_{opt}: True in the file, and pass the file to "
             "--pipeline (or create_pipeline(config=...)); a flag on one call cannot make the models",
         source="PaddleX 3.x paddlex/inference/pipelines (layout_parsing, pp_chatocr, pp_doctranslation ...) "
                "check_model_settings_valid / validate_model_settings (logging.error(\"Set use_seal_recognition, but "
                "the models for seal recognition are not initialized.\"), the same for doc preprocessor, general OCR, "
                "table, formula and chart recognition), then return False"),
    # The same checks' two other refusals: the call passed a part's results (overall_ocr_res, ...) and asked for its
    # models too, or turned the models off and passed no results (read in PaddleX 3.x layout_parsing's
    # check_model_settings_valid, beside the message above).
    _sig("paddlex_pipeline_part_inputs_conflict",
         r"(?:The (?P<done>[\w -]{1,60}?) models have already been initialized, please set use_(?P<opt>\w+)=False"
         r"|Set use_(?P<off>\w+)=False, but no (?P<part>[\w -]{1,60}?) results were found)", "cause",
         CauseId.config_error, 75, "Set use_ocr_model=False, but no OCR results were found.",
         title="the pipeline's call and its inputs disagree: a part's results were passed and its models asked for "
               "too, or its models turned off and no results passed: pass one or the other",
         fix="either leave use_<part> on and pass no precomputed results, or set it False and pass the part's results "
             "(overall_ocr_res=...) from an earlier call",
         source="PaddleX 3.x paddlex/inference/pipelines (layout_parsing, pp_chatocr ...) check_model_settings_valid "
                "(logging.error(\"The OCR models have already been initialized, please set use_ocr_model=False\"); "
                "logging.error(\"Set use_ocr_model=False, but no OCR results were found.\")), then return False"),
)
