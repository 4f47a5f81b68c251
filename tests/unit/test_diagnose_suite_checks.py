"""The suites' own checks read by what they test (issue 29, "read the whole error"): a suite's assert
or raise after a path test names ``file_not_found``, after a test of a setting's choices
``config_error`` (anatomy/suite_checks.json, made by bench/extract_suite_checks.py from the suites'
sources). Before it, each such message was ``python_exception``."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from pastes import root_cause_of
from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose.anatomy.suite_checks import find_check, suite_checks

REPO = Path(__file__).resolve().parents[2]


def _extractor():
    spec = importlib.util.spec_from_file_location("extract_suite_checks", REPO / "bench" / "extract_suite_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sample(pattern: str) -> str:
    """A message the pattern was made from: each formatted value as a word, each run of spaces one space."""
    text = pattern.replace(".*?", "X7").replace(".*", "").replace(r"\s+", " ")
    return re.sub(r"\\(.)", r"\1", text)


def test_every_row_names_a_cause_by_its_test_and_finds_its_own_message():
    checks = suite_checks()
    assert len(checks) >= 500
    assert {c.cause for c in checks} == {CauseId.file_not_found, CauseId.config_error}
    for check in checks:
        message = _sample(check.message)
        assert check.key in message and re.fullmatch(check.message, message, re.S), check
        found = find_check(check.exc_type, message, f"/home/u/{check.suite}/{check.path}")
        assert found is not None and found[0].cause == check.cause, check


PPDET_INFER_LIST = """\
Traceback (most recent call last):
  File "tools/infer.py", line 230, in <module>
    main()
  File "tools/infer.py", line 226, in main
    run(FLAGS, cfg)
  File "tools/infer.py", line 168, in run
    assert os.path.isfile(infer_list), \\
AssertionError: infer_list dataset/test_list.txt is not a valid file path.
"""

PADDLEOCR_MODE = """\
[2023/05/04 10:12:33] ppocr INFO: train with paddle 2.4.2 and device Place(gpu:0)
Traceback (most recent call last):
  File "tools/train.py", line 200, in <module>
    main(config, device, logger, vdl_writer)
  File "tools/train.py", line 54, in main
    train_dataloader = build_dataloader(config, 'Train', device, logger)
  File "/home/aistudio/PaddleOCR/ppocr/data/__init__.py", line 62, in build_dataloader
    'Train', 'Eval', 'Test'
AssertionError: Mode should be Train, Eval or Test.
"""


def test_a_suite_path_check_is_file_not_found_citing_the_suite(tmp_path):
    finding = root_cause_of(tmp_path, PPDET_INFER_LIST)
    assert finding.cause == CauseId.file_not_found and finding.confidence == "medium"
    assert "PaddleDetection" in finding.why and "os.path.isfile(infer_list)" in finding.why


def test_a_suite_choice_check_is_config_error(tmp_path):
    finding = root_cause_of(tmp_path, PADDLEOCR_MODE)
    assert finding.cause == CauseId.config_error and finding.confidence == "medium"
    assert "ppocr/data/__init__.py" in finding.why


def test_raised_in_paddle_or_too_short_away_from_its_file_stays_python_exception(tmp_path):
    in_paddle = PADDLEOCR_MODE.replace("/home/aistudio/PaddleOCR/ppocr/data/__init__.py",
                                       "/usr/lib/python3.8/site-packages/paddle/io/reader.py")
    assert root_cause_of(tmp_path, in_paddle).cause == CauseId.python_exception
    moved = PADDLEOCR_MODE.replace("ppocr/data/__init__.py", "mytools/loader.py")  # 7 literal words: named alone
    assert root_cause_of(tmp_path, moved).cause == CauseId.config_error
    short = PADDLEOCR_MODE.replace("Mode should be Train, Eval or Test.", "Unknown output_mode rle.")
    assert root_cause_of(tmp_path, short).cause == CauseId.python_exception  # 3 words, not the check's own file
    at_home = short.replace("/home/aistudio/PaddleOCR/ppocr/data/__init__.py",
                            "/w/PaddleSeg/contrib/SegmentAnything/segment_anything/automatic_mask_generator.py")
    assert root_cause_of(tmp_path, at_home).cause == CauseId.config_error


def _kinds(source: str) -> list[tuple[str, str]]:
    extractor = _extractor()
    return [(exc_type, kind) for _, exc_type, kind, _, _ in extractor.checks(ast.parse(source))]


@pytest.mark.parametrize("source, kinds", [
    ("assert os.path.exists(p), 'the image {} does not exist'.format(p)", [("AssertionError", "path")]),
    ("if not osp.isdir(d):\n    raise FileNotFoundError(f'no dataset dir at {d}')", [("FileNotFoundError", "path")]),
    ("assert mode in ['train', 'eval'], 'mode must be train or eval'", [("AssertionError", "choice")]),
    ("if cfg.loss not in SUPPORTED_LOSSES:\n    raise ValueError('unknown loss type given')", [("ValueError", "choice")]),
    ("if name == 'a':\n    x = 1\nelif name == 'b':\n    x = 2\nelse:\n    raise NotImplementedError('no such model')",
     [("NotImplementedError", "choice")]),
    ("if not cfg.val_dataset:\n    raise RuntimeError('no val dataset in the config')", [("RuntimeError", "setting")]),
    ("val = cfg.val_dataset\nif val is None:\n    raise RuntimeError('no val dataset in the config')",
     [("RuntimeError", "setting")]),
    ("assert args.model_dir is not None, '--model_dir should be defined'", [("AssertionError", "setting")]),
    ("if not boxes:\n    raise ValueError('no boxes in this sample')", []),  # data, not a setting
    ("assert len(v) in [2, 3], 'filters must have two or three values'", []),  # computed from data
    ("assert x.shape == y.shape, 'the shapes of x and y differ'", []),
    ("if not ok:\n    raise ValueError('the check failed for this sample')", []),
])
def test_the_extractor_keeps_path_and_choice_checks_only(source, kinds):
    assert _kinds(source) == kinds


def test_a_message_with_fewer_than_three_literal_words_is_left_out():
    extractor = _extractor()
    assert extractor.pattern(["{} not found".replace("{}", ""), None]) is None
    assert extractor.pattern(["the dataset dir ", None, " does not exist"]) == r"the\s+dataset\s+dir\s+.*?\s+does\s+not\s+exist"
