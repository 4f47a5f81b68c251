"""Pre-flight: before the first collective, every rank publishes its plan and all compare.

Guide 000 §3.2 asks people to print the dataset size on every rank and compare by eye; nobody
compares plans before the first collective (research/eval-anchors.md, gap 3). ``preflight()``
does it through the job's TCP store: each rank publishes its plan (dataset length and a checksum
of a few samples, batch size, number of batches, sampler settings, a checksum of the model's
parameters, paddle version, and whatever the caller adds) and every rank raises the same
PreflightError with a table of the items and ranks that differ: a checkpoint loaded on rank 0
only, a dataset file that differs on one node, a different batch size on one node's command line.

Cost: three store calls per rank when the plans agree, plus reads of one counter while waiting
(about 1 ms at W=2 on loopback), whatever the number of ranks: each rank publishes its plan,
marks it ready, and adds one number to the rendezvous counter that evaluate's barrier uses too
(``channel/rendezvous.py``: arrivals and the sum of the ranks' plan digests); the sum equals W
times a rank's own digest only when every rank has the same plan. Plans are read only to explain
a difference. The wait is inside a guarded region (the watchdog names a rank that froze or died)
and has its own deadline (``timeout``) for a rank that is alive but never comes.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any

from paddle_doctor.errors import PreflightError
from paddle_doctor.runtime.channel.rendezvous import FINGERPRINT_BITS, MAX_WORLD, Rendezvous
from paddle_doctor.runtime.channel.store import StoreClient
from paddle_doctor.runtime.guards import watchdog
from paddle_doctor.runtime.guards.guardfinding import guard_finding
from paddle_doctor.runtime.channel import rankenv

DEFAULT_TIMEOUT_S = 300.0  # a rank may still be loading data; a dead one is the watchdog's
SAMPLE_ITEMS = 3
PARAM_SAMPLE = 1024
PHASE = "plan"
_calls = itertools.count()


def preflight(plan: Mapping[str, Any] | None = None, *, model=None, dataset=None, loader=None,
              local: Mapping[str, Any] | None = None, name: str = "preflight",
              timeout: float = DEFAULT_TIMEOUT_S) -> dict:
    """Check that every rank has the same plan; returns this rank's plan.

    ``plan``: items that must be equal on every rank (added to what ``model``, ``dataset`` and
    ``loader`` give); ``local``: items shown in the table but allowed to differ. In one process
    it only builds the plan. Every rank must call it the same number of times.
    """
    full = build_plan(model=model, dataset=dataset, loader=loader)
    full.update(plan or {})
    me = rankenv.current()
    if me.world_size < 2 or me.rank is None:
        return full
    with watchdog.guarded(name):
        _exchange(me, full, dict(local or {}), f"paddle_doctor/preflight/{name}/{next(_calls)}", timeout)
    return full


def build_plan(*, model=None, dataset=None, loader=None) -> dict:
    plan: dict[str, Any] = {}
    paddle = sys.modules.get("paddle")
    if paddle is not None:
        plan["paddle_version"] = getattr(paddle, "__version__", None)
    if dataset is not None:
        plan.update(dataset_plan(dataset))
    if loader is not None:
        plan.update(loader_plan(loader))
    if model is not None:
        plan.update(model_plan(model))
    return plan


def dataset_plan(dataset) -> dict:
    out: dict[str, Any] = {}
    try:
        n = len(dataset)
    except TypeError:
        return out
    out["dataset_len"] = n
    if n:
        picks = sorted({0, n // 2, n - 1})[:SAMPLE_ITEMS]
        out["dataset_checksum"] = _digest_hex([_bytes_of(dataset[i]) for i in picks])[:12]
    return out


def loader_plan(loader) -> dict:
    out: dict[str, Any] = {}
    sampler = getattr(loader, "batch_sampler", None)
    size = getattr(loader, "batch_size", None) or getattr(sampler, "batch_size", None)
    if size is not None:
        out["batch_size"] = int(size)
    try:
        out["num_batches"] = len(loader)
    except TypeError:
        pass
    if sampler is not None:
        out["sampler"] = {"type": type(sampler).__name__,
                          **{k: _plain(getattr(sampler, k)) for k in ("shuffle", "drop_last", "nranks")
                             if hasattr(sampler, k)}}
    return out


def model_plan(model) -> dict:
    """Parameter count and a checksum of names, shapes and a strided sample of every value."""
    h = hashlib.sha1()
    count = 0
    for key, value in model.state_dict().items():
        shape = [int(d) for d in value.shape]
        count += int(_prod(shape))
        flat = value.reshape([-1])
        step = max(1, int(flat.shape[0]) // PARAM_SAMPLE) if flat.shape[0] else 1
        h.update(f"{key}|{shape}|{value.dtype}|".encode())
        # contiguous() first: numpy() of a strided view copies the whole tensor (measured on
        # Paddle 3.3.1 CPU: 0.55 ms for a 784x512 weight, 7 us for its 1024-value sample)
        h.update(flat[::step].contiguous().numpy().tobytes() if flat.shape[0] else b"")
    return {"params": count, "params_checksum": h.hexdigest()[:12]}


def _exchange(me, plan: dict, local: dict, key: str, timeout: float) -> None:
    if me.world_size > MAX_WORLD:
        return  # the counter has no room; no TCP store serves that many ranks anyway
    rdv = Rendezvous(StoreClient.shared(me.world_size), key, me.world_size, me.rank)
    digest = plan_digest(plan, FINGERPRINT_BITS)
    rdv.publish(PHASE, json.dumps({"plan": plan, "local": local}, default=str))
    rdv.arrive(PHASE, digest)
    total = rdv.fingerprints(PHASE, timeout=timeout)
    if total is None:
        missing = rdv.missing(PHASE)
        who = ", ".join(map(str, missing))
        summary = f"rank(s) {who} did not reach the pre-flight check within {timeout:g} s"
        raise PreflightError(f"preflight: {summary}", finding=guard_finding("preflight", missing, summary))
    if total == me.world_size * digest:
        return
    raise mismatch_error({r: json.loads(text) for r, text in enumerate(rdv.texts(PHASE))})


def plan_digest(plan: Mapping[str, Any], bits: int) -> int:
    """A ``bits``-bit digest of a plan: equal plans give equal digests on every rank."""
    return int(_digest_hex([json.dumps(plan, sort_keys=True, default=str).encode()]), 16) >> (160 - bits)


def mismatch_error(plans: dict[int, dict]) -> PreflightError:
    """The error every rank raises, from every rank's ``{"plan": ..., "local": ...}``."""
    compared = {r: p["plan"] for r, p in plans.items()}
    keys = sorted({k for p in compared.values() for k in p})
    differ, culprits = [], set()
    for k in keys:
        values = {r: json.dumps(p.get(k), sort_keys=True, default=str) for r, p in compared.items()}
        if len(set(values.values())) > 1:
            majority, _ = Counter(values.values()).most_common(1)[0]
            odd = [r for r, v in values.items() if v != majority]
            culprits.update(odd if len(odd) < len(values) else list(values)[1:])
            differ.append(k)
    table = format_table(plans, differ)
    ranks = sorted(culprits)
    who = f"rank {ranks[0]} differs" if len(ranks) == 1 else f"ranks {', '.join(map(str, ranks))} differ"
    summary = f"ranks disagree on {', '.join(differ)} ({who} from the others)"
    return PreflightError(f"preflight: {summary}:\n{table}", finding=guard_finding("preflight", ranks, summary))


def format_table(plans: dict[int, dict], keys: list[str], width: int = 24) -> str:
    ranks = sorted(plans)
    local_keys = sorted({k for p in plans.values() for k in p.get("local", {})})
    rows = [["item", *[f"rank {r}" for r in ranks]]]
    for k in keys:
        rows.append([k, *[_cell(plans[r]["plan"].get(k), width) for r in ranks]])
    for k in local_keys:
        rows.append([f"{k} (local)", *[_cell(plans[r].get("local", {}).get(k), width) for r in ranks]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows)


def _cell(value, width: int) -> str:
    text = json.dumps(value, sort_keys=True, default=str) if not isinstance(value, str) else value
    return text if len(text) <= width else text[: width - 1] + "…"


def _digest_hex(parts: list[bytes]) -> str:
    h = hashlib.sha1()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.hexdigest()


def _bytes_of(item) -> bytes:
    """Stable bytes for a dataset item: arrays by content, containers element by element."""
    if isinstance(item, (list, tuple)):
        return b"(" + b",".join(_bytes_of(x) for x in item) + b")"
    if isinstance(item, dict):
        return b"{" + b",".join(repr(k).encode() + b":" + _bytes_of(v) for k, v in sorted(item.items(), key=repr)) + b"}"
    numpy_fn = getattr(item, "numpy", None)
    if callable(numpy_fn):
        item = numpy_fn()
    tobytes = getattr(item, "tobytes", None)
    if callable(tobytes):
        return f"{getattr(item, 'dtype', '')}{getattr(item, 'shape', '')}".encode() + tobytes()
    return repr(item).encode()


def _plain(value):
    return value if value is None or isinstance(value, (int, float, str, bool)) else str(value)


def _prod(shape: list[int]) -> int:
    out = 1
    for d in shape:
        out *= d
    return out
