"""Issue 29, after gathered batch 35: three readings by the emitting code, none fitted to a corpus log's words alone.

- pybind's ``Invalid CUDAPlace(%d), must inside [0, %d), because GPU number on your machine is %d`` reaches a
  worker's log as a glog E line with no "Error" on it: the line is still read, and as a device the process
  cannot see.
- The dygraph layer's own check while it copies a loaded dict into its parameters (1.8 ``add_parameter`` /
  ``set_dict``, 2.x ``add_parameter``): ``Parameter not found, Can't not find [ %s ] in stat_dict``, a
  checkpoint saved by another model or another version of it; never high (a wrapper's prefix loses keys so too).
- PaddleSeg 0.x's static loader prints ``[SKIP] Pretrained weight %s/%s doesn't exist`` for each program
  parameter with no file in the pretrained directory: weights for another model than the config builds.
"""

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of


def test_a_glog_cudaplace_line_is_read_as_a_device_the_process_cannot_see(tmp_path):
    text = ("I0902 16:14:05.101 61197 init.cc:88] Init commandline: dummy\n"
            "E0902 16:14:06.490722 61197 pybind.cc:2330] Invalid CUDAPlace(1), must inside [0, 1), because GPU "
            "number on your machine is 1\n")
    rc = root_cause_of(tmp_path, text, "workerlog.1")
    assert rc is not None and rc.cause == CauseId.device_not_found, (rc and rc.cause, rc and rc.why)


def test_a_parameter_the_loaded_dict_lacks_is_a_checkpoint_of_another_model(tmp_path):
    text = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
            "    model.set_dict(state)\n"
            "RuntimeError: Parameter not found, Can't not find [ fc.weight ] in stat_dictuse_structured_name is "
            "set to [True]\n")
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.state_dict_shape_mismatch, (rc and rc.cause, rc and rc.why)
    assert rc.confidence != "high"


def test_paddleseg_skipping_a_weight_with_no_file_is_weights_for_another_model(tmp_path):
    text = ("2020-10-12 10:00:01 load pretrained weights from ./pretrained_model/xception65_imagenet\n"
            "[SKIP] Pretrained weight ./pretrained_model/xception65_imagenet/conv1/weights doesn't exist\n"
            "[SKIP] Pretrained weight ./pretrained_model/xception65_imagenet/conv2/weights doesn't exist\n")
    rc = root_cause_of(tmp_path, text)
    assert rc is not None and rc.cause == CauseId.state_dict_shape_mismatch, (rc and rc.cause, rc and rc.why)
