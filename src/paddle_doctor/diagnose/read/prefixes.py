"""Line prefixes that job runners put in front of every line, and the rank each one names.

Users paste what their runner printed, so one file may hold every rank's lines, interleaved:

- ``mpirun --tag-output`` (Open MPI): ``[jobid,rank]<stdout>:`` (orte/mca/iof/base/iof_base_output.c:131
  of v4.1.6, ``"[%s,%s]<%s>:"``; with ``--timestamp-output`` a ``ctime()`` date comes first, line 118);
  Open MPI 5 (PRRTE) writes a space after the colon.
- ``srun --label`` (Slurm): ``rank: `` with the rank right-aligned to the width of the largest
  task id (src/common/write_labelled_message.c, ``"%*d: "``; a heterogeneous job adds ``P<n> ``).
- ``kubectl logs --prefix``: ``[pod/NAME/CONTAINER] `` (a PaddleJob names its pods
  ``<job>-worker-<i>``: the trailing index is the rank).
- ``docker logs --timestamps`` (and ``kubectl logs --timestamps``): an RFC 3339 time, then a space.
  No rank: the file is one container's, whose rank comes from its name or its text.
- ``docker compose logs``: the container's name, padded, then `` | `` (compose v2 ``<project>-<service>-<n>``,
  v1 ``<project>_<service>_<n>``; ``n`` is the replica's 1-based index). A job gives each rank its own
  service (each needs its own ``PADDLE_TRAINER_ID``): the rank is the number that ends the *service*
  name (``trainer0``, ``worker_1``, ``rank-2``); replicas of one service name no rank.
- a TeamCity build log (as its web page downloads it): ``[HH:MM:SS]`` then the status (`` ``, ``W``,
  ``E``, ``i``...) and ``:``, then, inside a build step, a tab per level of nesting, a space and the
  innermost block's name in brackets (``[21:12:11] :<tab> [Step 1/1] Traceback ...``). No rank: a
  build step's log is one process's (Paddle's CI, Paddle#8392).
- ``journalctl`` (journald's short output, syslog's format): ``Nov 29 01:13:25 host ident[pid]: ``, a job
  run as a systemd service. No rank.
- Android's ``adb logcat``: ``A/Tag: `` or ``E/Tag( 1234): `` (the brief format), ``06-18 18:42:06.401  1234  5678 F
  Tag: `` (threadtime, the default since Android 7), Android Studio's ``09-01 10:16:07.724 10374-10422/app E/Tag: ``:
  an app's native library (Paddle-Lite, FastDeploy) logs through it. No rank.
- a paste with line numbers (vim's ``:set number``, ``less -N``, ``cat -n``): a right-aligned number, then a space or
  a tab; the numbers go up by one from line to line. No rank.
- a Markdown quote: ``> `` (``> > `` nested) before each line, as a reply quotes a pasted log. No rank.
- a paste indented as a whole (a Markdown code block made by indentation): each of the first lines starts
  with at least four spaces (or a tab); that common indentation is taken from each line. No rank.

A prefix that names no rank may hold a runner's prefix inside it (an mpirun log quoted in a reply, indented, or
kept behind docker's times): both are taken off each line, and the inner one names the rank.

Only the first lines decide which prefix a file carries (a cheap look, see :func:`detect`); each
line is then stripped with that prefix's one compiled regex.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

SNIFF_BYTES = 4096
SNIFF_LINES = 20
# Share of the first non-empty lines that must carry the prefix (a runner's own banner lines,
# mpirun's "Primary job terminated normally" block, come without one).
MIN_SHARE = 0.6

_CTIME = r"(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})?"
_RFC3339 = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)"
RFC3339_RE = re.compile(rf"^(?P<ts>{_RFC3339}) ")
POD_RANK_RE = re.compile(r"-(?P<index>\d+)$")
# A PaddleJob's parameter-server and heter pods (<job>-ps-<i>, <job>-heter-<i>) are not trainer ranks.
NOT_TRAINER_RE = re.compile(r"-(?:ps|heter)-\d+$")
REPLICA_RE = re.compile(r"[-_]\d+$")
SERVICE_RANK_RE = re.compile(r"(?:^|[-_.])(?:trainer|worker|rank)[-_]?(\d+)$", re.I)


@dataclass(frozen=True)
class LinePrefix:
    name: str  # the runner, as the user knows it
    regex: re.Pattern  # matches the prefix at the start of a line; end() is where the text starts
    # A runner's prefix inside this one (an mpirun log quoted in a reply, kept behind docker's times): the
    # outer one names no rank, the inner one may.
    inner: LinePrefix | None = None
    # The runner writes a multi-line message's later lines indented and without the prefix (logcat): such lines do not
    # count against the share of lines that must carry it.
    continues_indented: bool = False

    @property
    def names_ranks(self) -> bool:
        """Whether the prefix says which rank wrote the line (docker's time prefix does not)."""
        return any(g in self.regex.groupindex for g in ("rank", "pod", "service")) or bool(
            self.inner and self.inner.names_ranks)

    def split(self, line: str) -> tuple[str, int | None, float | None] | None:
        """(text without the prefix, the rank it names, its time), or None if the line has none."""
        m = self.regex.match(line)
        if m is None:
            return self.inner.split(line) if self.inner is not None else None
        text = line[m.end():]
        ts = m.groupdict().get("ts")
        if ts is None:  # kubectl --prefix --timestamps: the time follows the pod prefix
            inner = RFC3339_RE.match(text)
            if inner is not None:
                ts, text = inner["ts"], text[inner.end():]
        own = (text, _rank_of(m), rfc3339_epoch(ts) if ts else None)
        nested = self.inner.split(text) if self.inner is not None else None
        if nested is None:
            return own
        return nested[0], nested[1], nested[2] if nested[2] is not None else own[2]


def _rank_of(m: re.Match) -> int | None:
    groups = m.groupdict()
    if groups.get("rank") is not None:
        return int(groups["rank"])
    service = groups.get("service")
    if service is not None:  # drop the replica's index, then the service's own number is the rank
        named = SERVICE_RANK_RE.search(REPLICA_RE.sub("", service))
        return int(named.group(1)) if named else None
    pod = groups.get("pod")
    if pod is not None and not NOT_TRAINER_RE.search(pod):
        index = POD_RANK_RE.search(pod)
        return int(index["index"]) if index else None
    return None


_LOGCAT_TIME = r"(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"  # a year only with -v year
_LOGCAT = (r"[VDIWEFA]/[^\s:(]+\s*(?:\(\s*\d+\))?: ",  # brief: "E/Paddle-Lite( 4321): "
           rf"{_LOGCAT_TIME} +\d+ +\d+ [VDIWEFA] [^:\n]{{1,64}}?: ",  # threadtime: "06-18 18:42:06.401  4321  4350 F Tag: "
           rf"{_LOGCAT_TIME} +\d+-\d+/[\w.:?-]+ [VDIWEFA]/[^:\n]{{1,64}}?: ",  # Android Studio: "... 10374-10422/app E/Tag: "
           rf"{_LOGCAT_TIME} [VDIWEFA]/[^:(\n]{{1,64}}(?:\(\s*\d+\))?: ")  # -v time: "06-18 18:42:06.401 E/Tag( 4321): "

PREFIXES = (
    LinePrefix("mpirun --tag-output",
               re.compile(rf"^{_CTIME}\[\d+,(?P<rank>\d+)\]<std(?:out|err|diag)>: ?")),
    LinePrefix("kubectl logs --prefix", re.compile(r"^\[pod/(?P<pod>[^/\]\s]+)/[^\]\s]+\] ")),
    LinePrefix("srun --label", re.compile(r"^(?:P\d+ )? *(?P<rank>\d+): ")),
    LinePrefix("docker logs --timestamps", re.compile(rf"^(?P<ts>{_RFC3339}) ")),
    LinePrefix("docker compose logs", re.compile(r"^(?P<service>[A-Za-z0-9][\w.-]*?) +\| ")),
    LinePrefix("TeamCity build log", re.compile(r"^\[\d\d:\d\d:\d\d\][ A-Za-z]:(?:\t+ \[[^\]\n]*\](?: |$)| )")),
    # journald's (and syslog's) short form, as `journalctl -u <service>` prints a job run as a systemd service:
    # no year, no rank (one service's output; the kernel's own lines come as "kernel:").
    LinePrefix("journalctl", re.compile(r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [^\s\[:]+(?:\[\d+\])?: ")),
    # Android's logcat (system/logging/logcat): a priority letter and the tag (Paddle-Lite logs as "Paddle-Lite", bionic's
    # crash report as "libc"), in each of its formats (_LOGCAT). No rank.
    LinePrefix("adb logcat", re.compile("^(?:" + "|".join(_LOGCAT) + ")"), continues_indented=True),
    # Line numbers an editor or pager shows (vim's number column, less -N, cat -n): told from a log's own leading numbers
    # by counting up by one (see _plausible). No rank.
    LinePrefix("numbered lines", re.compile(r"^ {0,7}(?P<lineno>\d{1,7})(?:\t| |$)")),
    # A Markdown quote (a reply quoting the post that pasted the log; e-mail replies): one ">" per level.
    LinePrefix("Markdown quote", re.compile(r"^(?:> ?)+")),
)


# The first (or second) line of a prefixed file starts like one of PREFIXES (one cheap test for the plain log).
# Every alternative starts with a character that is no space, so the leading \s* is given back at
# most once per space (when " *\d+: " could share them it was quadratic: 0.25 s on a head of 4096
# spaces; the head is cut at SNIFF_BYTES, so no worse, but linear is the rule; issue 28).
QUICK_RE = re.compile(rb"\s*(?:[A-Z][a-z]{2} [A-Z][a-z]{2} |[A-Z][a-z]{2} [ \d]\d \d\d:|\[\d+,\d+\]<|\[pod/|(?:P\d+ +)?\d+: |\d{4}-\d\d-\d\dT|"
                      rb"[A-Za-z0-9][\w.-]* +\| |\[\d\d:\d\d:\d\d\][ A-Za-z]:|>|[VDIWEFA]/|\d\d-\d\d \d\d:|\d{4}-\d\d-\d\d \d\d:|\d{1,7}[\t \r\n])")


def detect(head: bytes) -> LinePrefix | None:
    """The prefix most of the first lines of ``head`` carry, with a runner's prefix found inside one that names
    no rank (a quote, an indentation, docker's time), or None (a plain log)."""
    outer = _detect_one(head)
    if outer is None or outer.names_ranks:
        return outer
    text = head.decode("utf-8", errors="replace")
    inner = _detect_one("\n".join(outer.regex.sub("", line, count=1) for line in text.split("\n")).encode())
    return LinePrefix(f"{inner.name} inside {outer.name}", outer.regex, inner) if inner is not None else outer


def _detect_one(head: bytes) -> LinePrefix | None:
    """The one prefix most of the first lines of ``head`` carry, or None."""
    if head[:1] in (b" ", b"\t"):
        indented = _indentation(head)
        if indented is not None:
            return indented
    second = head.find(b"\n") + 1  # or the second line: a banner, or a first line cut off its prefix, may come first
    if not QUICK_RE.match(head) and not (second and QUICK_RE.match(head, second)):
        return None
    lines = [ln for ln in head.decode("utf-8", errors="replace").splitlines()[:SNIFF_LINES] if ln.strip()]
    if len(lines) > 1 and not head.endswith(b"\n"):
        lines = lines[:-1]  # the sniff may have cut the last line
    if not lines:
        return None
    for prefix in PREFIXES:
        matches = [m for ln in lines if (m := prefix.regex.match(ln))]
        pool = [ln for ln in lines if not ln[:1].isspace()] if prefix.continues_indented else lines
        if len(matches) >= max(1, MIN_SHARE * len(pool)) and _plausible(prefix, matches):
            return prefix
    return None


# A paste indented as a whole (a Markdown code block by indentation, a log inside a list item): every one of the
# first lines starts with at least this many spaces; a log's own indented lines (frames, code) start with fewer.
MIN_INDENT = 4


def _indentation(head: bytes) -> LinePrefix | None:
    """The common indentation of a paste indented as a whole, as a prefix that takes exactly that many
    spaces (or one tab) from each line that has them, or None."""
    lines = [ln for ln in head.decode("utf-8", errors="replace").splitlines()[:SNIFF_LINES] if ln.strip()]
    if len(lines) > 1 and not head.endswith(b"\n"):
        lines = lines[:-1]  # the sniff may have cut the last line
    if not lines:
        return None
    if all(ln.startswith("\t") for ln in lines):
        return LinePrefix("indented paste", re.compile(r"^\t"))
    width = min(len(ln) - len(ln.lstrip(" ")) for ln in lines)
    return LinePrefix("indented paste", re.compile(f"^ {{{width}}}")) if width >= MIN_INDENT else None


# A frame of Paddle's C++ traceback after its number ("0   paddle::framework::Run()"): spaces, then a qualified name.
_CPP_FRAME = re.compile(r"\s{2,}[\w~<>]+::")


def _plausible(prefix: LinePrefix, matches: list[re.Match]) -> bool:
    """A bare ``N: `` is also CTest's prefix for test N's output (``91: ...`` on every line): an
    srun label is taken for one when the lines show two tasks, or task 0 alone."""
    if prefix.name == "numbered lines":
        return _numbered(matches)
    if prefix.name != "srun --label":
        return True
    ranks = {m["rank"].lstrip("0") or "0" for m in matches}
    return len(ranks) >= 2 or ranks == {"0"}


def _numbered(matches: list[re.Match]) -> bool:
    """Line numbers count up by one (four lines at least, almost every step +1) from above 0, right-aligned (every
    number ends in one column), where a log's own leading numbers (a step, a count) and Paddle's C++ traceback (frames
    numbered from 0, left-aligned: "0   paddle::...", "10  paddle::...") do not."""
    numbers = [int(m["lineno"]) for m in matches]
    steps = [b - a for a, b in zip(numbers, numbers[1:])]
    aligned = len({m.end("lineno") for m in matches}) == 1
    cpp_frames = sum(bool(_CPP_FRAME.match(m.string[m.end():])) for m in matches)
    return (len(numbers) >= 4 and aligned and numbers[0] > 0 and cpp_frames * 2 < len(matches)
            and sum(s == 1 for s in steps) >= 0.9 * len(steps))


def rfc3339_epoch(text: str) -> float | None:
    """Seconds since the epoch of an RFC 3339 time (nanoseconds cut to microseconds)."""
    head, dot, rest = text.partition(".")
    if dot:
        digits = re.match(r"\d+", rest).group(0)
        text = f"{head}.{digits[:6]}{rest[len(digits):]}"
    try:
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
