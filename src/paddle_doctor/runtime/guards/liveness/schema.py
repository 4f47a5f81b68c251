"""The shape of every message on the liveness channel, checked before any of it is used.

Why: an authenticated sender is one of ours, but a bug, a version skew or a stolen key must
still never kill a heartbeat thread or a watcher, nor make every later judgement raise (a ``"end":
[1]`` did: the watchdog never fired again). So each message is checked field by field against
the shapes below; one that fails anything is dropped and counted (``seal.Stats``, reason
``invalid``), never raised. ``valid(sid, msg)`` also checks that the sender id agrees with what
the message claims (rank 3's sidecar speaks only of rank 3).

Standard library only (the watcher imports it as a file). Nothing here imports paddle.
"""

from __future__ import annotations

MAX_TEXT = 4096
MAX_ITEMS = 256
MAX_DEPTH = 6


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def opt(check):
    return lambda v: v is None or check(v)


def text(v) -> bool:
    return isinstance(v, str) and len(v) <= MAX_TEXT


def num(v) -> bool:
    return (is_int(v) or isinstance(v, float)) and v == v


def plain(v, depth: int = 0) -> bool:
    """JSON made of short strings, numbers, booleans and null, nested at most MAX_DEPTH."""
    if v is None or isinstance(v, bool) or num(v) or text(v):
        return True
    if depth >= MAX_DEPTH:
        return False
    if isinstance(v, list):
        return len(v) <= MAX_ITEMS and all(plain(x, depth + 1) for x in v)
    if isinstance(v, dict):
        return len(v) <= MAX_ITEMS and all(text(k) and plain(x, depth + 1) for k, x in v.items())
    return False


def list_of(check):
    return lambda v: isinstance(v, list) and len(v) <= MAX_ITEMS and all(check(x) for x in v)


def dict_of(check):
    return lambda v: isinstance(v, dict) and len(v) <= MAX_ITEMS and all(text(k) and check(x) for k, x in v.items())


def fields(spec: dict, required: tuple = ()):
    """A dict whose listed fields (absent allowed unless required) pass their checks."""
    def check(v) -> bool:
        return (isinstance(v, dict) and all(k in v for k in required)
                and all(k not in v or ok(v[k]) for k, ok in spec.items()))
    return check


RANK = lambda v: is_int(v) and 0 <= v < 1 << 20  # noqa: E731
PORT = lambda v: is_int(v) and 0 <= v < 1 << 16  # noqa: E731
NONNEG = lambda v: is_int(v) and v >= 0  # noqa: E731
FP = fields({"g": is_int, "s": is_int, "op": text, "sh": plain, "dt": plain, "a": dict_of(plain), "site": opt(text),
             "n": opt(is_int), "ms": opt(lambda v: isinstance(v, bool)), "h": dict_of(is_int)}, ("g", "s"))
FINDING = fields({"code": opt(text), "cause": opt(text), "message": text, "ranks": list_of(RANK),
                  "severity": opt(text), "confidence": opt(text), "why": opt(text)}, ("message",))
END = fields({"ok": opt(lambda v: isinstance(v, bool)), "err": opt(text), "finding": opt(FINDING),
              "hist": opt(dict_of(is_int)), "last": opt(FP), "code": opt(is_int)})
BEAT = fields({"v": is_int, "r": RANK, "p": PORT, "pid": NONNEG, "st": NONNEG, "hk": text, "k": text, "t": num,
               "ph": opt(text), "sp": opt(plain), "c": opt(FP), "l": opt(FP), "mb": list_of(RANK),
               "fw": list_of(RANK), "dr": opt(lambda v: isinstance(v, bool)), "end": END}, ("r", "k"))
SIDE = fields({"v": is_int, "r": RANK, "pid": NONNEG, "st": NONNEG, "hk": text, "ps": text, "cpu": opt(is_int),
               "n": is_int}, ("r", "pid", "ps"))
AGE = lambda v: num(v) and 0 <= v < 1e6  # noqa: E731
# One local rank as its node's watcher last heard it (``{"k": "L"}``: the relay of a node's beats).
RELAYED = fields({"r": RANK, "a": AGE, "b": fields({"p": PORT, "pid": NONNEG, "st": NONNEG, "hk": text, "ph": opt(text),
                                                 "sp": opt(plain), "c": opt(FP), "l": opt(FP)}),
                  "sa": AGE, "s": fields({"pid": NONNEG, "st": NONNEG, "hk": text, "ps": text, "cpu": opt(is_int)},
                                         ("ps",))}, ("r",))
DOING = fields({"ph": opt(text), "sp": opt(plain), "c": opt(FP), "l": opt(FP)})
# What the SWIM detectors gossip (swim.py reads these keys without a check of its own).
NEWS = {
    "a": fields({"n": RANK, "i": NONNEG}, ("n", "i")),
    "s": fields({"n": RANK, "i": NONNEG, "by": opt(RANK)}, ("n", "i")),
    "d": fields({"n": RANK, "i": NONNEG, "by": opt(RANK), "inc": opt(NONNEG), "how": opt(text)}, ("n", "i")),
    "r": fields({"r": RANK, "gen": NONNEG, "what": text, "by": opt(RANK), "how": opt(text), "doing": opt(DOING),
                 "at": opt(num)}, ("r", "gen", "what")),
    "e": fields({"r": RANK, "gen": NONNEG, "end": END}, ("r", "gen", "end")),
    "f": fields({"n": RANK, "g": is_int, "s": is_int, "sets": list_of(lambda x: _fp_set(x)), "mb": opt(list_of(RANK))},
                ("n", "g", "s", "sets")),
}
SWIM = fields({"t": lambda v: v in ("ping", "ack", "preq", "gossip"), "f": RANK, "i": NONNEG, "s": opt(is_int),
               "tg": RANK, "g": list_of(lambda b: news(b))}, ("t", "f"))
FROM_WATCHER = {
    "v": fields({"k": lambda v: v == "v", "v": lambda b: news(b)}, ("v",)),
    "F": fields({"k": lambda v: v == "F", "g": is_int, "s": is_int, "sets": list_of(lambda x: _fp_set(x))},
                ("g", "s", "sets")),
    "L": fields({"k": lambda v: v == "L", "rs": list_of(RELAYED)}, ("rs",)),
}


def _fp_set(x) -> bool:
    return isinstance(x, list) and len(x) == 2 and list_of(RANK)(x[0]) and FP(x[1])


def news(body) -> bool:
    check = NEWS.get(body.get("k")) if isinstance(body, dict) else None
    return check is not None and check(body)


def sender(sid: str) -> tuple[str, int] | None:
    """``("r", 3)`` of ``"r3"``: a rank, ``s`` its sidecar, ``w`` a node's watcher."""
    if len(sid) < 2 or sid[0] not in "rsw" or not sid[1:].isdigit():
        return None
    return sid[0], int(sid[1:])


def valid(sid: str, msg: dict) -> bool:
    """The message is one this sender may send, in the shape its kind requires."""
    who = sender(sid)
    if who is None:
        return False
    role, ident = who
    if role == "w":
        if "t" in msg:
            return SWIM(msg) and msg["f"] == ident
        check = FROM_WATCHER.get(msg.get("k"))
        return check is not None and check(msg)
    if msg.get("k") == "p" and role == "r":
        return len(msg) == 1  # a probe: only its "port unreachable" answer matters
    if role == "s":
        return msg.get("k") == "s" and SIDE(msg) and msg["r"] == ident
    return msg.get("k") in ("b", "e") and BEAT(msg) and msg["r"] == ident and (msg["k"] == "e") == ("end" in msg)
