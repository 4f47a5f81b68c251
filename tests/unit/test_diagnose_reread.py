"""The traceback pass reads a log again after the scan (the lines after a traceback's last frame):
through the scanned stream for a plain file or stdin, through a fresh open for a wrapped one (gzip,
a budget's reader: not seekable). Each way finds the exception line no signature knows (issue 29)."""

import gzip

from click.testing import CliRunner

from paddle_doctor.cli.main import cli
from paddle_doctor.diagnose import diagnose_paths

LOG = ('step 1 loss 0.5\nTraceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
       '    main()\n  File "train.py", line 2, in main\n    raise FooBarQux("x")\n'
       'FooBarQux: something odd happened in the loader\n').encode()


def _cause_text(path) -> str:
    return diagnose_paths([str(path)]).root_cause.message


def test_the_exception_after_a_traceback_is_found_in_a_plain_and_a_gzip_log(tmp_path):
    plain, packed = tmp_path / "workerlog.0", tmp_path / "workerlog.1.gz"
    plain.write_bytes(LOG)
    packed.write_bytes(gzip.compress(LOG))
    for path in (plain, packed):
        assert "FooBarQux: something odd happened" in _cause_text(path), path


def test_the_exception_after_a_traceback_is_found_on_stdin():
    result = CliRunner().invoke(cli, ["diagnose", "--format", "json", "-"], input=LOG)
    assert result.exit_code != 2 and "FooBarQux: something odd happened" in result.output


BOM = b"\xef\xbb\xbf"  # what Notepad and PowerShell's Out-File -Encoding utf8 put first


def test_after_a_utf8_bom_the_exception_line_is_still_found(tmp_path):
    # the scan's offsets count from after the BOM; the second read once sought 3 bytes short and
    # read the line before the exception as its last.
    plain, packed = tmp_path / "workerlog.0", tmp_path / "workerlog.1.gz"
    plain.write_bytes(BOM + LOG)
    packed.write_bytes(gzip.compress(BOM + LOG))
    for path in (plain, packed):
        assert "FooBarQux: something odd happened" in _cause_text(path), path
    result = CliRunner().invoke(cli, ["diagnose", "--format", "json", "-"], input=BOM + LOG)
    assert "FooBarQux: something odd happened" in result.output


def test_in_a_later_launchs_part_the_exception_line_is_found(tmp_path):
    # the last launch's part starts inside the file: the second read starts there, not at byte 0
    start = b"-----------  Configuration Arguments -----------\n"
    earlier = LOG.replace(b"FooBarQux: something odd happened in the loader", b"OldErr: the first run's error")
    log = tmp_path / "train.log"
    log.write_bytes(BOM + start + earlier + start + LOG)
    assert "FooBarQux: something odd happened" in _cause_text(log)
    first = CliRunner().invoke(cli, ["diagnose", "--launch", "1", "--format", "json", str(log)])
    assert "OldErr: the first run's error" in first.output


def test_a_chained_exception_of_unknown_names_is_read_without_an_internal_error(tmp_path):
    # two tracebacks whose exception lines replace generic readings: replacing the first once shifted
    # the places of the second's frames (IndexError, "internal error")
    first = LOG.replace(b"FooBarQux: something odd happened in the loader", b"OldErr: the first error")
    log = tmp_path / "workerlog.0"
    log.write_bytes(first + b"\nDuring handling of the above exception, another exception occurred:\n\n" + LOG)
    assert "OldErr: the first error" in _cause_text(log)


def test_a_gzip_log_that_two_launches_wrote_is_read(tmp_path):
    # a gzip log is read forward only (its budget's reader): its later launch is reached by reading,
    # not by a seek ("skipped, seek" once left nothing to diagnose)
    start = b"-----------  Configuration Arguments -----------\n"
    earlier = LOG.replace(b"FooBarQux: something odd happened in the loader", b"OldErr: the first run's error")
    log = tmp_path / "workerlog.0.gz"
    log.write_bytes(gzip.compress(start + earlier + start + LOG))
    assert "FooBarQux: something odd happened" in _cause_text(log)
