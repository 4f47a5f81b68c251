"""A single log that says which rank wrote it, though its name does not (``train.log``, a paste).

What a worker prints about itself, in every era:

- the GPU it runs on: ``Please NOTE: device: 1, GPU Compute Capability: ...`` and ``device: 1, cuDNN
  Version: 7.6.`` (Paddle's C++ glog lines, 1.8.5 to 3.x: platform/device_context.cc, later
  phi/backends/gpu/gpu_resources.cc); under the
  launchers each worker gets its own card, in local-rank order;
- its place in the job: ``init nccl context nranks: 4 local rank: 3 gpu id: 3 ring id: 0`` (2.x C++
  glog line, in the core library's strings of 2.2.2; the "local rank" is the rank in ring 0, the
  global one), ``trainer_id:3`` (1.8.5 fluid/incubate/fleet/collective/__init__.py, the
  ``print_config`` line ``worker_endpoints:{} trainers_num:{} current_endpoint:{} trainer_id:{}``),
  ``local_rank: 3`` / ``global rank: 3`` (2.2.2 fleet/meta_optimizers/sharding_optimizer.py:1338);
- its environment, dumped by the user or a launcher: ``PADDLE_TRAINER_ID=3`` (``env``, the launchers'
  ``envlog.N``), ``'PADDLE_TRAINER_ID': '3'`` (a printed ``os.environ``), and the new launcher's
  ``PADDLE_GLOBAL_RANK`` / ``PADDLE_LOCAL_RANK`` (2.5.2 launch/controllers/collective.py).

The fleet launcher's "Distributed Envs" table (2.2.2 fleet/launch_utils.py:528, ``|PADDLE_TRAINER_ID  0|``)
is not one of them: the launcher prints it for its first process only, whatever rank failed; its
column layout is not matched here. A file that states two different ranks (the 1.8.5 launcher's
``start trainer proc ... env:{'PADDLE_TRAINER_ID': '0', ...}`` line for every trainer) states none.
"""

from __future__ import annotations

import re

from ...lazy import lazy_compile

# A pasted worker log's heading, on a line of its own: `tail`/`head` of several files (``==> log/workerlog.1 <==``),
# Markdown (``### workerlog.1``, ``**log/workerlog.1**``), a label (``workerlog.1:``), the command that printed it
# (``$ cat log/workerlog.1``, ``root@host:~# tail -n 50 log/workerlog.1``). Paddle's launchers of every era write
# rank N's output to ``workerlog.N`` (1.8 launch.py, 2.x fleet/launch_utils.py, 2.5+ launch/controllers).
# (A prompt and a path start with a word character, '~', '/' or '.', none of them a decoration: a run of
# decorations is given back once, not once per split.)
SECTION_RE = lazy_compile(r"^[\s#=>*`\-]*(?:(?:(?:\(\w+\)\s*)?(?:[\w~/][\w@:~/.-]*)?[$#]\s*)?(?:cat|tail|head|less|more|"
                          r"vim?)\b(?:\s+-{1,2}[\w=]+(?:\s+\d+)?)*\s+)?(?:[\w.~][\w.~-]*/)*workerlog\.(\d+)[\s<=*`:#-]*$")
SECTION_WORD = "workerlog."

# Literals the scanner must see on these lines (triggers.TRIGGERS includes them).
TRIGGERS = ("NOTE: device: ", "] device: ", "init nccl context", "trainer_id", "local_rank", "global rank", "PADDLE_TRAINER_ID", "PADDLE_GLOBAL_RANK",
            "PADDLE_LOCAL_RANK",
            # a pasted worker log's heading (SECTION_RE): the lines after it are that rank's
            "workerlog.")
# The global statements win over the local ones (device, local rank) when a file has both.
GLOBAL_RE = lazy_compile(
    r"""init nccl context nranks: \d+ local rank: (\d+) gpu id: \d+ ring id: 0\b|(?:\btrainer_id\b|\bglobal[ _]rank\b|\bPADDLE_TRAINER_ID\b|\bPADDLE_GLOBAL_RANK\b)['"]?\s*(?:[:=]|is)\s*['"]?(\d+)\b""",
    re.I)
LOCAL_RE = lazy_compile(r"""(?:(?:Please NOTE: |\] )device: (?=\d+, (?:GPU Compute|CUDA Capability|cuDNN))|\blocal_rank\b['"]?\s*[:=]\s*['"]?|\bPADDLE_LOCAL_RANK\b['"]?\s*[:=]\s*['"]?)(\d+)\b""")


def stated_ranks(text: str) -> tuple[set[int], set[int]]:
    """(global ranks, local ranks) that ``text`` states for the process that wrote it."""
    if "|" in text:  # the fleet launcher's env table, of its first process only
        return set(), set()
    found = {int(a or b) for a, b in GLOBAL_RE.findall(text)}
    return found, {int(m) for m in LOCAL_RE.findall(text)}


class StatedRank:
    """Collects what one file's lines state about their own rank."""

    def __init__(self) -> None:
        self.global_ranks: set[int] = set()
        self.local_ranks: set[int] = set()

    def add(self, text: str) -> None:
        if not any(t in text for t in TRIGGERS):
            return
        g, loc = stated_ranks(text)
        self.global_ranks |= g
        self.local_ranks |= loc

    def rank(self) -> int | None:
        """The one rank the file states (global first), or None when it states none or several.
        A local statement of 0 (``device: 0``) is no statement: every single-process run says it."""
        if self.global_ranks:
            return next(iter(self.global_ranks)) if len(self.global_ranks) == 1 else None
        if len(self.local_ranks) == 1 and self.local_ranks != {0}:
            return next(iter(self.local_ranks))
        return None
