"""The substring shortcuts of redact.py answer as the case-blind regexes they stand for: the
secret-name test on every name and line, and the auth-scheme prefilter never false where the
regex matches. ASCII takes the shortcut; other text (the Kelvin sign, the long s) the regex."""

from __future__ import annotations

import random

from paddle_doctor import redact as R

WORDS = ["key", "token", "secret", "pass", "pwd", "auth", "credential", "signature", "cookie",
         "bearer", "basic", "digest", "name", "value", "x"]
ODD = ["\u212a", "\u017f", "\u0130", "\u00e9", "\u00a0", "\u3000", "\x1c", "\t", "\n", "\x0b"]


def _names():
    rnd = random.Random(23)
    names = ["API_KEY", "hf_token_path", "Passwd", "mypwd", "TOK", "to-ken", "AUTHORIZATION", "cookie.jar",
             "\u212aEY", "PA\u017fS", "pa\u017fs", "SECRET\u0130", "nothing_here", ""]
    for _ in range(3000):
        parts = [rnd.choice(WORDS + ODD + ["_", ".", "-", "0"]) for _ in range(rnd.randint(1, 5))]
        names.append("".join(p.upper() if rnd.random() < 0.3 else p for p in parts))
    return names


def test_secret_name_shortcut_is_the_regex():
    names = _names()
    assert sum(R.is_secret_name(n) for n in names) > 100  # both answers are drawn often
    for name in names:
        assert R.is_secret_name(name) == (R._SECRET_NAME.search(name) is not None), ascii(name)


def _lines():
    rnd = random.Random(17)
    lines = ["Authorization: Bearer abcdefgh12345678", "token\tabcdefgh1234", "TOKEN\x1cabcdefghijk",
             "basic\u00a0abcdefghijk", "interval_tokens_per_second: 3.5", "To\u212aen abcdefghijk", "digest"]
    for _ in range(3000):
        parts = [rnd.choice(WORDS + ODD + [" ", ":", "=", "abcdefgh1234", "@", "/"]) for _ in range(rnd.randint(1, 8))]
        lines.append("".join(p.capitalize() if rnd.random() < 0.3 else p for p in parts))
    return lines


def test_auth_prefilter_holds_wherever_the_regex_matches():
    lines = _lines()
    assert sum(1 for t in lines if R._AUTH_SCHEME.search(t)) > 20
    for text in lines:
        if R._AUTH_SCHEME.search(text):
            assert R._may_hold_auth_scheme(text, text.lower()), text


def _mask_after_by_finditer(text, name_pattern, value_pattern):
    """The loop redact.py ran before it tried only the runs holding a secret word."""
    out, done = [], 0
    for match in name_pattern.finditer(text):
        if match.start() < done or not R.is_secret_name(match["name"]):
            continue
        value = value_pattern.match(text, match.end())
        if value is None or value[0].strip("'\"") == R.MASK:
            continue
        out += [text[done:match.end()], R.MASK]
        done = value.end()
    return "".join(out) + text[done:] if out else text


def test_masking_after_secret_names_is_the_finditer_loop():
    rnd = random.Random(5)
    pieces = ["api_key", "TOKEN", "x.password", "--auth", "-pwd", "name", "a-b", "key", ":", "=", " ", "  ",
              "'v'", '"q"', "value123", "***", ",", "\u212aEY", "-", "--", "secret_key_2", "\t", "tokenizer"]
    lines = ["interval_tokens_per_second_per_device: 3531.6, loss: 1.2", "--api-key abc --token=def x",
             "PASSWORD = 'hunter2' KEY:val", "key" * 700 + ": v " + "tokenkey-" * 300 + "= w",
             "a.key.b.token: 1 x-pass-y=2 " * 50]
    for _ in range(4000):
        lines.append("".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 12))))
    changed = 0
    for text in lines:
        for name_pattern, value_pattern in ((R._NAME_SEP, R._VALUE), (R._FLAG_SPACE, R._ARG)):
            want = _mask_after_by_finditer(text, name_pattern, value_pattern)
            assert R._mask_after(text, name_pattern, value_pattern) == want, ascii(text)
            changed += want != text
    assert changed > 200
