"""Issue 28 item 4: the redaction gaps, and a maintained rule corpus's own test strings.

Our shapes: an AWS secret access key holding ``/`` or ``+``, netrc's ``password X``, mysql's glued
``-pX``, JSON with escaped quotes (in a value, and JSON inside a JSON string), ``password<TAB>value``;
each planted in env's variables and in another user's command line, and checked absent from env's
text and JSON report, and from diagnose's evidence.

The corpus: detect-secrets' own test strings, vendored below with their source:
- ``KEYWORD_POSITIVES``: Yelp/detect-secrets ``tests/plugins/keyword_test.py`` (commit 04c6d34c),
  the ``positives`` of FOLLOWED_BY_COLON_EQUAL_SIGNS_RE, FOLLOWED_BY_COLON_RE,
  FOLLOWED_BY_EQUAL_SIGNS_OPTIONAL_BRACKETS_OPTIONAL_AT_SIGN_QUOTES_REQUIRED_REGEX,
  FOLLOWED_BY_EQUAL_SIGNS_RE and FOLLOWED_BY_QUOTES_AND_SEMICOLON_RE, whose secret is
  ``KEYWORD_SECRET``;
- ``AWS_EXAMPLE_SECRET``: Yelp/detect-secrets ``tests/plugins/aws_key_test.py`` (EXAMPLE_SECRET, in
  ``aws_secret_access_key = {}`` and ``secret_key = "{}"`` there), and gitleaks'
  ``cmd/generate/config/rules/aws.go`` true-positive access key id ``AKIALALEMEL33243OLIB``.
"""

from __future__ import annotations

import json

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.redact import MASK, redact, redact_value
from workers.envkit import env_outputs

KEYWORD_SECRET = "{{h}o)p${e]nob(ody[finds>-_$#thisone}}"
KEYWORD_POSITIVES = [
    # FOLLOWED_BY_COLON_EQUAL_SIGNS_RE
    'apikey := "{S}"', 'apikey :="{S}"', 'apikey  :=   "{S}"', "apikey := '{S}'", "apikey :='{S}'",
    'apikey:= "{S}"', 'apikey:="{S}"', "apikey:= '{S}'", "apikey:='{S}'", "apikey:=  '{S}'",
    "apikey := {S}", "apikey :={S}", "apikey:= {S}", "apikey:={S}",
    # FOLLOWED_BY_COLON_RE
    "'theapikey': '{S}'", '"theapikey": "{S}"', 'apikey: "{S}"', "apikey:  '{S}'", "apikey: {S}", "apikey:{S}",
    "theapikey:{S}",
    # FOLLOWED_BY_EQUAL_SIGNS_OPTIONAL_BRACKETS_OPTIONAL_AT_SIGN_QUOTES_REQUIRED_REGEX
    'apikey = "{S}"', 'apikey ="{S}"', 'apikey  =   "{S}"', 'apikey = @"{S}"', 'apikey =@"{S}"', 'apikey  =   @"{S}"',
    'apikey[]= "{S}"', 'apikey[]="{S}"',
    # FOLLOWED_BY_EQUAL_SIGNS_RE
    'some_dict["secret"] = "{S}"', 'the_password= "{S}"\n', "the_password='{S}'\n", "some_dict['secret'] = {S}",
    "my_password={S}", "my_password= {S}", "my_password ={S}", "my_password = {S}", "the_password={S}\n",
    # FOLLOWED_BY_QUOTES_AND_SEMICOLON_RE
    'apikey "{S}";', 'fooapikeyfoo "{S}";', 'fooapikeyfoo"{S}";', "private_key '{S}';", "fooprivate_key'{S}';",
]
AWS_EXAMPLE_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize("line", KEYWORD_POSITIVES)
def test_detect_secrets_keyword_positives_are_masked(line):
    out = redact(line.replace("{S}", KEYWORD_SECRET))
    assert "thisone" not in out and "nob(ody" not in out, out
    assert MASK in out


@pytest.mark.parametrize("line", [f"aws_secret_access_key = {AWS_EXAMPLE_SECRET}", f'secret_key = "{AWS_EXAMPLE_SECRET}"',
                                  AWS_EXAMPLE_SECRET, "AWS AKIALALEMEL33243OLIB"])
def test_detect_secrets_and_gitleaks_aws_strings_are_masked(line):
    out = redact(line)
    assert AWS_EXAMPLE_SECRET not in out and "AKIALALEMEL33243OLIB" not in out and "EXAMPLEKEY" not in out, out


AWS_PLUS = "Zk9+qR3vT7xW2yB5nM8pL1cD4fG6hJ0sA/eK3uIo"  # 40 characters, "+" and "/" in it
# (shape, text, what must not appear)
OURS = [
    ("aws-secret-slash", f"--source {AWS_EXAMPLE_SECRET}", (AWS_EXAMPLE_SECRET, "wJalrXUtnFEMI")),
    ("aws-secret-plus", f"s3 sync s3://b . {AWS_PLUS}", (AWS_PLUS, "Zk9+qR3vT7xW2")),
    ("netrc", "machine api.example.com login alice password hunter2NetRc", ("hunter2NetRc",)),
    ("netrc-line", "password hunter2NetRc", ("hunter2NetRc",)),
    ("mysql", "mysql -u root -pS3cretMy db", ("S3cretMy",)),
    ("mysql-quoted", "mysqldump -uroot -p'S3cret My' db", ("S3cret My", "S3cret")),
    ("json-escaped-value", '{"password": "ab\\"cdSecret\\"ef"}', ("cdSecret", "ab\\")),
    ("json-in-json", '{\\"password\\": \\"hunter2Json\\"}', ("hunter2Json",)),
    ("tab-separated", "password\thunter2Tab", ("hunter2Tab",)),
    ("tab-separated-key", "API_KEY\t\tabcTab123", ("abcTab123",)),
]


@pytest.mark.parametrize("shape,text,secrets", OURS, ids=[s for s, _, _ in OURS])
def test_our_shapes_are_masked(shape, text, secrets):
    for out in (redact(text), redact_value(text)):
        assert not [s for s in secrets if s in out], out


@pytest.mark.parametrize("shape,text,secrets", OURS, ids=[s for s, _, _ in OURS])
def test_env_text_and_json_never_show_our_shapes(tmp_path, shape, text, secrets):
    variables = {"PADDLE_CLOUD_CONFIG": text, "FLAGS_custom_setting": f"a {text} b"}
    for fmt, out in env_outputs(tmp_path, variables, ["python", "train.py", *text.split(" ")]).items():
        shown = json.loads(out) if fmt == "json" else out
        assert shown and not [s for s in secrets if s in out], (fmt, out)


@pytest.mark.parametrize("shape,text,secrets", OURS, ids=[s for s, _, _ in OURS])
def test_diagnose_evidence_never_shows_our_shapes(tmp_path, shape, text, secrets):
    (tmp_path / "workerlog.0").write_text(f"RuntimeError: connect failed with {text}\n")
    d = diagnose_paths([str(tmp_path)])
    quoted = " ".join(e.text for e in d.root_cause.evidence) + d.root_cause.message
    assert not [s for s in secrets if s in quoted], quoted


@pytest.mark.parametrize("line", ["password = hunter2Sep", "password : hunter2Sep", "PASSWORD hunter2Sep",
                                  "--password hunter2Sep", "login bob account hunter2Sep"])
def test_password_followed_by_a_separator_or_a_word_is_masked_either_way(line):
    assert "hunter2Sep" not in redact(line)
