"""Extract the suites' own checks that name a cause by what they test (issue 29, "read the whole error").

PaddleOCR, PaddleDetection, PaddleSeg, PaddleClas, PaddleNLP, PaddleSpeech, PaddleX ... check their
configuration and data before Paddle ever runs, and raise with messages of their own: Paddle's tables
do not know them, so diagnose called them ``python_exception``. What a check *tests* says what its
failure means, whatever its words:

- ``assert os.path.exists(p), MSG`` / ``if not os.path.isfile(p): raise E(MSG)`` (any ``exists``,
  ``isfile``, ``isdir``, ``Path(...).exists()``...): a file or directory it needs is missing ->
  ``file_not_found``;
- ``assert x in ("a", "b"), MSG`` / ``if x not in SUPPORTED: raise E(MSG)``, and the ``raise`` in the
  ``else`` of an ``if x == "a": ... elif x == "b": ...`` chain: a configured value that is not one of
  the choices the code handles -> ``config_error``;
- ``if not cfg.val_dataset: raise E(MSG)`` / ``assert args.model_dir is not None, MSG`` (an attribute or
  item of ``cfg``, ``config``, ``args`` ..., or a name the file assigns from one): a setting the run
  needs is not given -> ``config_error``.

Everything else (shapes, types, lengths, data values) is left out: its failure may be the data's or
the code's. Each check's message becomes a pattern (its literal words; a formatted value matches any
text), kept only when at least three words of it are literal, and dropped when two checks with the same
pattern say different things. Writes ``src/paddle_doctor/diagnose/anatomy/suite_checks.json``.

    pip download --no-deps --only-binary=:all: -d /tmp/sw paddleocr==2.0.6 paddleocr==2.7.0.3 ...
    python bench/extract_suite_checks.py /tmp/sw/*.whl /path/to/PaddleSeg ...

Each argument is a wheel (read as a zip) or a source folder; the suite is named by the wheel's
project or the folder's name.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "src" / "paddle_doctor" / "diagnose" / "anatomy" / "suite_checks.json"
PATH_TESTS = {"exists", "isfile", "isdir", "lexists", "is_file", "is_dir"}
SKIP_PARTS = {"test", "tests", "unittest", "unittests", "docs", "examples", "benchmark", "ppdiffusers",
              "scripts", "tipc", "test_tipc", "deploy"}
MIN_WORDS = 3
RAISED = {"Exception", "ValueError", "KeyError", "FileNotFoundError", "IOError", "OSError", "RuntimeError",
          "NotImplementedError", "TypeError", "AssertionError"}


def sources(arg: str) -> Iterator[tuple[str, str, str]]:
    """(suite, relative path, text) of every Python file of a wheel or a folder."""
    path = Path(arg)
    if path.suffix == ".whl":
        suite = path.name.split("-")[0] + "-" + path.name.split("-")[1]
        with zipfile.ZipFile(path) as wheel:
            for name in wheel.namelist():
                if name.endswith(".py") and not SKIP_PARTS.intersection(name.split("/")[:-1]):
                    yield suite, name, wheel.read(name).decode("utf-8", "replace")
        return
    for file in sorted(path.rglob("*.py")):
        rel = file.relative_to(path)
        if not SKIP_PARTS.intersection(rel.parts[:-1]):
            yield path.name, str(rel), file.read_text("utf-8", "replace")


def _negated(test: ast.expr) -> ast.expr | None:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return None


def _is_path_test(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PATH_TESTS
            and (node.args or isinstance(node.func.value, ast.Call)))


def _is_choices(node: ast.expr) -> bool:
    """A literal collection of constants, or a name in capitals (a module's table of choices)."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return bool(node.elts) and all(isinstance(e, ast.Constant) for e in node.elts)
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return len(name) > 2 and name.isupper()


def _is_setting(node: ast.expr) -> bool:
    """A value read from somewhere (a name, an attribute, an item; case-folded or stripped), not one
    computed from data (``len(x)``, a shape): only a setting's choices name a configuration error."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
        return node.func.attr in ("lower", "upper", "strip", "casefold") and _is_setting(node.func.value)
    return isinstance(node, (ast.Name, ast.Attribute, ast.Subscript))


CONFIG_ROOTS = re.compile(r"(?i)^(?:cfg|config|configs|conf|args|opt|opts|params|hparams|flags|settings|"
                          r"\w+_(?:cfg|config|conf|args))$")


def _root(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _is_config_read(node: ast.expr, config_names: frozenset[str]) -> bool:
    """A value read from the run's configuration: an attribute or item of ``cfg``, ``config``, ``args`` ...,
    or a name this file assigns from one (``val_dataset = cfg.val_dataset``)."""
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return bool(CONFIG_ROOTS.match(_root(node)))
    return isinstance(node, ast.Name) and node.id in config_names


def _missing_setting(failing: ast.expr, config_names: frozenset[str]) -> bool:
    """``not S``, ``S is None`` (or ``not (S is not None)``) for a configuration read S."""
    inner = _negated(failing)
    if inner is not None and isinstance(inner, ast.Compare) and isinstance(inner.ops[0], ast.IsNot):
        failing = ast.Compare(left=inner.left, ops=[ast.Is()], comparators=inner.comparators)
    elif inner is not None:
        return _is_config_read(inner, config_names)
    return (isinstance(failing, ast.Compare) and len(failing.ops) == 1 and isinstance(failing.ops[0], ast.Is)
            and isinstance(failing.comparators[0], ast.Constant) and failing.comparators[0].value is None
            and _is_config_read(failing.left, config_names))


def config_names_of(tree: ast.AST) -> frozenset[str]:
    """The names a file assigns from a configuration read (one target, anywhere in the file)."""
    return frozenset(node.targets[0].id for node in ast.walk(tree)
                     if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                     and _is_config_read(node.value, frozenset()))


def failing_kind(failing: ast.expr, config_names: frozenset[str] = frozenset()) -> str | None:
    """What a condition that holds when the check fails tests: "path", "choice", "setting" or None."""
    inner = _negated(failing)
    if inner is not None and _is_path_test(inner):
        return "path"
    if isinstance(failing, ast.BoolOp) and isinstance(failing.op, ast.Or):
        kinds = {failing_kind(v, config_names) for v in failing.values}
        return kinds.pop() if len(kinds) == 1 and None not in kinds else None
    if (isinstance(failing, ast.Compare) and len(failing.ops) == 1 and isinstance(failing.ops[0], ast.NotIn)
            and _is_choices(failing.comparators[0]) and _is_setting(failing.left)):
        return "choice"
    if _missing_setting(failing, config_names):
        return "setting"
    return None


def _assert_failing(test: ast.expr) -> ast.expr:
    inner = _negated(test)
    if inner is not None:
        return inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In):
        return ast.Compare(left=test.left, ops=[ast.NotIn()], comparators=test.comparators)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return ast.BoolOp(op=ast.Or(), values=[_assert_failing(v) for v in test.values])
    return ast.UnaryOp(op=ast.Not(), operand=test)


def template(node: ast.expr) -> list[str | None] | None:
    """The message as literal pieces and None for each formatted value, or None when it is not a string."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out: list[str | None] = []
        for value in node.values:
            out += [value.value] if isinstance(value, ast.Constant) else [None]
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = template(node.func.value)
        return None if base is None else _split(base, r"\{[^{}]*\}")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        base = template(node.left)
        return None if base is None else _split(base, r"%[-+ #0-9.]*[sdrfgixc]")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left), template(node.right)
        return (left or [None]) + (right or [None]) if left or right else None
    return None


def _split(pieces: list[str | None], placeholder: str) -> list[str | None]:
    out: list[str | None] = []
    for piece in pieces:
        if piece is None:
            out.append(None)
            continue
        for i, part in enumerate(re.split(placeholder, piece)):
            out += ([None] if i else []) + [part]
    return out


def pattern(pieces: list[str | None]) -> str | None:
    """A regular expression for the message's first line, or None when too little of it is literal."""
    text, out = "", []
    for piece in pieces:
        if piece is None:
            out.append(".*?")
            continue
        first, newline, _ = piece.partition("\n")
        out.append(re.escape(first))
        text += " " + first
        if newline:
            out.append(".*")
            break
    words = re.findall(r"[A-Za-z]{2,}", text)
    if len(words) < MIN_WORDS:
        return None
    regex = re.sub(r"(?:\\ )+", r"\\s+", "".join(out))
    regex = re.sub(r"^(?:\\s\+)+|(?:\\s\+)+$", "", regex)  # Python prints the message, the log's reader strips it
    return regex if regex.replace(".*?", "").replace(".*", "").strip() else None


def checks(tree: ast.AST) -> Iterator[tuple[int, str, str, ast.expr, str]]:
    """(line, exception type, kind, message node, the test's source) of each check that names a cause."""
    config_names = config_names_of(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            kind = failing_kind(_assert_failing(node.test), config_names)
            if kind:
                yield node.lineno, "AssertionError", kind, node.msg, ast.unparse(node.test)
        elif isinstance(node, ast.If):
            yield from _if_checks(node, config_names)


def _raised(body: list[ast.stmt]) -> tuple[str, ast.expr] | None:
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or not isinstance(body[0].exc, ast.Call):
        return None
    call = body[0].exc
    name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else ""
    return (name, call.args[0]) if name in RAISED and call.args else None


def _if_checks(node: ast.If, config_names: frozenset[str]) -> Iterator[tuple[int, str, str, ast.expr, str]]:
    raised = _raised(node.body)
    if raised:
        kind = failing_kind(node.test, config_names)
        if kind:
            yield node.body[0].lineno, raised[0], kind, raised[1], ast.unparse(node.test)
    chain, tests = node, []
    while True:  # if x == "a": ... elif x == "b": ... else: raise E(MSG)
        tests.append(chain.test)
        if len(chain.orelse) == 1 and isinstance(chain.orelse[0], ast.If):
            chain = chain.orelse[0]
            continue
        break
    raised = _raised(chain.orelse)
    if raised and len(tests) >= 2 and _same_subject(tests):
        yield chain.orelse[0].lineno, raised[0], "choice", raised[1], "if/elif on " + ast.unparse(tests[0].left)


def _same_subject(tests: list[ast.expr]) -> bool:
    """Every test compares one expression with constants (== or in a literal collection)."""
    subjects = set()
    for test in tests:
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and _is_setting(test.left)):
            return False
        op, right = test.ops[0], test.comparators[0]
        constant = isinstance(right, ast.Constant) and isinstance(op, ast.Eq)
        if not (constant or isinstance(op, ast.In) and _is_choices(right)):
            return False
        subjects.add(ast.unparse(test.left))
    return len(subjects) == 1


def literal_of(regex: str) -> dict:
    """The pattern's longest literal run (a message without it is not tried) and its count of literal words."""
    runs = [re.sub(r"\\(.)", r"\1", run) for run in re.split(r"\.\*\??|\\s\+", regex)]
    return {"key": max(runs, key=len), "words": len(re.findall(r"[A-Za-z]{2,}", " ".join(runs)))}


CAUSE = {"path": "file_not_found", "choice": "config_error", "setting": "config_error"}


def main(args: list[str]) -> int:
    rows: dict[tuple[str, str], dict] = {}
    conflicts: set[tuple[str, str]] = set()
    for arg in args:
        for suite, rel, text in sources(arg):
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for line, exc_type, kind, message, test in checks(tree):
                pieces = template(message)
                regex = pattern(pieces) if pieces else None
                if regex is None:
                    continue
                key = (exc_type, regex)
                row = {"type": exc_type, "message": regex, **literal_of(regex), "cause": CAUSE[kind],
                       "test": test[:120], "source": f"{suite} {rel}:{line}"}
                if key in rows and rows[key]["cause"] != row["cause"]:
                    conflicts.add(key)
                rows.setdefault(key, row)
    kept = [row for key, row in sorted(rows.items()) if key not in conflicts]
    OUT.write_text(json.dumps({"_": __doc__.split("\n")[0] + " Made by bench/extract_suite_checks.py from: "
                               + ", ".join(sorted({r["source"].split()[0] for r in kept})), "checks": kept},
                              indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(kept)} checks ({sum(r['cause'] == 'file_not_found' for r in kept)} file_not_found, "
          f"{sum(r['cause'] == 'config_error' for r in kept)} config_error), {len(conflicts)} dropped as conflicting; "
          f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
