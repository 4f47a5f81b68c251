"""Hyperscan's compiled trigger database is kept in the user's cache: a second finder loads it
instead of compiling, and finds the same offsets; a damaged, foreign or unwritable cache means
compiling again, never an error; the cache can be turned off."""

import os

import pytest

from paddle_doctor.diagnose.read.literals import finders, hsdb
from paddle_doctor.diagnose.read.literals.triggers import TRIGGERS

hyperscan = pytest.importorskip("hyperscan")

PATTERNS = sorted({t.encode() for t in TRIGGERS})
TEXT = b"step 1 loss 0.2\nTraceback (most recent call last):\nRuntimeError: NCCL error in: x\nKilled\n" * 50


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("PADDLE_DOCTOR_NO_CACHE", raising=False)
    return tmp_path / "paddle-doctor"


def _compiles(monkeypatch) -> list[int]:
    """Counts the databases compiled from here on."""
    calls: list[int] = []
    real = hyperscan.Database.compile

    class Counting(hyperscan.Database):
        def compile(self, *args, **kwargs):
            calls.append(1)
            return real(self, *args, **kwargs)

    monkeypatch.setattr(hyperscan, "Database", Counting)
    return calls


def _ends(database) -> list[int]:
    ends: list[int] = []
    database.scan(TEXT, match_event_handler=lambda _i, _f, to, _fl, _c: ends.append(to))
    return sorted(ends)


def test_the_second_database_is_loaded_from_the_cache_and_matches_the_same(cache, monkeypatch):
    compiles = _compiles(monkeypatch)
    first = hsdb.compiled_database(hyperscan, PATTERNS)
    (stored,) = cache.glob("triggers-*.hsdb")
    assert stored.stat().st_mode & 0o077 == 0
    second = hsdb.compiled_database(hyperscan, PATTERNS)
    assert len(compiles) == 1
    assert _ends(first) == _ends(second) and _ends(first)


def test_other_triggers_get_their_own_database_and_the_old_one_is_removed(cache, monkeypatch):
    compiles = _compiles(monkeypatch)
    hsdb.compiled_database(hyperscan, PATTERNS)
    old = next(cache.glob("triggers-*.hsdb"))
    fewer = hsdb.compiled_database(hyperscan, PATTERNS[:10])
    assert len(compiles) == 2
    assert not old.exists() and len(list(cache.glob("triggers-*.hsdb"))) == 1
    assert len(_ends(fewer)) < len(_ends(hsdb.compiled_database(hyperscan, PATTERNS)))


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty"])
def test_a_damaged_cache_file_is_compiled_again(cache, monkeypatch, damage):
    reference = _ends(hsdb.compiled_database(hyperscan, PATTERNS))
    stored = next(cache.glob("triggers-*.hsdb"))
    content = stored.read_bytes()
    stored.write_bytes({"truncate": content[: len(content) // 2],
                        "flip": content[:-100] + bytes([content[-100] ^ 1]) + content[-99:],
                        "empty": b""}[damage])
    compiles = _compiles(monkeypatch)
    assert _ends(hsdb.compiled_database(hyperscan, PATTERNS)) == reference
    assert len(compiles) == 1
    assert stored.read_bytes() == content  # written again, whole


def test_a_file_others_could_write_is_not_loaded(cache, monkeypatch):
    hsdb.compiled_database(hyperscan, PATTERNS)
    stored = next(cache.glob("triggers-*.hsdb"))
    stored.chmod(0o666)
    compiles = _compiles(monkeypatch)
    hsdb.compiled_database(hyperscan, PATTERNS)
    assert len(compiles) == 1


def test_an_unwritable_cache_still_compiles(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    compiles = _compiles(monkeypatch)
    assert _ends(hsdb.compiled_database(hyperscan, PATTERNS))
    assert _ends(hsdb.compiled_database(hyperscan, PATTERNS))
    assert len(compiles) == 2


def test_the_cache_can_be_turned_off(cache, monkeypatch):
    monkeypatch.setenv("PADDLE_DOCTOR_NO_CACHE", "1")
    assert hsdb.cache_dir() is None
    hsdb.compiled_database(hyperscan, PATTERNS)
    assert not cache.exists()


def test_the_cache_follows_xdg_then_home(tmp_path, monkeypatch):
    monkeypatch.delenv("PADDLE_DOCTOR_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hsdb.cache_dir() == tmp_path / "xdg" / "paddle-doctor"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert hsdb.cache_dir() == tmp_path / "home" / ".cache" / "paddle-doctor"


def test_the_scanner_uses_it(cache):
    finder = finders.hyperscan_finder(PATTERNS)
    assert finder is not None and finder(TEXT, len(TEXT))
    assert list(cache.glob("triggers-*.hsdb"))
    assert os.path.getsize(next(cache.glob("triggers-*.hsdb"))) > 1000
