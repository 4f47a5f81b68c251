"""Signatures: Paddle's own checks while it loads saved parameters into a program or a layer, and
the predictors' checks while they open a saved model's files.

These messages are raised only by the functions that copy a saved tensor into a parameter, or that
open a model file for a predictor, so the line names its cause whatever frames (or none) were
pasted with it.
"""

from __future__ import annotations

from ...catalog.ids import CauseId
from .model import sig as _sig

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
    # A predictor reads the saved program and its deployment config before anything runs: the file is not
    # at the path it was given (a relative path from another working directory, a model exported elsewhere).
    _sig("model_file_unopened", r"\bCannot open file (?P<path>\S+?),? (?:at \[|please confirm whether the file)|"
         r"Failed to load yaml file (?P<yaml>\S+?), maybe you should check this file", "cause",
         CauseId.file_not_found, 85,
         "paddle.fluid.core_avx.EnforceNotMet: Cannot open file model/__model__ at [/paddle/paddle/fluid/inference/"
         "api/analysis_predictor.cc:639]",
         title="a model file the predictor opens is not where it looked",
         source="pp 1.2-1.8 fluid/inference/io.cc ReadBinaryFile and inference/api/analysis_predictor.cc "
                "LoadProgramDesc (PADDLE_ENFORCE(static_cast<bool>(fin), \"Cannot open file %s\", filename)); pp "
                "2.x-3.x the same checks as NotFound (Cannot open file %s, please confirm whether the file is "
                "normal.); FastDeploy 0.x-1.x vision/*/preprocessor.cc BuildPreprocessPipelineFromConfig (Failed to "
                "load yaml file \" << config_file << \", maybe you should check this file.) (FastDeploy#750)"),
)
