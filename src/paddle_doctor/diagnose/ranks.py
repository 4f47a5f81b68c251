"""Group events by rank and collect what the launcher said about each rank."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .read.scan import LineIndex
from .read.parse import Event, FileEvents
from .read.runners import RUNNER_SIGNATURES, failed_ranks

CAUSE_ROLES = ("cause", "exception")
RUNNER_NAMES = tuple(sig.name for sig in RUNNER_SIGNATURES)
# glog's failure handler (Paddle 1.x) prints one dump for every signal it takes, SIGTERM included: its header and
# the faulting PC come before the dump's signal line, its stack frames after it (Paddle 2.x-3.x: its handler's own C++
# frame comes a few lines before the summary's FatalError line). They are a crash's only when that
# signal line (the nearest after a header, the nearest before a frame) is not SIGTERM's.
_DUMP_HEAD_ROWS = ("paddle_failure_signal_header", "native_fault_pc", "paddle_signal_handle_frame")
_DUMP_HEAD_LINES = 8  # the header, the time and the PC lines before the signal's own
_DUMP_FRAME_LINES = 64  # the stack frames after it
# glog's "*** SIGTERM (@0x...) received by PID", and Paddle 2.x-3.x's "FatalError: `Termination signal` is detected"
# A last line in which the process says it is ending on its own (a kill prints none): "exiting", "done", "stopping".
ENDS_ON_ITS_OWN = re.compile(r"(?i)\b(?:exit(?:ing|ed)?|quit(?:ting)?|stop(?:ping|ped)?|abort(?:ing)?|finished|done|"
                             r"leaving|bye)\b")


def interrupted(event: Event) -> bool:
    """A KeyboardInterrupt: someone stopped the process (most often a hang, whose own signs the rules that read hangs
    weigh; with none, :func:`rules.launcher.from_any_error` says the run was interrupted)."""
    return event.role == "exception" and event.groups.get("exc") == "KeyboardInterrupt"


_SIGNAL_LINE = re.compile(r"\*\*\* SIG(?P<sig>[A-Z]+) \(@|`(?P<what>[A-Z][a-z][^`]{3,60})` is detected by the operating")


def _in_sigterm_dump(event: Event, signals: list[tuple[str, int, bool]]) -> bool:
    """Whether a dump row's event belongs to a dump whose signal line is SIGTERM's (``signals``: (file, line,
    is_sigterm) of every glog signal line, in order)."""
    same = [(line, term) for file, line, term in signals if file == event.file]
    if event.sig.name in _DUMP_HEAD_ROWS:
        after = [(line, term) for line, term in same if 0 < line - event.line <= _DUMP_HEAD_LINES]
        return bool(after) and after[0][1]
    if event.sig.name == "native_stack" and not _SIGNAL_LINE.search(event.text):
        before = [(line, term) for line, term in same if 0 < event.line - line <= _DUMP_FRAME_LINES]
        return bool(before) and before[-1][1]
    return False


def cause_events(events: list[Event]) -> list[Event]:
    """The events that may name a cause: not those of a failure dump that names SIGTERM (a process killed)."""
    signals = [(e.file, e.line, m["sig"] == "TERM" or m["what"] == "Termination signal") for e in events
               if (m := _SIGNAL_LINE.search(e.text))]
    if not any(term for _, _, term in signals):
        return [e for e in events if e.role in CAUSE_ROLES]
    return [e for e in events if e.role in CAUSE_ROLES and not _in_sigterm_dump(e, signals)]


@dataclass
class RankState:
    rank: int
    log: str | None = None
    events: list[Event] = field(default_factory=list)
    exit_code: int | None = None
    launcher_failed: bool = False  # a launcher named this rank as failed
    last_text: str = ""  # the worker log's last non-empty line
    line_index: LineIndex | None = None  # of its worker log

    @property
    def lines(self) -> int:
        """Length of its worker log (counted on first use)."""
        return self.line_index.total() if self.line_index is not None else 0

    def causes(self) -> list[Event]:
        return cause_events(self.events)

    def best_cause(self) -> Event | None:
        return most_specific_first(self.causes())

    def first(self, role: str) -> Event | None:
        return next((e for e in self.events if e.role == role), None)

    def has(self, role: str) -> bool:
        return self.first(role) is not None


def aborted_after_wait(state: RankState, event: Event) -> bool:
    """A SIGABRT that follows a wait's end in the same log is that wait's consequence, not a crash of
    its own: DataParallel's gradient all-reduce throws gloo's TimeoutException in a backward hook,
    C++ terminates (``terminate called after throwing an instance of 'gloo::TimeoutException'``,
    ``what(): ... pair.cc:584] TIMEOUT``) and Paddle's handler prints the SIGABRT dump (measured on
    3.3.1, case 23)."""
    return abort_follows_wait(state.events, event)


def abort_follows_wait(events: list[Event], event: Event) -> bool:
    """:func:`aborted_after_wait` over the events of one file or paste (a snippet without ranks too)."""
    if not ("SIGABRT" in event.text or "Process abort signal" in event.text):
        return False
    return any(w.role in ("peer_closed", "real_timeout") and w.file == event.file and w.offset < event.offset
               for w in events)


def most_specific_first(causes: list[Event]) -> Event | None:
    """The most specific cause; among equals the one on the lowest line (the first such in the list
    on a tie). Line numbers are only looked at for a tie: counting them re-reads the file."""
    if not causes:
        return None
    top = max(e.sig.specificity for e in causes)
    tied = [e for e in causes if e.sig.specificity == top]
    return tied[0] if len(tied) == 1 else max(tied, key=lambda e: -e.line)


@dataclass
class LauncherFacts:
    kind: str | None = None  # "launch" | "fleet.launch"
    failed: dict[int, int | None] = field(default_factory=dict)  # rank -> exit code (None: unknown)
    header_rank: int | None = None  # the first "Container rank N status failed" header (fleet: lowest aborted)
    header_log: str | None = None
    exit_code: int | None = None
    completed: bool = False
    killed: bool = False  # the launcher itself got a signal (a hang ended by a timeout)
    interrupted: bool = False  # the terminal shows a Ctrl-C (KeyboardInterrupt): the job was stopped by hand
    pod_failed: bool = False  # the 2.x-3.x launcher said "Pod failed" / "Container failed !!!"
    world: int | None = None  # number of ranks, when the launcher says
    config: dict = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    ports: list[Event] = field(default_factory=list)  # the ports it chose or was given (facts/ports.py)


def collect(files: list[FileEvents]) -> tuple[dict[int, RankState], list[Event], LauncherFacts]:
    """Per-rank states, events with no known rank, and the launcher's facts."""
    launcher = LauncherFacts()
    ranks: dict[int, RankState] = {}
    unranked: list[Event] = []
    have_worker_logs = any(_is_rank_log(f) for f in files)
    for f in files:
        if f.source.role == "worker":
            state = ranks.setdefault(f.source.rank, RankState(f.source.rank))
            state.log, state.line_index, state.last_text = f.source.path, f.index, f.last_text
    for f in files:  # a runner's prefixed output: one log per rank, all in this file
        for rank, last_text in f.rank_last_text.items():
            state = ranks.setdefault(rank, RankState(rank))
            if not state.log:
                state.log, state.line_index, state.last_text = f.source.path, f.index, last_text
    for f in files:
        for e in f.events:
            if e.role.startswith("launcher"):
                _note_launcher(launcher, e)
                continue
            if f.source.role == "launcher_log":
                continue
            # With worker logs at hand, the terminal's copy of a worker's lines would count twice; what no worker
            # prints is no copy, and stays: an environment fact (the script's shell trace exporting PADDLE_*), the
            # kernel's OOM report (dmesg run after the job).
            if have_worker_logs and not _is_rank_log(f) and e.rank is None and not _host_fact(e):
                # a Ctrl-C the terminal shows (the launcher's own traceback, or its copy of a worker's) ended the job
                launcher.interrupted = launcher.interrupted or interrupted(e)
                continue
            if have_worker_logs and not _is_rank_log(f) and e.rank in ranks and ranks[e.rank].log:
                continue
            _place(e, ranks, unranked)
    _apply_launcher(launcher, ranks, unranked)
    return ranks, unranked, launcher


def _host_fact(e: Event) -> bool:
    return e.role == "env_fact" or e.sig.name == "kernel_oom_killer"


def _is_rank_log(f: FileEvents) -> bool:
    """A worker's own log, or a runner's output whose prefixes say which rank wrote each line."""
    return f.source.role == "worker" or bool(f.rank_last_text)


def _place(e: Event, ranks: dict[int, RankState], unranked: list[Event]) -> None:
    if e.rank is None:
        unranked.append(e)
    else:
        ranks.setdefault(e.rank, RankState(e.rank)).events.append(e)


def _note_launcher(facts: LauncherFacts, e: Event) -> None:
    if e.role == "launcher_ports":  # not a report on the ranks: kept apart from the lines quoted as one
        facts.ports.append(e)
        return
    facts.events.append(e)
    g = e.groups
    if e.sig.name == "launch_container_failed":
        facts.kind = "launch"
        rank = int(g["rank"])
        facts.failed[rank] = int(g["code"])
        if facts.header_rank is None:
            facts.header_rank, facts.header_log = rank, g.get("log")
    elif e.sig.name == "elastic_rank_failed":  # fleet's elastic manager: every failed process, by its global rank
        facts.kind = facts.kind or "fleet.launch"
        rank = int(g["rank"])
        facts.failed[rank] = int(g["code"])
        if facts.header_rank is None or rank < facts.header_rank:
            facts.header_rank = rank
    elif e.sig.name == "launch_config":
        facts.kind = facts.kind or "launch"
        facts.config[g["key"]] = int(g["val"])
        facts.world = facts.config.get("nproc_per_node", 1) * facts.config.get("nnodes", 1)
    elif e.sig.name == "fleet_abort":
        facts.kind = "fleet.launch"
        facts.world = int(g["world"])
        aborted = [int(r) for r in (x.strip() for x in g.get("ranks", "").split(",")) if r.isdigit()]
        for r in aborted:
            facts.failed.setdefault(r, None)
        if facts.header_rank is None and aborted:  # the lowest aborted rank is where to look first
            facts.header_rank = min(aborted)
    elif e.sig.name in RUNNER_NAMES:  # mpirun's / srun's own report: no launcher kind, the ranks' own logs
        for rank, code in failed_ranks(e.sig.name, g, e.next_text).items():
            facts.failed.setdefault(rank, code)
    elif e.sig.name == "launch_exit_code":
        facts.kind = facts.kind or "launch"
        facts.exit_code = int(g["code"])
    elif e.sig.name == "launch_pod_completed":
        facts.kind, facts.completed = facts.kind or "launch", True
    elif e.sig.name == "launch_killed":
        facts.killed = True
    elif e.sig.name == "launch_pod_failed":
        facts.kind, facts.pod_failed = facts.kind or "launch", True
    elif "LAUNCH" in e.text:
        facts.kind = facts.kind or "launch"
    elif "terminate all the procs" in e.text:
        facts.kind = facts.kind or "fleet.launch"


def _apply_launcher(facts: LauncherFacts, ranks: dict[int, RankState], unranked: list[Event]) -> None:
    for rank, code in facts.failed.items():
        state = ranks.setdefault(rank, RankState(rank))
        state.launcher_failed = True
        state.exit_code = code
    if facts.kind and unranked:
        # Both launchers stream rank 0's log to the terminal: unlabelled terminal lines are rank 0's,
        # and the terminal stands in for its log; unless the launcher names one other rank as the
        # failed one and the text shows a cause: then it is that rank's log the user pasted.
        owner = _pasted_rank(facts, unranked)
        state = ranks.setdefault(owner, RankState(owner))
        if not state.log:
            state.events.extend(unranked)
            state.log = unranked[0].file
            unranked.clear()


def _pasted_rank(facts: LauncherFacts, unranked: list[Event]) -> int:
    """Whose lines unlabelled terminal text is: rank 0's (the streamed log), or the one failed rank
    the launcher names (fleet's ``ABORT!!! ... rank=[1]``, launch's ``Container rank 1 status failed``)
    when the text holds a cause; rank 0 named nothing, so a cause in it is the failed rank's."""
    failed = set(facts.failed)
    if len(failed) == 1 and 0 not in failed and any(e.role in CAUSE_ROLES for e in unranked):
        return failed.pop()
    return 0


def finished_cleanly(rank: int, facts: LauncherFacts, state: RankState | None) -> bool:
    """True when the launcher's report shows that ``rank`` exited with code 0.

    The new launcher names the lowest-rank failed container at its poll; the old one lists every
    failed rank. A rank below the named one (or missing from the list) that has already closed its
    connections had exited, and not with a failure.
    """
    if state is not None and (state.causes() or state.has("terminated")):
        return False
    if rank in facts.failed:
        return False
    if facts.kind == "launch" and facts.header_rank is not None:
        return rank < facts.header_rank
    if facts.kind == "fleet.launch" and facts.failed:
        return True
    return False
