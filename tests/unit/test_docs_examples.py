"""The examples of README.md and docs/*.md that are marked runnable, run and compared with what the
docs show, so that the docs cannot drift from the code (issue 22).

A fenced block is checked when the line before its opening fence is an HTML comment (invisible on
GitHub):

- ``<!-- doctest -->`` before a shell block: each ``$ `` line is a command, run with bash in a
  fresh temporary folder (``paddle-doctor`` and ``python`` are this checkout's); the lines up to
  the next ``$ `` line are its expected output (stdout and stderr together). ``<!-- doctest
  in=PATH -->`` starts the folder as a copy of PATH (relative to the repository root).
- ``<!-- doctest recorded=PATH -->`` before an output block: the block (after its ``$ `` line) is
  what a real run printed, recorded in PATH; its lines must appear there, in order.
- ``<!-- doctest -->`` before a ``python`` block: the snippet runs as a script in a temporary
  folder and must exit 0; each ``# -> TEXT`` comment at the end of a ``print(...)`` line is the
  line that print must write.

- ``needs=paddle`` in a marker: the example runs only where paddlepaddle is installed (skipped,
  with the reason, elsewhere).

In expected output, a line that is only ``…`` stands for any number of lines (none included), and
``…`` inside a line for any text (paths, timings, a cut message). Every other line must be equal
(trailing spaces aside), and the output must match from its first line to its last.

Mark only what runs in seconds without a Paddle launch, and put ``…`` over what depends on the
machine; slower examples stay unmarked (the smoke table is compared in
tests/integration/test_smoke.py, which launches it anyway).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
MARKER = re.compile(r"^<!--\s*doctest(?P<opts>(?:\s+\w+=\S+)*)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)(?P<info>[\w+-]*)")
GAP = "…"
PRINT_EXPECT = re.compile(r"#\s*->\s?(?P<text>.*)$")
TIMEOUT_S = 120


@dataclass(frozen=True)
class Example:
    doc: Path
    line: int  # of the opening fence, 1-based
    info: str  # the fence's info string (console, python, ...)
    options: dict[str, str]
    body: list[str]

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"


def examples_in(doc: Path) -> list[Example]:
    """Every fenced block of ``doc`` whose opening fence follows a doctest marker."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        marker = MARKER.match(lines[i].strip())
        fence = FENCE.match(lines[i + 1]) if marker and i + 1 < len(lines) else None
        if not fence:
            i += 1
            continue
        indent, close = fence["indent"], fence["fence"]
        end = next((j for j in range(i + 2, len(lines)) if lines[j].strip() == close), None)
        assert end is not None, f"{doc}:{i + 2}: the marked block is never closed"
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[i + 2:end]]
        opts = dict(opt.split("=", 1) for opt in marker["opts"].split())
        found.append(Example(doc, i + 2, fence["info"], opts, body))
        i = end + 1
    return found


ALL_EXAMPLES = [ex for doc in DOC_FILES for ex in examples_in(doc)]


# -- matching -----------------------------------------------------------------------------------


def _line_matches(expected: str, actual: str) -> bool:
    expected, actual = expected.rstrip(), actual.rstrip()
    if GAP not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split(GAP))
    return re.fullmatch(pattern, actual, flags=re.DOTALL) is not None


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` from first line to last, ``…`` lines standing for any run."""
    memo: dict[tuple[int, int], bool] = {}

    def match(e: int, a: int) -> bool:
        if (e, a) not in memo:
            if e == len(expected):
                memo[e, a] = a == len(actual)
            elif expected[e].strip() == GAP:
                memo[e, a] = match(e + 1, a) or (a < len(actual) and match(e, a + 1))
            else:
                memo[e, a] = a < len(actual) and _line_matches(expected[e], actual[a]) and match(e + 1, a + 1)
        return memo[e, a]

    return match(0, 0)


def appears_in_order(expected: list[str], recorded: list[str]) -> bool:
    """Whether the block, with gaps where it says ``…``, is a stretch of the recorded output."""
    return output_matches([GAP, *expected, GAP], recorded)


def test_matching_rules():
    assert output_matches(["a", GAP, "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", GAP, "b"], ["a", "b"])
    assert not output_matches(["a", "d"], ["a", "b", "d"])
    assert not output_matches(["a"], ["a", "extra"])
    assert output_matches(["took … s"], ["took 5.0 s"])
    assert not output_matches(["took … s"], ["took 5.0 ms!"])
    assert appears_in_order(["b", GAP, "d"], ["a", "b", "c", "d", "e"])
    assert not appears_in_order(["d", "b"], ["a", "b", "c", "d"])


def test_the_docs_have_marked_examples():
    docs = {ex.doc.name for ex in ALL_EXAMPLES}
    assert {"README.md", "triage.md", "smoke.md"} <= docs, docs
    assert len(ALL_EXAMPLES) >= 8


# -- running ------------------------------------------------------------------------------------


def _tools(bin_dir: Path) -> dict[str, str]:
    """An environment whose ``paddle-doctor`` and ``python`` are this checkout's."""
    bin_dir.mkdir()
    for name, target in (("paddle-doctor", f'"{sys.executable}" -m paddle_doctor.cli.main'),
                         ("python", f'"{sys.executable}"')):
        tool = bin_dir / name
        tool.write_text(f'#!/bin/sh\nexec {target} "$@"\n')
        tool.chmod(0o755)
    src = str(REPO / "src")
    path = os.pathsep.join([src, os.environ["PYTHONPATH"]]) if os.environ.get("PYTHONPATH") else src
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": path,
            "PYTHONWARNINGS": "ignore", "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}


def _workdir(example: Example, tmp_path: Path) -> Path:
    work = tmp_path / "work"
    if "in" in example.options:
        shutil.copytree(REPO / example.options["in"], work)
    else:
        work.mkdir()
    return work


def _sessions(body: list[str]) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each ``$ `` line of a shell block."""
    sessions: list[tuple[str, list[str]]] = []
    for line in body:
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            assert sessions, f"output before the first `$ ` line: {line!r}"
            sessions[-1][1].append(line)
    return sessions


def _check_shell(example: Example, tmp_path: Path) -> None:
    env, work = _tools(tmp_path / "bin"), _workdir(example, tmp_path)
    sessions = _sessions(example.body)
    assert sessions, "a marked shell block has no `$ ` line"
    for command, expected in sessions:
        proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT_S)
        actual = proc.stdout.splitlines()
        assert output_matches(expected, actual), (
            f"{example.id}: `{command}` (exit {proc.returncode}) printed\n" + "\n".join(actual)
            + "\n---- the docs show ----\n" + "\n".join(expected))


def _check_recorded(example: Example) -> None:
    recorded = (REPO / example.options["recorded"]).read_text(errors="replace").splitlines()
    shown = [line for line in example.body if not line.startswith("$ ")]
    assert appears_in_order(shown, recorded), (
        f"{example.id}: these lines are not, in this order, in {example.options['recorded']}:\n" + "\n".join(shown))


def _check_python(example: Example, tmp_path: Path) -> None:
    env, work = _tools(tmp_path / "bin"), _workdir(example, tmp_path)
    script = work / "snippet.py"
    script.write_text("\n".join(example.body) + "\n")
    proc = subprocess.run([sys.executable, str(script)], cwd=work, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    assert proc.returncode == 0, f"{example.id}: the snippet failed:\n{proc.stderr[-3000:]}"
    expected = [m["text"] for line in example.body if (m := PRINT_EXPECT.search(line)) and "print(" in line]
    if expected:
        actual = proc.stdout.splitlines()
        assert output_matches(expected, actual), f"{example.id}: printed\n{proc.stdout}\nthe docs show\n{expected}"


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=[ex.id for ex in ALL_EXAMPLES])
def test_doc_example(example: Example, tmp_path: Path):
    if example.options.get("needs") == "paddle" and importlib.util.find_spec("paddle") is None:
        pytest.skip("paddlepaddle is not installed")
    if "recorded" in example.options:
        _check_recorded(example)
    elif example.info == "python":
        _check_python(example, tmp_path)
    else:
        _check_shell(example, tmp_path)
