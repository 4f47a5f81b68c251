"""Issue 29, after gathered batch 20: a suite's own checks while it builds a dataset from the config.
PaddleDetection's ``get_dataset_path`` raises ``ValueError: Dataset X is not valid and cannot parse dataset
type ...`` only after it found no dataset at the configured paths (a missing file), and PaddleOCR's
``SimpleDataSet`` asserts that its config's lists agree (a config error). Suite frames are not Paddle's,
so the message is what names the check. Lines follow the emitting code's template (cited in the rows);
none is a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

PPDET = ("{info}Traceback (most recent call last):\n"
         '  File "tools/train.py", line 145, in main\n'
         "    eval_reader = create_reader(cfg.EvalReader, devices_num=1)\n"
         '  File "/work/PaddleDetection/ppdet/data/source/dataset.py", line 65, in get_roidb\n'
         "    self.image_dir)\n"
         '  File "/work/PaddleDetection/ppdet/utils/download.py", line 154, in get_dataset_path\n'
         "    format(path, osp.split(path)[-1]))\n"
         "ValueError: Dataset {path} is not valid and cannot parse dataset type '{name}' for automaticly "
         "downloading, which only supports 'voc' , 'coco', 'wider_face', 'fruit', 'roadsign_voc' and 'mot' "
         "currently\n")

PPOCR = ("Traceback (most recent call last):\n"
         '  File "tools/train.py", line 55, in main\n'
         "    train_dataloader = build_dataloader(config, 'Train', device, logger)\n"
         '  File "/work/PaddleOCR/ppocr/data/__init__.py", line 64, in build_dataloader\n'
         "    dataset = eval(module_name)(config, mode, logger, seed)\n"
         '  File "/work/PaddleOCR/ppocr/data/simple_dataset.py", line 39, in __init__\n'
         "    assert len(\n"
         "AssertionError: {message}\n")


@pytest.mark.parametrize("info, path, name", [
    ("", "dataset/dog", "dog"),
    ("[08/12 08:42:37] ppdet.utils.download INFO: Dataset /data/PaddleDetection/dataset/fruit/fruit-dection is "
     "not valid for reason above, try searching /home/u/.cache/paddle/dataset or downloading dataset...\n",
     "/data/PaddleDetection/dataset/fruit/fruit-dection", "fruit-dection"),
    ("", "dataset\\VOCdevkit", "dataset\\VOCdevkit"),
])
def test_a_detection_dataset_that_is_not_at_its_configured_path_is_a_missing_file(tmp_path, info, path, name):
    rc = root_cause_of(tmp_path, PPDET.format(info=info, path=path, name=name))
    assert rc is not None and rc.cause == CauseId.file_not_found, (rc and rc.cause, rc and rc.why)
    assert "cannot parse dataset type" in rc.evidence[0].text


@pytest.mark.parametrize("message", ["The length of ratio_list should be the same as the file_list.",
                                     "Either data_dir or data_dir_list must be provided."])
def test_an_ocr_dataset_whose_config_lists_disagree_is_a_config_error(tmp_path, message):
    rc = root_cause_of(tmp_path, PPOCR.format(message=message))
    assert rc is not None and rc.cause == CauseId.config_error, (rc and rc.cause, rc and rc.why)
    assert message in rc.evidence[0].text


def test_another_assertion_in_the_same_dataset_stays_the_exception(tmp_path):
    """Only the checks the rows cite: an assertion about the data itself is not read as the config."""
    rc = root_cause_of(tmp_path, PPOCR.format(message="the label of image 1.jpg is empty"))
    assert rc is not None and rc.cause == CauseId.python_exception, (rc and rc.cause, rc and rc.why)
