"""What the launcher's last lines showed, said in words for ``paddle-doctor demo`` (the screen the
user just saw, not a fixed sentence): which rank the launcher named next to the rank that failed
first, and what its exit code is when a shell shows another number.

Paddle's launcher polls its workers once a second and reports the lowest failed rank it sees at
that poll: often rank 0, a victim of a dead peer, sometimes the culprit itself (a race). When it
ended a worker with SIGTERM it prints ``Exit code -15``; the process exits with -15 & 255 = 241,
which is what a shell's ``$?`` shows.
"""

from __future__ import annotations

import re

CONTAINER_FAILED = re.compile(r"Container rank (?P<rank>\d+) status failed .* code (?P<code>-?\d+)")
EXIT_CODE = re.compile(r"\bExit code (?P<code>-?\d+)\s*$")


def launcher_named(lines: list[str]) -> int | None:
    """The rank of the launcher's last ``Container rank N status failed`` line."""
    ranks = [int(m["rank"]) for line in lines if (m := CONTAINER_FAILED.search(line))]
    return ranks[-1] if ranks else None


def what_the_screen_showed(lines: list[str], root_rank: int | None, returncode: int) -> str:
    named = launcher_named(lines)
    if named is None:
        said = "The launcher's last lines name no failed rank."
    elif root_rank is None or named == root_rank:
        said = (f"This time the launcher named rank {named}, the rank that failed first: it reports the lowest "
                "failed rank at its once-a-second poll, so which rank it names is a race (often rank 0, a victim).")
    else:
        said = (f"The launcher named rank {named}, and the error under it is a symptom: rank {named} lost its peer. "
                f"The cause is on rank {root_rank}, whose log the launcher does not show.")
    return said + _exit_code_note(lines, returncode)


def _exit_code_note(lines: list[str], returncode: int) -> str:
    codes = [int(m["code"]) for line in lines if (m := EXIT_CODE.search(line))]
    if not codes or codes[-1] >= 0 or returncode != codes[-1] % 256:
        return ""
    signal = -codes[-1]
    return (f" Its 'Exit code {codes[-1]}' means it ended a worker with signal {signal}; the process exit "
            f"status is {codes[-1]} & 255 = {returncode}, the exit code a shell shows.")
