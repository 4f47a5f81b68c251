"""PDL3xx: who writes a checkpoint, and whether a load is checked."""

from __future__ import annotations

import ast

from ...catalog.ids import CauseId
from ...findings import Fixable, Severity
from ..codes import Rule
from ..context import FileContext, ancestors, walk_scope
from ..index import SAVE_CALLS, callee, pending
from ..names import dotted, last_name
from ..semantics import contains_rank, is_distributed_scope, rank_exit_before, rank_guard, scope_calls, scope_of

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL301 = Rule(
    "PDL301", "state-dict-load-unchecked", CauseId.state_dict_prefix_mismatch,
    "The result of set_state_dict()/set_dict()/load_dict() (missing and unexpected keys) is ignored: a mismatch only warns and keeps random weights.",
    fix='Keep the result: `missing, unexpected = layer.set_state_dict(sd)` and raise if either is non-empty.',
    wrong="""\
model.set_state_dict(paddle.load("model.pdparams"))""",
    right="""\
missing, unexpected = model.set_state_dict(paddle.load("model.pdparams"))
if missing or unexpected:
    raise RuntimeError(f"missing {missing[:5]}, unexpected {unexpected[:5]}")""",
    default=False,  # checkpoint hygiene, not a distributed bug: 0 of 21 strictly true on 4 suites (bench/RESULTS.md)
    check=CHECK,
)

PDL302 = Rule(
    "PDL302", "wrapper-state-dict-saved", CauseId.state_dict_prefix_mismatch,
    "The state dict of a fleet.distributed_model() wrapper, or named_parameters(), is saved: keys carry a `_layers.` prefix (or lack the buffers) a bare model does not match.",
    fix='Save the bare model: `model._layers.state_dict()`.',
    wrong="""\
model = fleet.distributed_model(net)
paddle.save(model.state_dict(), "model.pdparams")""",
    right="""\
model = fleet.distributed_model(net)
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
dist.init_parallel_env()
...
paddle.save(model.state_dict(), "model.pdparams")""",
    right="""\
dist.init_parallel_env()
...
if dist.get_rank() == 0:
    paddle.save(model.state_dict(), "model.pdparams")""",
    fixable=Fixable.UNSAFE,
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL301, PDL302, PDL303)

TRIGGERS = ("set_state_dict", "set_dict", "load_dict", "save")
LOADERS = frozenset({"set_state_dict", "set_dict", "load_dict"})
# fleet.distributed_model() returns a MetaParallelBase (tensor/pipeline/sharding parallel) whose
# state_dict() is Layer's: keys gain `_layers.`. paddle.DataParallel.state_dict() delegates to the
# wrapped layer (2.4.2 fluid/dygraph/parallel.py:829, 3.3.1 distributed/parallel.py:642): no prefix.
WRAPPERS = frozenset({"distributed_model"})
# Optimizers, schedulers and scalers return nothing from set_state_dict: nothing to check there.
_NOT_A_LAYER = ("opt", "sched", "lr", "scaler", "sampler", "state", "loss")  # a loss takes the net's dict on purpose
_KEY_CHECK_WORDS = ("missing", "unexpected", "mismatch", "unmatched", "incorrect", "match_state_dict")
_READERS = ("load", "read")  # paddle.load, load_state_dict, safe_load, load_file, read_checkpoint...
_TRACE_DEPTH = 3


def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        name = last_name(call.func)
        if name in LOADERS and isinstance(call.func, ast.Attribute):
            _check_unchecked_load(ctx, call)
        elif name == "save" and ctx.imports.qualname(call.func) in SAVE_CALLS:
            if "jit" not in ctx.imports.qualname(call.func):
                _check_wrapper_save(ctx, call)
            _check_every_rank_save(ctx, call)
        elif name and any(w in name.lower() for w in _HELPER_WORDS):
            _check_helper_save(ctx, call)


def _check_unchecked_load(ctx: FileContext, call: ast.Call) -> None:
    """PDL301: ``layer.set_state_dict(sd)`` as a bare statement, with no key check nearby."""
    if not isinstance(getattr(call, "_pd_parent", None), ast.Expr) or not call.args:
        return
    receiver = (dotted(call.func.value) or "").rsplit(".", 1)[-1].lower()
    if not receiver or any(word in receiver for word in _NOT_A_LAYER):
        return
    if isinstance(call.func.value, ast.Name) and call.func.value.id in ctx.imports.aliases:
        return  # a module's function (``utils.set_state_dict``), not a layer's method
    if _own_method(call):
        return  # ``self.set_state_dict`` of a class that defines it (an updater, a trainer): its own API
    scope = scope_of(call)
    if not _from_disk(ctx, scope, call.args[0], _TRACE_DEPTH) or _checks_keys(ctx, scope):
        return
    ctx.report(PDL301, call,
               f"the result of `{ast.unparse(call.func)}(...)` is ignored: missing or unexpected keys only warn "
               "(`Skip loading for ...`) and the layer keeps its random weights",
               why="the (missing, unexpected) result is dropped and the function compares no keys",
               confidence="medium")


def _own_method(call: ast.Call) -> bool:
    if not (isinstance(call.func.value, ast.Name) and call.func.value.id == "self"):
        return False
    for anc in ancestors(call):
        if isinstance(anc, ast.ClassDef):
            return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == call.func.attr
                       for n in anc.body)
    return False


def _from_disk(ctx: FileContext, scope: ast.AST, value: ast.AST, depth: int) -> bool:
    """The loaded dict comes from a file (a ``*load*`` call), not from another layer's own state."""
    if depth < 0:
        return False
    if isinstance(value, ast.Subscript):
        return _from_disk(ctx, scope, value.value, depth)
    if isinstance(value, ast.Call):
        name = (last_name(value.func) or "").lower()
        if name in ("state_dict", "apply", "deepcopy", "copy"):
            return False
        return any(word in name for word in _READERS)
    if not isinstance(value, ast.Name):
        return False
    for node in walk_scope(scope.body if hasattr(scope, "body") else []):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets):
            if _from_disk(ctx, scope, node.value, depth - 1):
                return True
    return False


def _checks_keys(ctx: FileContext, scope: ast.AST) -> bool:
    """The function compares keys itself (a matcher, a missing-keys list): the load is checked."""
    body = scope.body if hasattr(scope, "body") else []
    for node in walk_scope(body):
        word = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if word and any(w in word.lower() for w in _KEY_CHECK_WORDS):
            return True
        if isinstance(node, ast.Call) and _is_key_checker(last_name(node.func) or ""):
            return True
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            right = node.comparators[-1]
            if isinstance(right, ast.Call) and last_name(right.func) == "keys":
                return True
        if isinstance(node, ast.For) and _mentions_call(node.iter, "state_dict") and any(
                isinstance(c, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in c.ops)
                for c in walk_scope(node.body)):
            return True  # walks the model's own keys and looks each one up
    return False


def _is_key_checker(name: str) -> bool:
    """``check_keys``, ``validate_state_dict_keys``, ``compare_keys``: a helper that checks keys."""
    lowered = name.lower()
    return ("key" in lowered or "state_dict" in lowered) and any(
        w in lowered for w in ("check", "compare", "valid", "verify", "assert"))


def _mentions_call(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and last_name(n.func) == name for n in ast.walk(node))


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
    if any(_rank_specific(ctx, scope, a, depth=3) for a in (*call.args, *(k.value for k in call.keywords))):
        return
    ctx.report(PDL303, call,
               f"every rank runs `{ast.unparse(call.func)}(...)`, which writes a checkpoint with `paddle.save`/"
               "`paddle.jit.save` to a path that does not hold the rank: concurrent writers corrupt it; call it "
               "on one rank", why=f"`{name}` saves on every rank that calls it; this function sets up data "
               "parallelism and the call is under no rank test", facts=pending("if_saver", name))


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
    names = {n.id for n in ast.walk(path) if isinstance(n, ast.Name)}
    for node in walk_scope(scope.body if hasattr(scope, "body") else []):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            if _rank_specific(ctx, scope, node.value, depth - 1):
                return True
    return False


def _path_mentions_rank(path: ast.AST) -> bool:
    return any(isinstance(n, (ast.Name, ast.Attribute)) and "rank" in (last_name(n) or "").lower()
               for n in ast.walk(path))
