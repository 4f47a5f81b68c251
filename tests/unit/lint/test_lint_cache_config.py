"""Issue 28 §7: the results cache cannot change a result, and hostile config values are one line, exit 2.

The cache key is computable from readable data (the file's bytes, path, selection and the linter's
own files), so a record someone else wrote must not be believed: each record carries an HMAC under
a per-user key (0600), checked before anything is parsed; any doubt is a fresh check.
"""

from __future__ import annotations

import json
import os
import stat

import pytest
from click.testing import CliRunner

from paddle_doctor.lint import lint_paths
from paddle_doctor.lint.config import ConfigError, LintConfig, load_config
from paddle_doctor.lint.files import KEY_FILE, cache_key

BUGGY = """\
import paddle.distributed as dist

if dist.get_rank() == 0:
    dist.barrier()
"""
CLEAN = "import paddle\n\nprint(paddle.__version__)\n"


def _codes(result):
    return [f.code for f in result.findings]


def _record_path(cache: str, key: str) -> str:
    return os.path.join(cache, key[:2], key + ".rec")


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "eval.py"
    path.write_text(BUGGY, encoding="utf-8")
    return path, str(tmp_path / "cache")


def _plant(cache: str, key: str, payload: bytes, mac: bytes = b"0" * 64) -> None:
    """A record as an attacker would write it: in today's format (a forged MAC) and in the old
    unauthenticated one (``KEY.json``, which the cache before issue 28 believed). The run's pack is
    removed, so the next run reads the per-file record (packs: test_lint_cache_pack.py)."""
    for name in os.listdir(cache):
        if name.startswith("pack-"):
            os.unlink(os.path.join(cache, name))
    os.makedirs(os.path.join(cache, key[:2]), exist_ok=True)
    with open(_record_path(cache, key), "wb") as handle:
        handle.write(mac + b"\n" + payload)
    with open(os.path.join(cache, key[:2], key + ".json"), "wb") as handle:
        handle.write(payload)


def _key_of(path, cache_enabled=None) -> str:
    return cache_key(str(path), path.read_bytes(), cache_enabled or LintConfig().enabled())


def test_a_planted_record_cannot_hide_a_finding(project):
    path, cache = project
    assert _codes(lint_paths([str(path)], jobs=1, cache_dir=cache)) == ["PDL101"]
    clean = json.dumps([str(path), [], None, None, [], 0, True, [[], [], []]]).encode()
    _plant(cache, _key_of(path), clean)  # "All checks passed!" under a forged MAC
    assert _codes(lint_paths([str(path)], jobs=1, cache_dir=cache)) == ["PDL101"]


def test_a_planted_record_cannot_forge_a_finding(tmp_path):
    path, cache = tmp_path / "ok.py", str(tmp_path / "cache")
    path.write_text(CLEAN, encoding="utf-8")
    assert _codes(lint_paths([str(path)], jobs=1, cache_dir=cache)) == []
    forged = {"code": "PDL101", "cause": "rank_divergent_collective", "message": "forged",
              "locations": [{"path": str(path), "line": 1, "column": 1}]}
    _plant(cache, _key_of(path), json.dumps([str(path), [forged], None, None, [], 0, True, [[], [], []]]).encode())
    assert _codes(lint_paths([str(path)], jobs=1, cache_dir=cache)) == []


@pytest.mark.parametrize("payload", [b"", b"not json", b"[" * 200_000, b'{"a": 1}', b"[1, 2]", b"\xff\xfe"])
def test_malformed_records_cost_a_fresh_check_not_a_crash(project, payload):
    path, cache = project
    lint_paths([str(path)], jobs=1, cache_dir=cache)
    _plant(cache, _key_of(path), payload)
    result = lint_paths([str(path)], jobs=1, cache_dir=cache)
    assert _codes(result) == ["PDL101"] and result.errors == []


def test_a_valid_record_moved_to_another_key_is_refused(tmp_path):
    """The MAC covers the cache key: a genuine record of a clean file, copied under the key of a
    buggy one, does not hide the bug."""
    clean, buggy, cache = tmp_path / "clean.py", tmp_path / "buggy.py", str(tmp_path / "cache")
    clean.write_text(CLEAN, encoding="utf-8")
    lint_paths([str(clean)], jobs=1, cache_dir=cache)
    buggy.write_text(BUGGY, encoding="utf-8")
    with open(_record_path(cache, _key_of(clean)), "rb") as handle:
        genuine = handle.read()
    os.makedirs(os.path.dirname(_record_path(cache, _key_of(buggy))), exist_ok=True)
    with open(_record_path(cache, _key_of(buggy)), "wb") as handle:
        handle.write(genuine)
    assert _codes(lint_paths([str(buggy)], jobs=1, cache_dir=cache)) == ["PDL101"]


def test_cache_files_are_private_and_records_are_used(project):
    path, cache = project
    lint_paths([str(path)], jobs=1, cache_dir=cache)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.join(cache, KEY_FILE)).st_mode) == 0o600
    record = _record_path(cache, _key_of(path))
    assert stat.S_IMODE(os.stat(record).st_mode) == 0o600
    assert _codes(lint_paths([str(path)], jobs=1, cache_dir=cache)) == ["PDL101"]  # read back, verified


@pytest.mark.parametrize("weaken", ["dir", "key"])
def test_a_cache_others_could_write_is_not_used(project, weaken):
    path, cache = project
    lint_paths([str(path)], jobs=1, cache_dir=cache)
    if weaken == "dir":
        os.chmod(cache, 0o777)
    else:
        os.chmod(os.path.join(cache, KEY_FILE), 0o644)
    clean = json.dumps([str(path), [], None, None, [], 0, True, [[], [], []]]).encode()
    _plant(cache, _key_of(path), clean)
    result = lint_paths([str(path)], jobs=1, cache_dir=cache)
    assert _codes(result) == ["PDL101"]
    assert any("cache not used" in w or "not used" in w for w in result.warnings), result.warnings


# --- hostile configuration -------------------------------------------------------------------------

HOSTILE = {
    "tool is a string": 'tool = "x"\n',
    "paddle-doctor is a list": '[tool]\n"paddle-doctor" = [1]\n',
    "lint is a list": '[tool.paddle-doctor]\nlint = [1]\n',
    "size is inf": '[tool.paddle-doctor.lint]\nmax-file-size-mb = inf\n',
    "size is nan": '[tool.paddle-doctor.lint]\nmax-file-size-mb = nan\n',
    "size is a string": '[tool.paddle-doctor.lint]\nmax-file-size-mb = "2"\n',
    "size is negative": '[tool.paddle-doctor.lint]\nmax-file-size-mb = -1\n',
    "size is true": '[tool.paddle-doctor.lint]\nmax-file-size-mb = true\n',
    "deep array": "[tool.paddle-doctor.lint]\nselect = " + "[" * 50_000 + "]" * 50_000 + "\n",
    "select of ints": '[tool.paddle-doctor.lint]\nselect = [1]\n',
    "per-file-ignores a list": '[tool.paddle-doctor.lint]\nper-file-ignores = ["x"]\n',
    "per-file-ignores of ints": '[tool.paddle-doctor.lint.per-file-ignores]\n"a.py" = [1]\n',
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_config_is_one_line_and_exit_2(tmp_path, monkeypatch, text):
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    (tmp_path / "a.py").write_text(CLEAN, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_config(tmp_path)
    from paddle_doctor.cli.lint import command

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(command, ["a.py", "--no-cache"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paddle-doctor lint: error:") and len(lines[0]) < 400
