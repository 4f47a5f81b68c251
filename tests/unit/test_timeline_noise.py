"""timeline._noise (a literal test before the regex) says what the one regex it replaced said, on
every line of the fixtures and on lines made to sit at its edges."""

import re
from pathlib import Path

from paddle_doctor.diagnose import timeline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# The regex of before (diagnose/timeline.py until issue 29's 1024-rank work): the reference.
ONE_REGEX = re.compile(r"^(\s|Traceback|\[paddle-doctor\]|=+|FLAGS\(|LAUNCH |-{5}|\S*Warning|warnings\.warn"
                       r"|No stack trace in paddle|C\+\+ Traceback)"
                       r"|(Error|Exception|error|TIMEOUT)\b")
EDGES = [
    "", " indented", "Traceback (most recent call last):", "[paddle-doctor] watchdog", "=====", "FLAGS(name='x')",
    "LAUNCH INFO start", "-----", "UserWarning: x", "warnings.warn(x)", "No stack trace in paddle, may be",
    "C++ Traceback (most recent call last):", "RuntimeError: boom", "an Errors list", "errors: 3", "error",
    "TIMEOUT", "TIMEOUTS", "ExceptionGroup", "an Exception.", "step 3 loss 0.5", "xError", "Error_",
    "[2025/11/29 10:09:51] ppocr INFO: epoch: [1/500], global_step: 1437, loss: 3.266572",
    "I1129 09:58:10.835349   1037 tcp_utils.cc:130] Successfully connected", "\tfoo", "Warning", "a Warning",
]


def _fixture_lines():
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file() and path.stat().st_size < 4 << 20:
            yield from path.read_bytes().decode("utf-8", errors="replace").splitlines()


def test_noise_says_what_the_one_regex_said():
    lines = EDGES + list(_fixture_lines())
    assert len(lines) > 10_000
    differ = [line for line in lines if timeline._noise(line) != bool(ONE_REGEX.search(line))]
    assert differ == []
    assert any(timeline._noise(line) for line in lines) and not all(timeline._noise(line) for line in lines)
