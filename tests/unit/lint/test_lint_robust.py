"""Bad input never crashes the linter, and never passes silently: a file that cannot be checked is a
PDL900 finding (with the reason) in every format, and the run exits 1."""

from __future__ import annotations

import os
import time

import pytest

from paddle_doctor.lint import LintConfig, lint_paths

POSITIVE = "import paddle.distributed as dist\nif dist.get_rank() == 0:\n    dist.barrier()\n"


def _lint(tmp_path, name: str, data: bytes, **config):
    path = tmp_path / name
    path.write_bytes(data)
    return lint_paths([str(path)], LintConfig(**config), jobs=1)


def _unchecked(result) -> list[str]:
    assert all(f.code == "PDL900" for f in result.findings), result.findings
    return [f.message for f in result.findings]


def test_syntax_error_is_a_pdl900_finding_at_the_line(tmp_path):
    result = _lint(tmp_path, "bad.py", b"import paddle\ndef f(:\n    pass\n")
    assert result.errors == [] and len(result.skipped) == 1
    [finding] = result.findings
    assert finding.code == "PDL900" and finding.location.line == 2 and "syntax error at line 2" in finding.message


def test_non_utf8_without_a_cookie_is_skipped(tmp_path):
    result = _lint(tmp_path, "latin.py", "import paddle\n# caf\xe9\n".encode("latin-1"))
    assert result.errors == [] and len(result.skipped) == 1
    assert ["not valid utf-8" in m for m in _unchecked(result)] == [True]


def test_a_coding_cookie_is_honoured(tmp_path):
    data = ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + POSITIVE).encode("latin-1")
    result = _lint(tmp_path, "cookie.py", data)
    assert result.skipped == [] and [f.code for f in result.findings] == ["PDL101"]


def test_utf8_bom_and_non_ascii_columns(tmp_path):
    data = b"\xef\xbb\xbf" + "import paddle.distributed as dist\nif dist.get_rank() == 0:\n    é = dist.barrier()\n".encode()
    result = _lint(tmp_path, "bom.py", data)
    assert [(f.code, f.location.column) for f in result.findings] == [("PDL101", 9)]  # characters, not bytes


def test_empty_file_and_null_bytes(tmp_path):
    assert _lint(tmp_path, "empty.py", b"").skipped == []
    result = _lint(tmp_path, "nul.py", b"import paddle\nx = 1\x00\nif True:\n    all_reduce = 1\n")
    assert result.errors == [] and len(result.skipped) == 1 and "nul.py" in result.skipped[0]
    assert ["NUL" in m or "null" in m for m in _unchecked(result)] == [True]


def test_a_50_mb_file_is_skipped_quickly(tmp_path):
    line = b"import paddle.distributed as dist  # " + b"x" * 60 + b"\n"
    data = line * (50 * 1024 * 1024 // len(line))
    start = time.perf_counter()
    result = _lint(tmp_path, "huge.py", data)
    assert time.perf_counter() - start < 10
    assert result.errors == [] and len(result.skipped) == 1 and "MB limit" in result.skipped[0]
    assert ["MB limit" in m for m in _unchecked(result)] == [True]


def test_a_50_mb_file_that_never_mentions_paddle_is_read_and_passed(tmp_path):
    data = b"x = 1\n" * (50 * 1024 * 1024 // 6)
    result = _lint(tmp_path, "huge_plain.py", data, max_file_size=100 * 1024 * 1024)
    assert result.findings == [] and result.skipped == [] and result.errors == [] and result.parsed == 0


def test_deeply_nested_expression_is_skipped_not_a_crash(tmp_path):
    data = b"import paddle\nall_reduce = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n"
    result = _lint(tmp_path, "deep.py", data)
    assert result.errors == []
    assert len(result.skipped) == 1 or result.findings == []


def test_unreadable_directory_entries_and_many_files_in_parallel(tmp_path):
    for i in range(60):
        (tmp_path / f"m{i}.py").write_text(POSITIVE if i % 2 else "x = 1\n", encoding="utf-8")
    (tmp_path / "bad.py").write_bytes(b"import paddle\n(((\n")
    parallel = lint_paths([str(tmp_path)], jobs=2)
    serial = lint_paths([str(tmp_path)], jobs=1)
    assert parallel.files == serial.files == 61
    assert [f.to_dict() for f in parallel.findings] == [f.to_dict() for f in serial.findings]
    assert len(parallel.findings) == 31 and len(parallel.skipped) == 1
    assert [f.location.path for f in parallel.findings if f.code == "PDL900"] == [str(tmp_path / "bad.py")]


def test_a_fifo_named_py_is_reported_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    (tmp_path / "ok.py").write_text(POSITIVE, encoding="utf-8")
    start = time.perf_counter()
    walked = lint_paths([str(tmp_path)], jobs=1)
    named = lint_paths([str(fifo)], jobs=1)
    assert time.perf_counter() - start < 10
    assert [(f.code, os.path.basename(f.location.path)) for f in walked.findings] == [
        ("PDL101", "ok.py"), ("PDL900", "pipe.py")]
    assert ["a FIFO" in m for m in _unchecked(named)] == [True]


def test_pdl900_can_be_ignored_but_select_does_not_drop_it(tmp_path):
    bad = b"import paddle\n(((\n"
    assert _unchecked(_lint(tmp_path, "a.py", bad, _enabled=LintConfig().with_cli(("PDL401",), ()).enabled()))
    assert _lint(tmp_path, "b.py", bad, _enabled=LintConfig().with_cli(None, ("PDL900",)).enabled()).findings == []


def test_a_5_mb_file_is_over_the_default_limit_and_reported(tmp_path):
    body = b"import paddle\n" + b"x = paddle.ones([1])\n" * (5 * 1024 * 1024 // 21)
    result = _lint(tmp_path, "gen.py", body)
    assert ["over the 2 MB limit" in m for m in _unchecked(result)] == [True]


def test_cli_reports_an_unparsable_file_in_every_format(tmp_path):
    import json
    import subprocess
    import sys
    bad = tmp_path / "has space#and%.py"
    bad.write_bytes(b"import paddle\ndef f(:\n")
    for fmt in ("text", "json", "sarif"):
        proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "lint", "--format", fmt, str(bad)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1, (fmt, proc.stdout, proc.stderr)
        assert "All checks passed" not in proc.stdout and "PDL900" in proc.stdout
        if fmt == "json":
            assert [r["code"] for r in json.loads(proc.stdout)] == ["PDL900"]
        if fmt == "sarif":
            [result] = json.loads(proc.stdout)["runs"][0]["results"]
            uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            assert uri.endswith("/has%20space%23and%25.py") and result["ruleId"] == "PDL900"


def test_the_cache_returns_the_same_findings_and_follows_edits(tmp_path):
    project, cache = tmp_path / "p", str(tmp_path / "cache")
    project.mkdir()
    (project / "a.py").write_text(POSITIVE, encoding="utf-8")
    (project / "bad.py").write_bytes(b"import paddle\n(((\n")
    first = lint_paths([str(project)], jobs=1, cache_dir=cache)
    assert os.path.isfile(os.path.join(cache, ".gitignore"))
    again = lint_paths([str(project)], jobs=1, cache_dir=cache)
    assert [f.to_dict() for f in again.findings] == [f.to_dict() for f in first.findings]
    assert [f.code for f in again.findings] == ["PDL101", "PDL900"] and again.skipped == first.skipped
    (project / "a.py").write_text(POSITIVE.replace("dist.barrier()", "print('ok')"), encoding="utf-8")
    assert [f.code for f in lint_paths([str(project)], jobs=1, cache_dir=cache).findings] == ["PDL900"]
    selected = LintConfig().with_cli(("PDL4",), ())
    assert [f.code for f in lint_paths([str(project)], selected, jobs=1, cache_dir=cache).findings] == ["PDL900"]
