"""What an evaluation loop accumulates per rank (for PDL402 and PDL405): sums (``correct += ...``),
lists grown per batch (``preds.extend(out)``, ``labels.append(y)``), and metric objects fed with
``update(...)`` (in the loop, or by a helper the loop hands the object to) whose state stays on
the rank: ``paddle.metric`` metrics (host-side statistics, never synced), classes of this file
whose ``update`` grows their own counters, and (decided once every file is read, :mod:`..index`)
such classes from another module of the package.
"""

from __future__ import annotations

import ast

from ..context import FileContext, walk_scope
from ..index import accumulating_classes
from ..names import dotted, last_name

_METRIC_WORDS = ("metric", "acc", "meter", "evaluator", "counter", "score")
_GROWERS = ("append", "extend")


def accumulated(ctx: FileContext, scope: ast.AST, loop: ast.AST) -> tuple[set[str], str | None]:
    """(names accumulated in ``loop``, a metric class of another module they depend on, or None)."""
    names, foreign = set(), None
    constructed = _constructed(ctx, scope)
    for node in walk_scope(loop.body):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and dotted(node.target):
            names.add(dotted(node.target))  # `correct += ...` and `self.correct += ...` (a metric on self)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = dotted(node.func.value)
            if not owner:
                continue
            if node.func.attr in _GROWERS and owner in _initialised_empty(scope):
                names.add(owner)  # `preds.extend(out)`: a list of this rank's results
            elif node.func.attr == "update":
                kind = _metric_kind(ctx, owner, constructed)
                if kind:
                    names.add(owner)
                    foreign = foreign or (kind if kind not in ("local", "named") else None)
        if isinstance(node, ast.Call):  # `step(metric, batch)`: the update happens in a helper, maybe elsewhere
            for arg in node.args:
                owner = dotted(arg)
                kind = _metric_kind(ctx, owner, constructed) if owner in constructed else None
                if kind:
                    names.add(owner)
                    foreign = foreign or (kind if kind not in ("local", "named") else None)
    return names, foreign


def _metric_kind(ctx: FileContext, owner: str, constructed: dict[str, ast.Call]) -> str | None:
    """"local" (a paddle.metric or a class of this file), "named" (its name says metric), a class
    name of another module (pending), or None (not a per-rank metric object)."""
    call = constructed.get(owner)
    if call is not None:
        qualname = ctx.imports.qualname(call.func) or ""
        cls = last_name(call.func) or ""
        if qualname.startswith("paddle.metric."):
            return "local"
        if cls in accumulating_classes(ctx):
            return "local"
        if cls and cls[0].isupper() and cls not in {c.name for c in ctx.tree.body if isinstance(c, ast.ClassDef)}:
            return cls  # defined elsewhere: kept if the package's summary says it accumulates per rank
    return "named" if any(w in owner.lower() for w in _METRIC_WORDS) else None


def _constructed(ctx: FileContext, scope: ast.AST) -> dict[str, ast.Call]:
    out = {}
    for node in walk_scope(scope.body if hasattr(scope, "body") else []):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for target in node.targets:
                if dotted(target):
                    out[dotted(target)] = node.value
    return out


def _initialised_empty(scope: ast.AST) -> set[str]:
    """Names set to an empty list in this scope (``preds = []``): what a loop then grows."""
    out = set()
    for node in walk_scope(scope.body if hasattr(scope, "body") else []):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List) and not node.value.elts:
            out |= {dotted(t) for t in node.targets if dotted(t)}
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and all(
                isinstance(e, ast.List) and not e.elts for e in node.value.elts):
            for target in node.targets:
                if isinstance(target, ast.Tuple):
                    out |= {dotted(e) for e in target.elts if dotted(e)}
    return out
