"""Run one failure case (``cases/NN_name/``) for real and keep what the user would have seen.

Why: diagnose is only as good as the logs it is tuned on, and Paddle's output changes between
versions. A case is a folder with a user's script and ``expected.json``; the runner replays it
under the real launcher and leaves, in a work dir, exactly what a user has after the failure:
``terminal.out`` (the launcher's combined stdout+stderr) and the launcher's ``log/`` (one node) or
``node0/`` + ``node1/`` (two launchers sharing a master on loopback).

This module never imports paddle: it only starts subprocesses. Every process it starts is ended
at the end, even on success or on an exception (see ``paddle_doctor.process.tree``).

Layout of a work dir (one node)::

    work_dir/case/        copy of the case folder; the command's cwd (checkpoints land here)
    work_dir/terminal.out what the launcher printed
    work_dir/log/         the launcher's --log_dir (moved here from case/log after the run, so
                          that "log/workerlog.1" in terminal.out resolves from work_dir)
    work_dir/.lab/        output of the lab's own setup/holder helpers (not the user's)

Two nodes: the same under work_dir/node0/ and work_dir/node1/ (``.lab/`` only in node0 for the
holder). Nothing of the case's documentation (README.md, expected.json) is copied: diagnose is
pointed at the work dir and must only see what a user would have.

expected.json keys: cause, rank, launcher, expect_exit, nproc, script, args, env, timeout_s,
markers, notes, launcher_args, setup, holder, holder_args, cause_when (marker -> cause pairs),
wrapper (a command prefix from the case folder, e.g. ``sh with_small_shm.sh``: what the user's
environment does around the launcher, such as a container's small /dev/shm). ``{free_port}``, ``{free_port2}``, ...
in args, env values, launcher_args and holder_args become distinct free TCP ports.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.process import tree
from paddle_doctor.process.bounded_run import TERM_WAIT_S
from paddle_doctor.process.ports import free_ports, wait_listening

LAUNCHERS = ("launch", "fleet", "none", "launch-2nodes")
EXPECT_EXIT = ("nonzero", "zero", "timeout")
_PLACEHOLDER = re.compile(r"\{(free_port\d*)\}")
# Files that document a case, not part of the user's working directory (diagnose must not see them).
_NOT_COPIED = ("README.md", "expected.json", "__pycache__", "*.pyc")
SETUP_TIMEOUT_S = 120.0
HOLDER_READY_S = 20.0
MASTER_WAIT_S = 20.0


Marker = str | tuple[str, ...]  # a substring, or alternatives of which one must appear


class LabError(RuntimeError):
    """A case folder is malformed, or its setup/holder step failed (not the failure under test)."""


@dataclass(frozen=True)
class Case:
    """One failure mode, as described by ``expected.json``."""

    name: str
    dir: Path
    cause: str
    rank: int | None
    launcher: str
    expect_exit: str
    nproc: int = 2
    script: str = "eval.py"
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 60.0
    markers: tuple[Marker, ...] = ()
    notes: str = ""
    launcher_args: tuple[str, ...] = ()
    setup: str | None = None  # python file run to completion before the command
    holder: str | None = None  # python file kept alive in the background during the command
    holder_args: tuple[str, ...] = ()
    # (marker, cause): where Paddle's wording decides what the run can tell (a SIGKILL named by the
    # SIGCHLD handler vs a worker found dead by the poll), the first marker present names the cause.
    cause_when: tuple[tuple[str, str], ...] = ()
    wrapper: tuple[str, ...] = ()  # prefix of the command (run from the case copy)


@dataclass(frozen=True)
class CaseRun:
    """What one run left behind. ``terminal`` and ``returncode`` are node 0's view."""

    case: Case
    work_dir: Path
    returncode: int | None
    timed_out: bool
    wall_s: float
    terminal: Path
    log_dirs: list[Path]
    terminals: list[Path]  # one per launcher (node)
    returncodes: list[int | None]  # one per launcher (node)
    ports: Mapping[str, int]  # placeholder name -> port substituted

    def output_files(self) -> list[Path]:
        files = [t for t in self.terminals if t.exists()]
        for d in self.log_dirs:
            if d.is_dir():
                files += sorted(p for p in d.rglob("*") if p.is_file())
        return files


def load_case(case_dir: str | Path) -> Case:
    case_dir = Path(case_dir).resolve()
    try:
        raw = json.loads((case_dir / "expected.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LabError(f"{case_dir}: cannot read expected.json: {exc}") from exc
    case = Case(
        name=case_dir.name, dir=case_dir, cause=raw["cause"], rank=raw.get("rank"),
        launcher=raw["launcher"], expect_exit=raw["expect_exit"], nproc=int(raw.get("nproc", 2)),
        script=raw.get("script", "eval.py"), args=tuple(raw.get("args", ())),
        env=dict(raw.get("env", {})), timeout_s=float(raw.get("timeout_s", 60)),
        markers=tuple(m if isinstance(m, str) else tuple(m) for m in raw.get("markers", ())),
        notes=raw.get("notes", ""),
        launcher_args=tuple(raw.get("launcher_args", ())), setup=raw.get("setup"),
        holder=raw.get("holder"), holder_args=tuple(raw.get("holder_args", ())),
        cause_when=tuple((str(m), str(c)) for m, c in raw.get("cause_when", ())),
        wrapper=tuple(raw.get("wrapper", ())),
    )
    _check(case)
    return case


def _check(case: Case) -> None:
    if case.launcher not in LAUNCHERS:
        raise LabError(f"{case.name}: launcher must be one of {LAUNCHERS}, not {case.launcher!r}")
    if case.expect_exit not in EXPECT_EXIT:
        raise LabError(f"{case.name}: expect_exit must be one of {EXPECT_EXIT}")
    if not (case.dir / case.script).is_file():
        raise LabError(f"{case.name}: script {case.script} not found")


def expected_cause(run: CaseRun) -> str:
    """The cause diagnose must name for this run: ``cause``, unless a ``cause_when`` marker shows."""
    if run.case.cause_when:
        text = _output_text(run)
        for marker, cause in run.case.cause_when:
            if marker in text:
                return cause
    return run.case.cause


def _output_text(run: CaseRun) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in run.output_files())


def missing_markers(run: CaseRun) -> list[Marker]:
    """The case's markers that appear in none of the run's outputs.

    A marker is a substring, or a tuple of alternatives (any one of them will do) for modes where
    Paddle words the same failure in two ways depending on timing.
    """
    text = _output_text(run)
    return [m for m in run.case.markers if not _marker_found(m, text)]


def _marker_found(marker: Marker, text: str) -> bool:
    alternatives = (marker,) if isinstance(marker, str) else marker
    return any(alt in text for alt in alternatives)


def exit_matches(run: CaseRun) -> bool:
    if run.case.expect_exit == "timeout":
        return run.timed_out
    if run.timed_out:
        return False
    return (run.returncode == 0) == (run.case.expect_exit == "zero")


# -- placeholders ---------------------------------------------------------------------------


def _placeholder_names(case: Case) -> list[str]:
    texts = [*case.args, *case.launcher_args, *case.holder_args, *case.env.values()]
    return sorted({m for t in texts for m in _PLACEHOLDER.findall(t)})


def pick_ports(case: Case) -> dict[str, int]:
    names = _placeholder_names(case)
    return dict(zip(names, free_ports(len(names))))


def substitute(text: str, ports: Mapping[str, int]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(ports[m.group(1)]), text)


# -- commands ---------------------------------------------------------------------------------


def _script_in_copy(case: Case) -> str:
    """The script path to run inside the copy (a script shared from another case is copied in)."""
    src = (case.dir / case.script).resolve()
    return str(src.relative_to(case.dir)) if src.is_relative_to(case.dir) else src.name


def build_command(case: Case, python: str, ports: Mapping[str, int], master: str = "") -> list[str]:
    return [*case.wrapper, *_launch_command(case, python, ports, master)]


def _launch_command(case: Case, python: str, ports: Mapping[str, int], master: str) -> list[str]:
    sub = [substitute(a, ports) for a in case.launcher_args]
    tail = [_script_in_copy(case), *(substitute(a, ports) for a in case.args)]
    if case.launcher == "none":
        return [python, *tail]
    if case.launcher == "launch-2nodes":
        per_node = str(max(1, case.nproc // 2))
        return [python, "-m", "paddle.distributed.launch", "--master", master, "--nnodes", "2",
                "--nproc_per_node", per_node, "--log_dir", "log", *sub, *tail]
    module = "paddle.distributed.launch" if case.launcher == "launch" else "paddle.distributed.fleet.launch"
    return [python, "-m", module, "--nproc_per_node", str(case.nproc), "--log_dir", "log", *sub, *tail]


def build_env(case: Case, ports: Mapping[str, int], tag: str, base: Mapping[str, str]) -> dict[str, str]:
    """The caller's environment without inherited PADDLE_* (cases must not depend on the shell
    they are run from), plus the case's own variables and the lab's process tag."""
    env = {k: v for k, v in base.items() if not k.startswith("PADDLE_")}
    env.update({k: substitute(v, ports) for k, v in case.env.items()})
    env[tree.TAG_VAR] = tag
    return env


# -- running ----------------------------------------------------------------------------------


def _copy_case(case: Case, dest: Path) -> Path:
    shutil.copytree(case.dir, dest, ignore=shutil.ignore_patterns(*_NOT_COPIED))
    src = (case.dir / case.script).resolve()
    if not src.is_relative_to(case.dir):
        shutil.copy2(src, dest / src.name)
    return dest


def _lab_file(cwd: Path, name: str) -> Path:
    """Where the lab's own helpers write: a hidden folder, apart from what the user would have."""
    folder = cwd.parent / ".lab"
    folder.mkdir(exist_ok=True)
    return folder / name


def _run_setup(case: Case, cwd: Path, python: str, env: Mapping[str, str], tag: str) -> None:
    out = _lab_file(cwd, "setup.out")
    proc = tree.start([python, case.setup], cwd, env, out)
    try:
        finished = tree.wait_until([proc], time.monotonic() + SETUP_TIMEOUT_S)
    finally:
        tree.end_all([proc], tag, grace=0.5)
    if not finished or proc.returncode != 0:
        raise LabError(f"{case.name}: setup {case.setup} failed; see {out}:\n{out.read_text()[-2000:]}")


def _start_holder(case: Case, cwd: Path, python: str, env: Mapping[str, str], ports: Mapping[str, int],
                  tag: str) -> subprocess.Popen:
    """Start the background helper (e.g. one that keeps a port busy); it prints 'ready' when set."""
    out = _lab_file(cwd, "holder.out")
    cmd = [python, case.holder, *(substitute(a, ports) for a in case.holder_args)]
    proc = tree.start(cmd, cwd, env, out)
    deadline = time.monotonic() + HOLDER_READY_S
    while time.monotonic() < deadline and proc.poll() is None:
        if "ready" in out.read_text(errors="replace"):
            return proc
        time.sleep(0.05)
    tree.end_all([proc], tag, grace=0.5)
    raise LabError(f"{case.name}: holder {case.holder} never printed 'ready'; see {out}")


@dataclass
class _Node:
    root: Path  # work_dir (one node) or work_dir/nodeK
    proc: subprocess.Popen | None = None

    @property
    def cwd(self) -> Path:
        return self.root / "case"

    @property
    def terminal(self) -> Path:
        return self.root / "terminal.out"

    @property
    def log_dir(self) -> Path:
        return self.root / "log"


def _nodes(case: Case, work_dir: Path) -> list[_Node]:
    if case.launcher == "launch-2nodes":
        return [_Node(work_dir / "node0"), _Node(work_dir / "node1")]
    return [_Node(work_dir)]


def run_case(case_dir: str | Path, work_dir: str | Path, *, timeout: float | None = None,
             python: str = sys.executable, base_env: Mapping[str, str] | None = None) -> CaseRun:
    """Run the case in ``case_dir`` into ``work_dir`` (created; must not hold a previous run).

    ``timeout`` overrides the case's ``timeout_s``; ``base_env`` (default: ``os.environ``) is the
    environment the user's shell would have.
    """
    case = load_case(case_dir)
    work_dir = Path(work_dir).resolve()
    nodes = _nodes(case, work_dir)
    if any(node.cwd.exists() or node.terminal.exists() for node in nodes):
        raise LabError(f"{work_dir} already holds a run; give an empty or new work dir")
    for node in nodes:
        _copy_case(case, node.cwd)
    ports = pick_ports(case)
    tag = tree.new_tag()
    env = build_env(case, ports, tag, os.environ if base_env is None else base_env)
    limit = case.timeout_s if timeout is None else timeout
    procs: list[subprocess.Popen] = []
    try:
        if case.setup:
            for node in nodes:
                _run_setup(case, node.cwd, python, env, tag)
        if case.holder:
            procs.append(_start_holder(case, nodes[0].cwd, python, env, ports, tag))
        timed_out, wall = _launch_and_wait(case, nodes, python, env, ports, limit, procs)
    finally:
        tree.end_all(procs, tag)
    return _finish(case, work_dir, nodes, ports, timed_out, wall)


def _launch_and_wait(case: Case, nodes: list[_Node], python: str, env: Mapping[str, str],
                     ports: Mapping[str, int], limit: float,
                     procs: list[subprocess.Popen]) -> tuple[bool, float]:
    """Start the launcher(s) and wait; on a timeout, SIGTERM them as Ctrl-C/`timeout` would.

    With two nodes, node 1 starts once node 0's launcher listens on the master port, as people
    start the master node first: the launcher that owns the master becomes node rank 0, so
    node0/ reliably holds global rank 0.
    """
    master_port = free_ports(1)[0]
    command = build_command(case, python, ports, f"127.0.0.1:{master_port}")
    t0 = time.monotonic()
    for k, node in enumerate(nodes):
        if k:
            wait_listening(master_port, nodes[0].proc, time.monotonic() + MASTER_WAIT_S)
        node.proc = tree.start(command, node.cwd, env, node.terminal)
        procs.append(node.proc)
    mains = [n.proc for n in nodes]
    finished = tree.wait_until(mains, t0 + limit)
    if not finished:
        tree.terminate_gently(mains, TERM_WAIT_S)
    return not finished, time.monotonic() - t0


def _combined_code(codes: Sequence[int | None]) -> int | None:
    """Like the launcher does over ranks: the first non-zero code in node order."""
    if any(c is None for c in codes):
        return None
    return next((c for c in codes if c != 0), 0)


def _finish(case: Case, work_dir: Path, nodes: list[_Node], ports: Mapping[str, int], timed_out: bool,
            wall: float) -> CaseRun:
    for node in nodes:
        if (node.cwd / "log").is_dir() and not node.log_dir.exists():
            shutil.move(node.cwd / "log", node.log_dir)
    codes = [n.proc.returncode if n.proc else None for n in nodes]
    return CaseRun(
        case=case, work_dir=work_dir, returncode=_combined_code(codes), timed_out=timed_out,
        wall_s=round(wall, 2), terminal=nodes[0].terminal,
        log_dirs=[] if case.launcher == "none" else [n.log_dir for n in nodes],
        terminals=[n.terminal for n in nodes], returncodes=codes, ports=dict(ports),
    )
