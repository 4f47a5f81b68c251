"""Classify an error by its parts: its codes (through the code tables), the operator, the C++ file
and the Python module that raised it, its type; the catalog's words (the signatures) come last.

``classify`` returns a :class:`Verdict` naming a cause with a why that says which part decided, or,
when no table applies, ``python_exception`` with the frame that raised it (the user's code or
Paddle's), or None when the parts say nothing.
"""

from __future__ import annotations

import re

from ...catalog.codes import enum_causes, errno_cause, generic_cause, lone_cause, unsure_code
from ...catalog.ids import CauseId
from ..signatures.rows.api_versions import IMPORTED_PACKAGES
from . import codes as tables
from .calls import (INSTALLED_PACKAGE, from_argument_check, from_call_signature, from_called_result,
                    from_makedirs_on_file, from_normalize_layout, from_package_arguments, from_setting_not_json,
                    from_swig_attribute, from_unopenable_model_path)
from .components import COMPONENT_MESSAGES, CPP_FILES, ERROR_CLASSES, NCCL_OPERATORS, TYPE_BY_MODULE
from .installed import (frozen_bundle_lacks, import_as_before_python37, library_lacks_imported_name,
                        optional_import_failed, package_lacks_own_module, paddle_dependency_missing,
                        paddle_package_lacks_name, protobuf_older_than_generated, shadowed_package,
                        stdlib_module_gone, third_party_dll)
from .lookups import (SETTINGS_NAME, from_class_count_matrix, from_class_id_lookup,
                      from_class_index_bounds, from_config_attribute, from_config_get_none, from_config_lookup,
                      from_empty_loader, from_endpoint_index, from_ground_truth_lookup, from_model_io_index,
                      from_paddle_attribute_py2, from_postprocess_dims, from_registry_lookup, from_reshape_misfit,
                      from_state_dict_lookup, from_vocabulary_lookup, from_zero_d_shape_index)
from .numbers import NUMBERS
from .parts import SUITE_PACKAGES, Code, ErrorParts, Verdict
from .suite_checks import find_check, from_choice_assert, from_membership_assert
from .wording import read_type_wording, read_wording

# HIP's hipError_t keeps CUDA's numbers and texts for the errors both runtimes have: read in CUDA's enumeration.
_ENUM_OF = {"cuda": "cudaError_t", "hip": "cudaError_t", "nccl": "ncclResult_t", "cudnn": "cudnnStatus_t",
            "cublas": "cublasStatus_t", "cusolver": "cusolverStatus_t"}
_LEGACY = {"cuda": tables.CUDA_LEGACY_NUMBERS, "cudnn": tables.CUDNN_LEGACY_NUMBERS}
# CUDA driver API names (CUDA_ERROR_*) for the runtime names they correspond to (cuda.h).
_DRIVER_NAMES = {"CUDA_ERROR_OUT_OF_MEMORY": "cudaErrorMemoryAllocation",
                 "CUDA_ERROR_NOT_INITIALIZED": "cudaErrorInitializationError",
                 "CUDA_ERROR_NO_DEVICE": "cudaErrorNoDevice", "CUDA_ERROR_INVALID_DEVICE": "cudaErrorInvalidDevice",
                 "CUDA_ERROR_NO_BINARY_FOR_GPU": "cudaErrorNoKernelImageForDevice",
                 "CUDA_ERROR_ILLEGAL_ADDRESS": "cudaErrorIllegalAddress",
                 "CUDA_ERROR_LAUNCH_FAILED": "cudaErrorLaunchFailure",
                 "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH": "cudaErrorSystemDriverMismatch",
                 "CUDA_ERROR_STUB_LIBRARY": "cudaErrorStubLibrary"}


def code_name(code: Code, text: str) -> str | None:
    """The enumerator a code stands for. A number is read in the numbering of its era: the error
    text (cudaGetErrorString's) decides when it is quoted; else the current header's value, or the
    CUDA <= 10.0 value when the current header has none."""
    if code.name:
        return _DRIVER_NAMES.get(code.name, code.name) if code.kind == "cuda_driver" else code.name
    if code.number is None:
        return None
    if code.kind in ("cuda", "hip"):
        low = re.sub(r"\s+", " ", text.lower())
        quoted = next((name for words, name in tables.CUDA_TEXTS.items() if words in low), None)
        if quoted:
            return quoted
    current = NUMBERS.get(_ENUM_OF.get(code.kind, ""), {}).get(code.number)
    return current or _LEGACY.get(code.kind, {}).get(code.number)


def _enum_of(kind: str) -> str:
    return _ENUM_OF["cuda" if kind == "cuda_driver" else kind]


# Shared memory as the DataLoader uses it: /dev/shm itself, or the frames that put a batch there (Paddle's
# worker and its shared-memory tensor, CPython's multiprocessing heap and shared_memory).
_SHARED_MEMORY = re.compile(r"/dev/shm|dataloader[/\\]worker\.py|_share_filename|shared_memory|multiprocessing[/\\]"
                            r"(?:heap|reduction|shared_memory|queues)\.py|_array_to_share_memory_tensor")


def from_shared_memory_full(parts: ErrorParts) -> Verdict | None:
    """ENOSPC (errno 28, a full disk: no cause of its own in the code table) where the error's own frames or
    text are the DataLoader's shared memory: /dev/shm is what is full."""
    if not any(c.kind == "errno" and c.number == 28 for c in parts.codes) or not _SHARED_MEMORY.search(parts.text):
        return None
    return Verdict(CauseId.shm_too_small, 85, "errno 28 (ENOSPC) where the DataLoader writes its batches to shared "
                   "memory: /dev/shm is full", "frame")


def from_codes(parts: ErrorParts) -> Verdict | None:
    generic = None
    for code in parts.codes:
        if code.kind == "errno":
            cause = errno_cause(code.number)
            if cause is not None:
                return Verdict(cause, 90, f"errno {code.number} names it", "code")
            continue
        if code.kind == "signal":
            continue
        name = code_name(code, parts.text)
        cause = enum_causes(_enum_of(code.kind)).get(name or "")
        if cause is not None:
            return Verdict(cause, 92, f"the error code {name} ({code.kind}) names it", "code")
        generic = generic or _lone(parts, code, name) or Verdict(
            generic_cause(_enum_of(code.kind)), 75, f"the error code {name or code.number} ({code.kind}) names no "
            "cause of its own", "code", sure=code.kind not in ("cudnn", "cublas", "cusolver") and not unsure_code(name or ""))
    return generic


def _lone(parts: ErrorParts, code, name: str | None) -> Verdict | None:
    """A code that names no cause, read by its ``[lone]`` cause (codes.toml) when every code of the
    error is its library's: no CUDA fault or other library's status beside it."""
    lone = lone_cause(name or "")
    kinds = {_enum_of(c.kind) for c in parts.codes if c.kind not in ("errno", "signal")}
    if lone is None or kinds != {_enum_of(code.kind)}:
        return None
    return Verdict(lone, 70, f"the error code {name} ({code.kind}) names no cause of its own and no other library's "
                   "code is beside it: the library fails on this machine (it does not fit the build, the driver or "
                   "the GPU)", "code")


def _unregistered(parts: ErrorParts) -> bool:
    """The op registry's own words for the operator: op_info.h's ``Operator (x) is not registered.``,
    framework.py get_op_proto's ``Operator "x" has not been registered.`` or operator.cc's ``There are no kernels which
    are registered in the x operator.`` (pp 1.8-3.3.1; a build or release without the op's kernels)."""
    op = re.escape(parts.operator or "")
    return bool(op) and re.search(rf"Operator\s*(?:\(\s*{op}\s*\)\s*is\s+not|\"?{op}\"?\s+has\s+not\s+been)\s+"
                                  rf"registered|no kernels which are registered in the {op} operator", parts.text,
                                  re.I) is not None


def from_operator(parts: ErrorParts) -> Verdict | None:
    if not _unregistered(parts):
        return None
    if parts.operator in NCCL_OPERATORS:
        return Verdict(CauseId.windows_no_nccl, 95,
                       f"operator {parts.operator} exists only in builds with NCCL and is not registered in this "
                       "one (a Windows or CPU build)", "operator")
    # Any other operator the registry lacks: the program or saved inference model was made by a Paddle
    # (or a suite's release) that has it, and this Paddle does not (ops added or removed between versions).
    return Verdict(CauseId.paddle_api_mismatch, 85,
                   f"operator {parts.operator} is not registered in the installed Paddle: the program or saved "
                   "model was made for a Paddle version that has it (pp 1.8-3.3.1 framework/op_info.h, "
                   "fluid|base/framework.py get_op_proto)", "operator")


# NCCL calls made while a job runs (not when its communicators are made): a failed check on one of
# them is a collective that failed, whatever file the check sits in (nccl.h's API).
_NCCL_RUNTIME_CALL = re.compile(r"\bnccl(?P<call>GroupEnd|AllReduce|Bcast|Broadcast|AllGather|ReduceScatter|Reduce|"
                                r"Send|Recv)\s*\(")


def from_nccl_call(parts: ErrorParts) -> Verdict | None:
    m = _NCCL_RUNTIME_CALL.search(parts.message or parts.text)
    if m is None:
        return None
    return Verdict(CauseId.nccl_error, 85, f"the call that failed is NCCL's nccl{m['call']}: a collective failed "
                   "while the job ran, after its communicators were made", "call")


def component_of(parts: ErrorParts) -> str:
    """The component that raised, as the tables read it: ``cpp:<file> op:<operator> py:<module>``."""
    paddle = parts.innermost_of("paddle")
    cpp = parts.cpp_file.replace("\\", "/").rsplit("/", 1)[-1]
    return f"cpp:{cpp} op:{parts.operator} py:{paddle.module if paddle else ''}"


def from_component(parts: ErrorParts) -> Verdict | None:
    """A component (the C++ file, operator or module that raised) with what its message says."""
    component, said = component_of(parts), f"{parts.message}\n{parts.text}"
    for component_re, message_re, cause, specificity, why, _ in COMPONENT_MESSAGES:
        if (not component_re or re.search(component_re, component, re.I)) and re.search(message_re, said, re.I):
            return Verdict(cause, specificity, why, "component")
    return None


def from_cpp_file(parts: ErrorParts) -> Verdict | None:
    path = parts.cpp_file.replace("\\", "/")
    for pattern, cause, specificity, why, _ in CPP_FILES:
        if cause is not None and path and re.search(pattern, path, re.I):
            return Verdict(cause, specificity, f"{why} ({path.rsplit('/', 1)[-1]}:{parts.cpp_line})", "cpp_file")
    return None


def from_error_class(parts: ErrorParts) -> Verdict | None:
    for error_class, message_re, cause, specificity, why in ERROR_CLASSES:
        if parts.error_class == error_class and re.search(message_re, parts.message or parts.text):
            return Verdict(cause, specificity, why, "error_class")
    return None


def _type_names(exc_type: str) -> set[str]:
    """The raised class's name, and the builtin its name declares it to be: a library's
    ``DatasetFileNotFoundError`` (PaddleX 3.x dataset checks) is a file-not-found error by its name, as
    Python's own subclasses are."""
    names = {exc_type}
    if exc_type.endswith("FileNotFoundError"):
        names.add("FileNotFoundError")
    return names


def from_type_and_module(parts: ErrorParts) -> Verdict | None:
    paddle = parts.innermost_of("paddle")
    module = paddle.module if paddle else ""
    names = _type_names(parts.exc_type) | {parts.qualified}  # a library's error by its module (yaml.parser...)
    for types, module_re, message_re, cause, specificity, why, _ in TYPE_BY_MODULE:
        if not names.intersection(types):
            continue
        if module_re and not re.search(module_re, module or "-"):
            continue
        if message_re and not re.search(message_re, parts.message, re.I):
            continue
        where = f" (raised in paddle/{module})" if module else ""
        return Verdict(cause, specificity, why + where, "module" if module_re else "type")
    return None


_NAME_UNKNOWN = re.compile(r"\bis not in \w+ list\b|\bis not (?:a )?(?:registered|known|supported) (?:task|model)\b")
_CHECK_MEANS = {CauseId.file_not_found: "a file or directory it needs is not where the configuration says",
               CauseId.config_error: "a configured value is not one of the choices the code handles"}


def from_suite_check(parts: ErrorParts) -> Verdict | None:
    """An exception a suite's own check raised (anatomy/suite_checks.py): what the check tests names the
    cause. Not for an exception whose innermost frame is Paddle's (Paddle's tables read those)."""
    frame = parts.innermost
    if not parts.exc_type or frame is not None and frame.owner == "paddle":
        return None
    found = find_check(parts.exc_type, parts.message, frame.path if frame else None)
    if found is None:
        return None
    check, specificity = found
    if check.cause == CauseId.config_error and frame is not None and INSTALLED_PACKAGE.search(frame.path) and \
            _NAME_UNKNOWN.search(parts.message):
        # An installed package's registry of the names it takes (tasks, models) changes release by release: a name
        # it lacks is, in the reports gathered, one from another release's docs more often than a typo.
        return Verdict(CauseId.paddle_api_mismatch, 70, f"the installed package's own registry lacks the name it was "
                       f"given ({check.suite}'s check at {check.path}:{check.line}): the code or command follows another "
                       "release's docs (or mistypes the name)", "suite_check")
    return Verdict(check.cause, specificity, f"{check.suite}'s check at {check.path}:{check.line} raises it when "
                   f"`{check.test}` does not hold: {_CHECK_MEANS[check.cause]}", "suite_check")


# A failed import at a line that imports from one of Paddle's versioned packages (or a suite used as a wheel, or a suite's
# own package, as a clone holds it: a name one of its modules lacks is two releases mixed): CPython 3 names the dotted
# path up to its first missing part ('paddle.fluid'), Python 2 that part and what follows it, unquoted
# (fluid.executor; "paddle.fluid" there may be paddle itself missing), either "cannot import name" (not of a
# partially initialized module: a circular import). The package was found and lacks the module or the name.
_PACKAGED = rf"(?:{IMPORTED_PACKAGES}|{SUITE_PACKAGES})"
_IMPORT_LINE = re.compile(rf"^(?:from\s+(?P<pkg>{_PACKAGED}(?:\.\w+)*)\s+import\s+(?P<names>[\w\s,()]+?)(?:\s+as\s+\w+)?|"
                          rf"import\s+(?P<mod>{_PACKAGED}(?:\.\w+)+)(?:\s+as\s+\w+)?)\s*$")
_MISSING = re.compile(r"^No module named '?(?P<mod>[\w.]+?)'?$|^cannot import name (?!.*partially initialized)'?(?P<name>\w+)")


def from_import_site(parts: ErrorParts) -> Verdict | None:
    """An ImportError raised by an import of a Paddle package's module or name that this release lacks."""
    frame = parts.innermost
    if parts.exc_type not in ("ImportError", "ModuleNotFoundError") or frame is None:
        return None
    line, said = _IMPORT_LINE.match(frame.source), _MISSING.match(parts.message)
    if line is None or said is None:
        return None
    imported = line["pkg"] or line["mod"]
    top, _, below = imported.partition(".")
    if said["mod"] and "'" in parts.message:  # Python 3: from the top, and a part below it was not found
        if "." not in said["mod"] or not f"{imported}.".startswith(f"{said['mod']}."):
            return None  # the package itself is missing (not installed), or the name is another module's
    elif said["mod"] and f".{said['mod']}." not in f".{below}.":  # Python 2: the parts below the one found
        return None
    elif said["name"] and said["name"] not in re.split(r"[\s,()]+", line["names"] or ""):
        return None
    return Verdict(CauseId.paddle_api_mismatch, 80, f"`{frame.source[:80]}` imports what this release of "
                   f"{top} does not have ({parts.message[:60]}): the code was written for another "
                   "version", "call")


# The DataLoader's reader thread: its loop function is on the stack of whatever the reader raised.
# pp 1.8.5-2.0 paddle/fluid/reader.py GeneratorLoader (thread target __thread_main__, which re-raises
# the reader's exception with six.reraise); pp 2.0.2-3.3.1 paddle/(fluid|io)/dataloader/dataloader_iter.py
# (_DataLoaderIterSingleProcess / _DataLoaderIterMultiProcess._thread_loop, and _get_data, which the
# thread calls to read the workers' queue: queue.Empty there is the workers' silence).
_READER_THREAD = re.compile(r"(?:^|/)(?:fluid/reader\.py:__thread_main__|(?:fluid|io)/dataloader/dataloader_iter\.py:"
                            r"(?:_thread_loop|_get_data))$")


def from_reader_thread(parts: ErrorParts) -> Verdict | None:
    """An exception raised in the DataLoader's reader thread (its loop is a frame of the traceback),
    when nothing more specific (a missing file, a code) names what the reader tripped on."""
    frame = next((f for f in parts.frames if f.owner == "paddle" and _READER_THREAD.search(f"{f.module}:{f.func}")),
                 None)
    if frame is None or not parts.exc_type:
        return None
    below = parts.frames[parts.frames.index(frame) + 1:]
    if any(f.owner == "user" for f in below):
        return None  # the user's dataset code ran in the thread itself (num_workers=0: no worker) and raised
    return Verdict(CauseId.dataloader_worker_crash, 75, f"{parts.exc_type} was raised in the DataLoader's reader "
                   f"thread ({frame.module}, in {frame.func}): the dataset or reader code failed on a sample", "frame")


def from_installation(parts: ErrorParts) -> Verdict | None:
    """The traceback's files say where the failing import came from (anatomy/installed.py)."""
    found = (import_as_before_python37(parts) or shadowed_package(parts) or frozen_bundle_lacks(parts)
             or package_lacks_own_module(parts) or paddle_dependency_missing(parts) or stdlib_module_gone(parts)
             or protobuf_older_than_generated(parts) or library_lacks_imported_name(parts)
             or third_party_dll(parts) or paddle_package_lacks_name(parts) or optional_import_failed(parts))
    # Below 75 the traceback says only that two installed releases do not fit: at most medium.
    return Verdict(found[0], found[1], found[2], "frame", sure=found[1] >= 75) if found else None


# A failing line that takes its values from a config (``cfg.metric``) or the parsed arguments (``args.model``).
_CONFIG_SOURCE = re.compile(SETTINGS_NAME)


def from_wording(parts: ErrorParts) -> Verdict | None:
    """The error's own words (anatomy/wording.py), when no part above named a cause."""
    config_line = parts.innermost is not None and _CONFIG_SOURCE.search(parts.innermost.source or "") is not None
    wording = read_wording(parts.message, parts.text, config_line) or read_type_wording(parts.qualified)
    if wording is None or (wording.also_users_slip and parts.innermost is not None and parts.innermost.owner == "user"):
        return None
    return Verdict(wording.cause, wording.specificity, f"its words say {wording.means} (as {wording.said_by} "
                   "word it)", "wording", sure=False)


def fallback(parts: ErrorParts) -> Verdict | None:
    """``python_exception``, saying where it was raised: the user's own code or Paddle's."""
    if not parts.exc_type:
        return None
    frame = parts.innermost
    if frame is None:
        where = "no traceback frame is in the text"
    elif frame.owner == "user":
        where = f"the innermost frame that raised is the user's code ({frame.path}, in {frame.func})"
    else:
        where = f"it was raised in {frame.owner} code ({frame.module}, in {frame.func})"
    return Verdict(CauseId.python_exception, 50, f"{parts.exc_type} and no code table applies; {where}", "frame")


def classify(parts: ErrorParts) -> Verdict | None:
    """The most telling part decides: an operator, a code, the C++ file, the type in its module."""
    codes = None  # a code's generic verdict (any CUDA or NCCL error) stands if nothing more telling does
    for rule in (from_operator, from_shared_memory_full, from_codes, from_nccl_call, from_component, from_cpp_file, from_error_class,
                 from_type_and_module, from_installation, from_unopenable_model_path, from_suite_check, from_call_signature, from_called_result,
                 from_package_arguments, from_argument_check, from_import_site, from_reader_thread, from_empty_loader, from_state_dict_lookup,
                 from_vocabulary_lookup, from_postprocess_dims, from_class_id_lookup, from_config_lookup, from_registry_lookup, from_membership_assert,
                 from_choice_assert, from_makedirs_on_file, from_ground_truth_lookup, from_setting_not_json,
                 from_config_attribute, from_config_get_none, from_model_io_index, from_endpoint_index, from_class_index_bounds, from_class_count_matrix,
                 from_paddle_attribute_py2, from_swig_attribute, from_normalize_layout, from_zero_d_shape_index,
                 from_reshape_misfit):
        verdict = rule(parts)
        if rule is from_codes:
            codes = verdict
        # A generic CUDA/NCCL verdict waits for a more telling part, unless a call or a component row
        # (the component and what it did) decided it.
        if verdict is not None and (verdict.cause not in (CauseId.cuda_error_other, CauseId.nccl_error)
                                    or verdict.part in ("call", "component")):
            return verdict
    return codes or from_wording(parts) or fallback(parts)

