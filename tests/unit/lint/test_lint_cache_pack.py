"""Issue 32: a warm run reads its files' records from one pack, as safely as from the per-file records.

The pack gathers the first-pass records of a run's files, keyed by their usual cache keys (which
hash each file's bytes), under one HMAC that covers the pack's name: a hit in it is exactly a hit
in the per-file records, a forged, malformed or moved pack is not believed (a fresh check), and an
edited file is never a stale hit.
"""

from __future__ import annotations

import json
import os

import pytest

from paddle_doctor.lint import engine, files as lint_files, lint_paths
from paddle_doctor.lint.config import LintConfig
from paddle_doctor.lint.files import KEY_FILE, cache_key, pack_load, pack_name

BUGGY = "import paddle.distributed as dist\n\nif dist.get_rank() == 0:\n    dist.barrier()\n"
CLEAN = "import paddle\n\nprint(paddle.__version__)\n"


def _codes(result):
    return [f.code for f in result.findings]


def _pack_path(cache: str, files: list[str]) -> str:
    return os.path.join(cache, pack_name(files, LintConfig().enabled()))


def _remove_records(cache: str) -> None:
    """Only the pack is left: what the next run finds, it found in the pack."""
    for name in os.listdir(cache):
        if len(name) == 2:
            for record in os.listdir(os.path.join(cache, name)):
                os.unlink(os.path.join(cache, name, record))


@pytest.fixture
def project(tmp_path):
    buggy, clean = tmp_path / "eval.py", tmp_path / "ok.py"
    buggy.write_text(BUGGY, encoding="utf-8")
    clean.write_text(CLEAN, encoding="utf-8")
    return [str(buggy), str(clean)], str(tmp_path / "cache")


def test_a_warm_run_reads_the_pack_alone(project):
    files, cache = project
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]
    assert os.path.isfile(_pack_path(cache, files))
    _remove_records(cache)
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]
    assert not any(os.listdir(os.path.join(cache, d)) for d in os.listdir(cache) if len(d) == 2)  # no re-lint


def test_an_edited_file_is_not_a_stale_hit_in_the_pack(project):
    files, cache = project
    lint_paths(files, jobs=1, cache_dir=cache)
    with open(files[1], "w", encoding="utf-8") as handle:
        handle.write(BUGGY)  # same size class, new bytes
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101", "PDL101"]
    with open(files[0], "w", encoding="utf-8") as handle:
        handle.write(CLEAN)
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]


def test_a_forged_pack_cannot_hide_a_finding(project):
    files, cache = project
    lint_paths(files, jobs=1, cache_dir=cache)
    _remove_records(cache)
    key = cache_key(files[0], open(files[0], "rb").read(), LintConfig().enabled())
    clean = [files[0], [], None, None, [], 0, True, [[], [], []], False]
    with open(_pack_path(cache, files), "wb") as handle:
        handle.write(b"0" * 64 + b"\n" + json.dumps({"records": {key: clean}, "stats": {}}).encode())
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]


@pytest.mark.parametrize("payload", [b"", b"not json", b"[" * 200_000, b"[1, 2]", b"\xff\xfe", b'{"records": 1}'])
def test_a_malformed_pack_costs_a_fresh_check_not_a_crash(project, payload):
    files, cache = project
    lint_paths(files, jobs=1, cache_dir=cache)
    _remove_records(cache)
    with open(_pack_path(cache, files), "wb") as handle:
        handle.write(payload)
    result = lint_paths(files, jobs=1, cache_dir=cache)
    assert _codes(result) == ["PDL101"] and result.errors == []


def test_a_genuine_pack_under_another_name_is_refused(project):
    """The MAC covers the pack's name: another run's genuine pack, copied under this run's name, is
    not believed (its records are checked afresh)."""
    files, cache = project
    lint_paths(files[:1], jobs=1, cache_dir=cache)
    secret = open(os.path.join(cache, KEY_FILE), "rb").read()
    assert pack_load(cache, pack_name(files[:1], LintConfig().enabled()), secret)  # genuine, read back
    with open(_pack_path(cache, files[:1]), "rb") as source, open(_pack_path(cache, files), "wb") as target:
        target.write(source.read())
    assert pack_load(cache, pack_name(files, LintConfig().enabled()), secret) == {"records": {}, "stats": {}}


@pytest.fixture
def settled_now(monkeypatch):
    """Files count as settled at once (the real wait, STAT_SETTLED_NS, is 2 s), and the files the
    run reads are counted."""
    monkeypatch.setattr(lint_files, "STAT_SETTLED_NS", -10**12)
    reads = []
    real = engine.read_regular
    monkeypatch.setattr(engine, "read_regular", lambda path, size: reads.append(path) or real(path, size))
    return reads


def test_a_file_whose_stat_is_the_packs_is_not_read(project, settled_now):
    files, cache = project
    lint_paths(files, jobs=1, cache_dir=cache)  # lints and writes the pack (with the stats)
    settled_now.clear()
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]
    assert settled_now == []


def test_an_edit_that_keeps_size_and_mtime_is_not_a_stale_hit(project, settled_now):
    """The ctime (which no user can set) and the stat taken around the read decide: an edit of the
    same size with its mtime put back is read, and its finding is new."""
    files, cache = project
    fixed = BUGGY.replace("dist.barrier()", "print('done') ")
    assert len(fixed) == len(BUGGY)
    lint_paths(files, jobs=1, cache_dir=cache)
    before = os.stat(files[0])
    with open(files[0], "w", encoding="utf-8") as handle:
        handle.write(fixed)
    os.utime(files[0], ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == []
    assert files[0] in settled_now


def test_a_file_changed_just_before_the_pack_gets_no_stat_entry(project):
    """With the real settling time, files written a moment ago are hashed on the next run (an edit
    within the clock's granularity could keep their stat)."""
    files, cache = project
    lint_paths(files, jobs=1, cache_dir=cache)
    secret = open(os.path.join(cache, KEY_FILE), "rb").read()
    pack = pack_load(cache, pack_name(files, LintConfig().enabled()), secret)
    assert len(pack["records"]) == 2 and pack["stats"] == {}


def test_the_second_pass_asks_the_pack_only_about_names_it_checked(tmp_path):
    """An unchanged file's bytes are not read for the second pass when the pack checked them for
    every pending name; a name it did not check (a file changed since) means reading them."""
    path = tmp_path / "helpers.py"
    path.write_text("def save_all(model):\n    pass\n", encoding="utf-8")
    known = lint_files.KnownMentions(["save_all", "evaluate"], ["save_all"])
    assert engine._mentions(str(path), 10**6, {b"evaluate"}, known) is False
    assert engine._mentions(str(path), 10**6, {b"save_all"}, known) is True
    stale = lint_files.KnownMentions(["evaluate"], [])  # never asked about save_all: the bytes decide
    assert engine._mentions(str(path), 10**6, {b"save_all"}, stale) is True
    with pytest.raises(KeyError):
        b"save_all" in stale  # noqa: B015 (the membership test itself is what raises)


def test_a_pack_over_the_size_a_load_accepts_is_not_written(project, monkeypatch):
    files, cache = project
    monkeypatch.setattr(lint_files, "_MAX_PACK", 100)
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]
    assert not os.path.exists(_pack_path(cache, files))
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]  # from the per-file records


def test_new_linter_code_is_no_stale_hit_in_the_pack(project, settled_now, monkeypatch):
    """The pack hands out the keys it stored: after the linter's code changes (an upgrade, a rule added), an
    unchanged file must be linted by the new code, not given the old code's result (session 25: a rule extended
    to catch a padded all_gather still printed 'All checks passed!' from the pack)."""
    files, cache = project
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]
    _remove_records(cache)  # what the warm run finds, it finds in the pack
    stamp = lint_files._code_stamp()
    lint_files._code_stamp.cache_clear()
    monkeypatch.setattr(lint_files, "_code_stamp", lambda: stamp + "\nrules/new.py:1:1")
    monkeypatch.setattr(engine, "_lint_data", _counting(engine._lint_data, calls := []))
    lint_paths(files, jobs=1, cache_dir=cache)
    assert calls, "the files were not linted again under the new code"


def _counting(func, calls):
    def wrapper(*args, **kwargs):
        calls.append(args[0])
        return func(*args, **kwargs)
    return wrapper
