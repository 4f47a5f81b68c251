"""Turn what the user passed (log dirs, files, stdin) into a list of sources with ranks.

Launcher log dirs hold ``workerlog.N`` (N is the LOCAL rank on that node), the launcher's own
``<job>.log`` files, and env dumps (``envlog.N``, ``backup_env.N.json``) whose ``PADDLE_GLOBAL_RANK`` /
``PADDLE_TRAINER_ID`` map local ranks to global ranks when several nodes' dirs are given.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ...contract import FAULT_NAME_RE, RECORD_NAME_RE
from .opener import check_regular, read_regular

MAX_DEPTH = 4
MAX_FILES = 2000
WORKER_RE = re.compile(r"^workerlog\.(\d+)$")
ENVLOG_RE = re.compile(r"^envlog\.(\d+)$")
BACKUP_ENV_RE = re.compile(r"^backup_env\.(\d+)\.json$")
# ``kubectl logs <pod> > <pod>.log`` of a PaddleJob: the operator names its pods <job>-worker-<i>
# (and <job>-ps-<i> for parameter servers), i the trainer's rank.
POD_LOG_RE = re.compile(r"^[a-z0-9][-a-z0-9.]*-worker-(\d+)(?:\.log|\.txt|\.out)?$")
# ``docker logs trainer-3 > trainer-3.log``: a container named for its rank (``trainer-3``, ``worker_1``,
# ``paddle-rank2``); the trailing number is the rank the user gave it (PADDLE_TRAINER_ID).
CONTAINER_LOG_RE = re.compile(r"^(?:[a-z0-9][-a-z0-9_.]*[-_.])?(?:trainer|worker|rank)[-_]?(\d+)(?:\.log|\.txt|\.out)?$",
                              re.I)
# docker's json-file driver keeps a container's log as <id>/<id>-json.log beside <id>/config.v2.json,
# whose "Name" is the container's name ("/trainer-3").
DOCKER_JSON_RE = re.compile(r"^[0-9a-f]{12,64}-json\.log$")
DOCKER_NAME_RE = re.compile(rb'"Name"\s*:\s*"/?([^"]+)"')
ENV_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
MAX_ENV_BYTES = 1 << 20  # an env dump is a few KiB; a bigger one is no launcher's
MAX_CONFIG_BYTES = 1 << 16  # the head of a docker config.v2.json, where its "Name" is
MAX_SIDE_BYTES = 64 << 20  # env dumps and error records together (each is kept in memory once read)
LOG_SUFFIXES = {".log", ".out", ".txt", ".err"}
SKIP_DIRS = {"__pycache__", "node_modules", ".git", ".venv", "site-packages"}


@dataclass
class SourceFile:
    """One input: a worker log, the launcher's own log, a terminal capture, an env dump, or one of
    paddle-doctor's error records."""

    path: str  # as shown to the user
    role: str  # "worker" | "launcher_log" | "terminal" | "env" | "record" | "aux"
    local_rank: int | None = None
    node: str = ""  # the directory that holds this node's logs
    rank: int | None = None  # global rank, once known
    data: bytes | None = None  # for stdin
    env: dict[str, str] | None = None  # an env dump's variables, read (and checked) once by discover


class DiagnoseInputError(ValueError):
    """The input cannot be used at all (nothing readable). The message is one line for the user."""


def discover(paths: list[str], stdin: bytes | None = None) -> tuple[list[SourceFile], list[str]]:
    """Sources found under ``paths`` ("-" is stdin), and "path: reason" for what was skipped."""
    sources: list[SourceFile] = []
    skipped: list[str] = []
    for raw in paths:
        if raw == "-":
            sources.append(SourceFile(path="<stdin>", role="terminal", data=stdin or b""))
            continue
        path = Path(raw)
        if not path.exists():
            raise DiagnoseInputError(f"{raw}: no such file or directory")
        if path.is_dir():
            found = _walk_dir(path, skipped)
            if not found:
                raise DiagnoseInputError(
                    f"{raw}: no log files found (expected workerlog.N, *.log, *.out or *.txt)")
            sources.extend(found)
        else:
            sources.extend(_regular_only([_classify(path, explicit=True)], skipped))
    sources = _valid_side_files(sources, skipped)
    _assign_global_ranks(sources)
    return sources, skipped


def _side_file_problem(s: SourceFile, record_problem) -> str | None:
    """Why an env dump or a record is unusable (None: usable); an env dump's variables are kept."""
    if s.role == "env":
        s.env, problem = _env_dump(Path(s.path))
        return problem
    return record_problem(Path(s.path))


def _size(path: str, most: int) -> int:
    """What reading ``path`` costs against the side files' budget (no more than it will read)."""
    try:
        return min(os.stat(path).st_size, most)
    except OSError:
        return 0


def _regular_only(found: list[SourceFile | None], skipped: list[str]) -> list[SourceFile]:
    """Sources that are regular files; a FIFO (which would block the read forever), a device
    (``/dev/zero`` never ends) or a dangling symlink is named in ``skipped`` instead."""
    kept = []
    for source in found:
        if source is None:
            continue
        try:
            check_regular(source.path)
        except OSError as exc:
            skipped.append(f"{source.path}: skipped, {exc.strerror or exc}")
            continue
        kept.append(source)
    return kept


def _valid_side_files(sources: list[SourceFile], skipped: list[str]) -> list[SourceFile]:
    """Env dumps read and checked once here (their variables kept on the source), error records
    checked; one that fails is left out and named ("ignored"), and the diagnosis goes on."""
    from ..records import record_problem  # records reads the signature table: loaded only when needed

    kept, left = [], MAX_SIDE_BYTES
    for s in sources:
        problem = None
        if s.role in ("env", "record"):
            left -= _size(s.path, MAX_ENV_BYTES if s.role == "env" else 4 << 20)
            problem = _side_file_problem(s, record_problem) if left >= 0 else \
                f"over the {MAX_SIDE_BYTES >> 20} MiB budget for env dumps and records together"
        if problem is None:
            kept.append(s)
        else:
            skipped.append(f"{s.path}: ignored, {problem}")
    return kept


def _walk_dir(root: Path, skipped: list[str]) -> list[SourceFile]:
    found: list[SourceFile] = []
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: skipped.append(f"{e.filename}: {e.strerror}")):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and len(Path(dirpath, d).parts) - base_depth <= MAX_DEPTH)
        for name in sorted(filenames):
            found += _regular_only([_classify(Path(dirpath, name), explicit=False)], skipped)
            if len(found) >= MAX_FILES:
                skipped.append(f"{root}: more than {MAX_FILES} log files; read the first {MAX_FILES}")
                return found
    return found


def _classify(path: Path, explicit: bool) -> SourceFile | None:
    # A compressed log is read like the log it holds (``workerlog.1.gz``, ``train.log.gz``).
    name, node = path.name.removesuffix(".gz"), str(path.parent)
    suffix = Path(name).suffix
    if m := WORKER_RE.match(name) or POD_LOG_RE.match(name):
        return SourceFile(str(path), "worker", local_rank=int(m.group(1)), node=node)
    # A container's name gives its global rank: one container per directory is no node of ranks.
    if m := CONTAINER_LOG_RE.match(name):
        return SourceFile(str(path), "worker", local_rank=int(m.group(1)), node=node, rank=int(m.group(1)))
    if DOCKER_JSON_RE.match(name) and (rank := _docker_container_rank(path)) is not None:
        return SourceFile(str(path), "worker", local_rank=rank, node=node, rank=rank)
    if RECORD_NAME_RE.match(name) or FAULT_NAME_RE.match(name):
        return SourceFile(str(path), "record", node=node)
    if m := ENVLOG_RE.match(name) or BACKUP_ENV_RE.match(name):
        return SourceFile(str(path), "env", local_rank=int(m.group(1)), node=node)
    if name.startswith("workerlog.") or name == "endpoints.log":
        return SourceFile(str(path), "aux", node=node) if explicit else None
    if _is_launcher_log(name):
        return SourceFile(str(path), "launcher_log", node=node)
    if explicit or suffix in LOG_SUFFIXES or name.startswith("nohup"):
        return SourceFile(str(path), "terminal", node=node)
    return None


def _docker_container_rank(path: Path) -> int | None:
    """The rank in the name of the container whose json-file log this is (its config.v2.json beside it)."""
    try:
        head = read_regular(str(path.with_name("config.v2.json")), MAX_CONFIG_BYTES)
    except OSError:
        return None
    m = DOCKER_NAME_RE.search(head)
    named = CONTAINER_LOG_RE.match(m.group(1).decode("utf-8", "replace")) if m else None
    return int(named.group(1)) if named else None


def _is_launcher_log(name: str) -> bool:
    """The new launcher writes its own log as ``<job_id>.<pod>.log`` (``default.abcdef.log``)."""
    return name.endswith(".log") and name.count(".") == 2 and name.startswith("default.")


def _assign_global_ranks(sources: list[SourceFile]) -> None:
    env_ranks = _global_ranks_from_env(sources)
    workers = [s for s in sources if s.role == "worker" and s.rank is None]
    nodes = sorted({s.node for s in workers})
    offset = 0
    for node in nodes:
        on_node = sorted((s for s in workers if s.node == node), key=lambda s: s.local_rank)
        for s in on_node:
            s.rank = env_ranks.get((node, s.local_rank), s.local_rank + offset)
        offset += len(on_node)


def _global_ranks_from_env(sources: list[SourceFile]) -> dict[tuple[str, int], int]:
    ranks: dict[tuple[str, int], int] = {}
    for s in sources:
        if s.role != "env":
            continue
        rank = _rank_in(s.env or {})
        if rank is not None:
            ranks[(s.node, s.local_rank)] = rank
    return ranks


_RANK_KEYS = ("PADDLE_GLOBAL_RANK", "PADDLE_TRAINER_ID")


def _rank_in(values: dict[str, str]) -> int | None:
    for key in _RANK_KEYS:
        if values.get(key, "").lstrip("-").isdigit():
            return int(values[key])
    return None


def read_env_values(path: Path) -> dict[str, str]:
    """The variables of an ``envlog.N`` (KEY=VALUE lines) or ``backup_env.N.json``; {} if unreadable
    or not an env dump."""
    return _env_dump(path)[0] or {}


def _env_dump(path: Path) -> tuple[dict[str, str] | None, str | None]:
    """(variables, None), or (None, why it is not an env dump). Read up to MAX_ENV_BYTES, from a
    regular file only; a JSON dump must be one flat object (nesting 100 000 deep is refused
    without recursing), an envlog KEY=VALUE lines."""
    try:
        raw = read_regular(str(path), MAX_ENV_BYTES + 1)
    except OSError as exc:
        return None, str(exc.strerror or exc)
    if len(raw) > MAX_ENV_BYTES:
        return None, f"over {MAX_ENV_BYTES >> 20} MiB, not an env dump"
    if b"\x00" in raw:
        return None, "binary data, not an env dump"
    text = raw.decode("utf-8", errors="replace")
    values = _json_env(text) if path.suffix == ".json" else _envlog(text)
    return (values, None) if values is not None else (None, "not an env dump")


def _json_env(text: str) -> dict[str, str] | None:
    """One flat JSON object of scalars, else None. JSON nested 100 000 deep makes the decoder (C,
    recursive) raise RecursionError before the stack runs out: caught like any other bad JSON."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    scalars = (str, int, float, bool, type(None))
    if not all(isinstance(v, scalars) for v in data.values()):
        return None
    return {k: str(v) for k, v in data.items()}


def _envlog(text: str) -> dict[str, str] | None:
    """KEY=VALUE lines (a value may run on over lines that have no "="); None when no line is one."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and ENV_NAME_RE.match(key.strip()):
            values[key.strip()] = value.strip()
    return values or None


def env_by_rank(sources: list[SourceFile]) -> dict[tuple[str, int], dict[str, str]]:
    """(node, global rank) -> the variables of that worker's env file (local rank when none is given)."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for s in sources:
        if s.role == "env" and s.data is None:
            values = s.env if s.env is not None else read_env_values(Path(s.path))
            rank = _rank_in(values)
            if rank is None:
                rank = s.local_rank
            if values and rank is not None:
                out[(s.node, rank)] = values
    return out
