"""Mask secrets in any text paddle-doctor quotes: diagnose's evidence, env's report, every lens.

Older launchers print the whole environment into their error lines, the new launcher's own
``<job>.log`` starts with ``environ({...})``, and command lines carry ``--api-key VALUE``: tokens and
passwords must never be copied into output that people paste into public issues. A leaf module,
the only one that masks: callers redact first and cut to length after (a cut first can leave
half a password that no pattern recognises).

Masked, by name: values of names that look secret (KEY, TOKEN, SECRET, PASS, PWD, AUTH,
CREDENTIAL, SIGNATURE, COOKIE) in ``'NAME': 'value'`` (a dumped dict, quotes escaped or not, values
with escaped quotes), ``NAME=value``, ``name: value``, ``NAME<TAB>value`` and ``--name value``;
netrc's ``password X`` / ``account X``; the password glued to a mysql/mariadb client's ``-p``.
By value (the shapes of the gitleaks / truffleHog rule sets and detect-secrets' plugins,
rewritten here): PEM blocks (``-----BEGIN ... PRIVATE KEY-----``); the userinfo of a URL
(``scheme://user:password@host`` with any characters in the password, ``/`` and ``@`` included,
and ``https://TOKEN@host``); ``user:password@host`` without a scheme; ``Authorization`` schemes
(``Bearer``, ``Basic``, ``Token``, ``Digest``); signed-URL parameters (``X-Amz-Signature``,
``X-Amz-Credential``, ``X-Amz-Security-Token``, ``X-Goog-Signature``, Azure SAS ``sig``,
``access_token``); JWTs; provider tokens with a known prefix (GitHub, GitLab, Slack, AWS access
key ids and 40-character secret keys, OpenAI / Anthropic, Stripe, Hugging Face, Google, npm, PyPI, SendGrid, Slack webhooks).
:func:`redact_value` (for a variable's value, which is never prose) also masks high-entropy
words (detect-secrets' idea: Shannon entropy over base64 or hex characters).
"""

from __future__ import annotations

import math
import re

from .lazy import lazy_compile

MASK = "***"
_SECRET_WORD = r"KEY|TOKEN|SECRET|PASS|PWD|AUTH|CREDENTIAL|SIGNATURE|COOKIE"
_SECRET_NAME = lazy_compile(_SECRET_WORD, re.IGNORECASE)
# Names are whole words (a look-behind: matching starts only where a word starts) and are judged by
# is_secret_name after matching: a pattern with the secret word inside it backtracks over every
# split of a long word (quadratic: minutes for one 64 KiB word), Python 3.10 has no possessive
# quantifiers to stop that.
# A quote may be escaped (JSON inside a JSON string: ``{\"password\": \"x\"}``), and a value may
# hold escaped quotes (``"ab\"cd"``): an escape pair is one step, so the value ends at its own quote.
_QUOTED = lazy_compile(r"""(\\?['"])(?P<name>[\w.-]+)\1(\s*:\s*)(\\?['"])((?:(?!\4)(?:\\.|[^\\]))*)\4""")
# ``password<TAB>value`` (a tab-separated table of settings).
_NAME_TAB = lazy_compile(r"(?<![\w.-])(?P<name>[\w.-]+)\t+(?=\S)")
# netrc (``machine h login u password p``; ``account p`` after a login) and ``password p`` anywhere
# (a command line's argument list): the word after. In prose ("wrong password for alice") a word
# that is no secret gets masked: a mask too many, never a password shown.
_NETRC = lazy_compile(r"(?:\b(?P<word>password|passwd)|(?:\blogin\s+\S+\s+)(?P<acct>account))[ \t]+"
                      r"(?P<value>[^\s'\"=:][^\s'\"]*|'[^']*'|\"[^\"]*\")", re.IGNORECASE)
# mysql / mariadb clients take the password glued to -p (``mysql -uroot -pS3cret db``).
_MYSQL_CLIENT = lazy_compile(r"\b(?:mysql|mariadb)")
_GLUED_P = lazy_compile(r"(?<!\S)-p(?P<value>'[^']*'|\"[^\"]*\"|[^\s'\"]+)")
# An AWS secret access key: 40 base64 characters with "/" or "+" among them (the shape of
# detect-secrets' and gitleaks' AWS rules); told from a path by its mixed cases, digits, entropy.
_AWS_SECRET = lazy_compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
# NAME=value, name: value, Go's name := value, an array's name[]= value, Objective-C's name = @"value"
_NAME_SEP = lazy_compile(r"(?<![\w.-])(?P<name>[\w.-]+)(?:\[\])?\s*(?::=|[=:])\s*@?")
# a subscript: dict["secret"] = value
_SUBSCRIPT = lazy_compile(r"(?<=\[['\"])(?P<name>[\w.-]+)['\"]\]\s*=\s*")
# name "value"; (a statement: detect-secrets' "followed by quotes and semicolon")
_NAME_QUOTE_SEMI = lazy_compile(r"(?<![\w.-])(?P<name>[\w.-]+)[ \t]*(?=(?P<q>['\"])[^'\"\s]+(?P=q);)")
_FLAG_SPACE = lazy_compile(r"(?<![\w.-])(?P<name>--?[\w.-]+)\s+(?=[^\s-])")
_VALUE = lazy_compile(r"""'[^']*'|"[^"]*"|[^\s,;'"&]+""")
_ARG = lazy_compile(r"[^\s]+")

# Lines without any of these (lower-cased) hold no secret of any shape below: plain substring
# searches on one lower-cased copy (a few microseconds), where one case-insensitive regex of the
# same alternatives costs ten times more; diagnose redacts a few lines per rank of 1024.
_TRIGGERS = ("key", "token", "secret", "pass", "pwd", "auth", "credential", "signature", "cookie", "://", "@",
             "-----begin", "bearer", "basic", "digest", "sig=", "eyj", "akia", "asia", "ghp_", "gho_", "ghu_",
             "ghs_", "ghr_", "github_pat_", "glpat-", "xox", "sk-", "_live_", "_test_", "hf_", "aiza", "ya29.",
             "npm_", "pypi-", "sg.", "agpa", "aida", "aroa", "anpa", "hooks.slack", "account", "mysql", "mariadb")
_AUTH_WORDS = ("bearer", "basic", "token", "digest")
# Lower-cased, a necessary part of each alternative of _TOKENS (case-sensitive there).
_TOKEN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xox", "akia", "asia", "agpa",
                   "aida", "aroa", "anpa", "sk-", "_live_", "_test_", "hf_", "aiza", "ya29.", "npm_", "pypi-",
                   "sg.", "eyj", "hooks.slack")
_PEM = lazy_compile(r"-----BEGIN [A-Z0-9 ]{0,64}-----.*?(?:-----END [A-Z0-9 ]{0,64}-----|\Z)", re.DOTALL)
# Greedy to the last "@" of the run: a password may hold "/" and "@"; the host follows the last one.
_URL_USERINFO = lazy_compile(r"(?P<scheme>\b[A-Za-z][\w+.-]{0,30}://)(?P<info>[^\s'\"<>`]{1,256})@(?=[\w\[])")
_BARE_USERINFO = lazy_compile(r"(?<![\w/:.@*-])(?P<user>[A-Za-z_][\w.+-]{0,63}):(?!//)(?P<pw>[^\s'\"<>`]{1,256})@"
                            r"(?P<host>\[[0-9A-Fa-f:.]+\]|[\w-]+(?:\.[\w-]+)*)(?=$|[\s:/,;'\"\])}])")
_AUTH_SCHEME = lazy_compile(r"\b(?P<scheme>Bearer|Basic|Token|Digest)(?P<space>\s+)(?P<cred>[\w.~+/=-]{8,})",
                          re.IGNORECASE)
_SIGNED_PARAM = lazy_compile(r"(?<![\w-])(?P<name>X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token"
                           r"|X-Goog-Signature|X-Goog-Credential|sig|signature|access_token|id_token"
                           r"|refresh_token|client_secret)=(?P<value>[^&\s'\"#]+)", re.IGNORECASE)
_TOKENS = lazy_compile(r"""(?<![\w-])(?:
    gh[pousr]_[A-Za-z0-9]{20,} | github_pat_[A-Za-z0-9_]{20,} | glpat-[A-Za-z0-9_-]{20,}
  | xox[abprs]-[A-Za-z0-9-]{10,} | (?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}
  | sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,} | [sr]k_(?:live|test)_[A-Za-z0-9]{16,}
  | hf_[A-Za-z0-9]{20,} | AIza[0-9A-Za-z_-]{35} | ya29\.[0-9A-Za-z_-]{20,} | npm_[A-Za-z0-9]{36}
  | pypi-[A-Za-z0-9_-]{40,} | SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}
  | eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?
  | hooks\.slack\.com/services/[A-Za-z0-9/]+
)""", re.VERBOSE)
# High entropy: runs of base64 characters (no "/", "-" or ".": paths, UUIDs and host names split
# into short words), hex counted against its smaller alphabet.
_WORD = lazy_compile(r"[A-Za-z0-9+=_]{20,}")
_HEX = lazy_compile(r"[0-9a-fA-F]+")
BASE64_BITS, HEX_BITS, AWS_SECRET_BITS = 4.0, 3.0, 4.3


# ASCII text is tested with plain substring searches on its lower-cased copy, which for ASCII is
# exactly what the case-blind regexes match (Unicode case folding differs only beyond ASCII: the
# Kelvin sign is a "k" to re.IGNORECASE); each such regex costs 2-25 us a line, a substring test
# well under one (diagnose redacts a long progress line per rank of 1024).
_SECRET_WORDS = tuple(word.lower() for word in _SECRET_WORD.split("|"))


# An exception's type before its message (``KeyError: 'CUDA_VISIBLE_DEVICES'``, ``TokenError: ...``)
# names a class, not a setting: its message is prose the other passes still read for secrets' shapes.
_EXCEPTION_TYPE = lazy_compile(r"(?:[\w-]+\.)*(?:[A-Z][a-z0-9]*)+(?:Error|Exception|Warning)")


def is_secret_name(name: str) -> bool:
    if _EXCEPTION_TYPE.fullmatch(name) is not None:
        return False
    if name.isascii():
        lowered = name.lower()
        for word in _SECRET_WORDS:
            if word in lowered:
                return True
        return False
    return _SECRET_NAME.search(name) is not None


def _may_hold_auth_scheme(text: str, lowered: str) -> bool:
    """Whether an ``Authorization`` scheme word is followed by whitespace (what _AUTH_SCHEME needs)."""
    if not text.isascii():
        return any(word in lowered for word in _AUTH_WORDS)
    for word in _AUTH_WORDS:
        at = lowered.find(word)
        while at >= 0:
            after = lowered[at + len(word):at + len(word) + 1]
            if after.isspace():
                return True
            at = lowered.find(word, at + 1)
    return False


def redact(text: str) -> str:
    """``text`` with every secret-shaped part replaced by ``***`` (see the module docstring)."""
    if len(text) >= 40 and ("/" in text or "+" in text):  # an AWS secret key needs no name beside it
        text = _AWS_SECRET.sub(_mask_aws_secret, text)
    lowered = text.lower()
    for word in _TRIGGERS:  # a loop, not any(genexpr): half the cost on the lines that hold none
        if word in lowered:
            break
    else:
        return text
    # Each pass runs only where the literal its pattern cannot match without is present (one
    # substring test against a regex pass: diagnose redacts a line per rank of 1024).
    if "-----begin" in lowered:
        text = _PEM.sub(MASK, text)
    if "@" in text:
        if "://" in text:
            text = _URL_USERINFO.sub(_mask_userinfo, text)
        text = _BARE_USERINFO.sub(lambda m: f"{m['user']}:{MASK}@{m['host']}", text)
    if _may_hold_auth_scheme(text, lowered):
        text = _AUTH_SCHEME.sub(lambda m: f"{m['scheme']}{m['space']}{MASK}", text)
    if "=" in text:
        text = _SIGNED_PARAM.sub(lambda m: f"{m['name']}={MASK}", text)
    if any(word in lowered for word in _TOKEN_PREFIXES):
        text = _TOKENS.sub(MASK, text)
    if "-p" in text and ("mysql" in lowered or "mariadb" in lowered):
        text = _GLUED_P.sub(f"-p{MASK}", text)
    if "pass" in lowered or "account" in lowered:
        text = _NETRC.sub(lambda m: m[0][:m.start("value") - m.start()] + MASK, text)
    if not is_secret_name(text):  # the same test on the whole line: no secret-looking word at all
        return text  # the passes below mask only what follows a secret-looking name
    if ":" in text and ("'" in text or '"' in text):
        text = _QUOTED.sub(_mask_quoted, text)
    if "=" in text or ":" in text:
        text = _mask_after(text, _NAME_SEP, _VALUE)
    if "[" in text and "=" in text:
        text = _mask_after(text, _SUBSCRIPT, _VALUE)
    if ";" in text:
        text = _mask_after(text, _NAME_QUOTE_SEMI, _VALUE)
    if "\t" in text:
        text = _mask_after(text, _NAME_TAB, _VALUE)
    return _mask_after(text, _FLAG_SPACE, _ARG) if "-" in text else text


def _mask_aws_secret(match: re.Match) -> str:
    word = match[0]
    shaped = ("/" in word or "+" in word) and word.count("/") <= 3 and any(c.isdigit() for c in word) \
        and any(c.isupper() for c in word) and any(c.islower() for c in word)
    return MASK if shaped and shannon_bits(word) >= AWS_SECRET_BITS else word  # a path is ~4.1 bits, a key ~4.7


def redact_value(text: str) -> str:
    """:func:`redact`, then high-entropy words masked too: for a variable's value, never prose."""
    return _WORD.sub(_mask_random, redact(text))


def _mask_userinfo(match: re.Match) -> str:
    user, sep, _ = match["info"].partition(":")
    keep = sep and re.fullmatch(r"[\w.+-]{1,64}", user) and _TOKENS.fullmatch(user) is None
    return f"{match['scheme']}{user}:{MASK}@" if keep else f"{match['scheme']}{MASK}@"


def _mask_quoted(match: re.Match) -> str:
    if not is_secret_name(match["name"]):
        return match[0]
    return f"{match[1]}{match['name']}{match[1]}{match[3]}{match[4]}{MASK}{match[4]}"


def _mask_after(text: str, name_pattern: re.Pattern, value_pattern: re.Pattern) -> str:
    """Mask the value that follows each secret-looking name (``NAME=value``, ``--name value``)."""
    out, done = [], 0
    for match in _secret_names(text, name_pattern):
        if match.start() < done:
            continue
        value = value_pattern.match(text, match.end())
        if value is None or value[0].strip("'\"") == MASK:
            continue  # nothing there, or already masked (a dumped dict's quoted value)
        out += [text[done:match.end()], MASK]
        done = value.end()
    return "".join(out) + text[done:] if out else text


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")  # [\w.-] in ASCII text


def _secret_names(text: str, name_pattern: re.Pattern) -> list[re.Match]:
    r"""The matches of ``name_pattern`` (_NAME_SEP, _FLAG_SPACE) whose name looks secret, in order.

    Both patterns match a name only where a whole run of ``[\w.-]`` starts (their look-behind)
    and, in ASCII text, a secret word lies inside one run; so only the runs that hold a secret
    word are tried (``match`` at the run's start is the match ``finditer`` finds there: matches
    cannot overlap, what follows a name is never part of a run). A long line of ``name: value``
    pairs with one secret word costs one match, not one per pair."""
    if not text.isascii():
        return [m for m in name_pattern.finditer(text) if is_secret_name(m["name"])]
    lowered, found = text.lower(), []
    for word in _SECRET_WORDS:
        at = lowered.find(word)
        while at >= 0:
            found.append(at)
            at = lowered.find(word, at + 1)
    starts, run_end = [], -1
    for at in sorted(found):  # each run is walked once, whatever number of words it holds
        if at < run_end:
            continue
        start, run_end = at, at
        while start > 0 and text[start - 1] in _NAME_CHARS:
            start -= 1
        while run_end < len(text) and text[run_end] in _NAME_CHARS:
            run_end += 1
        starts.append(start)
    matches = (name_pattern.match(text, start) for start in starts)
    return [m for m in matches if m is not None and is_secret_name(m["name"])]


def _mask_random(match: re.Match) -> str:
    word = match[0]
    digits, letters = any(c.isdigit() for c in word), any(c.isalpha() for c in word)
    if _HEX.fullmatch(word) is not None:
        return MASK if digits and letters and shannon_bits(word) >= HEX_BITS else word
    mixed = digits and any(c.isupper() for c in word) and any(c.islower() for c in word)
    # names_like_this_0123 and NAMES_2 are words, not keys: a base64 key mixes cases and digits
    return MASK if mixed and shannon_bits(word) >= BASE64_BITS else word


def shannon_bits(word: str) -> float:
    """Shannon entropy of ``word`` in bits per character."""
    counts: dict[str, int] = {}
    for char in word:
        counts[char] = counts.get(char, 0) + 1
    return -sum(n / len(word) * math.log2(n / len(word)) for n in counts.values())
