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

MAX_DEPTH = 4
MAX_FILES = 2000
WORKER_RE = re.compile(r"^workerlog\.(\d+)$")
ENVLOG_RE = re.compile(r"^envlog\.(\d+)$")
BACKUP_ENV_RE = re.compile(r"^backup_env\.(\d+)\.json$")
# ``kubectl logs <pod> > <pod>.log`` of a PaddleJob: the operator names its pods <job>-worker-<i>
# (and <job>-ps-<i> for parameter servers), i the trainer's rank.
POD_LOG_RE = re.compile(r"^[a-z0-9][-a-z0-9.]*-worker-(\d+)(?:\.log|\.txt|\.out)?$")
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
            sources.append(_classify(path, explicit=True))
    _assign_global_ranks(sources)
    return sources, skipped


def _walk_dir(root: Path, skipped: list[str]) -> list[SourceFile]:
    found: list[SourceFile] = []
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda e: skipped.append(f"{e.filename}: {e.strerror}")):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in SKIP_DIRS
                             and len(Path(dirpath, d).parts) - base_depth <= MAX_DEPTH)
        for name in sorted(filenames):
            source = _classify(Path(dirpath, name), explicit=False)
            if source is not None:
                found.append(source)
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


def _is_launcher_log(name: str) -> bool:
    """The new launcher writes its own log as ``<job_id>.<pod>.log`` (``default.abcdef.log``)."""
    return name.endswith(".log") and name.count(".") == 2 and name.startswith("default.")


def _assign_global_ranks(sources: list[SourceFile]) -> None:
    env_ranks = _global_ranks_from_env(sources)
    workers = [s for s in sources if s.role == "worker"]
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
        rank = _read_global_rank(Path(s.path))
        if rank is not None:
            ranks[(s.node, s.local_rank)] = rank
    return ranks


_RANK_KEYS = ("PADDLE_GLOBAL_RANK", "PADDLE_TRAINER_ID")


def _read_global_rank(path: Path) -> int | None:
    return _rank_in(read_env_values(path))


def _rank_in(values: dict[str, str]) -> int | None:
    for key in _RANK_KEYS:
        if values.get(key, "").lstrip("-").isdigit():
            return int(values[key])
    return None


def read_env_values(path: Path) -> dict[str, str]:
    """The variables of an ``envlog.N`` (KEY=VALUE lines) or ``backup_env.N.json``; {} if unreadable."""
    try:
        text = path.read_bytes()[: 1 << 20].decode("utf-8", errors="replace")
    except OSError:
        return {}
    if path.suffix == ".json":
        try:
            return {k: str(v) for k, v in json.loads(text).items()}
        except (ValueError, AttributeError):
            return {}
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip()
    return values


def env_by_rank(sources: list[SourceFile]) -> dict[tuple[str, int], dict[str, str]]:
    """(node, global rank) -> the variables of that worker's env file (local rank when none is given)."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for s in sources:
        if s.role == "env" and s.data is None:
            values = read_env_values(Path(s.path))
            rank = _rank_in(values)
            if rank is None:
                rank = s.local_rank
            if values and rank is not None:
                out[(s.node, rank)] = values
    return out
