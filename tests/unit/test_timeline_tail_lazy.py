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


def test_the_kept_bytes_hold_the_same_last_lines():
    # A rank keeps only the end of its 64 KiB tail that holds its last lines (split when read): the
    # lines must be those of the whole tail, trailing blank lines (an ideographic space is blank to
    # str.rstrip, not to bytes.strip) and an empty first line included.
    pieces = [b"", b"\n", b" ", "\u3000".encode(), b"abc", "中文".encode("gbk"), b"\r", b"x" * 300]
    for n in range(4000):
        data = b"".join(pieces[(n * 7 + i * (n % 5 + 3)) % len(pieces)] for i in range(n % 23))
        for most in (1, 2, 3, 5, timeline.TAIL_LINES):
            kept = timeline._last_bytes(data, most)
            assert len(kept) <= len(data)
            assert timeline._split_tail(kept, most) == timeline._split_tail(data, most), (data, most)
    assert len(timeline._last_bytes(b"old\n" * 10_000 + b"a\nb\n\n \n", 2)) == len(b"\na\nb\n\n \n")
