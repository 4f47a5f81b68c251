"""Which Python a shell script starts its workers with (``run -- bash train.sh``, ``run -- ./train.sh``).

Before launching, ``run`` asks the workers' interpreter whether it can load the guards
(:mod:`.workers_python`). When the command is a shell script, that interpreter is not the command
itself but the one the script calls: ``python -m paddle.distributed.launch ...`` (PaddleNLP's and
PaddleOCR's ``run.sh`` do this), ``/opt/venv/bin/python3 train.py``, or ``fleetrun``. The script is
read, not run: each command word that names a Python (``python``, ``python3.10``, a path to one, a
launcher whose ``#!`` line names one) is resolved on the PATH the job gets, or in the venv a literal
``source X/bin/activate`` line switches to. What cannot be told from the text (``$PYTHON train.py``,
``conda activate``, a PATH the script builds) is returned as a reason, for one plain line to the
user: a wrong guess would give a wrong verdict on whether the guards are there.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh"})
MAX_SCRIPT_BYTES = 256 << 10  # a launch script is short; a huge file is not read whole
MAX_DEPTH = 3  # a script that calls a script that calls a script
ACTIVATE = re.compile(r"^\s*(?:source|\.)\s+(\S+)/bin/activate\b")
PATH_CHANGE = re.compile(r"^\s*(?:export\s+)?PATH=|\bconda\s+activate\b|\bpyenv\s+(?:shell|local)\b|\bmodule\s+load\b")
PASSED_ON = ("$@", "$*")  # a wrapper's `exec "$@"` (shlex has taken the quotes off)
VARIABLE = re.compile(r"\$(?:(\w+)|\{(\w+)(?::?-([^}$]*))?\})")  # $PY, ${PY}, ${PY:-python3}
ASSIGNMENT = re.compile(r"^\s*(?:export\s+)?(\w+)=[\"']?([^\s\"'$;&|`]+)[\"']?\s*$")  # a literal, nothing else
# A command that starts Python's work through something the text does not name: a variable or a substitution.
OPAQUE_PYTHON = re.compile(r"^\$(\{[^}]+\}|\w+|\(.*\))$")


@dataclass
class ScriptPythons:
    """The interpreters a script calls (resolved paths, in order) and what could not be told."""

    script: str
    pythons: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Script:
    """A shell script a command runs: its name for the user, its text, and the arguments it gets."""

    name: str
    text: str
    args: tuple[str, ...] = ()


def shell_script(cmd: Sequence[str], env: Mapping[str, str], cwd: str) -> Script | None:
    """The shell script ``cmd`` runs (``bash x.sh ARGS``, ``sh -c '...'``, or a file whose ``#!``
    line names a shell); None when the command is not a shell script."""
    if not cmd:
        return None
    found = shutil.which(os.path.join(cwd, cmd[0]) if "/" in cmd[0] else cmd[0], path=env.get("PATH"))
    if found is None:
        return None
    if Path(found).name in SHELLS:
        return _script_argument(list(cmd[1:]), cwd)
    words = shebang(found, env)
    text = _read(found) if words and Path(words[0]).name in SHELLS else None
    return None if text is None else Script(cmd[0], text, tuple(cmd[1:]))


def _script_argument(args: list[str], cwd: str) -> Script | None:
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if "c" in option[1:] and not option.startswith("--"):
            return Script("the -c command", args[0], tuple(args[2:])) if args else None  # $0, then $1...
    if not args:
        return None  # a shell reading its standard input
    text = _read(os.path.join(cwd, args[0]))
    return None if text is None else Script(args[0], text, tuple(args[1:]))


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SCRIPT_BYTES)
    except OSError:
        return None
    return None if b"\x00" in data[:4096] else data.decode("utf-8", "replace")  # a binary is no script


def pythons_in_script(script: Script, env: Mapping[str, str], cwd: str, depth: int = 0) -> ScriptPythons:
    """The Pythons ``script`` starts, resolved where its text says enough."""
    out = ScriptPythons(script.name)
    venv_bin: str | None = None
    path_changed = ""
    assigned: dict[str, str] = dict(env)  # `PY=python3` lines, over the job's environment
    # a command continued over lines (`python -m paddle.distributed.launch \`) is read as one line
    for number, line in enumerate(script.text.replace("\\\n", " ").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if (m := ACTIVATE.match(line)) and "$" not in m[1]:
            venv_bin = os.path.join(cwd, os.path.expanduser(m[1]), "bin")
        elif PATH_CHANGE.search(line):
            path_changed = f"line {number} changes the PATH: {line.strip()[:80]}"
        elif m := ASSIGNMENT.match(line):
            assigned[m[1]] = m[2]
        for word, after in _command_words(line):
            where = f"line {number}: {line.strip()[:80]}"
            if word in PASSED_ON and script.args:  # a wrapper: `exec "$@"` runs the command it was given
                word, after = script.args[0], list(script.args[1:])
            elif (m := VARIABLE.fullmatch(word)) and "$" not in (value := assigned.get(m[1] or m[2], m[3] or "$")):
                word = value  # $PY, ${PY}, ${PY:-python3}: its literal value
            if is_python(word):
                _add_python(out, word, (venv_bin, path_changed), env, cwd, where)
            elif OPAQUE_PYTHON.match(word) and _starts_python_work(after):
                out.unknown.append(f"{where} starts Python through {word}")
            elif depth < MAX_DEPTH and (inner := _called_script(word, after, env, cwd)) is not None:
                nested = pythons_in_script(inner, env, cwd, depth + 1)
                out.pythons += [p for p in nested.pythons if p not in out.pythons]
                out.unknown += nested.unknown
            elif (launcher := _python_launcher(word, env)) is not None and launcher not in out.pythons:
                out.pythons.append(launcher)
    if not out.pythons and not out.unknown:
        out.unknown.append("no line of it names a Python")
    return out


def _add_python(out: ScriptPythons, word: str, path_state: tuple[str | None, str], env: Mapping[str, str], cwd: str,
                where: str) -> None:
    """``word`` (a Python's name or path) resolved where the script's PATH finds it, into ``out``."""
    venv_bin, path_changed = path_state
    if "/" in word:
        path = os.path.join(cwd, os.path.expanduser(word))
        resolved: str | None = os.path.abspath(path) if os.access(path, os.X_OK) else None
    elif venv_bin is not None:
        resolved = shutil.which(word, path=venv_bin)
    elif path_changed:
        out.unknown.append(f"{where} runs {word}, but {path_changed}")
        return
    else:
        resolved = shutil.which(word, path=env.get("PATH"))
    if resolved is None:
        out.unknown.append(f"{where} runs {word}, which is not there on the job's PATH")
    elif resolved not in out.pythons:
        out.pythons.append(resolved)


def _command_words(line: str) -> list[tuple[str, list[str]]]:
    """Each command word of a line (after ``;``, ``&&``, ``|``, ``exec``, ``nohup``, ``env``, and
    ``VAR=value`` prefixes) with the words that follow it."""
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:  # an unclosed quote: a line shlex cannot split
        words = line.split()
    found, expect = [], True
    for i, word in enumerate(words):
        if word and set(word) <= set(";&|()"):
            expect = True
        elif expect and (word in ("exec", "nohup", "env", "time", "sudo", "if", "then", "else", "elif", "while",
                                  "until", "do", "!")
                         or re.fullmatch(r"\w+=.*", word)):
            continue
        elif expect:
            found.append((word, words[i + 1:]))
            expect = False
    return found


def _starts_python_work(args: list[str]) -> bool:
    return any(a in ("-m", "-c") or a.endswith(".py") for a in args)


def _called_script(word: str, args: list[str], env: Mapping[str, str], cwd: str) -> Script | None:
    if Path(word).name in SHELLS:
        return shell_script([word, *args], env, cwd)
    if word.endswith(".sh") or "/" in word:
        return shell_script([os.path.join(cwd, word) if "/" not in word else word, *args], env, cwd)
    return None


def _python_launcher(word: str, env: Mapping[str, str]) -> str | None:
    """A program whose ``#!`` line names a Python (``fleetrun``): that Python."""
    found = shutil.which(word, path=env.get("PATH"))
    words = shebang(found, env) if found is not None else []
    return words[0] if words and is_python(words[0]) else None


def shebang(path: str, env: Mapping[str, str]) -> list[str]:
    """The words of ``path``'s ``#!`` line, ``/usr/bin/env NAME`` resolved on the job's PATH; [] without one."""
    try:
        with open(path, "rb") as script:
            head = script.readline(512)
    except OSError:
        return []
    words = head[2:].decode("utf-8", "replace").split() if head.startswith(b"#!") else []
    if words and Path(words[0]).name == "env" and len(words) > 1:
        words = [shutil.which(words[1], path=env.get("PATH")) or words[1], *words[2:]]
    return words


def is_python(path: str) -> bool:
    name = Path(path).name
    return name.startswith("python") and not name.endswith(("-config", ".py"))
