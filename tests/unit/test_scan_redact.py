import io

from paddle_doctor.redact import redact
from paddle_doctor.diagnose.read.scan import CHUNK_BYTES, scan_stream


def test_line_numbers_across_chunks():
    filler = b"step 1 loss 0.5\n" * (CHUNK_BYTES // 16 + 7)
    data = filler + b"ValueError: boom\n" + filler + b"KeyError: 'k'\n"
    hits = list(scan_stream(io.BytesIO(data)))
    n = filler.count(b"\n")
    assert [(h.line, h.text) for h in hits] == [(n + 1, "ValueError: boom"), (2 * n + 2, "KeyError: 'k'")]


def test_frame_brings_its_source_line():
    data = b'Traceback (most recent call last):\n  File "eval.py", line 3, in <module>\n    run()\nValueError: x\n'
    hits = list(scan_stream(io.BytesIO(data)))
    assert hits[1].next_text.strip() == "run()"


def test_last_line_without_newline():
    hits = list(scan_stream(io.BytesIO(b"a\nb\nRuntimeError: end")))
    assert [(h.line, h.text) for h in hits] == [(3, "RuntimeError: end")]


def test_redacts_secret_values_in_env_dumps():
    line = "environ({'HF_TOKEN': 'hf_abc', 'PATH': '/usr/bin', 'DB_PASSWORD': \"p w\"}) GITHUB_TOKEN=ghp_1"
    out = redact(line)
    assert "hf_abc" not in out and "p w" not in out and "ghp_1" not in out
    assert "'PATH': '/usr/bin'" in out and "HF_TOKEN" in out


def test_one_redaction_for_every_lens_masks_urls_flags_and_dicts():
    line = ("environ({'HF_TOKEN': 'hf_abc123', 'PATH': '/usr/bin'}) https_proxy=http://u:pw123@proxy:3128 "
            "cmd --api-key sk-999 PADDLE_AUTH_KEY=zzz")
    out = redact(line)
    for secret in ("hf_abc123", "pw123", "sk-999", "zzz"):
        assert secret not in out, out
    assert "'PATH': '/usr/bin'" in out and "proxy:3128" in out
