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
marks it ready, and adds one number to a shared counter that holds both the arrivals (low bits)
and the sum of the ranks' plan digests (high bits); the sum equals W times a rank's own digest
only when every rank has the same plan. Plans are read only to explain a difference.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any

from paddle_doctor.runtime.launch import rankenv
from paddle_doctor.runtime.guards import watchdog
from paddle_doctor.errors import PreflightError
from paddle_doctor.runtime.channel.store import BoundedStore

DEFAULT_TIMEOUT_S = 300.0  # a rank may still be loading data; a dead one is the watchdog's
SAMPLE_ITEMS = 3
PARAM_SAMPLE = 1024
ARRIVAL_BITS = 16  # up to 65535 ranks; the digest sum needs this many carry bits above the digest
DIGEST_BITS = 63 - 2 * ARRIVAL_BITS  # arrivals + digest sum fit the store's signed 64-bit counter
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
    if me.world_size >= 1 << ARRIVAL_BITS:
        return  # the counter has no room; no TCP store serves that many ranks anyway
    store = BoundedStore.shared(me.world_size)
    digest = plan_digest(plan, DIGEST_BITS)
    store.publish(f"{key}/{me.rank}", json.dumps({"plan": plan, "local": local}, default=str))
    arrivals = (1 << ARRIVAL_BITS) - 1
    store.add(f"{key}/n", 1 + (digest << ARRIVAL_BITS))
    total = store.wait_counter(f"{key}/n", lambda v: (v & arrivals) >= me.world_size, timeout)
    if (total & arrivals) < me.world_size:
        missing = [r for r in range(me.world_size) if not store.ready(f"{key}/{r}")]
        raise PreflightError(f"preflight: rank(s) {', '.join(map(str, missing))} did not reach the pre-flight "
                             f"check within {timeout:g} s", hint=_hint(missing, "did not reach the pre-flight"))
    if total >> ARRIVAL_BITS == me.world_size * digest:
        return
    plans = {r: json.loads(store.read(f"{key}/{r}")) for r in range(me.world_size)}
    raise mismatch_error(plans)


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
    return PreflightError(f"preflight: {summary}:\n{table}", hint=_hint(ranks, summary))


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


def _hint(ranks: list[int], summary: str) -> dict:
    return {"kind": "preflight", "category": "config_error", "ranks": ranks, "summary": summary}


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
