"""Collective trace: what each rank called, in order, in a ring buffer (Paddle's flight recorder).

Paddle's own trace (``FLAGS_enable_async_trace``) is off by default, NCCL-only and only logs, so
nobody can say which rank entered which collective. ``enable()`` wraps the public collectives of
``paddle.distributed`` (all_reduce, all_gather, broadcast, reduce, barrier, scatter, alltoall,
reduce_scatter, gather, send/recv and the object variants) with a thin function that records
op, sequence number (per group, as in PyTorch's fingerprints), shapes, dtypes, reduce op or root
and the user's call site. The entries go into error records and into the watchdog's report;
with ``check=True`` every collective is first compared across ranks (see ``collcheck``).

A traced collective is a guarded region: the watchdog watches the peers while it runs. Calls
made inside a traced call (``all_gather_object`` uses ``all_gather``) are not traced twice.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Any

from paddle_doctor.runtime.guards.guardstate import STATE

RING_SIZE = 64
HISTORY_SITES = 32
MODULES = ("paddle.distributed", "paddle.distributed.communication")


@dataclass(frozen=True)
class Spec:
    tensors: tuple[str, ...] = ()  # parameters whose shapes and dtypes are recorded
    args: tuple[str, ...] = ()  # parameters that must be equal on every rank (reduce op, root)
    match_shapes: bool = True
    p2p: bool = False  # point to point: not one call on every rank, never compared


SPECS = {
    "all_reduce": Spec(("tensor",), ("op",)),
    "all_gather": Spec(("tensor",)),
    "broadcast": Spec(("tensor",), ("src",)),
    "reduce": Spec(("tensor",), ("dst", "op")),
    "barrier": Spec(),
    "scatter": Spec(("tensor",), ("src",)),
    "gather": Spec(("tensor",), ("dst",)),
    "reduce_scatter": Spec(("tensor",), ("op",)),
    "alltoall": Spec(("in_tensor_list",), match_shapes=False),
    "alltoall_single": Spec(("in_tensor",), match_shapes=False),
    "all_gather_object": Spec(),
    "broadcast_object_list": Spec((), ("src",)),
    "scatter_object_list": Spec((), ("src",)),
    "send": Spec(("tensor",), ("dst",), p2p=True),
    "recv": Spec(("tensor",), ("src",), p2p=True),
    "isend": Spec(("tensor",), ("dst",), p2p=True),
    "irecv": Spec(("tensor",), ("src",), p2p=True),
}


@dataclass
class Entry:
    seq: int
    group: int
    members: tuple[int, ...] | None  # None: every rank
    op: str
    shapes: list
    dtypes: list
    args: dict
    site: str  # "file:line", the user's frame that called the collective
    func: str
    n: int  # calls from this site so far, this one included
    p2p: bool = False
    match_shapes: bool = True
    start: float = field(default_factory=time.time)
    end: float | None = None
    hist: dict | None = None  # site -> calls (the most recent sites); filled when first needed

    def fingerprint(self, history: bool = True) -> dict:
        fp = {"g": self.group, "s": self.seq, "op": self.op, "sh": self.shapes, "dt": self.dtypes,
              "a": self.args, "site": self.site, "n": self.n, "ms": self.match_shapes}
        if history:
            if self.hist is None:
                # Asked while this collective runs (check mode, or a heartbeat while it blocks):
                # the counts are still those of this call.
                self.hist = TRACER.history()
            fp["h"] = self.hist
        return fp

    def to_dict(self) -> dict:
        return {"seq": self.seq, "group": self.group, "op": self.op, "shapes": self.shapes,
                "dtypes": self.dtypes, "args": self.args, "site": self.site, "func": self.func,
                "calls_from_site": self.n, "start": self.start, "end": self.end}


def describe(fp: dict) -> str:
    """``all_reduce #3 [2] int64 at eval.py:60`` from a fingerprint."""
    shapes = " ".join(f"{sh}{' ' + dt if dt else ''}" for sh, dt in zip(fp.get("sh") or [], fp.get("dt") or []))
    args = "".join(f" {k}={v}" for k, v in (fp.get("a") or {}).items())
    group = f" (group {fp['g']})" if fp.get("g") else ""
    return f"{fp.get('op')} #{fp.get('s')}{group}{' ' + shapes if shapes else ''}{args} at {fp.get('site')}"


class Tracer:
    def __init__(self) -> None:
        self.on = False
        self.check = False
        self.ring: deque[Entry] = deque(maxlen=RING_SIZE)
        self.seqs: dict[int, int] = {}
        self.sites: OrderedDict[str, int] = OrderedDict()
        self.originals: dict[tuple[str, str], Any] = {}
        self.before_hooks: list = []  # called with each new Entry (start the watchdog, check mode)

    def begin(self, name: str, spec: Spec, params: dict, args, kwargs) -> Entry:
        bound = _bind(params, args, kwargs)
        group, members = _group(bound.get("group"))
        key = -1 if spec.p2p else group  # point to point calls keep their own count
        self.seqs[key] = seq = self.seqs.get(key, -1) + 1
        path, line, func = _call_site()
        site = f"{path}:{line}"
        self.sites[site] = n = self.sites.get(site, 0) + 1
        self.sites.move_to_end(site)
        while len(self.sites) > 4 * HISTORY_SITES:
            self.sites.popitem(last=False)
        shapes, dtypes = _tensors(bound, spec.tensors)
        entry = Entry(seq, group, members, name, shapes, dtypes,
                      {a: _plain(bound[a]) for a in spec.args if a in bound}, site, func, n, spec.p2p,
                      spec.match_shapes)
        self.ring.append(entry)
        STATE.last = STATE.current = entry
        return entry

    def finish(self, entry: Entry) -> None:
        entry.end = time.time()
        STATE.current = None

    def history(self) -> dict:
        for _ in range(3):  # another thread may be adding a site right now
            try:
                return dict(list(self.sites.items())[-HISTORY_SITES:])
            except RuntimeError:
                continue
        return {}


TRACER = Tracer()
_tls = threading.local()


def enable(check: bool = False) -> bool:
    """Trace the collectives of ``paddle.distributed`` (imports paddle). True when patched."""
    import importlib

    TRACER.check = TRACER.check or check
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name, spec in SPECS.items():
            fn = getattr(module, name, None)
            if fn is None or getattr(fn, "__paddle_doctor_original__", None) is not None:
                continue
            TRACER.originals[(module_name, name)] = fn
            setattr(module, name, _wrap(name, fn, spec))
    TRACER.on = True
    return True


def disable() -> None:
    for (module_name, name), fn in TRACER.originals.items():
        module = sys.modules.get(module_name)
        if module is not None:
            setattr(module, name, fn)
    TRACER.originals.clear()
    TRACER.on = TRACER.check = False


def last_collectives(limit: int = RING_SIZE) -> list[dict]:
    return [e.to_dict() for e in list(TRACER.ring)[-limit:]]


def _wrap(name: str, fn, spec: Spec):
    try:
        params = _params(inspect.signature(fn), spec)
    except (TypeError, ValueError):
        return fn

    @functools.wraps(fn)
    def traced(*args, **kwargs):
        if getattr(_tls, "depth", 0) or not TRACER.on:
            return fn(*args, **kwargs)
        entry = TRACER.begin(name, spec, params, args, kwargs)
        _tls.depth = 1
        try:
            for hook in TRACER.before_hooks:
                hook(entry)
            return fn(*args, **kwargs)
        finally:
            _tls.depth = 0
            TRACER.finish(entry)

    traced.__paddle_doctor_original__ = fn
    return traced


def _params(sig: inspect.Signature, spec: Spec) -> dict[str, tuple[int | None, Any]]:
    """name -> (position, default) of the parameters the trace reads (``inspect.Signature.bind``
    costs ~10 us a call; this lookup is a fraction of that)."""
    wanted = {*spec.tensors, *spec.args, "group"}
    out = {}
    for i, p in enumerate(sig.parameters.values()):
        if p.name in wanted:
            positional = p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            out[p.name] = (i if positional else None, None if p.default is p.empty else p.default)
    return out


def _bind(params: dict, args, kwargs) -> dict:
    """The traced parameters' values; a default reduce op or root compares equal to an explicit one."""
    out = {}
    for name, (pos, default) in params.items():
        if pos is not None and pos < len(args):
            out[name] = args[pos]
        else:
            out[name] = kwargs.get(name, default)
    return out


def _group(group) -> tuple[int, tuple[int, ...] | None]:
    if group is None:
        return 0, None
    gid = getattr(group, "id", 0) or 0
    ranks = getattr(group, "ranks", None)
    return int(gid), (tuple(int(r) for r in ranks) if gid and ranks else None)


def _tensors(bound: dict, names: tuple[str, ...]) -> tuple[list, list]:
    shapes, dtypes = [], []
    for name in names:
        value = bound.get(name)
        for t in value if isinstance(value, (list, tuple)) else [value]:
            if hasattr(t, "shape") and hasattr(t, "dtype"):
                shapes.append([int(d) for d in t.shape])
                dtypes.append(str(t.dtype).replace("paddle.", ""))
    return shapes, dtypes


def _plain(value) -> Any:
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(getattr(value, "name", value))


@functools.lru_cache(maxsize=1)
def _skip_dirs() -> tuple[str, ...]:
    """Frames in these directories are library code: Paddle's package and ours."""
    dirs = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep]
    paddle = sys.modules.get("paddle")
    if paddle is not None and getattr(paddle, "__file__", None):
        dirs.append(os.path.dirname(os.path.abspath(paddle.__file__)) + os.sep)
    return tuple(dirs)


def _call_site() -> tuple[str, int, str]:
    """The innermost frame outside paddle and paddle_doctor: where the user called."""
    skip = _skip_dirs()
    frame = sys._getframe(2)
    while frame is not None and (frame.f_code.co_filename.startswith(skip)
                                 or frame.f_code.co_filename.startswith("<frozen")):
        frame = frame.f_back
    if frame is None:
        return "?", 0, "?"
    return _short(frame.f_code.co_filename), frame.f_lineno, frame.f_code.co_name


@functools.lru_cache(maxsize=256)
def _short(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path
