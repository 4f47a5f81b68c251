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

from paddle_doctor.lint import lint_paths
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
        handle.write(b"0" * 64 + b"\n" + json.dumps({key: clean}).encode())
    assert _codes(lint_paths(files, jobs=1, cache_dir=cache)) == ["PDL101"]


@pytest.mark.parametrize("payload", [b"", b"not json", b"[" * 200_000, b"[1, 2]", b"\xff\xfe"])
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
    assert pack_load(cache, pack_name(files, LintConfig().enabled()), secret) == {}
