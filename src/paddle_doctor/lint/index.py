"""Whole-program facts: what each package's functions do, so a rule can follow a value across files.

Each linted file contributes a small *summary* (plain sets of names, cheap to pickle from a worker):

- ``reducing``: names of functions called from a scope that runs a collective (the caller
  all-reduces what it gets back), ``plain``: names called from scopes that run none;
- ``savers``: functions that write a checkpoint (``paddle.save``, ``paddle.jit.save``) on every
  rank that calls them (no rank test around the write, a path without the rank);
- ``metrics``: classes whose ``update`` accumulates into the object's own counters (``self.n +=``,
  ``self.preds.extend(...)``) and that run no collective: a metric object that stays per rank.

A rule that needs a fact from another file reports a *pending* finding: ``facts["pending"]`` says
which fact decides it (``unless_caller_reduces`` or ``if_saver``) and ``facts["name"]`` the
function. :func:`resolve` keeps or drops the pending findings once every file's summary is known
(one pass over the files: nothing is parsed twice). Names are matched by function name, as
pylint's and pyright's call graphs do when the receiver's type is unknown; a name that is both
reduced and not reduced by some caller counts as not reduced. Files that never mention paddle are
not parsed (the prefilter), so a caller there is not seen: it could not all-reduce anyway, but its
plain use of a per-rank value is missed.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field

from ..findings import Finding
from .context import FileContext

SAVE_CALLS = frozenset({"paddle.save", "paddle.framework.save", "paddle.jit.save"})


@dataclass
class Summary:
    reducing: set[str] = field(default_factory=set)
    plain: set[str] = field(default_factory=set)
    savers: set[str] = field(default_factory=set)
    metrics: set[str] = field(default_factory=set)

    def merge(self, other: Summary) -> Summary:
        self.reducing |= other.reducing
        self.plain |= other.plain
        self.savers |= other.savers
        self.metrics |= other.metrics
        return self

    def to_tuple(self) -> tuple:
        return (tuple(sorted(self.reducing)), tuple(sorted(self.plain)), tuple(sorted(self.savers)),
                tuple(sorted(self.metrics)))

    @classmethod
    def from_tuple(cls, data: tuple) -> Summary:
        return cls(*(set(part) for part in data))


def summarize(ctx: FileContext) -> Summary:
    from .semantics import enclosing_function  # semantics imports context, not index

    out = Summary()
    reducing = _reducing_scopes(ctx)
    for call in ctx.calls:
        name = callee(ctx, call)
        if name is None:
            continue
        scope = enclosing_function(call) or ctx.tree
        (out.reducing if id(scope) in reducing else out.plain).add(name)
    out.savers = set(ctx.cache.get("savers", ()))
    out.metrics = accumulating_classes(ctx)
    return out


def _reducing_scopes(ctx: FileContext) -> set[int]:
    """ids of the functions (and the module) that run a collective, in one pass over the calls
    (a walk of every function's body was a third of a lint run)."""
    from .context import ancestors
    from .semantics import FUNCS, reached_collective

    out: set[int] = set()
    for call in ctx.calls:
        if reached_collective(ctx, call):
            out.update(id(a) for a in ancestors(call) if isinstance(a, (*FUNCS, ast.Module)))
    return out


def accumulating_classes(ctx: FileContext) -> set[str]:
    """Classes of this file whose ``update`` grows the object's own state and that run no collective."""
    from .semantics import collectives_in

    if "metric_classes" in ctx.cache:
        return ctx.cache["metric_classes"]
    found = set()
    for cls in (n for n in ctx.tree.body if isinstance(n, ast.ClassDef)):
        update = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "update"), None)
        if update is not None and _grows_self(update) and not collectives_in(ctx, cls.body):
            found.add(cls.name)
    ctx.cache["metric_classes"] = found
    return found


def plain_metric_classes(tree: ast.Module) -> set[str]:
    """:func:`accumulating_classes` for a file that never mentions paddle (so runs no collective):
    a numpy-only metrics module is still where a per-rank metric class may live."""
    return {cls.name for cls in tree.body if isinstance(cls, ast.ClassDef) and any(
        isinstance(f, ast.FunctionDef) and f.name == "update" and _grows_self(f) for f in cls.body)}


def _grows_self(func: ast.FunctionDef) -> bool:
    for node in ast.walk(func):
        target = node.target if isinstance(node, ast.AugAssign) else (
            node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend") else None)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            return True
    return False


def callee(ctx: FileContext, call: ast.Call) -> str | None:
    """``f`` for ``f()``, ``self.f()`` and ``module.f()``; None for a method of some other object."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
            func.value.id in ("self", "cls") or _package_module(ctx, func.value.id)):
        return func.attr
    return None


# Libraries whose functions are never the package's own helpers (``np.save`` is not a saver of ours).
_LIBRARIES = frozenset({"numpy", "paddle", "scipy", "pandas", "torch", "cv2", "PIL", "yaml", "tqdm", "sklearn"})


def _package_module(ctx: FileContext, alias: str) -> bool:
    """``alias`` names an imported module that may be the package's own (not numpy, not the stdlib)."""
    target = ctx.imports.aliases.get(alias)
    if target is None:
        return False
    top = target.split(".", 1)[0]
    return top not in _LIBRARIES and top not in sys.stdlib_module_names


def pending(kind: str, name: str) -> dict:
    return {"pending": kind, "name": name}


def resolve(findings: list[Finding], summary: Summary) -> list[Finding]:
    """The findings that stand once the package's summary is known."""
    kept = []
    for f in findings:
        kind, name = f.fact("pending"), f.fact("name")
        if kind == "unless_caller_reduces" and name in summary.reducing and name not in summary.plain:
            continue
        if kind == "if_saver" and name not in summary.savers:
            continue
        if kind == "if_metric_class" and name not in summary.metrics:
            continue
        kept.append(f)
    return kept
