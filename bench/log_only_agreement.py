#!/usr/bin/env python3
"""How far does a log alone tell the cause? Blind log-only labels against the threads' labels and the first looks.

usage: .venv/bin/python bench/log_only_agreement.py [--labels bench/results/29-logonly-labels.tsv] [--from 115] [--to 122]

Issue 29's labels are written from the issue thread (the maintainers' answers, the reporter's fix); diagnose sees only
the log. ``--labels`` holds labels made by blind annotators from each log alone (``id, cause, runner_up, certainty,
why``; certainty ``sure``, ``likely`` or ``guess``), who saw neither the thread, nor the label, nor diagnose's rules or
output. This prints, over the logs of the batches ``--from``-``--to`` that both cover:

- the log-only labels against the threads' labels (top-1, and top-2 with the runner-up), by certainty;
- diagnose's first look (each batch re-run with the code of its first-look commit, as ``first_look_calibration.py``
  does) against the threads' labels, on the same logs and by the annotators' certainty;
- the logs a log-only reader names right and the first look does not, and the reverse.

Figures and what they say: ``bench/results/29-logonly.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from first_look_calibration import batches, first_look  # noqa: E402  (bench/ is not a package)


def read_log_only(path: Path) -> dict[str, list[str]]:
    rows = (line.rstrip("\n").split("\t") for line in path.read_text(encoding="utf-8").splitlines())
    return {r[0]: r for r in rows if len(r) >= 4 and r[0].isdigit()}


def share(flags: list[bool]) -> str:
    return f"{sum(flags)}/{len(flags)} ({100 * sum(flags) / max(1, len(flags)):.0f} %)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=REPO / "bench" / "results" / "29-logonly-labels.tsv")
    parser.add_argument("--from", dest="lo", type=int, default=115)
    parser.add_argument("--to", dest="hi", type=int, default=122)
    args = parser.parse_args(argv)
    human = read_log_only(args.labels)
    thread, tool = {}, {}
    for n, commit, folder in batches(args.lo, args.hi):
        thread.update({d["id"]: d["root_cause"] for d in map(json.loads, filter(str.strip, (folder / "labels.jsonl")
                                                                                 .read_text().splitlines()))})
        tool.update({row[0]: row[2] for row in first_look(commit, folder)})
        print(f"  first look of batch{n} (code of {commit})", file=sys.stderr, flush=True)
    ids = sorted(set(human) & set(tool) & set(thread), key=int)
    right_h = {i: human[i][1] == thread[i] for i in ids}
    right_t = {i: tool[i] == thread[i] for i in ids}
    print(f"logs: {len(ids)} (batches {args.lo}-{args.hi})")
    print(f"log-only labels vs the threads' labels: top-1 {share(list(right_h.values()))}, with the runner-up "
          f"{share([thread[i] in human[i][1:3] for i in ids])}")
    print(f"first look vs the threads' labels: {share(list(right_t.values()))}")
    print(f"first look vs the log-only labels: {share([tool[i] == human[i][1] for i in ids])}")
    for certainty in ("sure", "likely", "guess"):
        sel = [i for i in ids if human[i][3] == certainty]
        print(f"  annotator {certainty:6}: {len(sel):3} logs; log-only right {share([right_h[i] for i in sel])}; "
              f"first look right {share([right_t[i] for i in sel])}")
    only_h = [i for i in ids if right_h[i] and not right_t[i]]
    only_t = [i for i in ids if right_t[i] and not right_h[i]]
    print(f"log-only right, first look wrong: {len(only_h)}; first look right, log-only wrong: {len(only_t)}; "
          f"both wrong: {sum(not right_h[i] and not right_t[i] for i in ids)}")
    for i in only_h:
        print(f"  {i} {thread[i]}: first look {tool[i]}; log-only ({human[i][3]}) {human[i][4][:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
