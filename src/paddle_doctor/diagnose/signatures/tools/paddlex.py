"""Signatures: PaddleX's own checks, of the models and configs it is given: 1.x-2.x's model loader and release check,
3.x's registries, config keys and devices (PaddleOCR 3.x builds on it)."""

from __future__ import annotations

from ....catalog.ids import CauseId
from ..model import sig as _sig

_PADDLEX_ERRORS = "PaddleX 3.x paddlex/utils/errors/others.py"

PADDLEX = (
    # --- PaddleX 3.x's high-performance inference: no backend known for the model on this device -----------------
    _sig("paddlex_hpi_no_backend", r"No inference backend and configuration could be suggested\. Reason: (?P<why>.{1,300})",
         "cause", CauseId.config_error, 75, "RuntimeError: No inference backend and configuration could be suggested. "
         "Reason: 'PP-LCNet_x1_0_textline_ori' is not a known model.",
         title="high-performance inference was asked for a model or device it has no configuration for ({why}): run "
               "without it (or set its backend by hand)", most="medium",
         source="PaddleX 3.x paddlex/inference/models/common/static_infer.py HPInfer._determine_backend_and_config "
                "(raise RuntimeError(f\"No inference backend and configuration could be suggested. Reason: {ret[1]}\"))"),
    # --- PaddleX 1.x-2.x (and PaddleRS built on it): a dataset's file list splits each line at spaces --------------
    _sig("paddlex_file_list_space", r"A space is defined as the delimiter to separate the (?P<what>[\w ]{1,40}?) "
         r"paths?, so the space cannot be in the", "cause", CauseId.config_error, 85,
         "Exception: A space is defined as the delimiter to separate the image and label path, so the space cannot be "
         "in the image or label path, but the line[a b.jpg c.png] of  file_list[train.txt] has a space in the image "
         "or label path.",
         title="a line of the dataset's file list has a space inside a path: the list separates the {what} paths by "
               "spaces (rename the files or folders without spaces)",
         source="PaddleX 1.x-2.x paddlex/cv/datasets/seg_dataset.py SegDataset.__init__ (items = line.strip().split(); "
                "if len(items) > 2: raise Exception(\"A space is defined as the delimiter to separate the image and "
                "label path, so the space cannot be in the image or label path, but the line[{}] of  file_list[{}] "
                "has a space in the image or label path.\")); PaddleRS's change-detection dataset (ValueError, "
                "\"... the source and target image path ...\")"),
    # --- PaddleX 1.x-2.x: a saved model's model.yml names its class; 2.x's old entry points refuse to run --------------
    # load_model builds the class model.yml names from paddlex.cv.models: a class this release lacks is a model saved
    # by another PaddleX release; 2.x's paddlex.cls/det/seg modules stop scripts written for 1.x.
    _sig("paddlex_release_mismatch", r"There's no attribute (?P<name>\w+) in paddlex\.cv\.models|Your running script "
         r"needs PaddleX\s*(?P<need>[<>=!]=?\s*[\d.]+)", "cause", CauseId.paddle_api_mismatch, 85,
         "Exception: There's no attribute PPYOLOv2 in paddlex.cv.models",
         title="the model or script was made for another PaddleX release than the installed one (its model class or "
               "entry point is not in this release)",
         source="PaddleX 1.x paddlex/cv/models/load_model.py load_model (if not hasattr(paddlex.cv.models, "
                "info['Model']): raise Exception(\"There's no attribute {} in paddlex.cv.models\")); 2.x "
                "paddlex/cls.py, det.py, seg.py (message = 'Your running script needs PaddleX<2.0.0, please refer to "
                "{} to solve this issue.')"),
    # --- PaddleX 3.x (and PaddleOCR 3.x, which builds on it): its own checks of names, keys and devices -----------
    # Its registry knows the models and pipelines of its own release: a name it does not list is one of another
    # release (or misspelt: config_error is near); the rest say the user's config or choice.
    _sig("paddlex_not_registered", r"`(?P<name>[^`]{1,80})` is not registered on (?P<base>\w+)\.", "cause",
         CauseId.paddle_api_mismatch, 70, "paddlex.utils.errors.others.ClassNotFoundException: `PP-DocLayout-L` is not "
         "registered on BasePredictor.",
         title="the installed PaddleX does not know {name} ({base}'s registry): a model or pipeline of another "
               "PaddleX/PaddleOCR release, or a misspelt name", source=_PADDLEX_ERRORS + " raise_class_not_found_error "
         "(f\"`{cls_name}` is not registered on {base_cls_name}.\")", most="medium"),
    _sig("paddlex_model_unknown", r"The (?P<what>model|pipeline) \((?P<name>[^)]{1,200})\) (?:is no exists|does not "
         r"exist)!", "cause", CauseId.file_not_found, 75, "Exception: The model (/root/models/det) is no exists! Please "
         "using directory of local model files or model name supported by PaddleX!",
         title="PaddleX finds no {what} {name}: neither a local path nor a name its release lists", most="medium",
         source="PaddleX 3.0b paddlex/inference/models/__init__.py check_model (f\"The model ({model}) is no exists! "
                "...\"), paddlex/inference/pipelines/__init__.py load_pipeline_config (f\"The pipeline ({pipeline}) "
                "does not exist! ...\")"),
    _sig("paddlex_key_not_found", r"`(?P<key>[^`]{1,80})` not found in config\.", "cause", CauseId.config_error, 75,
         "paddlex.utils.errors.others.KeyNotFoundError: `Global` not found in config.",
         title="the config PaddleX was given lacks the key {key}", most="medium",
         source=_PADDLEX_ERRORS + " raise_key_not_found_error (f\"`{key}` not found in config.\")"),
    _sig("paddlex_device_unsupported", r"The device `(?P<dev>[^`]{1,40})` is not supported!", "cause",
         CauseId.config_error, 80, "paddlex.utils.errors.others.UnsupportedDeviceError: The device `mlu` is not "
         "supported! The supported device types are: [cpu, gpu, xpu, npu].",
         title="PaddleX was asked for a device it does not run on ({dev}): choose one of the device types it lists",
         source=_PADDLEX_ERRORS + " raise_unsupported_device_error (f\"The device `{device}` is not supported! \")"),
)
