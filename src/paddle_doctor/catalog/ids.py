"""Typed cause ids: one ``CauseId`` member per entry of ``causes.toml``.

Outside ``catalog/`` a cause is named by its member (``CauseId.gpu_oom``), never by a string, so that a
typo fails at import and every use of a cause can be found with one grep. Members are ``str`` subclasses
equal to their ids: they compare, hash, format and serialise (JSON, TOML, SARIF) as the plain id, so the
contracts that carry ids as strings are unchanged.

The members are written out (editors and type checkers see them) and generated from the catalog's
table names: after adding an entry to ``causes.toml``, run ::

    python src/paddle_doctor/catalog/ids.py --write

(a script, not ``-m``: importing the package runs the check below, which refuses a drifted file).
:func:`check_against_catalog` runs at import and refuses a member list that has drifted from the
catalog's tables (a cheap header scan, not a TOML parse, so ``--help`` stays fast);
``tests/unit/test_catalog_ids.py`` keeps the file equal to what the generator writes.
"""

from __future__ import annotations

import enum
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    _StrEnum = enum.StrEnum
else:  # pragma: no cover - exercised on Python 3.10 only

    class _StrEnum(str, enum.Enum):
        def __str__(self) -> str:
            return str.__str__(self)

        def __format__(self, spec: str) -> str:
            return str.__format__(str(self), spec)


class CauseId(_StrEnum):
    """One member per catalog entry, in the catalog's order; the value is the stable id."""

    # -- generated from causes.toml by `python src/paddle_doctor/catalog/ids.py --write` --
    python_exception = "python_exception"
    gpu_oom = "gpu_oom"
    host_oom_killed = "host_oom_killed"
    host_out_of_memory = "host_out_of_memory"
    shm_too_small = "shm_too_small"
    dataloader_worker_crash = "dataloader_worker_crash"
    too_many_open_files = "too_many_open_files"
    uneven_eval_batches = "uneven_eval_batches"
    uneven_train_batches = "uneven_train_batches"
    rank_divergent_collective = "rank_divergent_collective"
    collective_timeout = "collective_timeout"
    stale_download_lock = "stale_download_lock"
    nccl_error = "nccl_error"
    nccl_library_missing = "nccl_library_missing"
    nccl_version_mismatch = "nccl_version_mismatch"
    paddle_version_mismatch = "paddle_version_mismatch"
    paddle_api_mismatch = "paddle_api_mismatch"
    dependency_version_mismatch = "dependency_version_mismatch"
    nccl_network_interface = "nccl_network_interface"
    cuda_cudnn_mismatch = "cuda_cudnn_mismatch"
    cuda_arch_unsupported = "cuda_arch_unsupported"
    cuda_error_other = "cuda_error_other"
    device_not_found = "device_not_found"
    cuda_visible_devices_misconfig = "cuda_visible_devices_misconfig"
    stale_process_holding_gpu = "stale_process_holding_gpu"
    leftover_paddle_process = "leftover_paddle_process"
    state_dict_prefix_mismatch = "state_dict_prefix_mismatch"
    state_dict_shape_mismatch = "state_dict_shape_mismatch"
    checkpoint_unsafe = "checkpoint_unsafe"
    checkpoint_corrupt = "checkpoint_corrupt"
    residual_dist_env = "residual_dist_env"
    missing_dist_env = "missing_dist_env"
    wrong_host_ip = "wrong_host_ip"
    network_partition = "network_partition"
    config_error = "config_error"
    port_in_use = "port_in_use"
    launcher_port_race = "launcher_port_race"
    file_not_found = "file_not_found"
    main_guard_missing = "main_guard_missing"
    segfault = "segfault"
    duplicate_openmp_runtime = "duplicate_openmp_runtime"
    windows_no_nccl = "windows_no_nccl"
    launcher_bug = "launcher_bug"
    launcher_python_not_found = "launcher_python_not_found"
    dataparallel_unused_parameters = "dataparallel_unused_parameters"
    sampler_too_few_samples = "sampler_too_few_samples"
    unknown = "unknown"
    rank_local_metric = "rank_local_metric"
    eval_samples_dropped = "eval_samples_dropped"
    eval_samples_duplicated = "eval_samples_duplicated"
    concurrent_checkpoint_write = "concurrent_checkpoint_write"
    model_not_in_eval_mode = "model_not_in_eval_mode"
    # -- end of generated members --


# The package's data file, read as a plain file: the wheel installs it unzipped, and importlib.resources
# alone costs ~10 ms of start-up that `--help` and `explain` would pay.
CATALOG_FILE = Path(__file__).with_name("causes.toml")
_HEADER = re.compile(r"(?m)^\[([a-z][a-z0-9_]*)\]\s*$")


class CatalogDriftError(RuntimeError):
    """``CauseId`` and ``causes.toml`` list different ids (an entry added on one side only)."""


def catalog_headers() -> tuple[str, ...]:
    """The table names of ``causes.toml``, in file order."""
    text = CATALOG_FILE.read_text(encoding="utf-8")
    return tuple(_HEADER.findall(text))


def check_against_catalog() -> None:
    members = tuple(member.value for member in CauseId)
    headers = catalog_headers()
    if members != headers:
        only_enum = sorted(set(members) - set(headers))
        only_toml = sorted(set(headers) - set(members))
        raise CatalogDriftError(
            f"CauseId and causes.toml differ: only in CauseId {only_enum}, only in causes.toml {only_toml}"
            " (or the order differs): regenerate with `python src/paddle_doctor/catalog/ids.py --write`"
        )


BEGIN = "    # -- generated from causes.toml by `python src/paddle_doctor/catalog/ids.py --write` --\n"
END = "    # -- end of generated members --\n"


def render_ids(source: str, headers: tuple[str, ...]) -> str:
    """``source`` (this file's text) with one member per catalog id between the markers."""
    head, rest = source.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    members = "".join(f'    {name} = "{name}"\n' for name in headers)
    return head + BEGIN + members + END + tail


def _write(path: Path, text: str) -> None:
    partial = path.with_suffix(".py.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


if __name__ == "__main__":  # run as a script: the package's import would refuse a drifted file
    _text = render_ids(Path(__file__).read_text(encoding="utf-8"), catalog_headers())
    if sys.argv[1:] == ["--write"]:
        _write(Path(__file__), _text)
    else:
        sys.stdout.write(_text)
else:
    check_against_catalog()
