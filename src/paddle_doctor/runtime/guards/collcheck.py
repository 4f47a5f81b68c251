"""Check mode: compare each collective across ranks before it runs, and name who differs.

PyTorch's ``TORCH_DISTRIBUTED_DEBUG=DETAIL`` compares a fingerprint (op, sequence number, shapes,
dtypes) before each collective; Paddle compiled its own check out. Here each rank sends its
fingerprint to its peers on the heartbeat channel (UDP, no round trip through rank 0's store)
and waits for theirs, so a mismatch becomes one clear error on every rank instead of a gloo
abort, a 30 s timeout, or (for two same-kind collectives) a silent wrong result.

``compare`` is pure (unit-tested without processes); the watchdog uses it too, on the
fingerprints in heartbeats, when check mode is off.

How a mismatch is named (the "culprit" ranks are the minority; on a tie see each case):
- one loop ran more often on some ranks (the same call site, called n times here and m < n
  times there): ``uneven_eval_batches``, the ranks that ran more batches on a tie;
- the same collective with shapes that differ only in the first dimension (different last-batch
  sizes): ``uneven_eval_batches``, the ranks with the smaller batch on a tie;
- anything else (another op, another shape or dtype, another reduce op or root, a rank that
  ended without entering): ``rank_divergent_collective``, on a tie the side with the lowest rank,
  or the ranks that entered the collective.
"""

from __future__ import annotations

from collections import defaultdict

from paddle_doctor.errors import CollectiveMismatchError
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards.guardfinding import guard_finding
from paddle_doctor.runtime.guards.trace import describe

WAIT_SLICE_S = 0.05


def compare(fps: dict[int, dict], ended: dict[int, dict] | None = None) -> Finding | None:
    """A Finding (kind ``mismatch`` or ``uneven``) when the fingerprints disagree, else None.

    ``fps``: rank -> fingerprint at one (group, seq); ``ended``: rank -> what a rank said when it
    ended without entering that collective (``{"ok", "hist", "last"}``).
    """
    ended = ended or {}
    if ended and fps:
        return _ended_report(fps, ended)
    uneven = _uneven_loops(fps)
    if uneven is not None:
        return uneven
    groups = _by_key(fps)
    if len(groups) < 2:
        return None
    if len({fp["op"] for fp in fps.values()}) == 1 and _only_first_dim_differs(fps):
        return _last_batch_report(fps)
    culprits = _minority(list(groups.values()), tie=lambda side: min(side))
    return _report("mismatch", culprits, "ranks called different collectives: " +
                   "; ".join(f"rank {r} {describe(fp)}" for r, fp in sorted(fps.items())))


def _key(fp: dict) -> tuple:
    shapes = repr(fp.get("sh")) if fp.get("ms", True) else ""
    return fp.get("op"), repr(fp.get("dt")), shapes, repr(sorted((fp.get("a") or {}).items()))


def _by_key(fps: dict[int, dict]) -> dict[tuple, list[int]]:
    groups: dict[tuple, list[int]] = defaultdict(list)
    for rank, fp in sorted(fps.items()):
        groups[_key(fp)].append(rank)
    return groups


def _minority(sides: list[list[int]], tie) -> list[int]:
    """The smallest side; among equal sizes the one ``tie`` ranks lowest."""
    smallest = min(len(s) for s in sides)
    return sorted(min((s for s in sides if len(s) == smallest), key=tie))


def _uneven_loops(fps: dict[int, dict]) -> Finding | None:
    """A site that rank p calls for the n-th time, which rank q (now elsewhere) called m < n times."""
    for p, fp in sorted(fps.items()):
        site, n = fp.get("site"), int(fp.get("n") or 0)
        behind = {q: int((other.get("h") or {}).get(site, 0)) for q, other in fps.items()
                  if q != p and other.get("site") != site}
        behind = {q: m for q, m in behind.items() if 1 <= m < n}
        if behind:
            ahead = [r for r, f in fps.items() if f.get("site") == site and int(f.get("n") or 0) == n]
            rest = [r for r in fps if r not in ahead]
            culprits = _minority([ahead, rest], tie=lambda side: 0 if side is ahead else 1)
            counts = ", ".join(f"rank {q} only {m}" for q, m in sorted(behind.items()))
            return _report("uneven", culprits,
                           f"ranks ran different numbers of batches: {_ranks(ahead)} called {fp['op']} at "
                           f"{site} {n} times, {counts}; " +
                           "; ".join(f"rank {r} is now in {describe(f)}" for r, f in sorted(fps.items())))
    return None


def _only_first_dim_differs(fps: dict[int, dict]) -> bool:
    shapes = [fp.get("sh") or [] for fp in fps.values()]
    if any(len(s) != len(shapes[0]) for s in shapes) or not shapes[0]:
        return False
    dtypes = {repr(fp.get("dt")) for fp in fps.values()}
    args = {repr(sorted((fp.get("a") or {}).items())) for fp in fps.values()}
    tails = {repr([list(t)[1:] for t in s]) for s in shapes}
    return len(dtypes) == 1 and len(args) == 1 and len(tails) == 1 and all(
        len(t) >= 1 for s in shapes for t in s)


def _last_batch_report(fps: dict[int, dict]) -> Finding:
    by_rows: dict[int, list[int]] = defaultdict(list)
    for rank, fp in sorted(fps.items()):
        by_rows[sum(t[0] for t in fp["sh"])].append(rank)
    rows_of = {r: rows for rows, ranks in by_rows.items() for r in ranks}
    culprits = _minority(list(by_rows.values()), tie=lambda side: rows_of[side[0]])
    any_fp = next(iter(fps.values()))
    sizes = "; ".join(f"rank {r} {fp['sh']}" for r, fp in sorted(fps.items()))
    return _report("uneven", culprits,
                   f"{any_fp['op']} #{any_fp['s']} at {any_fp.get('site')} got tensors of different sizes: "
                   f"{sizes} (the ranks' batches differ in size, usually the last batch)")


def _ended_report(fps: dict[int, dict], ended: dict[int, dict]) -> Finding:
    entered = sorted(fps)
    fp = fps[entered[0]]
    behind = {q: int((e.get("hist") or {}).get(fp.get("site"), 0)) for q, e in ended.items()}
    loop = all(1 <= m < int(fp.get("n") or 0) for m in behind.values())
    culprits = _minority([entered, sorted(ended)], tie=lambda side: 0 if side == entered else 1)
    gone = "; ".join(f"rank {q} {_how_ended(e)} after {_last(e)} without entering it" for q, e in sorted(ended.items()))
    summary = f"{_ranks(entered)} entered {describe(fp)}; {gone}"
    if loop:
        counts = ", ".join(f"rank {q} {m}" for q, m in sorted(behind.items()))
        return _report("uneven", culprits,
                       f"ranks ran different numbers of batches ({fp['op']} at {fp.get('site')}: "
                       f"{_ranks(entered)} {fp.get('n')} times, {counts}): {summary}")
    return _report("mismatch", culprits, summary)


def _how_ended(end: dict) -> str:
    if end.get("ok"):
        return "finished"
    return "ended with an error" if end.get("err") else "ended"


def _last(end: dict) -> str:
    last = end.get("last")
    return f"its last collective {describe(last)}" if last else "no collective"


def _ranks(ranks) -> str:
    ranks = sorted(ranks)
    return f"rank {ranks[0]}" if len(ranks) == 1 else "ranks " + ", ".join(map(str, ranks))


def _report(kind: str, ranks: list[int], summary: str) -> Finding:
    return guard_finding(kind, ranks, summary)


# -- check mode: wait for the peers' fingerprints, then compare -----------------------------------


def check(entry, mesh, state) -> None:
    """Before ``entry`` runs: raise CollectiveMismatchError when the ranks disagree.

    Waits while a peer is alive and not yet at this collective (a slow rank is fine); a dead or
    stuck peer is the watchdog's to report, and it ends this process itself.
    """
    if entry.p2p or mesh is None:
        return
    me = mesh.me.rank
    members = [r for r in (entry.members or range(mesh.me.world_size)) if r != me]
    mine = entry.fingerprint()
    state.checking = True
    try:
        mesh.send_now()
        fps, ended = _gather(mesh, members, mine)
    finally:
        state.checking = False
    report = compare({me: mine, **fps}, ended)
    if report is not None:
        raise CollectiveMismatchError(f"collective mismatch: {report.message}", finding=report)


def _gather(mesh, members: list[int], mine: dict) -> tuple[dict, dict]:
    """Every member's fingerprint for this collective, or how it ended without one.

    Only a clean end counts here: a peer that failed or died is reported by the watchdog, with
    its own cause, not as a collective mismatch. Peers beat their current fingerprint on every
    tick, so a lost datagram only costs one tick.
    """
    key = (mine["g"], mine["s"])
    with mesh.changed:
        while True:
            fps = {r: mesh.peers[r].fps[key] for r in members if key in mesh.peers[r].fps}
            ended = {r: mesh.peers[r].end for r in members
                     if r not in fps and (mesh.peers[r].end or {}).get("ok")}
            if len(fps) + len(ended) == len(members):
                return fps, ended
            mesh.changed.wait(WAIT_SLICE_S)
