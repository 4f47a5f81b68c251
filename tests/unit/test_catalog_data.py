"""The catalog's data files beside causes.toml (alternatives, triage families, code tables): what the
real files hold resolves to catalog entries, and a bad file is refused at load with one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.catalog import CatalogError, cause_ids, load_causes
from paddle_doctor.catalog.alternatives import alternatives_of, load_alternatives
from paddle_doctor.catalog.codes import ENUMS, code_tables, errno_cause, generic_cause, load_codes, signal_of
from paddle_doctor.catalog.ids import CATALOG_FILE, CauseId
from paddle_doctor.catalog.triage import load_families, triage_families, triage_family, variations_for
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.triage import plan

REPO = Path(__file__).resolve().parents[2]
CODES_OK = """
[cudaError_t]
gpu_oom = ["cudaErrorMemoryAllocation"]
none = ["cudaErrorUnknown"]
[ncclResult_t]
[cudnnStatus_t]
[cublasStatus_t]
[cusolverStatus_t]
[generic]
cudaError_t = "cuda_error_other"
ncclResult_t = "nccl_error"
cudnnStatus_t = "cuda_error_other"
cublasStatus_t = "cuda_error_other"
cusolverStatus_t = "cuda_error_other"
[errno]
2 = { name = "ENOENT", cause = "file_not_found" }
[signal]
9 = { name = "SIGKILL", cause = "host_oom_killed", note = "the OOM killer" }
"""


def _file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _refused(load, path: Path, *words: str) -> str:
    with pytest.raises(CatalogError) as err:
        load(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(path.name + ":"), message
    for word in words:
        assert word in message, message
    return message


# --- the real files -------------------------------------------------------------------------------

def test_every_alternative_names_catalog_causes():
    table = load_alternatives()
    assert len(table) >= 30
    ids = set(cause_ids())
    for cause, rows in table.items():
        assert cause in ids and rows
        assert all(row.cause in ids and row.cause != cause and row.why and row.check for row in rows)
    assert [alt.cause for alt in alternatives_of(CauseId.shm_too_small)] == [
        CauseId.dataloader_worker_crash, CauseId.host_oom_killed]
    assert alternatives_of("not_a_cause") == ()


def test_every_family_names_catalog_causes_and_triage_knows_every_variation():
    families = triage_families()
    assert set(families) == set(plan.ORDER)
    assert all(cause in set(cause_ids()) for family in families.values() for cause in family)
    assert triage_family("workers0")[0] == CauseId.dataloader_worker_crash
    assert plan.VARIATIONS["workers0"].family == triage_family("workers0")
    assert plan.VARIATIONS["baseline"].family == ()
    assert variations_for(CauseId.file_not_found) == ("single", "nockpt")


def test_every_code_names_a_catalog_cause_or_none():
    tables = code_tables()
    assert set(tables.enums) == set(ENUMS)
    for names in tables.enums.values():
        assert all(cause is None or isinstance(cause, CauseId) for cause in names.values())
    assert errno_cause(98) == CauseId.port_in_use and errno_cause(111) is None and errno_cause(None) is None
    assert signal_of(7).cause == CauseId.segfault and signal_of(7).name == "SIGBUS"
    assert signal_of(15).cause is None
    assert generic_cause("ncclResult_t") == CauseId.nccl_error


def test_a_signal_exit_is_read_from_the_catalog_table(tmp_path):
    """One table for signals: an exit by SIGILL (no text in the log) is a native crash, like SIGSEGV;
    SIGTERM (how the launcher ends the others) names no cause."""
    def root(signal: int):
        log = _file(tmp_path, f"sig{signal}.txt", f"mpirun noticed that process rank 1 with PID 4711 on node n7 "
                                                    f"exited on signal {signal} (X).\n")
        return diagnose_paths([str(log)]).root_cause

    assert (root(9).cause, root(9).code) == (CauseId.host_oom_killed, "signal_exit")
    assert root(4).cause == CauseId.segfault and "SIGILL (exit code -4)" in root(4).message
    assert root(15).code != "signal_exit"


def test_the_real_causes_file_loads_every_entry():
    assert tuple(c.id for c in load_causes(CATALOG_FILE)) == cause_ids()


def test_explain_reads_none_of_the_data_files_beside_the_catalog():
    code = ("import sys; from paddle_doctor.cli.main import main\n"
            "try:\n    main(['explain', 'gpu_oom'])\nexcept SystemExit:\n    pass\n"
            "lazy = {'alternatives': '_alternatives', 'triage': 'triage_families', 'codes': 'code_tables'}\n"
            "mods = {n: sys.modules.get('paddle_doctor.catalog.' + n) for n in lazy}\n"
            "print('READ', sorted(n for n, m in mods.items() if m and getattr(m, lazy[n]).cache_info().currsize),"
            " file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert "Log signatures" in proc.stdout and "READ []" in proc.stderr, proc.stderr


# --- causes.toml ----------------------------------------------------------------------------------

CAUSE = 'title = "t"\nkind = "crash"\nwhy = "w"\nconfirm = "c"\nfix = "f"\n'


def test_causes_refuses_an_unknown_key(tmp_path):
    _refused(load_causes, _file(tmp_path, "causes.toml", f"[gpu_oom]\n{CAUSE}fixx = 'x'\n"), "[gpu_oom]",
             "unknown key 'fixx'")


def test_causes_refuses_a_missing_field(tmp_path):
    _refused(load_causes, _file(tmp_path, "causes.toml", "[gpu_oom]\ntitle = 't'\n"), "missing key 'kind'")


def test_causes_refuses_a_field_of_the_wrong_type(tmp_path):
    _refused(load_causes, _file(tmp_path, "causes.toml", f"[gpu_oom]\n{CAUSE}seed = 3\n"), "'seed' must be a str")


def test_causes_refuses_an_unknown_kind(tmp_path):
    text = f"[gpu_oom]\n{CAUSE}".replace('"crash"', '"fatal"')
    _refused(load_causes, _file(tmp_path, "causes.toml", text), "kind must be one of crash, corruption")


def test_causes_refuses_an_id_that_is_not_a_member(tmp_path):
    _refused(load_causes, _file(tmp_path, "causes.toml", f"[gpu_oomm]\n{CAUSE}"), "'gpu_oomm' is not a cause id")


def test_a_file_that_is_not_toml_is_refused(tmp_path):
    _refused(load_causes, _file(tmp_path, "causes.toml", "[gpu_oom\n"), "not valid TOML")


# --- alternatives.toml ----------------------------------------------------------------------------

ROW = '{ cause = "host_oom_killed", why = "w", check = "c" }'


@pytest.mark.parametrize("text, words", [
    (f"gpu_omm = [{ROW}]\n", ("gpu_omm", "'gpu_omm' is not a cause id")),
    (f"gpu_oom = [{ROW.replace(' }', ', confirm = 1 }')}]\n",
     ("gpu_oom[0]", "unknown key 'confirm' (allowed: cause, why, check)")),
    ('gpu_oom = [{ cause = "segfault", why = "w" }]\n', ("missing key 'check'",)),
    ('gpu_oom = [{ cause = "segfault", why = 1, check = "c" }]\n', ("'why' must be a str",)),
    (f"gpu_oom = [{ROW}]\n".replace("host_oom_killed", "host_oom"), ("gpu_oom[0] cause", "'host_oom' is not a cause id")),
    (f"gpu_oom = [{ROW}]\n".replace("host_oom_killed", "gpu_oom"), ("cannot be its own alternative",)),
    (f"gpu_oom = [{ROW}, {ROW}]\n", ("lists an alternative twice",)),
    ('gpu_oom = "segfault"\n', ("must be a list of { cause, why, check } tables",)),
    ('gpu_oom = ["segfault"]\n', ("gpu_oom[0]: expected a table",)),
])
def test_alternatives_refuses_a_bad_file(tmp_path, text, words):
    _refused(load_alternatives, _file(tmp_path, "alternatives.toml", text), *words)


# --- triage.toml ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    ('workers0 = ["shm_too_smal"]\n', ("workers0[0]", "'shm_too_smal' is not a cause id")),
    ("workers0 = []\n", ("expected a non-empty list of cause ids",)),
    ('workers0 = "shm_too_small"\n', ("expected a non-empty list",)),
    ('workers0 = [3]\n', ("a cause id must be a string",)),
    ('workers0 = ["shm_too_small", "shm_too_small"]\n', ("lists a cause twice",)),
    ('"Workers 0" = ["shm_too_small"]\n', ("a variation name is lower case",)),
])
def test_triage_refuses_a_bad_file(tmp_path, text, words):
    _refused(load_families, _file(tmp_path, "triage.toml", text), *words)


def test_triage_refuses_families_for_variations_it_does_not_have(monkeypatch):
    monkeypatch.setattr(plan, "triage_families", lambda: {"workers0": (CauseId.shm_too_small,), "gpu": ()})
    plan.families.cache_clear()
    try:
        with pytest.raises(CatalogError, match=r"^triage\.toml: names the variations \['gpu', 'workers0'\]"):
            plan.families()
    finally:
        plan.families.cache_clear()


# --- codes.toml -----------------------------------------------------------------------------------

@pytest.mark.parametrize("old, new, words", [
    ("[signal]", "[signals]", ("unknown table [signals]",)),
    ("[cublasStatus_t]\n", "", ("missing table [cublasStatus_t]",)),
    ('gpu_oom = ["cudaErrorMemoryAllocation"]', 'gpu_om = ["cudaErrorMemoryAllocation"]',
     ("[cudaError_t] gpu_om", "'gpu_om' is not a cause id")),
    ('none = ["cudaErrorUnknown"]', 'none = ["cudaErrorMemoryAllocation"]', ("cudaErrorMemoryAllocation is listed twice",)),
    ('none = ["cudaErrorUnknown"]', 'none = "cudaErrorUnknown"', ("expected a list of strings",)),
    ('2 = { name', 'ENOENT = { name', ("[errno] ENOENT", "key 'ENOENT' must be a number")),
    ('name = "ENOENT",', 'name = "ENOENT", number = 2,', ("[errno] 2", "unknown key 'number' (allowed: name, cause, note)")),
    ('name = "SIGKILL"', 'name = 9', ("[signal] 9", "'name' must be a str")),
    ('cause = "host_oom_killed"', 'cause = "oom"', ("[signal] 9 cause", "'oom' is not a cause id")),
    ("[errno]\n2 =", "[errno]\n2 = 3\n4 =", ("[errno] 2", "expected a table")),
    ('ncclResult_t = "nccl_error"', 'ncclResult_t = "nccl_eror"', ("[generic] ncclResult_t", "'nccl_eror' is not")),
    ('ncclResult_t = "nccl_error"\n', '', ("[generic]", "missing key 'ncclResult_t'")),
])
def test_codes_refuses_a_bad_file(tmp_path, old, new, words):
    assert old in CODES_OK
    load_codes(_file(tmp_path, "codes.toml", CODES_OK))  # the good one loads
    _refused(load_codes, _file(tmp_path, "codes.toml", CODES_OK.replace(old, new)), *words)
