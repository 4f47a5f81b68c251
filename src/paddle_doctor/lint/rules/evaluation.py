"""PDL4xx: evaluation that silently gives a wrong number (or runs out of memory)."""

from __future__ import annotations

import ast

from ..context import FUNCS, FileContext, ancestors, walk_scope
from ..index import pending
from ..names import dotted, last_name
from ..semantics import (callers, collective_name, collectives_in, contains_rank, enclosing_function, is_eval_name,
                         is_under, model_like, scope_calls, scope_of)

TRIGGERS = ("DistributedBatchSampler", "eval", "val", "test")
_NO_GRAD = frozenset({"no_grad", "inference_mode"})
_REPORTERS = frozenset({"print", "info", "log", "warning", "write", "add_scalar", "log_metrics"})
_CALLER_DEPTH = 3


def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        if last_name(call.func) == "DistributedBatchSampler":
            _check_drop_last(ctx, call)
    for scope in _sharded_scopes(ctx):
        _check_rank_local_metric(ctx, scope)
        _check_padded_gather(ctx, scope)
    for loop in ctx.loops:
        _check_eval_loop(ctx, loop)


def _check_drop_last(ctx: FileContext, call: ast.Call) -> None:
    """PDL401: an evaluation sampler that drops real samples."""
    flag = _argument(call, "drop_last", 5)
    value = _constant_value(ctx, call, flag)
    if value is not True or _one_per_batch(ctx, call) or not _is_eval_sampler(ctx, call):
        return
    through = "" if isinstance(flag, ast.Constant) else f" (`{ast.unparse(flag)}` is True here)"
    ctx.report("PDL401", flag,
               f"this evaluation DistributedBatchSampler has drop_last=True{through}: the samples of the last, "
               "short batch are never evaluated and the metric covers a subset",
               why="drop_last=True on a sampler named or used for evaluation",
               edits=(ctx.edit(flag, "False"),) if isinstance(flag, ast.Constant) else ())


def _argument(call: ast.Call, name: str, position: int) -> ast.AST | None:
    """DistributedBatchSampler(dataset, batch_size, num_replicas, rank, shuffle, drop_last)."""
    value = next((k.value for k in call.keywords if k.arg == name), None)
    return call.args[position] if value is None and len(call.args) > position else value


def _constant_value(ctx: FileContext, call: ast.Call, node: ast.AST | None):
    """The constant a flag holds: a literal, or a name assigned one constant (and nothing else) in the
    enclosing function, or a parameter whose default is that constant when no caller in the file
    passes arguments to the function. None when unknown."""
    if isinstance(node, ast.Constant):
        return node.value
    if not isinstance(node, ast.Name):
        return None
    scope = scope_of(call)
    values = set()
    for stmt in walk_scope(scope.body if hasattr(scope, "body") else []):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, (ast.AugAssign, ast.AnnAssign)) else []
        if any(isinstance(t, ast.Name) and t.id == node.id for t in targets):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)):
                return None  # assigned something computed
            values.add(stmt.value.value)
    if isinstance(scope, FUNCS) and not values:
        default = _parameter_default(scope, node.id)
        if default is not None:
            return default.value if isinstance(default, ast.Constant) and not callers(ctx, scope) else None
    return values.pop() if len(values) == 1 else None


def _parameter_default(func, name: str) -> ast.AST | None:
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([a.arg for a in positional][len(positional) - len(args.defaults):], args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    if name in defaults:
        return defaults[name]
    return ast.Name(id=name) if name in {a.arg for a in (*positional, *args.kwonlyargs)} else None


def _one_per_batch(ctx: FileContext, call: ast.Call) -> bool:
    """batch_size=1: every batch is full, drop_last drops nothing."""
    return _constant_value(ctx, call, _argument(call, "batch_size", 1)) == 1


def _is_eval_sampler(ctx: FileContext, call: ast.Call) -> bool:
    """The sampler's own names (its variable, its dataset) decide; the function's name only when they
    say nothing: a ``train_sampler`` in ``def train_and_val()`` is a training sampler."""
    parent = getattr(call, "_pd_parent", None)
    names = [ast.unparse(t) for t in parent.targets] if isinstance(parent, ast.Assign) else []
    if call.args:
        names.append(ast.unparse(call.args[0]))
    names += [ast.unparse(k.value) for k in call.keywords if k.arg == "dataset"]
    if any(_is_train_name(n) for n in names) or _constant_value(ctx, call, _argument(call, "shuffle", 4)) is True:
        return False  # a training sampler (shuffled, or named for training)
    if any(is_eval_name(n) for n in names):
        return True
    func = enclosing_function(call)
    return func is not None and (is_eval_name(func.name) or _built_for_eval(ctx, func))


def _built_for_eval(ctx: FileContext, func) -> bool:
    """A sampler built in a helper (``make_sampler(ds)``) that a caller uses for evaluation: the
    caller passes an eval-named dataset, or assigns the result to an eval-named variable."""
    for use in callers(ctx, func):
        parent = getattr(use, "_pd_parent", None)
        names = [ast.unparse(a) for a in (*use.args, *(k.value for k in use.keywords))]
        names += [ast.unparse(t) for t in parent.targets] if isinstance(parent, ast.Assign) else []
        if any(is_eval_name(n) for n in names) and not any(_is_train_name(n) for n in names):
            return True
    return False


def _is_train_name(name: str) -> bool:
    return "train" in name.lower()


def _sharded_scopes(ctx: FileContext):
    seen = set()
    for call in ctx.calls:
        if last_name(call.func) == "DistributedBatchSampler":
            scope = scope_of(call)
            if id(scope) not in seen:
                seen.add(id(scope))
                yield scope


def _check_rank_local_metric(ctx: FileContext, scope: ast.AST) -> None:
    """PDL402: a metric summed over this rank's shard and reported without a collective."""
    if not _is_eval_scope(ctx, scope) or collectives_in(ctx, scope.body) or _syncs_elsewhere(ctx, scope):
        return
    for loop in (n for n in walk_scope(scope.body) if isinstance(n, (ast.For, ast.AsyncFor))):
        accumulated = _accumulated(loop)
        if not accumulated:
            continue
        report = _reported_after(ctx, scope, loop, accumulated)
        if isinstance(report, ast.Return) and _returns_raw(report, accumulated):
            continue  # the per-rank sums themselves, handed to the caller to reduce
        facts = pending("unless_caller_reduces", scope.name) if isinstance(report, ast.Return) and isinstance(
            scope, FUNCS) else None  # dropped if every caller in the package runs a collective
        if report is not None:
            names = ", ".join(sorted(accumulated))
            ctx.report("PDL402", report,
                       f"`{names}` is accumulated over this rank's DistributedBatchSampler shard and reported "
                       "without all_reduce/all_gather: the number covers 1/world_size of the data",
                       why=f"accumulated in the loop on line {loop.lineno}; no collective in this scope",
                       facts=facts)
            return


def _check_padded_gather(ctx: FileContext, scope: ast.AST) -> None:
    """PDL405: all_gather of per-batch results over a padding eval sampler, never cut to the dataset's
    length. DistributedBatchSampler pads the index list to a multiple of world_size by repeating its
    first indices, so the gathered list holds up to world_size - 1 duplicates."""
    samplers = [c for c in scope_calls(ctx, scope) if last_name(c.func) == "DistributedBatchSampler"]
    if not samplers or not _is_eval_scope(ctx, scope) or any(
            _constant_value(ctx, c, _argument(c, "drop_last", 5)) is True for c in samplers):
        return
    gathers = sorted((c for c in scope_calls(ctx, scope) if last_name(c.func) in ("all_gather", "all_gather_object")
               and collective_name(ctx, c) and any(is_under(c, loop) for loop in _loops_in(scope))),
                     key=lambda c: (c.lineno, c.col_offset))
    if gathers and not _trims(scope):
        ctx.report("PDL405", gathers[0],
                   "per-batch results are all_gathered over a DistributedBatchSampler that pads with repeated "
                   "samples (drop_last=False), and nothing cuts them back to len(dataset): the padded "
                   "duplicates are scored too", why="all_gather in the loop; no slice and no len() of the dataset",
                   confidence="medium")


def _loops_in(scope: ast.AST):
    return [n for n in walk_scope(scope.body) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]


def _trims(scope: ast.AST) -> bool:
    """The function cuts the gathered results (``[:n]``, ``[:valid]``) or counts ``len(dataset)``."""
    for node in walk_scope(scope.body):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.upper is not None:
            return True
        if isinstance(node, ast.Call) and last_name(node.func) == "len" and node.args and any(
                w in ast.unparse(node.args[0]).lower() for w in ("dataset", "_ds", "data")):
            return True
    return False


def _is_eval_scope(ctx: FileContext, scope: ast.AST) -> bool:
    if isinstance(scope, FUNCS) and is_eval_name(scope.name, function=True):
        return True
    for call in scope_calls(ctx, scope):
        name = last_name(call.func)
        if name in _NO_GRAD or (name == "eval" and not call.args and isinstance(call.func, ast.Attribute)):
            return True
    return False


def _syncs_elsewhere(ctx: FileContext, scope: ast.AST) -> bool:
    """A call to a helper whose name says it syncs (``sync_metrics``, ``gather_all``): trust it."""
    return any(any(w in (last_name(c.func) or "").lower() for w in ("reduce", "gather", "sync"))
               for c in scope_calls(ctx, scope))


def _accumulated(loop: ast.For) -> set[str]:
    names = set()
    for node in walk_scope(loop.body):
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add) and dotted(node.target):
            names.add(dotted(node.target))  # `correct += ...` and `self.correct += ...` (a metric on self)
        elif isinstance(node, ast.Call) and last_name(node.func) == "update" and isinstance(node.func, ast.Attribute):
            owner = dotted(node.func.value)
            if owner and ("metric" in owner.lower() or "acc" in owner.lower()):
                names.add(owner)
    return names


def _reported_after(ctx: FileContext, scope: ast.AST, loop: ast.For, names: set[str]) -> ast.AST | None:
    """The first print/log/return after the loop that uses an accumulated value (or one derived from it)."""
    names = set(names)
    after = sorted((n for n in walk_scope(scope.body) if getattr(n, "lineno", 0) > (loop.end_lineno or loop.lineno)
                    and isinstance(n, (ast.Assign, ast.Return, ast.Call))), key=lambda n: (n.lineno, n.col_offset))
    for node in after:
        if isinstance(node, ast.Assign):
            if _uses(node.value, names):  # accuracy = total_correct / total_samples
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            continue
        is_report = isinstance(node, ast.Return) or last_name(node.func) in _REPORTERS
        if is_report and _uses(node, names):
            # a report that names its rank ("rank 1: acc 0.93") is per rank on purpose
            return None if isinstance(node, ast.Call) and contains_rank(ctx, node) else node
    return None


def _returns_raw(ret: ast.Return, accumulated: set[str]) -> bool:
    """``return correct, total``: the sufficient statistics themselves, for the caller to reduce
    (a metric would be derived from them: ``return correct / total``)."""
    items = ret.value.elts if isinstance(ret.value, (ast.Tuple, ast.List)) else [ret.value]
    return bool(items) and all(dotted(i) in accumulated for i in items if i is not None)


def _uses(node: ast.AST, names: set[str]) -> bool:
    for sub in ast.walk(node):
        text = dotted(sub) if isinstance(sub, (ast.Name, ast.Attribute)) else None
        if text and (text in names or any(text.startswith(n + ".") for n in names)):
            return True
    return False


def _check_eval_loop(ctx: FileContext, loop: ast.For) -> None:
    """PDL403/PDL404: an evaluation loop that runs the model with grads on, or in training mode."""
    func = enclosing_function(loop)
    if func is None:
        _check_script_loop(ctx, loop)
        return
    if not is_eval_name(func.name, function=True):
        return
    model_call = _model_call(ctx, loop)
    if model_call is None:
        return
    model = model_like(model_call.func, ctx)
    guard = _guards(ctx, func, depth=0, seen=set())
    if guard is None:
        return  # callers unknown (another file may set both): do not guess
    grads_off = guard[0] or any(_under_no_grad(ctx, a) for a in ancestors(model_call))  # also in the body
    if not grads_off:
        ctx.report("PDL403", model_call,
                   f"`{model}` runs in an evaluation loop outside `paddle.no_grad()`: each batch keeps its "
                   "autograd graph (memory grows with the batch and the model)",
                   why=guard[2], confidence="medium")
    if not guard[1]:
        ctx.report("PDL404", model_call,
                   f"`{model}` runs in an evaluation loop without `{model.split('.')[-1]}.eval()`: dropout and "
                   "batch norm stay in training mode and the metric is wrong",
                   why=guard[2], confidence="medium")


_TRAINING = frozenset({"backward", "run", "step", "minimize", "grad"})


def _check_script_loop(ctx: FileContext, loop: ast.For) -> None:
    """A module-level loop over an evaluation loader (``for x, y in eval_loader:``) in a script."""
    target = loop.iter.args[0] if isinstance(loop.iter, ast.Call) and loop.iter.args else loop.iter
    if not is_eval_name(dotted(target)) or scope_of(loop) is not ctx.tree:
        return
    model_call = _model_call(ctx, loop)
    if model_call is None:
        return
    model = model_like(model_call.func, ctx)
    before = [c for c in scope_calls(ctx, ctx.tree) if c.lineno < loop.lineno]
    why = "a module-level loop over an evaluation loader"
    if not any(_under_no_grad(ctx, a) for a in ancestors(model_call)) and not any(
            last_name(c.func) == "set_grad_enabled" for c in before):
        ctx.report("PDL403", model_call, f"`{model}` runs in an evaluation loop outside `paddle.no_grad()`: each "
                   "batch keeps its autograd graph (memory grows with the batch and the model)", why=why)
    if not any(_is_eval_call(c) for c in before):
        ctx.report("PDL404", model_call, f"`{model}` runs in an evaluation loop without "
                   f"`{model.split('.')[-1]}.eval()` before it: dropout and batch norm stay in training mode", why=why)


def _training_helpers(ctx: FileContext) -> frozenset[str]:
    """Functions of this file that take a gradient step (``inner_adapt`` of meta-learning)."""
    if "training_helpers" not in ctx.cache:
        ctx.cache["training_helpers"] = frozenset(
            f.name for f in ctx.functions if any(isinstance(n, ast.Call) and last_name(n.func) in ("backward", "minimize")
                                                 for n in walk_scope(f.body)))
    return ctx.cache["training_helpers"]


def _model_call(ctx: FileContext, loop: ast.For) -> ast.Call | None:
    calls = sorted((n for n in walk_scope(loop.body) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
    trains = _training_helpers(ctx)
    if any(last_name(c.func) in _TRAINING or last_name(c.func) in trains for c in calls):
        return None  # training (or meta-learning adaptation), or a static-graph executor (no autograd tape)
    return next((c for c in calls if model_like(c.func, ctx)), None)


def _guards(ctx: FileContext, func, depth: int, seen: set) -> tuple[bool, bool, str] | None:
    """(grads off, eval mode set, why) for ``func`` and its callers in this file; None if unknown."""
    no_grad = any(last_name(d) in _NO_GRAD for d in func.decorator_list) or _sets_grad_off(ctx, func)
    eval_mode = _sets_eval(ctx, func)
    if no_grad and eval_mode:
        return True, True, ""
    model_is_local = _model_is_local(func)
    calls = [c for c in callers(ctx, func) if c is not None]
    if not calls:
        return (no_grad, eval_mode, "the model is built in this function") if model_is_local else None
    if depth >= _CALLER_DEPTH or id(func) in seen:
        return None
    seen.add(id(func))
    for call in calls:
        if not no_grad and any(_under_no_grad(ctx, a) for a in ancestors(call)):
            no_grad = True
        outer = enclosing_function(call)
        outer_guard = _guards(ctx, outer, depth + 1, seen) if outer is not None else (
            _module_guard(ctx, call))
        if outer_guard is None:
            return None
        no_grad, eval_mode = no_grad or outer_guard[0], eval_mode or outer_guard[1]
    return no_grad, eval_mode, f"neither `{func.name}` nor its callers in this file set it"


def _module_guard(ctx: FileContext, call: ast.Call) -> tuple[bool, bool, str]:
    calls = scope_calls(ctx, ctx.tree)
    return (any(last_name(c.func) == "set_grad_enabled" for c in calls),
            any(_is_eval_call(c) for c in calls), "")


def _sets_grad_off(ctx: FileContext, func) -> bool:
    return any(last_name(c.func) == "set_grad_enabled" for c in scope_calls(ctx, func))


def _sets_eval(ctx: FileContext, func) -> bool:
    return any(_is_eval_call(c) for c in scope_calls(ctx, func))


def _is_eval_call(call: ast.Call) -> bool:
    name = last_name(call.func)
    if not isinstance(call.func, ast.Attribute):
        return False
    if name == "eval" and not call.args:
        return True
    return name == "train" and bool(call.args) and isinstance(call.args[0], ast.Constant) and call.args[0].value is False


def _under_no_grad(ctx: FileContext, node: ast.AST) -> bool:
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(last_name(item.context_expr) in _NO_GRAD or (
            last_name(item.context_expr) == "set_grad_enabled") for item in node.items)
    return False


def _model_is_local(func) -> bool:
    """The evaluated model is built or loaded in ``func`` itself (not a parameter or attribute)."""
    params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    for node in walk_scope(func.body):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and model_like(target) and target.id not in params:
                    return True
    return False
