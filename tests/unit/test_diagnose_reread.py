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
