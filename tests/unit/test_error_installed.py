"""Issue 29, after gathered batch 24: where the failing import came from (anatomy/installed.py). A
package that resolves to the user's own folder, file or source checkout is not an API the installed
release lacks; generated protobuf code newer than the protobuf runtime is a dependency's version; Paddle
Serving's device check. The texts follow CPython's and protobuf's messages and Serving's check_cuda;
none is a corpus log."""

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.diagnose import diagnose_paths

SITE = "/usr/local/lib/python3.9/site-packages"


def _diagnose(tmp_path, text):
    log = tmp_path / "paste.log"
    log.write_text(text)
    return diagnose_paths([str(log)]).root_cause


def test_a_package_without_version_is_a_folder_of_that_name(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/home/u/proj/run.py", line 1, in <module>\n'
                             f'    import paddlenlp\n  File "{SITE}/paddlenlp/__init__.py", line 3, in <module>\n'
                             "    print(paddle.__version__)\n"
                             "AttributeError: module 'paddle' has no attribute '__version__'\n")
    assert rc.cause == CauseId.python_exception and "namespace package" in rc.why, (rc.cause, rc.why)
    assert CauseId.paddle_api_mismatch in [a.cause for a in rc.alternatives]


def test_a_source_checkout_shadows_the_installed_package(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n'
                             '  File "/home/u/src/Paddle2ONNX/paddle2onnx/__init__.py", line 19, in <module>\n'
                             "    from .version import version\n"
                             "ModuleNotFoundError: No module named 'paddle2onnx.version'\n")
    assert rc.cause == CauseId.python_exception and "outside the installation" in rc.why, (rc.cause, rc.why)


def test_the_installed_package_lacking_a_module_stays_an_api_mismatch(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/home/u/proj/train.py", line 2, in <module>\n'
                             "    import paddlehub.vision.transforms as T\n"
                             "ModuleNotFoundError: No module named 'paddlehub.vision'\n")
    assert rc.cause == CauseId.paddle_api_mismatch, (rc.cause, rc.why)


def test_a_script_named_after_the_package_imports_itself(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "visualdl.py", line 4, in <module>\n'
                             "    from visualdl import LogWriter\nImportError: cannot import name 'LogWriter'\n")
    assert rc.cause == CauseId.python_exception and "itself named visualdl.py" in rc.why, (rc.cause, rc.why)


def test_generated_protobuf_code_newer_than_the_runtime(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n'
                             f'  File "{SITE}/paddle/fluid/proto/framework_pb2.py", line 31, in <module>\n'
                             "    serialized_options=None,\n"
                             "TypeError: __init__() got an unexpected keyword argument 'serialized_options'\n")
    assert rc.cause == CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_an_unexpected_keyword_outside_generated_code_is_not_protobuf(tmp_path):
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "/home/u/proj/model.py", line 8, in build\n'
                             "    layer = Block(file=path)\n"
                             "TypeError: __init__() got an unexpected keyword argument 'file'\n")
    assert rc is None or rc.cause != CauseId.dependency_version_mismatch


def test_serving_found_no_nvidia_device(tmp_path):
    rc = _diagnose(tmp_path, 'GPU not found, please check your environment or use cpu version by "pip install '
                             'paddle_serving_server"\n')
    assert rc.cause == CauseId.device_not_found, (rc.cause, rc.why)


def _import_of(importer: str, code: str, message: str) -> str:
    return ('Traceback (most recent call last):\n  File "/home/u/proj/app.py", line 3, in <module>\n    import jinja2\n'
            f'  File "{importer}", line 20, in <module>\n    {code}\n{message}\n')


def test_an_installed_library_importing_what_another_installed_one_lacks(tmp_path):
    """jinja2 2.x imports soft_unicode, which markupsafe 2.1 removed: two releases that do not fit."""
    rc = _diagnose(tmp_path, _import_of(f"{SITE}/jinja2/utils.py", "from markupsafe import soft_unicode",
                                        "ImportError: cannot import name 'soft_unicode' from 'markupsafe' "
                                        f"({SITE}/markupsafe/__init__.py)"))
    assert rc.cause == CauseId.dependency_version_mismatch and rc.confidence.value == "medium", (rc.cause, rc.why)
    assert "installed jinja2 imports soft_unicode" in rc.why


def test_the_users_own_import_of_a_missing_name_is_not_two_libraries(tmp_path):
    """A misspelt name in the user's import (`Logwriter` for `LogWriter`) says nothing of versions."""
    rc = _diagnose(tmp_path, 'Traceback (most recent call last):\n  File "./tools/train.py", line 40, in <module>\n'
                             "    from markupsafe import Markupp\nImportError: cannot import name 'Markupp' from "
                             f"'markupsafe' ({SITE}/markupsafe/__init__.py)\n")
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_a_users_file_shadowing_the_library_is_not_two_libraries(tmp_path):
    """The message's path is the user's datasets.py, not the installed datasets package."""
    rc = _diagnose(tmp_path, _import_of(f"{SITE}/paddlenlp/datasets/dataset.py",
                                        "from datasets import load_dataset as origin_load_dataset",
                                        "ImportError: cannot import name 'load_dataset' from 'datasets' "
                                        "(/home/u/proj/datasets.py)"))
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)


def test_a_paddle_package_lacking_a_name_is_not_a_dependency(tmp_path):
    rc = _diagnose(tmp_path, _import_of(f"{SITE}/PPOCRLabel/PPOCRLabel.py", "from paddleocr import PPStructure",
                                        "ImportError: cannot import name 'PPStructure' from 'paddleocr' "
                                        f"({SITE}/paddleocr/__init__.py)"))
    assert rc.cause != CauseId.dependency_version_mismatch, (rc.cause, rc.why)
