"""``diagnose`` bounded on any input (issue 28, items 2 and 3): work linear in the input, budgets
that are reported when they cut, memory bounded per kind of line, only regular files opened, and
one bad side file (env dump, error record) left out and named while the diagnosis goes on.

Speed itself is measured in ``bench/bench_hostile.py``; these tests check the behaviour that makes
it bounded (how often a line is searched back, where a match may start, what is kept, what is
named) at small sizes."""

import gzip
import json
import os
import stat
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.refine.ports import ENDPOINT_RE, PORT_IN_TEXT
from paddle_doctor.diagnose.read import opener, parse
from paddle_doctor.diagnose.read.parse import KeepEnds, read_events
from paddle_doctor.diagnose.read.scan import LINE_WINDOWS, _ChunkScanner
from paddle_doctor.diagnose.read.sources import SourceFile

CAUSE = "Traceback (most recent call last):\n  File \"eval.py\", line 3, in <module>\nValueError: the real cause\n"


class CountingBytes(bytes):
    """Bytes that count the backward searches made in them."""

    rfinds = 0

    def rfind(self, *args):
        CountingBytes.rfinds += 1
        return super().rfind(*args)


def test_a_line_full_of_triggers_is_searched_back_once():
    # main searched back to the line's start for every trigger on it: 10 000 searches here, and
    # 1.4 million (130 s) on one 8 MiB line of "Error ".
    CountingBytes.rfinds = 0
    scanner = _ChunkScanner(count_lines=True)
    hits = list(scanner.feed(CountingBytes(b"Error " * 10_000 + b"\nValueError: x\n")))
    # the over-long line gives a window per trigger past the one before, at most LINE_WINDOWS, in order
    first = [h for h in hits if h.line == 1]
    assert [h.line for h in hits] == [1] * len(first) + [2] and len(first) == LINE_WINDOWS
    assert [h.offset for h in first] == sorted({h.offset for h in first})
    assert CountingBytes.rfinds <= 3  # the chunk's last newline, and one per line with a hit


def test_an_over_long_line_is_searched_only_up_to_its_first_trigger():
    from paddle_doctor.diagnose.read.literals.finders import trigger_finder
    from paddle_doctor.diagnose.read.scan import FIRST_WINDOW

    looked_at = []

    def counting(buf, end):
        looked_at.append(end)
        return trigger_finder()(buf, end)

    scanner = _ChunkScanner(count_lines=False, finder=counting)
    hits = list(scanner.feed(b"Error " * 700_000))  # 4.2 MB, no newline: over MAX_LINE_BYTES
    assert len(hits) == 1 and hits[0].text.startswith("Error Error")
    assert sum(looked_at) <= 2 * FIRST_WINDOW  # main listed all 700 000 triggers of the 4.2 MB


@pytest.mark.parametrize("pattern", [ENDPOINT_RE, PORT_IN_TEXT], ids=["ENDPOINT_RE", "PORT_IN_TEXT"])
def test_a_host_match_never_starts_inside_a_run_of_host_characters(pattern):
    # Each start inside a run of "-" rescanned the run: quadratic (a 2.4 MB log took 54 s). A match
    # may start only where no host character precedes, so each run is tried once.
    line = "PADDLE_TRAINER_ENDPOINTS=" + "-" * 50 + "host.example:6070"
    starts = [i for i in range(len(line)) if pattern.match(line, i)]
    assert starts == [len("PADDLE_TRAINER_ENDPOINTS=")]
    assert pattern.search("bind 10.0.0.1:6070 failed")  # the host:port shapes still match
    assert ENDPOINT_RE.findall("endpoints 127.0.0.1:6170,my-host.local:6171") == ["6170", "6171"]


def test_the_nccl_banner_host_never_starts_inside_a_run():
    # the one signature found quadratic on a line of 1200 "_" (15 ms a line; 2000 such lines, 30 s)
    from paddle_doctor.diagnose.signatures.table import SIGNATURES

    banner = next(s.pattern for s in SIGNATURES if s.name == "nccl_banner")
    line = "x" * 40 + "host-a:4015:4015 [0] NCCL INFO NCCL version 2.18.3"
    assert banner.search(" " + line[40:])["host"] == "host-a"
    assert [i for i in range(1, 46) if banner.match(line, i)] == []  # main: a match at each of them


def test_repeated_error_lines_keep_both_ends_and_say_what_was_left_out(tmp_path):
    log = tmp_path / "workerlog.0"
    log.write_text("".join(f"RuntimeError: x{i}\n" for i in range(5000)) + CAUSE)
    files = read_events(SourceFile(str(log), "worker", rank=0), 2026)
    texts = [e.text for e in files.events]
    assert len(files.events) <= 4 * parse.KEEP_EVENTS
    assert texts[0] == "RuntimeError: x0" and "RuntimeError: x4999" in texts  # the first and the last
    assert texts[-1] == "ValueError: the real cause"
    assert files.events[0].line == 1 and files.events[-1].line == 5003  # line numbers stay right
    assert any("matched lines left out" in n for n in files.notes)
    d = diagnose_paths([str(tmp_path)])
    assert any("workerlog.0: cut:" in s for s in d.skipped)


def test_keep_ends_is_bounded_in_all():
    kept = KeepEnds(keep=2, most=5)
    for i in range(100):
        kept.add(i % 10, lambda i=i: i)
    assert len(kept.items()) == 5 and kept.dropped == 95 and kept.items() == sorted(kept.items())


def test_a_gzip_bomb_is_read_up_to_its_budget_and_the_cut_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(opener, "MAX_GZIP_BYTES", 1 << 20)
    with gzip.open(tmp_path / "workerlog.0.gz", "wb") as out:
        out.write(CAUSE.encode() + b"step ok\n" * (1 << 19))  # 4 MiB of text
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause.message.startswith("ValueError: the real cause")
    assert any("workerlog.0.gz: cut: read only the first 1 MiB of its decompressed text" in s for s in d.skipped)


def test_a_log_over_the_file_budget_is_read_at_both_ends(tmp_path, monkeypatch):
    monkeypatch.setattr(opener, "MAX_FILE_BYTES", 1 << 20)
    (tmp_path / "workerlog.0").write_bytes(b"step ok\n" * (1 << 19) + CAUSE.encode())  # the cause at the end
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause.message.startswith("ValueError: the real cause")
    assert any("workerlog.0: cut: read its first and last 512 KiB of 4 MiB" in s for s in d.skipped)


@pytest.fixture
def hostile_dir(tmp_path):
    (tmp_path / "workerlog.0").write_text(CAUSE)
    os.mkfifo(tmp_path / "workerlog.1")  # no writer: reading it would block forever
    os.symlink("/dev/urandom", tmp_path / "workerlog.2")  # never ends
    os.symlink("/dev/zero", tmp_path / "envlog.0")  # never ends, all NULs
    os.symlink("/dev/zero", tmp_path / "backup_env.1.json")
    return tmp_path


def test_fifos_and_devices_in_a_log_dir_are_skipped_and_named(run_cli, hostile_dir):
    proc = run_cli("diagnose", "--format", "json", hostile_dir, timeout=60)  # main hangs here
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["root_cause"]["category"] == "python_exception"
    skipped = "\n".join(report["skipped"])
    assert "workerlog.1: skipped, not a regular file (a FIFO)" in skipped
    assert "workerlog.2: skipped, not a regular file (a character device)" in skipped
    assert "envlog.0: skipped, not a regular file" in skipped


def test_a_fifo_given_alone_is_one_line_and_exit_2(run_cli, tmp_path):
    os.mkfifo(tmp_path / "train.log")
    proc = run_cli("diagnose", tmp_path / "train.log", timeout=60)
    assert proc.returncode == 2
    err = proc.stderr.decode().strip()
    assert "\n" not in err and "not a regular file (a FIFO)" in err


def test_a_docker_config_that_is_a_device_is_not_read(tmp_path):
    cid = "0123456789ab" * 2
    (tmp_path / f"{cid}-json.log").write_text(json.dumps({"log": "ValueError: the real cause\n", "time": "t"}) + "\n")
    os.symlink("/dev/zero", tmp_path / "config.v2.json")
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause is not None


def test_open_regular_refuses_a_fifo_on_the_open_descriptor(tmp_path):
    os.mkfifo(tmp_path / "f")
    with pytest.raises(opener.NotRegularFileError, match="FIFO"):
        opener.open_regular(str(tmp_path / "f"))


# -- item 3: one bad side file never takes the diagnosis down ---------------------------------------

RECORD = {"schema": "paddle_doctor.error_record/2", "kind": "exception", "rank": 1, "time": 1700000000.0,
          "run_id": "r1", "exception": {"type": "ValueError", "message": "boom", "traceback": ""}}


@pytest.mark.parametrize("name, content", [
    ("backup_env.0.json", "[" * 100_000 + "]" * 100_000),
    ("backup_env.0.json", '{"PADDLE_TRAINER_ID": ' + "[" * 50_000 + "]" * 50_000 + "}"),
    ("backup_env.0.json", '["not", "an", "object"]'),
    ("envlog.0", "x" * ((1 << 20) + 10)),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "time": "x"})),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "exception": ["ValueError"]})),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "hint": {"ranks": ["x"], "summary": "s"}})),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "finding": {"ranks": ["x"]}})),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "finding": {"evidence": [{"text": [1]}]}})),
    ("paddle_doctor_error.1.json", json.dumps({**RECORD, "exception": {"type": ["x"]}})),
    ("paddle_doctor_error.1.json", '{"schema": "paddle_doctor.error_record/2", "x": ' + "[" * 100_000),
], ids=["nested-list", "nested-value", "not-object", "endless-envlog", "time-str", "exception-list",
        "hint-ranks-str", "finding-ranks-str", "evidence-text-list", "exception-type-list", "nested-record"])
def test_a_bad_side_file_is_ignored_and_named(run_cli, tmp_path, name, content):
    (tmp_path / "workerlog.0").write_text(CAUSE)
    (tmp_path / name).write_text(content)
    proc = run_cli("diagnose", "--format", "json", tmp_path)
    assert proc.returncode == 0, proc.stderr  # main: "internal error", exit 2, no verdict
    report = json.loads(proc.stdout)
    assert report["root_cause"]["category"] == "python_exception"
    assert any(s.startswith(str(tmp_path / name) + ": ignored, ") for s in report["skipped"]), report["skipped"]


def test_a_good_record_and_env_dump_are_still_read(tmp_path):
    (tmp_path / "workerlog.0").write_text("waiting\n")
    (tmp_path / "backup_env.0.json").write_text(json.dumps({"PADDLE_TRAINER_ID": "0", "PATH": "/usr/bin"}))
    (tmp_path / "paddle_doctor_error.0.json").write_text(json.dumps({**RECORD, "rank": 0}))
    d = diagnose_paths([str(tmp_path)])
    assert not d.skipped
    assert d.root_cause is not None and "paddle_doctor_error.0.json" in d.root_cause.locations[0].path


# -- issue 30 inputs: device nodes made by mknod, and logs of Chinese Windows consoles -----------------

@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a character device needs root")
def test_a_device_node_in_a_log_dir_is_skipped_and_named(tmp_path):
    (tmp_path / "workerlog.0").write_text(CAUSE)
    os.mknod(tmp_path / "workerlog.1", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero's numbers
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause.message.startswith("ValueError: the real cause")
    assert any("workerlog.1: skipped, not a regular file (a character device)" in s for s in d.skipped)


GBK = Path(__file__).resolve().parents[1] / "fixtures" / "diagnose" / "gbk"


def test_a_gbk_log_from_a_chinese_windows_console_is_read_right():
    raw = (GBK / "workerlog.0").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")  # the fixture is GBK, no BOM
    d = diagnose_paths([str(GBK)])
    shown = [e.text for e in d.root_cause.evidence]
    assert any("[WinError 3] 系统找不到指定的路径。: 'D:\\\\数据\\\\验证集'" in t for t in shown), shown
    assert any('File "D:\\项目\\模型评估\\eval.py", line 18' in t for t in shown), shown
    assert not any("\ufffd" in t for t in shown)
    assert d.root_cause.cause == "file_not_found"


def test_a_gbk_log_has_its_last_progress_and_tail_read_right_too():
    # The timeline (the HTML page's last-progress cell and log tail) decodes the way the scanner does.
    from paddle_doctor.render.html import render_page

    d = diagnose_paths([str(GBK)])
    (row,) = d.rows
    assert row.last_progress == "[2026/12/05 10:21:31] 加载模型 D:\\模型\\最佳.pdparams 完成"
    assert row.tail[0] == "开始评估: 共 1000 个样本, batch_size=8"
    assert row.tail[-1].endswith("系统找不到指定的路径。: 'D:\\\\数据\\\\验证集'")
    assert not any("\ufffd" in line for line in row.tail)
    page = render_page(d)
    assert "加载模型" in page and "\ufffd" not in page


def test_a_utf8_line_cut_inside_a_character_stays_utf8():
    from paddle_doctor.diagnose.read.scan import decode

    line = "错误: 数据集路径不存在".encode()
    assert decode(line[1:]).endswith("误: 数据集路径不存在")  # its cut first character only is lost
    assert decode("caf\xe9 ok".encode("latin-1")) == "caf\ufffd ok"  # neither UTF-8 nor GBK: replaced


def test_side_files_share_one_budget(tmp_path, monkeypatch):
    from paddle_doctor.diagnose.read import sources

    monkeypatch.setattr(sources, "MAX_SIDE_BYTES", 100)
    (tmp_path / "workerlog.0").write_text(CAUSE)
    for rank in range(3):
        (tmp_path / f"envlog.{rank}").write_text(f"PADDLE_TRAINER_ID={rank}\nPATH=/usr/bin:/bin\n")  # 40 bytes
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause is not None
    assert [s.split(":")[0] for s in d.skipped if "budget for env dumps" in s] == [str(tmp_path / "envlog.2")]


def test_standard_input_over_its_budget_is_cut_and_said(monkeypatch):
    monkeypatch.setattr(opener, "MAX_STDIN_BYTES", 1 << 10)
    d = diagnose_paths(["-"], stdin=CAUSE.encode() + b"step ok\n" * 1000)
    assert d.root_cause.message.startswith("ValueError: the real cause")
    assert any("<stdin>: cut: read only the first 1 KiB of its text" in s for s in d.skipped), d.skipped


def test_a_cut_stream_is_read_in_chunks_not_byte_by_byte(tmp_path, monkeypatch):
    # docker's json-file reader reads lines: through a budget without a buffer that was one read()
    # call per byte (29 s for a 4 MB .gz docker log).
    calls = []
    real = opener._Budget.read
    monkeypatch.setattr(opener._Budget, "read", lambda self, size=-1: calls.append(size) or real(self, size))
    cid = "0123456789ab" * 2
    lines = "".join(json.dumps({"log": f"step {i} ok\n", "time": "2026-12-05T00:00:00Z"}) + "\n" for i in range(20000))
    lines += json.dumps({"log": "ValueError: the real cause\n", "time": "2026-12-05T00:00:01Z"}) + "\n"
    with gzip.open(tmp_path / f"{cid}-json.log.gz", "wt") as out:
        out.write(lines)
    (tmp_path / "config.v2.json").write_text(json.dumps({"Name": "/trainer-1"}))
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause.message.startswith("ValueError: the real cause") and d.root_cause.ranks == (1,)
    assert 0 < len(calls) < 100, len(calls)


@pytest.mark.parametrize("fill", [b" ", b"\t", b"0"])
def test_a_head_of_blanks_is_no_runner_prefix(tmp_path, fill):
    # main's first-line test could share leading spaces between "\s*" and " *\d+: " (quadratic
    # on a head of blanks); the same answers, with the spaces taken by "\s*" alone.
    from paddle_doctor.diagnose.read.prefixes import QUICK_RE, SNIFF_BYTES, detect

    assert detect(fill * SNIFF_BYTES) is None
    assert QUICK_RE.match(b"   12: x") and QUICK_RE.match(b"P3   4: y") and not QUICK_RE.match(b"P 3: x")
    (tmp_path / "train.log").write_bytes(fill * SNIFF_BYTES + b"\n" + CAUSE.encode())
    assert diagnose_paths([str(tmp_path)]).root_cause.message.startswith("ValueError: the real cause")


def test_an_over_long_run_together_line_is_read_in_windows_that_start_at_a_record():
    """A paste that lost its line breaks (issue 29, batch107): a warning in the middle of a line over the window's
    size, the error at its end; each is read, the warning from the start of its glog record."""
    head = b"W0309 22:57:00.700938 37327 device_context.cc:263] Please NOTE: device: 0, CUDA Capability: 61 " * 9
    warning = (b"W0309 22:57:00.701028 37327 device_context.cc:295] WARNING: device: 0. The installed Paddle is compiled "
               b"with CUDNN 7.3, but CUDNN version in your machine is 5.1, which may cause serious incompatible bug. ")
    error = (b"Traceback (most recent call last): " + b"File \"a.py\", line 3, in f x() " * 12 + b"File \"/x/paddle/"
             b"fluid/executor.py\", line 591, in _run exe.run(program.desc) paddle.fluid.core.EnforceNotMet: Invoke "
             b"operator fill_constant error. Python Callstacks: File \"/x/f.py\"")
    line = head + warning + error
    hits = list(_ChunkScanner(count_lines=False).feed(line + b"\n"))
    assert len(hits) > 1 and hits[0].offset == 0
    for h in hits[1:]:  # a later window's offset is where its text starts in the line, in bytes
        shown = h.text.strip("…").encode()
        assert line[h.offset:h.offset + len(shown)] == shown
    assert any(h.text.startswith("…W0309 22:57:00.701028") and "CUDNN version in your machine" in h.text for h in hits)
    assert any("EnforceNotMet: Invoke operator" in h.text for h in hits)
