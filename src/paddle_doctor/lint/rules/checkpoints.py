"""PDL302-PDL303: who writes a checkpoint, and what it holds (PDL301, the load, is in ``loads``)."""

from __future__ import annotations

import ast

from ...catalog.ids import CauseId
from ...findings import Fixable, Severity
from ..codes import Rule
from ..context import FileContext, ancestors, walk_scope
from ..index import SAVE_CALLS, callee, pending
from ..names import dotted, last_name
from ..semantics import (DIST_SETUP, contains_rank, is_distributed_scope, is_under, rank_exit_before, rank_guard,
                         scope_calls, scope_of)

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL302 = Rule(
    "PDL302", "wrapper-state-dict-saved", CauseId.state_dict_prefix_mismatch,
    "The state dict of a fleet.distributed_model() wrapper, or named_parameters(), is saved: keys carry a `_layers.` prefix (or lack the buffers) a bare model does not match.",
    fix='Save the bare model: `model._layers.state_dict()`.',
    wrong="""\
import paddle
from paddle.distributed import fleet

model = fleet.distributed_model(net)
if fleet.worker_index() == 0:
    paddle.save(model.state_dict(), "model.pdparams")""",
    right="""\
import paddle
from paddle.distributed import fleet

model = fleet.distributed_model(net)
if fleet.worker_index() == 0:
    paddle.save(model._layers.state_dict(), "model.pdparams")""",
    fixable=Fixable.SAFE,
    severity=Severity.WARNING,
    check=CHECK,
)

PDL303 = Rule(
    "PDL303", "checkpoint-saved-by-every-rank", CauseId.concurrent_checkpoint_write,
    "paddle.save() to a path shared by all ranks is reached by every rank: concurrent writers corrupt the file.",
    fix='Save on one rank (`if dist.get_rank() == 0:`) or put the rank in the file name.',
    wrong="""\
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
...
paddle.save(model.state_dict(), "model.pdparams")""",
    right="""\
import paddle
import paddle.distributed as dist

dist.init_parallel_env()
...
if dist.get_rank() == 0:
    paddle.save(model.state_dict(), "model.pdparams")""",
    fixable=Fixable.UNSAFE,
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL302, PDL303)

TRIGGERS = ("save",)
FEEDS_SUMMARY = True  # check() records the file's savers (index.Summary) where it cannot report: run on TRIGGERS
# PDL302 saves named_parameters() or a distributed_model() wrapper's state_dict(); PDL303 needs a scope
# that sets up parallelism (DIST_SETUP, or fleet.init): a file with none of these words cannot report.
_REPORTS_WITH = (*sorted(DIST_SETUP), "fleet", "named_parameters")


def may_report(text: str) -> bool:
    """Whether PDL302/303 could report on this file (if not, it is not even parsed). A file with
    ``save`` but none of these words may still define a *saver* another file calls: the engine parses
    it later when a pending finding names one of its words (:func:`..engine.lint_paths`)."""
    return "save" in text and any(word in text for word in _REPORTS_WITH)
# fleet.distributed_model() returns a MetaParallelBase (tensor/pipeline/sharding parallel) whose
# state_dict() is Layer's: keys gain `_layers.`. paddle.DataParallel.state_dict() delegates to the
# wrapped layer (2.4.2 fluid/dygraph/parallel.py:829, 3.3.1 distributed/parallel.py:642): no prefix.
WRAPPERS = frozenset({"distributed_model"})
def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        name = last_name(call.func)
        if name == "save" and ctx.imports.qualname(call.func) in SAVE_CALLS:
            if "jit" not in ctx.imports.qualname(call.func):
                _check_wrapper_save(ctx, call)
            _check_every_rank_save(ctx, call)
        elif name and any(w in name.lower() for w in _HELPER_WORDS):
            _check_helper_save(ctx, call)


def _check_wrapper_save(ctx: FileContext, call: ast.Call) -> None:
    """PDL302: the saved object is a wrapper's state_dict() or named_parameters()."""
    if not call.args:
        return
    saved = call.args[0]
    if isinstance(saved, ast.Call) and last_name(saved.func) == "dict" and saved.args:
        saved = saved.args[0]
    if not (isinstance(saved, ast.Call) and isinstance(saved.func, ast.Attribute)):
        return
    method, owner = saved.func.attr, saved.func.value
    if method == "named_parameters":
        ctx.report(PDL302, saved, "saving `named_parameters()` drops the buffers (batch-norm statistics) and keeps "
                   "wrapper prefixes such as `_layers.`; loading it reports missing keys: save `state_dict()` of "
                   "the bare model", why="named_parameters() is not a state dict")
        return
    if method != "state_dict" or not isinstance(owner, ast.Name):
        return
    wrapped = _wrapped_by(ctx, scope_of(call), owner.id)
    if wrapped:
        message = (f"`{owner.id}` is a `{wrapped}` wrapper: its state_dict() keys carry a `_layers.` prefix "
                   f"that a bare model does not have; save `{owner.id}._layers.state_dict()`")
        ctx.report(PDL302, saved, message, why=f"{owner.id} = {wrapped}(...) in the same function",
                   confidence="medium", edits=(ctx.edit(saved.func.value, f"{owner.id}._layers"),))


def _wrapped_by(ctx: FileContext, scope: ast.AST, name: str) -> str | None:
    for call in scope_calls(ctx, scope):
        parent = getattr(call, "_pd_parent", None)
        if (last_name(call.func) in WRAPPERS and isinstance(parent, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in parent.targets)):
            return last_name(call.func)
    return None


def _check_every_rank_save(ctx: FileContext, call: ast.Call) -> None:
    """PDL303: a save every rank reaches, to a path that does not depend on the rank.

    The same save in a function that does not set up parallelism makes that function a *saver*
    (:mod:`..index`): a caller that does, and calls it on every rank, is reported instead."""
    scope = scope_of(call)
    path = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "path"), None)
    if path is None or _rank_specific(ctx, scope, path, depth=3):
        return
    if rank_guard(ctx, call) is not None or rank_exit_before(ctx, call) is not None or _save_gate(call):
        return
    if _single_process_branch(ctx, scope, call):
        return
    if not is_distributed_scope(ctx, scope):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            ctx.cache.setdefault("savers", set()).add(scope.name)
        return
    stmt = getattr(call, "_pd_parent", None)
    edits = ()
    if isinstance(stmt, ast.Expr) and stmt.lineno == stmt.end_lineno and "paddle" in ctx.imports.aliases:
        indent = " " * stmt.col_offset
        edits = (ctx.edit(stmt, f"if paddle.distributed.get_rank() == 0:\n{indent}    {ast.get_source_segment(ctx.text, stmt)}"),)
    ctx.report(PDL303, call,
               f"every rank runs this `paddle.save` to the same path `{ast.unparse(path)}`: concurrent writers "
               "corrupt the checkpoint; save on one rank (or put the rank in the file name)",
               why="the function sets up data parallelism and the save is under no rank test", edits=edits)


_HELPER_WORDS = ("save", "export", "checkpoint")


def _check_helper_save(ctx: FileContext, call: ast.Call) -> None:
    """PDL303 through a helper: ``save(model.state_dict(), path)`` on every rank after DataParallel,
    where ``save`` (this file or another of the package) runs ``paddle.save``/``paddle.jit.save``."""
    name = callee(ctx, call)
    scope = scope_of(call)
    if name is None or not is_distributed_scope(ctx, scope) or any(contains_rank(ctx, a) for a in call.args):
        return
    if rank_guard(ctx, call) is not None or rank_exit_before(ctx, call) is not None or _save_gate(call):
        return
    if _single_process_branch(ctx, scope, call):
        return
    if any(_rank_specific(ctx, scope, a, depth=3) for a in (*call.args, *(k.value for k in call.keywords))):
        return
    ctx.report(PDL303, call,
               f"every rank runs `{ast.unparse(call.func)}(...)`, which writes a checkpoint with `paddle.save`/"
               "`paddle.jit.save` to a path that does not hold the rank: concurrent writers corrupt it; call it "
               "on one rank", why=f"`{name}` saves on every rank that calls it; this function sets up data "
               "parallelism and the call is under no rank test", facts=pending("if_saver", name))


def _single_process_branch(ctx: FileContext, scope: ast.AST, call: ast.Call) -> bool:
    """The call sits in the ``else`` of an ``if`` whose test also gates the parallel set-up
    (``if use_fleet: fleet.init(...) ... if use_fleet: <rank 0 saves> else: save(...)``): one process."""
    setup_tests = set()
    for other in scope_calls(ctx, scope):
        if last_name(other.func) in DIST_SETUP or ctx.imports.qualname(other.func) == "paddle.distributed.fleet.init":
            for anc in ancestors(other):
                if isinstance(anc, ast.If) and not is_under(other, anc.test):
                    setup_tests |= _test_names(anc.test)
    child = call
    for anc in ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(anc, ast.If) and any(child is n for n in anc.orelse) and _test_names(anc.test) & setup_tests:
            return True
        child = anc
    return False


def _test_names(test: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}


_GATE_WORDS = ("rank", "master", "main", "should_save", "chief", "leader", "first_worker", "save_on")


def _save_gate(call: ast.Call) -> bool:
    """An enclosing ``if`` on a flag whose name says it picks the saving process (``args.should_save``).

    Such flags are usually computed from the rank elsewhere (PaddleNLP's ``should_save``); for a
    save, trusting the name costs a missed finding at worst, never a false one.
    """
    for anc in ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(anc, ast.If):
            for node in ast.walk(anc.test):
                word = (last_name(node) if isinstance(node, (ast.Name, ast.Attribute)) else "") or ""
                if any(w in word.lower() for w in _GATE_WORDS):
                    return True
    return False


def _rank_specific(ctx: FileContext, scope: ast.AST, path: ast.AST, depth: int) -> bool:
    """The path differs per rank: it holds a rank, directly or through names assigned in this function."""
    if contains_rank(ctx, path) or _path_mentions_rank(path):
        return True
    if depth <= 0:
        return False
    assigned = _assignments(ctx, scope)
    for name in {n.id for n in ast.walk(path) if isinstance(n, ast.Name)}:
        if any(_rank_specific(ctx, scope, value, depth - 1) for value in assigned.get(name, ())):
            return True
    return False


def _assignments(ctx: FileContext, scope: ast.AST) -> dict[str, list[ast.AST]]:
    """name -> the values assigned to it in ``scope``, built once per scope (a walk per name and
    per level was most of a lint run on script-heavy trees)."""
    key = ("assignments", id(scope))
    if key not in ctx.cache:
        found: dict[str, list[ast.AST]] = {}
        for node in walk_scope(scope.body if hasattr(scope, "body") else []):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(node.value)
        ctx.cache[key] = found
    return ctx.cache[key]


def _path_mentions_rank(path: ast.AST) -> bool:
    return any(isinstance(n, (ast.Name, ast.Attribute)) and "rank" in (last_name(n) or "").lower()
               for n in ast.walk(path))
