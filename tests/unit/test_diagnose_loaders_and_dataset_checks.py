"""Issue 29, after gathered batch 28: a missing file or a version boundary, in the words its emitter prints.

- .NET's ``DllNotFoundException`` as Visual Studio's exception helper shows it: the ``Message=Unable to load
  DLL '<name>' or one of its dependencies: <module not found> (0x8007007E)`` line, without the exception's name
  or the word HRESULT on it: a library file that is not where the loader looks.
- PaddleDetection's dataset check (``Config annotation <path> is not a file, dataset config is not valid``,
  ``Config dataset_dir ... is not exits``, ``Config image_dir ... is not a directory``): a file the config
  names is missing. A warning: the verdict where nothing explains more, never ``high``.
- The download helpers' assertion ``downloading from <path> not a url``: a local file the code expected is not
  on disk (``from_pretrained`` falls back to a download); the helper's own source line is not that message.
- numpy 1.x's ``module compiled against API|ABI version 0x.. but this version of numpy is 0x..``: an extension
  built for another numpy.
- After gathered batch 42: numpy's ``all input arrays must have the same shape`` (``np.stack``), which the
  DataLoader's default collate raises when a batch's samples differ in shape: a DataLoader failure, at most medium
  (user code calling ``np.stack`` raises the same words).

Lines follow the emitting code's template (cited in the rows); none is a corpus log.
"""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import FRAMES as TRACEBACK, root_cause_of, verdict_of as _cause


@pytest.mark.parametrize("message", [
    "  Message=Unable to load DLL 'model_infer.dll' or one of its dependencies: 找不到指定的模块。 (0x8007007E)\n",
    "  Message=Unable to load DLL 'ppocr.dll' or one of its dependencies: The specified module could not be found. "
    "(0x8007007E)\n",
])
def test_a_dll_the_dotnet_loader_cannot_find_is_a_missing_file(tmp_path, message):
    rc = _cause(tmp_path, "System.DllNotFoundException\n  HResult=0x80131524\n" + message
                + "  Source=MyOcrApp\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "[05/11 10:02:13] ppdet.utils.download WARNING: Config annotation dataset/voc/train.txt is not a file, "
    "dataset config is not valid\n",
    "2020-08-09 13:29:10,160-WARNING: Config dataset_dir dataset/railway is not exits, dataset config is not valid\n",
    "[05/11 10:02:13] ppdet.utils.download WARNING: Config image_dir dataset/coco/train2017 is not a directory, "
    "dataset config is not valid\n",
])
def test_a_dataset_file_the_detection_config_names_but_is_not_there_is_a_missing_file(tmp_path, line):
    rc = _cause(tmp_path, line + "[05/11 10:02:13] ppdet.utils.download INFO: Dataset /data/d is not valid for "
                                 "reason above, try searching /root/.cache/paddle/dataset or downloading dataset...\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)
    assert rc.confidence != "high"


def test_a_later_error_outranks_the_dataset_warning(tmp_path):
    rc = _cause(tmp_path, "[05/11 10:02:13] ppdet.utils.download WARNING: Config annotation dataset/a.json is not a "
                          "file, dataset config is not valid\n"
                          "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 1.5GB memory on GPU "
                          "0, 7.2GB memory has been allocated and available memory is only 300MB.\n")
    assert rc.cause == CauseId.gpu_oom, (rc.cause, rc.why)


def test_a_local_path_given_to_the_downloader_is_a_missing_file(tmp_path):
    rc = _cause(tmp_path, TRACEBACK.format(path="/opt/py/site-packages/paddle/utils/download.py", line=147,
                                           func="get_path_from_url",
                                           code='assert is_url(url), f"downloading from {url} not a url"')
                + "AssertionError: downloading from ./checkpoints/model_state.pdparams not a url\n")
    assert rc.cause == CauseId.file_not_found, (rc.cause, rc.why)
    assert "./checkpoints/model_state.pdparams" in rc.message


def test_the_downloaders_source_line_alone_is_not_that_message(tmp_path):
    rc = root_cause_of(tmp_path, TRACEBACK.format(path="/opt/py/site-packages/paddle/utils/download.py", line=147,
                                                  func="get_path_from_url",
                                                  code='assert is_url(url), "downloading from {} not a url"'
                                                       ".format(url)"))
    assert rc is None or rc.cause != CauseId.file_not_found


@pytest.mark.parametrize("line", [
    "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xf\n",
    "RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000\n",
])
def test_an_extension_built_for_another_numpy_is_a_dependency_version_mismatch(tmp_path, line):
    rc = _cause(tmp_path, line)
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


@pytest.mark.parametrize("frames", [
    # the default collate's own frame (pp 2.x paddle/io/dataloader/collate.py), as a full traceback shows it
    TRACEBACK.format(path="/opt/py/site-packages/paddle/io/dataloader/collate.py", line=56,
                     func="default_collate_fn", code="batch = np.stack(batch, axis=0)"),
    # a traceback cut at the training loop's line that asked the loader for a batch
    TRACEBACK.format(path="train.py", line=200, func="train", code="for step, (img, label) in enumerate(train_loader):"),
])
def test_samples_the_collate_cannot_stack_are_a_dataloader_failure_at_most_medium(tmp_path, frames):
    rc = _cause(tmp_path, frames + "ValueError: all input arrays must have the same shape\n")
    assert rc.cause == CauseId.dataloader_worker_crash, (rc.cause, rc.why)
    assert rc.confidence != "high"
