"""What the failing line looks up or divides by, when the exception's type alone says nothing: a division by
an epoch's batch count (the loader is empty), a state dict's key (the checkpoint names its parameters
otherwise), a vocabulary's index (the dictionary file has fewer entries than the model's classes), a class id
or a configuration key, a confusion matrix shaped by the class count, a name read from a Paddle module.
Each reads the traceback's source lines (the innermost, or where it stands) and returns a Verdict, or None."""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from .parts import ErrorParts, Frame, Verdict

def _failing_line(parts: ErrorParts, exc_type: str, pattern: re.Pattern, message: str | None = None) -> Frame | None:
    """The innermost frame when ``exc_type`` was raised there, its source line holds ``pattern`` and (when given)
    the exception's message, stripped, is all of ``message``; else None."""
    frame = parts.innermost
    if parts.exc_type != exc_type or frame is None or not pattern.search(frame.source or ""):
        return None
    return frame if message is None or re.fullmatch(message, parts.message.strip()) else None


# A division by the number of batches (or steps, or samples) of an epoch: the loader yields none. Paddle's
# BatchSampler.__len__ is num_samples // batch_size with drop_last (pp 2.0-3.0.0 paddle/io/dataloader/
# batch_sampler.py: 0 when the set is smaller than one batch, or empty), so a trainer's
# ``step % iters_per_epoch`` or ``correct / total`` raises ZeroDivisionError; CPython prints the line.
_PER_EPOCH_DIVISOR = re.compile(r"(?:%|//?)\s*\(?\s*(?:len\(\s*[\w.]*(?:loader|dataset|sampler|data)\w*\s*\)|[\w.]*?"
                                r"(?:iters?_per_epoch|steps?_per_epoch|batch(?:es)?_per_epoch|num_batch(?:es)?|"
                                r"batch_num|num_iters?|num_steps|total_steps|epoch_(?:iters?|steps)|num_samples|"
                                r"total_samples|sample_num)\b)", re.I)


# The same in an evaluation loop (eval*, val*, valid*, a bare test, *_eval) whose divisor is named for what it counted
# or timed over its batches (total, total_count, num_samples, sample_num, cnt), maybe under float(): zero means it saw
# no batch (Senta's eval_net on a test set smaller than paddle.v2.batch's one batch). Not num_classes, numel, a ratio.
_EVAL_FUNCTION = re.compile(r"^(?:(?:eval|evaluate|evaluation)(?:_\w+)?|(?:val|valid|validate|validation)(?:_(?:epoch|"
                            r"step|loop|one|model|net))?|test|do_test|run_test)$|_(?:eval|evaluate|val|valid)$", re.I)
_COUNTED_DIVISOR = re.compile(r"/\s*\(?\s*(?:(?:float|int)\(\s*)?(?:[\w.]*[.\[]['\"]?)?(?<!\w)(?:total(?:_(?:count|num|"
                              r"samples?|frames?|time|images?|batch(?:es)?|steps?))?|(?:sample|frame|batch|step|image|"
                              r"example)(?:s|_?(?:num|count|cnt)|s_?(?:num|count|cnt))|(?:num|cnt|count)_(?:samples?|"
                              r"frames?|batch(?:es)?|images?|steps?|examples?)|count|cnt)\b", re.I)


def from_empty_loader(parts: ErrorParts) -> Verdict | None:
    """A ZeroDivisionError whose line divides by an epoch's batch (step, sample) count, or by what an evaluation
    counted over its batches: the loader is empty."""
    frame = _failing_line(parts, "ZeroDivisionError", _PER_EPOCH_DIVISOR)
    if frame is not None:
        return _empty_loader(frame, "divides by an epoch's batch count", 70)
    frame = _failing_line(parts, "ZeroDivisionError", _COUNTED_DIVISOR)
    if frame is None or not _EVAL_FUNCTION.search(frame.func or ""):
        return None
    return _empty_loader(frame, f"({frame.func}) divides by what the evaluation counted", 60)


def _empty_loader(frame: Frame, what: str, score: int) -> Verdict:
    return Verdict(CauseId.sampler_too_few_samples, score, f"`{frame.source.strip()[:80]}` {what}, which was 0: the data "
                   "loader yields no batch (an empty set, or fewer samples than one batch with drop_last)", "frame")


# A line that looks a key up in a state dict (``state_dict[k]``, ``para_state_dict[name]``,
# ``model.state_dict()[k]``): a KeyError there is a parameter one side names and the other lacks.
_STATE_DICT_LOOKUP = re.compile(r"(?<!\w)\w{0,80}state_dict\w{0,80}(?:\(\))?\s*\[")  # from a word's start: linear


def from_state_dict_lookup(parts: ErrorParts) -> Verdict | None:
    """A KeyError whose line indexes a state dict: the checkpoint and the model name their parameters
    differently (a file of another architecture or implementation, a backbone-only file for a full model)."""
    frame = _failing_line(parts, "KeyError", _STATE_DICT_LOOKUP)
    if frame is None:
        return None
    return Verdict(CauseId.state_dict_shape_mismatch, 70, f"`{frame.source.strip()[:80]}` looks up "
                   f"{parts.message.strip()[:60]} in a state dict that lacks it: the checkpoint's parameter names "
                   "are not the model's", "frame")


# A decoder turning a model's class indices into characters or tokens: ``self.character[idx]`` in PaddleOCR's
# rec_postprocess (every era), a vocabulary's ``id2token[i]``. An index past the end is a class the dictionary
# lacks: the dictionary file (rec_char_dict_path, use_space_char, a vocab) is not the one the model was trained
# with (the file says so for a continuation line); in a post-processing file, a label list (``self.labels[clsid]``).
_VOCABULARY_LOOKUP = re.compile(r"\b(?:self\.)?(?:character|characters|char_list|charset|alphabet|vocab\w*|"
                                r"id2\w+|idx2\w+|idx_to_\w+|id_to_\w+|label_list|dict_character)\s*\[")
_LABEL_BY_CLASS_ID = re.compile(r"\b(?:self\.)?(?:labels?|class_?names?)\s*\[\s*(?:int\()?\s*(?:cls_?id|class_?id|cls)\b")
_DECODER = re.compile(r"(?:^|[/\\])\w*(?:postprocess|decod)\w*\.py$")
_POSTPROCESS = re.compile(r"(?:^|[/\\])\w*postprocess\w*\.py$")


def from_vocabulary_lookup(parts: ErrorParts) -> Verdict | None:
    """An IndexError where a decoder looks a model's output index up in its character or token list, or a
    post-processor a predicted class id in its label list."""
    frame = parts.innermost
    if parts.exc_type != "IndexError" or frame is None:
        return None
    path, source = frame.path.replace("\\", "/"), frame.source or ""
    if _POSTPROCESS.search(path) and _LABEL_BY_CLASS_ID.search(source):
        return Verdict(CauseId.config_error, 70, f"`{source.strip()[:80]}` ({frame.func}) looks a predicted class up "
                       "in a label list that is shorter: the label file (a layout or label dict) is not the one the "
                       "model was trained with", "frame")
    if not (_VOCABULARY_LOOKUP.search(source) or (frame.func.startswith("decode") and _DECODER.search(path))):
        return None
    return Verdict(CauseId.config_error, 70, f"`{source.strip()[:80]}` ({frame.func}) looks a model output up in a "
                   "character or token list that is shorter: the dictionary file is not the one the model was trained "
                   "with (rec_char_dict_path, use_space_char, the vocabulary)", "frame")


def from_postprocess_dims(parts: ErrorParts) -> Verdict | None:
    """numpy's "too many indices for array" in a post-processing file (DB's ``pred[:, 0, :, :]``): a model of another
    kind (fewer output dimensions) than the algorithm there expects, such as a classifier given as the detector."""
    frame = parts.innermost
    if (parts.exc_type != "IndexError" or frame is None or not parts.message.startswith("too many indices for array")
            or not _POSTPROCESS.search(frame.path.replace("\\", "/"))):
        return None
    return Verdict(CauseId.config_error, 65, f"`{(frame.source or '').strip()[:80]}` ({frame.func}) indexes the "
                   "model's output with more dimensions than it has: the model is not the kind this post-processing is "
                   "configured for (another model directory, or another algorithm in the config)", "frame")


# A map from a model's class ids to the dataset's categories or names (PaddleDetection's clsid2catid and
# catid2name, built from the label list / annotation file; a label map): an id it lacks is a class the model
# predicts and the dataset does not have: num_classes and the weights, or the label list, are of another set.
_CLASS_ID_LOOKUP = re.compile(r"\b(?:clsid2catid|catid2clsid|clsid2name|catid2name|cid2cname|cname2cid|label_?map|"
                              r"label_?dict|id2label|idx2label|category_?map|class_?names?|labels_?list|\w+_labels)\s*\[")


def from_class_id_lookup(parts: ErrorParts) -> Verdict | None:
    """A KeyError of a class id (or a class name, ``cname2cid['person']``) where the line maps classes between the
    model and the dataset's categories."""
    frame = _failing_line(parts, "KeyError", _CLASS_ID_LOOKUP, message=r"'?-?\d+'?|'[^'\n]{1,80}'")
    if frame is None or re.search(r"\.[A-Za-z]\w{1,4}'$", parts.message.strip()):
        return None  # a file's name ('img_0001.jpg') is a sample's key, not a class
    return Verdict(CauseId.config_error, 70, f"`{frame.source.strip()[:80]}` maps class {parts.message.strip()} to "
                   "a category the other side lacks: the model's classes (num_classes, the weights), the label list and "
                   "the annotations are not of one set", "frame")


# A class id used as an index into an array sized by the number of classes (a YOLO target's class channels, a one-hot
# row): numpy's "index 834 is out of bounds for axis 1 with size 56" there is a dataset whose class ids pass the
# configured num_classes.
# The class word is a variable: not a quoted dict key (``sample['gt_class'][i]``), an attribute or a call (``cls._table``).
_CLASS_INDEX = re.compile(r"\[[^\]\n]{0,80}(?<![\w'\".])(?:cls|cls_?id|class_?id|classes|gt_class|label|labels|cat_?id|"
                          r"category)(?![\w'\".(])[^\]\n]{0,80}\]")
_OUT_OF_BOUNDS = re.compile(r"index (?P<index>-?\d+) is out of bounds for axis \d+ with size (?P<size>\d+)")


def from_class_index_bounds(parts: ErrorParts) -> Verdict | None:
    """A numpy IndexError past an axis where the failing line indexes it with a class id."""
    frame, said = _failing_line(parts, "IndexError", _CLASS_INDEX), _OUT_OF_BOUNDS.search(parts.message)
    if frame is None or said is None:
        return None
    return Verdict(CauseId.config_error, 65, f"`{frame.source.strip()[:80]}` indexes by a class id ({said['index']}) "
                   f"past the {said['size']} entries sized by the number of classes: the dataset's class ids do not fit "
                   "the configured num_classes (or the label list)", "frame", sure=False)


# A predictor's inputs or outputs read by position (``input_names[1]``, ``get_output_names()[2]``, a predict script's
# ``outputs[1]``): a model with fewer of them than the code reads is another kind of model than the code was given for
# (a plain segmentation model in an interactive tool, a detector exported for another algorithm than the flag says).
_MODEL_IO_INDEX = re.compile(r"\b(?:input|output)_(?:names|handles|tensors)\s*\[|\bget_(?:input|output)_names\(\)\s*\[")
_PREDICT_FILE = re.compile(r"(?:^|[/\\])(?:predict|infer)\w*\.py$")
_OUTPUTS_BY_POSITION = re.compile(r"\bouts?(?:puts?)?\s*\[\s*\d+\s*\]")


def from_model_io_index(parts: ErrorParts) -> Verdict | None:
    """An IndexError where the line reads a predictor's inputs or outputs by position."""
    frame = parts.innermost
    # the predictor's names and outputs are Python lists: a numpy array's empty result is another error
    if parts.exc_type != "IndexError" or frame is None or frame.owner == "paddle" or \
            not re.fullmatch(r"(?:list|tuple) index out of range", parts.message.strip()):
        return None
    source = frame.source or ""
    if not (_MODEL_IO_INDEX.search(source) or _PREDICT_FILE.search(frame.path) and _OUTPUTS_BY_POSITION.search(source)):
        return None
    return Verdict(CauseId.config_error, 65, f"`{source.strip()[:80]}` reads the model's inputs or outputs by position "
                   "and the model has fewer: the model given is not the kind this code runs (another task or algorithm "
                   "than its settings say)", "frame", sure=False)


# A rank's own endpoint read by its id from the trainers' list the launcher's environment gives (fleet's
# ``worker_endpoints()[trainer_id]``, ``trainer_endpoints[rank]``; not a server list): the list is shorter than the ids
# run, so the job was started without the variables of a multi-trainer launch (PADDLE_TRAINER_ENDPOINTS for every
# trainer), or with a trainer id and a trainer count that do not fit them. Bounded words: a linear search.
_ENDPOINT_BY_RANK = re.compile(r"\b(?:worker|trainer)_?endpoints?(?:\(\))?\s*\[\s*(?:self\.)?(?=[\w.]{0,40}\])\w{0,40}"
                               r"(?:trainer_id|rank|_id|idx|index)\s*\]", re.I)


def from_endpoint_index(parts: ErrorParts) -> Verdict | None:
    """An IndexError where the failing line reads this rank's endpoint from the trainers' endpoint list."""
    frame = _failing_line(parts, "IndexError", _ENDPOINT_BY_RANK)
    if frame is None:
        return None
    return Verdict(CauseId.missing_dist_env, 65, f"`{frame.source.strip()[:80]}` reads this rank's endpoint by its "
                   "id and the endpoint list is shorter: the job's environment does not list every trainer "
                   "(PADDLE_TRAINER_ENDPOINTS, PADDLE_TRAINER_ID and PADDLE_TRAINERS_NUM do not fit): start it with "
                   "the launcher, or set them for every trainer", "frame", sure=False)


# A line that reads a section or key of the run's configuration (``config["Global"]``, ``cfg[name]['nms_offset']``,
# ``self.config[...]``, ``dataset_args.pop("name")``, ``global_params['infer_img']``): the configuration handed in
# lacks a key its code reads. The suites name their top-level sections in CamelCase (``Global``, ``Architecture``,
# ``TestReader``) and rename or restructure them between releases, so a lookup through one is, in the reports
# gathered, a config written for another release of the code reading it; a key read from a component's own
# arguments is one left out of or misspelt in the config given. Medium either way, the other its alternative.
# A bare ``params``/``args`` is left out: it as often holds a model's parameters or a parser's namespace.
CONFIG_NAME = r"\b(?:self\.)?(?:\w+_)?(?:configs?|cfg|conf)\b|\b\w+_(?:params|args)\b"
# ... and, on a failing line, the parsed arguments too (``args.model``, ``FLAGS.x``): a bare ``args`` is the parser's
# namespace there, a setting
SETTINGS_NAME = rf"{CONFIG_NAME}|\b(?:self\.)?(?:args|FLAGS|opts?|settings)\b"
_CONFIG_LOOKUP = re.compile(rf"(?:{CONFIG_NAME})(?:\s*\[\s*[\w'\"]+\s*\])*\s*(?:\[\s*['\"]|\.pop\(\s*['\"])")
_SECTION_LOOKUP = re.compile(rf"(?:{CONFIG_NAME})\s*\[\s*['\"][A-Z][A-Za-z]*['\"]\s*\]")


def from_config_lookup(parts: ErrorParts) -> Verdict | None:
    """A KeyError of a string key where the failing line reads the run's configuration by key."""
    frame = _failing_line(parts, "KeyError", _CONFIG_LOOKUP, message=r"'\w+'")
    if frame is None:
        return None
    line, key = frame.source.strip()[:80], parts.message.strip()
    if _SECTION_LOOKUP.search(frame.source):
        return Verdict(CauseId.paddle_api_mismatch, 65, f"`{line}` reads {key} from a configuration whose top-level "
                       "section lacks it: a config written for another release of the code reading it "
                       "(the suites rename and restructure their sections between releases), or a key left out",
                       "frame", sure=False)
    return Verdict(CauseId.config_error, 65, f"`{line}` reads {key} from a component's settings that lack it: a key "
                   "left out of or misspelt in the config given, or a config written for another release", "frame",
                   sure=False)


# A detection metric reading a ground-truth field of the records its reader fed (PaddleDetection's voc_eval.py:
# ``t['gt_bbox']``): the eval reader of the config given does not feed the fields that metric needs (another
# metric's reader, a TestReader where an EvalReader was meant, an annotation without them).
_GROUND_TRUTH = r"'(?:gt_bbox|gt_class|gt_poly|gt_score|difficult|is_crowd|gt_segm|gt_keypoint)'"
_METRIC_FILE = re.compile(r"(?:^|[/\\])(?:metrics?[/\\][^/\\]+|[^/\\]*eval[^/\\]*\.py)$")  # the file or its folder


def from_ground_truth_lookup(parts: ErrorParts) -> Verdict | None:
    """A KeyError of a ground-truth field in a suite's metric or evaluation code."""
    frame = parts.innermost
    if parts.exc_type != "KeyError" or frame is None or not re.fullmatch(_GROUND_TRUTH, parts.message.strip()):
        return None
    if (frame.suite is None and not frame.in_suite_clone) or not _METRIC_FILE.search(frame.path):
        return None
    return Verdict(CauseId.config_error, 65, f"the metric reads the ground-truth field {parts.message.strip()} and the "
                   "records its reader fed lack it: the config's eval reader does not feed the fields that metric "
                   "needs", "frame", sure=False)


# A config section read with ``.get('model')`` and used at once (``.copy()``, ``['type']``): None back means the config
# given has no such section (PaddleSeg's Config.model on a ``_base_`` file that holds only the datasets).
_CONFIG_GET_USED = re.compile(rf"(?P<holder>{CONFIG_NAME}|\b(?:self\.)?dic)\.get\(\s*['\"](?P<key>\w+)['\"]\s*\)\s*"
                              r"(?:\.(?P<attr>\w+)|\[)")
_NONE_USED = re.compile(r"^'NoneType' object (?:has no attribute '(?P<attr>\w+)'|is not subscriptable)$")


def from_config_get_none(parts: ErrorParts) -> Verdict | None:
    """'NoneType' has no attribute (or is not subscriptable) at a line that uses a config section read by ``.get``:
    the attribute the message names is the one used on the section (``dic`` only in a suite's own code)."""
    frame, none = parts.innermost, _NONE_USED.match(parts.message.strip())
    if parts.exc_type not in ("AttributeError", "TypeError") or none is None or frame is None:
        return None
    m = next((c for c in _CONFIG_GET_USED.finditer(frame.source or "") if c["attr"] == none["attr"]
              and (frame.suite is not None or not c["holder"].endswith("dic"))), None)
    if m is None:
        return None
    return Verdict(CauseId.config_error, 60, f"`{frame.source.strip()[:80]}` uses the config's {m['key']!r} section, and "
                   "the config given has none (a base file or another task's config, or the section misspelt)", "frame",
                   sure=False)


# A registry or name mapping (``cls._name_mapping[init_class]``, ``MODEL_REGISTRY[name]``, ``ARCH_MAP[arch]``) asked for a
# class name it lacks: the config or the checkpoint's own config names a class this code has not registered (a
# name misspelt, or one that only another release of the code has, the alternative).
_SUBSCRIPTED = re.compile(r"\b(?P<name>\w{1,80})\s*\[")
_REGISTRY_NAME = re.compile(r"[Rr]egistry|REGISTRY|(?:name|cls|class|arch|type|model|NAME|CLS|CLASS|ARCH|TYPE|MODEL)\w*?_?"
                            r"(?:mapping|map|MAPPING|MAP)$")


def from_registry_lookup(parts: ErrorParts) -> Verdict | None:
    """A KeyError of a class name at a line that looks it up in a registry or name mapping (each subscripted name
    checked on its own: one pattern over the whole line backtracks on long identifiers)."""
    frame = parts.innermost
    if parts.exc_type != "KeyError" or frame is None or not re.fullmatch(r"'[A-Z]\w+'", parts.message.strip()):
        return None
    if not any(_REGISTRY_NAME.search(m["name"]) for m in _SUBSCRIPTED.finditer(frame.source or "")):
        return None
    return Verdict(CauseId.config_error, 60, f"`{frame.source.strip()[:80]}` looks up {parts.message.strip()} in a "
                   "registry that lacks it: the config (or the checkpoint's config) names a class this code has not "
                   "registered, misspelt or of another release", "frame", sure=False)


# A script reading a property of a suite's config object (``cfg.model``, ``cfg.train_dataset``) that the Config class
# of the installed (or checked-out) suite does not have: the script was written for another release of the suite's
# config API (PaddleSeg 2.8 rebuilt its Config, and the contrib scripts still read the old properties).
_CONFIG_OBJECT_ATTRIBUTE = re.compile(r"^'(?:\w*Config|\w*Cfg)' object has no attribute '(?P<name>\w+)'$")
# The same for the parsed arguments a suite's own code reads (``args.return_word_box``): the parser that built them is
# another release's (a pip-installed suite's utility parser driving a checkout's code). Both only in a suite's (or an
# installed package's) frame: in the user's own script it is the script's typo.
_ARGS_ATTRIBUTE = re.compile(r"^'Namespace' object has no attribute '(?P<name>\w+)'$")
_YACS = re.compile(r"[/\\]yacs[/\\]config\.py$")  # CfgNode.__getattr__: raise AttributeError(name)


def from_config_attribute(parts: ErrorParts) -> Verdict | None:
    """An AttributeError of a config object (or, in a suite's code, of its parsed arguments) at a line that reads that
    attribute from ``cfg``/``config`` (``args``)."""
    frame, message = parts.innermost, parts.message.strip()
    if frame is not None and frame.func == "__getattr__" and _YACS.search(frame.path) and len(parts.frames) > 1:
        frame, message = parts.frames[-2], f"'Config' object has no attribute '{message}'"  # yacs raises the name alone
    if parts.exc_type != "AttributeError" or frame is None:
        return None
    if not frame.in_package_code:
        return None  # the user's own config class or parser: a typo of theirs
    m, holder = _CONFIG_OBJECT_ATTRIBUTE.match(message), r"(?:self\.)?(?:cfg|config|conf)"
    if m is None:
        m, holder = _ARGS_ATTRIBUTE.match(message), r"(?:self\.)?args"
    if m is None or not re.search(rf"\b{holder}\.{m['name']}\b", frame.source or ""):
        return None
    return Verdict(CauseId.paddle_api_mismatch, 60, f"`{frame.source.strip()[:80]}` reads {m['name']} from a config "
                   "object (or parsed arguments) that has no such attribute: the code was written for another release "
                   "of the suite's config or its argument parser", "frame", sure=False)


# A confusion matrix built as a (num_classes x num_classes) sparse matrix (PaddleSeg's metrics, scipy's
# coo_matrix): a label or prediction not below num_classes is an index past it.
_MATRIX_INDEX = re.compile(r"^(?:row|column) index exceeds matrix dimensions$")
_CLASS_COUNT = re.compile(r"\b(?:num_classes|class_num|num_class|n_classes|nclass)\b", re.I)


def from_class_count_matrix(parts: ErrorParts) -> Verdict | None:
    """scipy's index check of a matrix the traceback shapes by the class count."""
    if parts.exc_type != "ValueError" or not _MATRIX_INDEX.match(parts.message.strip()):
        return None
    if not any(_CLASS_COUNT.search(f.source or "") for f in parts.frames):
        return None
    return Verdict(CauseId.config_error, 70, "a label or prediction is not below the class count the confusion "
                   "matrix is built with: the data's labels and the configured number of classes disagree", "frame")


# Python 2's AttributeError of a module names no module ('module' object has no attribute 'x'): the failing
# line says whose it is. A name read from paddle./fluid. (or fluid's layers, imported by that name) there is an API
# this release lacks (0.x-1.x).
_PY2_MODULE_ATTRIBUTE = re.compile(r"^'module' object has no attribute '(?P<name>\w+)['‘’]\W*$")


def from_paddle_attribute_py2(parts: ErrorParts) -> Verdict | None:
    """Python 2's AttributeError of a module at a line that reads the name from ``paddle.``/``fluid.``."""
    m, frame = _PY2_MODULE_ATTRIBUTE.match(parts.message), parts.innermost
    if parts.exc_type != "AttributeError" or m is None or frame is None:
        return None
    if not re.search(rf"(?<![\w.])(?:paddle|fluid|layers)(?:\.\w+)*\.{m['name']}\b", frame.source or ""):
        return None
    return Verdict(CauseId.paddle_api_mismatch, 75, f"`{frame.source.strip()[:80]}` reads {m['name']} from a Paddle "
                   "module that lacks it in this release: the code was written for another Paddle version", "call")


# A suite's line that indexes a tensor's shape (``speech_lengths.shape[0]``): under Paddle 2.5's 0-D tensors a
# reduction or an index that gave shape [1] gives shape [], whose list has no index 0.
_SHAPE_INDEX = re.compile(r"\.shape\[\s*-?\d+\s*\]")
# numpy's words for the same on a loss or metric fetched as an array (``loss.numpy()[0]``, ``[l[0] for l in avg_loss_list]``)
_ZERO_D_INDEXED = r"too many indices for array: array is 0-dimensional, but \d+ were indexed"
_LOSS_ITEM = re.compile(r"^(?=.*(?:\.numpy\(\)|loss|metric|acc))(?=.*\[\s*0\s*\])")


def from_zero_d_shape_index(parts: ErrorParts) -> Verdict | None:
    """An IndexError where a suite's line indexes a tensor's shape: code written before Paddle's 0-D tensors."""
    frame = _failing_line(parts, "IndexError", _SHAPE_INDEX, message=r"list index out of range")  # numpy's is a tuple
    if frame is None:
        value = _failing_line(parts, "IndexError", _LOSS_ITEM, message=_ZERO_D_INDEXED)
        if value is None or value.suite is None:
            return None
        return Verdict(CauseId.paddle_api_mismatch, 60, f"`{value.source.strip()[:80]}` takes item [0] of a loss or metric "
                       "that is 0-D (Paddle 2.5+ returns them so): the suite's code was written for the shape [1] of "
                       "older releases", "frame", sure=False)
    if frame.suite is None:
        return None
    return Verdict(CauseId.paddle_api_mismatch, 65, f"`{frame.source.strip()[:80]}` indexes a shape that has no such "
                   "entry: a 0-D tensor (shape []) where the suite's code, written before Paddle 2.5, expects shape [1]",
                   "frame", sure=False)


# Paddle's reshape check (reshape_op.cc ValidateShape, in one era's words "The 'shape' in ReshapeOp is invalid", in a
# later one's "The 'shape' attribute in ReshapeOp is invalid"): the target cannot hold the input's elements. In a suite's model or
# an exported predictor (no frame of the user's), the input is of another size than the model or its config
# expects (image size, frame count, sequence length); in the user's own call, the user's shape arithmetic.
_RESHAPE_INVALID = re.compile(r"The 'shape'(?: attribute)? in ReshapeOp is invalid")


def from_reshape_misfit(parts: ErrorParts) -> Verdict | None:
    """Paddle's reshape check failing where the reshape is not the user's own call."""
    if not _RESHAPE_INVALID.search(parts.message) and not _RESHAPE_INVALID.search(parts.text):
        return None
    caller = next((f for f in reversed(parts.frames) if f.owner != "paddle"), None)
    if caller is not None and caller.owner == "user" and caller.suite is None:
        return None
    return Verdict(CauseId.config_error, 60, "a reshape inside the model cannot hold the input's elements: the input "
                   "is of another size than the model or its config expects (image size, frame count, sequence "
                   "length)", "frame", sure=False)
