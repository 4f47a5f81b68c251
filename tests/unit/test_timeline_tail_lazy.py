"""A rank's log tail is redacted when it is read, not when diagnose reads the logs (issue 29's
1024-rank bench: redacting every tail up front was half of diagnose's CPU time), and every way to
read it goes through the redaction."""

from paddle_doctor.diagnose import timeline
from paddle_doctor.diagnose.timeline import TAIL_CHARS, RedactedTail, last_lines

SECRET = "hunter2-very-secret-pw"
TAIL = (f"step 1 loss 0.5\npush to https://bob:{SECRET}@example.com/r\nexport API_TOKEN={SECRET}\n"
        + "y" * 500 + "\n\n").encode()


def test_every_way_to_read_the_tail_is_redacted():
    for read in (lambda t: list(t), lambda t: t[1], lambda t: t[1:], lambda t: repr(t), lambda t: "\n".join(t),
                 lambda t: str(tuple(t))):
        tail = last_lines(TAIL)
        assert SECRET not in str(read(tail))
    tail = last_lines(TAIL)
    assert len(tail) == 4 and tail[0] == "step 1 loss 0.5" and tail[-1] == "y" * TAIL_CHARS
    assert tail == tuple(last_lines(TAIL)) and bool(tail) and not RedactedTail(())


def test_the_tail_is_not_redacted_until_read(monkeypatch):
    calls = []
    monkeypatch.setattr(timeline, "redact", lambda line: calls.append(line) or line)
    tail = last_lines(TAIL)
    assert len(tail) == 4 and calls == []  # its length needs no redaction
    list(tail)
    list(tail)
    assert len(calls) == 4  # each line once, on first read
