"""Issue 29, after gathered batch 39: the import names of the suites used as wheels (paddleocr, paddleclas, paddlets,
ppgan; not the clones' ppdet, ppocr, paddleseg) are versioned like the Paddle libraries, the loss's check of labels
against the class count, PaddleSeg's config naming a component nothing registered, and gast's AST nodes without
the fields this Python's ast has. Every line follows the emitting code's template cited in the signatures; none is
a corpus log."""

import pytest

from paddle_doctor.catalog.ids import CauseId
from pastes import root_cause_of

_diagnose = root_cause_of


@pytest.mark.parametrize("line", [
    "ModuleNotFoundError: No module named 'paddlets.transform.normalization'",
    "ImportError: cannot import name 'PPStructureV3' from 'paddleocr' (/py/site-packages/paddleocr/__init__.py)",
    "AttributeError: module 'paddleclas' has no attribute 'PaddleClasV3'",
    "ImportError: cannot import name 'Photo2CartoonPredictor' from 'ppgan.apps' (/py/site-packages/ppgan/apps/__init__.py)",
])
def test_a_name_missing_from_a_suite_package_is_code_for_another_release(tmp_path, line):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "tools/run.py", line 4, in <module>\n'
                             "    main()\n" + line + "\n")
    # a suite's missing submodule has its own row (another release at most at medium: session 13)
    expected = "suite_module_missing" if "No module named" in line else "paddle_api_missing"
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == expected, (rc.cause, rc.code, rc.why)


def test_a_suite_run_from_its_clone_is_left_to_the_working_tree(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "tools/infer/predict_system.py", line 21, in '
                             "<module>\n    from ppocr.utils.utility import initial_logger\nImportError: cannot import "
                             "name 'initial_logger' from 'ppocr.utils.utility' (/w/PaddleOCR/ppocr/utils/utility.py)\n")
    assert rc is None or rc.code != "paddle_api_missing", rc


def test_a_top_level_utils_shadowed_by_another_suite_stays_the_users_error(tmp_path):
    """The module named is 'utils' (a top-level name), not a suite package: a clash of two trees on sys.path."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\n'
                             "ImportError: cannot import name 'logger' from 'utils' (/py/site-packages/paddleocr/ppocr/"
                             "postprocess/../utils/__init__.py)\n")
    assert rc.cause == CauseId.python_exception, (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "ValueError: Target 2 is out of upper bound.",
    "ValueError: label should not out of bound, but gotTensor(shape=[1], dtype=int64, place=CUDAPlace(0), "
    "stop_gradient=True,",
    "Error: /paddle/paddle/phi/kernels/gpu/cross_entropy_kernel.cu:998 Assertion `false` failed. The value of label "
    "expected >= 0 and < 2, or == 255, but got 218. Please check label value.",
    "Error: /paddle/paddle/fluid/operators/softmax_with_cross_entropy_op.cu:481 Assertion `labels_[idx_lbl] >= 0` "
    "failed. The value of label[9302] expected >= 0 and < 5, or == 255,but got 5. Please check input value.",
])
def test_a_label_beyond_the_class_count_is_the_data_or_config_not_a_bug(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.config_error and rc.code == "label_beyond_classes", (rc.cause, rc.why)
    assert rc.confidence.value == "medium"


def test_a_config_component_nothing_registered_is_a_config_error(tmp_path):
    """PaddleSeg cvlibs/config.py _load_component: RuntimeError('The specified component was not found {}.')."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "tools/predict.py", line 166, in main\n'
                             "    cfg.check_sync_info()\nRuntimeError: The specified component was not found "
                             "MattingDataset.\n")
    assert rc.cause == CauseId.config_error and rc.code == "config_component_unregistered", (rc.cause, rc.why)


@pytest.mark.parametrize("line", [
    "AttributeError: 'Assign' object has no attribute 'type_comment'",
    "AttributeError: 'arguments' object has no attribute 'posonlyargs'",
])
def test_an_ast_node_without_a_field_is_the_gast_version(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.dependency_version_mismatch and rc.code == "gast_node_field_missing", (rc.cause, rc.why)


def test_a_users_object_without_an_attribute_stays_a_python_exception(tmp_path):
    rc = _diagnose(tmp_path, "AttributeError: 'Trainer' object has no attribute 'type_comment_x'\n")
    assert rc is None or rc.cause != CauseId.dependency_version_mismatch, rc


@pytest.mark.parametrize("line", [
    "TypeError: declarative() got an unexpected keyword argument 'property'",
    "[2022-10-09 11:30:31,895] [   ERROR] - declarative() got an unexpected keyword argument 'property'",
])
def test_to_statics_old_name_refusing_a_keyword_is_code_for_a_later_paddle(tmp_path, line):
    rc = _diagnose(tmp_path, line + "\n")
    assert rc.cause == CauseId.paddle_api_mismatch and rc.code == "to_static_keyword_unknown", (rc.cause, rc.why)
