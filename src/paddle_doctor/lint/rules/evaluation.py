"""PDL401, PDL402, PDL405: evaluation over a DistributedBatchSampler that silently gives a wrong number
(samples dropped, a rank-local metric, padded duplicates scored). PDL403/PDL404 are in ``eval_mode``."""

from __future__ import annotations

import ast

from ...catalog.ids import CauseId
from ...findings import Fixable, Severity
from ..codes import Rule
from ..context import FUNCS, FileContext, walk_scope
from ..index import pending
from ..names import dotted, last_name
from . import accumulators
from ..semantics import (callers, collective_name, collectives_in, contains_rank, enclosing_function, is_eval_name,
                         is_under, loader_batching, scope_calls, scope_of)

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL401 = Rule(
    "PDL401", "eval-sampler-drop-last", CauseId.eval_samples_dropped,
    "An evaluation DistributedBatchSampler has drop_last=True: real samples are silently left out of the metric.",
    fix='Use drop_last=False and count each sample once (paddle_doctor.evaluate() is exact).',
    wrong="""\
from paddle.io import DistributedBatchSampler

eval_sampler = DistributedBatchSampler(eval_ds, batch_size=32, drop_last=True)""",
    right="""\
from paddle.io import DistributedBatchSampler

eval_sampler = DistributedBatchSampler(eval_ds, batch_size=32, drop_last=False)
# the padding repeats up to world_size - 1 samples: count by sample id,
# or use paddle_doctor.evaluate(), which is exact""",
    fixable=Fixable.UNSAFE,
    check=CHECK,
)

PDL402 = Rule(
    "PDL402", "rank-local-metric", CauseId.rank_local_metric,
    "An evaluation over a DistributedBatchSampler accumulates its metric per rank and reports it with no all_reduce/all_gather.",
    fix="all_reduce the metric's sufficient statistics (sums and counts) before reporting, or use paddle_doctor.evaluate().",
    wrong="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler


def evaluate(model, eval_ds):
    sampler = DistributedBatchSampler(eval_ds, batch_size=32)
    correct = 0
    for x, y in DataLoader(eval_ds, batch_sampler=sampler):
        correct += (model(x).argmax(1) == y).sum().item()
    if dist.get_rank() == 0:
        print(correct / len(eval_ds))   # rank 0's shard only""",
    right="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

stats = paddle.to_tensor([correct, seen])
dist.all_reduce(stats)
if dist.get_rank() == 0:
    print((stats[0] / stats[1]).item())""",
    check=CHECK,
)

PDL405 = Rule(
    "PDL405", "eval-padded-samples-counted", CauseId.eval_samples_duplicated,
    "Per-sample results of an evaluation DistributedBatchSampler (drop_last=False) are all_gathered and scored without removing the padding: up to world_size - 1 samples count twice.",
    fix="Keep the first len(dataset) gathered results (the sampler pads by repeating the first samples), or use paddle_doctor.evaluate(), which is exact.",
    wrong="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler


def evaluate(model, eval_ds, metric):
    sampler = DistributedBatchSampler(eval_ds, batch_size=32)
    preds = []
    for x, y in DataLoader(eval_ds, batch_sampler=sampler):
        out = []
        dist.all_gather(out, model(x))
        preds.extend(out)
    return metric(preds)                # the padded duplicates are scored too""",
    right="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler


def evaluate(model, eval_ds, metric):
    sampler = DistributedBatchSampler(eval_ds, batch_size=32)
    preds = []
    for x, y in DataLoader(eval_ds, batch_sampler=sampler):
        out = []
        dist.all_gather(out, model(x))
        preds.extend(out)
    return metric(preds[:len(eval_ds)])  # drop the padding""",
    severity=Severity.WARNING,
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL401, PDL402, PDL405)

TRIGGERS = ("DistributedBatchSampler", "eval", "val", "test")


def may_report(text: str) -> bool:
    """Whether PDL401/402/405 could report on this file (if not, it is not even parsed): each starts
    from a call named ``DistributedBatchSampler``."""
    return "DistributedBatchSampler" in text
NO_GRAD = frozenset({"no_grad", "inference_mode"})  # the context managers that turn gradients off
_REPORTERS = frozenset({"print", "info", "log", "warning", "write", "add_scalar", "log_metrics"})


def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        if last_name(call.func) == "DistributedBatchSampler":
            _check_drop_last(ctx, call)
    for scope in _sharded_scopes(ctx):
        _check_rank_local_metric(ctx, scope)
        _check_padded_gather(ctx, scope)


def _check_drop_last(ctx: FileContext, call: ast.Call) -> None:
    """PDL401: an evaluation sampler that drops real samples."""
    flag = _argument(call, "drop_last", 5)
    value = _constant_value(ctx, call, flag)
    if value is not True or _one_per_batch(ctx, call) or not _is_eval_sampler(ctx, call):
        return
    through = "" if isinstance(flag, ast.Constant) else f" (`{ast.unparse(flag)}` is True here)"
    ctx.report(PDL401, flag,
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
    for loop in (n for n in walk_scope(scope.body) if isinstance(n, (ast.For, ast.AsyncFor))
                 and scope_of(n) is scope):  # a module's loops, not those of its functions
        accumulated, foreign = accumulators.accumulated(ctx, scope, loop)
        if not accumulated:
            continue
        report = _reported_after(ctx, scope, loop, accumulated)
        if isinstance(report, ast.Return) and _returns_raw(report, accumulated):
            continue  # the per-rank sums themselves, handed to the caller to reduce
        facts = pending("unless_caller_reduces", scope.name) if isinstance(report, ast.Return) and isinstance(
            scope, FUNCS) else None  # dropped if every caller in the package runs a collective
        if facts is None and foreign:
            facts = pending("if_metric_class", foreign)  # kept if that class (another module) stays per rank
        if report is not None:
            names = ", ".join(sorted(accumulated))
            ctx.report(PDL402, report,
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
    loops = _loops_in(scope)
    # per-batch results gathered in the loop, or the lists a loop over the padding sampler's loader grew, gathered once
    # after it
    grown = set().union(*(accumulators.accumulated(ctx, scope, loop)[0] for loop in loops
                          if isinstance(loop, ast.For) and loader_batching(ctx, loop) == "distributed"))
    gathers = sorted((c for c in scope_calls(ctx, scope) if last_name(c.func) in ("all_gather", "all_gather_object")
                      and collective_name(ctx, c) and (any(is_under(c, loop) for loop in loops)
                                                       or any(_uses(arg, grown) for arg in c.args[1:2]))),
                     key=lambda c: (c.lineno, c.col_offset))
    if not gathers and not _trims(scope):
        _check_padded_sum(ctx, scope)
    if gathers and not _trims(scope):
        ctx.report(PDL405, gathers[0],
                   "per-batch results are all_gathered over a DistributedBatchSampler that pads with repeated "
                   "samples (drop_last=False), and nothing cuts them back to len(dataset): the padded "
                   "duplicates are scored too", why="all_gather of per-batch results; no slice and no len() of the dataset",
                   confidence="medium")


def _check_padded_sum(ctx: FileContext, scope: ast.AST) -> None:
    """PDL405, summed: per-rank counts (``correct += ...``, ``total += len(y)``) all_reduced over a
    padding sampler count its repeated samples on two ranks (``total`` ends above len(dataset))."""
    for loop in (n for n in _loops_in(scope) if isinstance(n, (ast.For, ast.AsyncFor)) and scope_of(n) is scope):
        summed = {n for n in accumulators.accumulated(ctx, scope, loop)[0] if not n.startswith("self.")} or None
        reduce = summed and next((c for c in scope_calls(ctx, scope) if last_name(c.func) == "all_reduce"
                                  and collective_name(ctx, c) and c.lineno > loop.lineno
                                  and _built_from(scope, c.args[0] if c.args else None, summed)), None)
        if reduce:
            ctx.report(PDL405, reduce,
                       f"`{', '.join(sorted(summed))}` summed over a DistributedBatchSampler that pads with repeated "
                       "samples (drop_last=False) and all_reduced: up to world_size - 1 samples are counted twice, "
                       "and nothing compares the total with len(dataset)",
                       why="an all_reduce of per-rank sums; no slice and no len() of the dataset", confidence="medium")
            return


def _built_from(scope: ast.AST, value: ast.AST | None, names: set[str]) -> bool:
    """``value`` mentions an accumulated name, directly or through one assignment in the scope."""
    if value is None:
        return False
    if _uses(value, names):
        return True
    wanted = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
    return any(isinstance(node, ast.Assign) and _uses(node.value, names)
               and any(isinstance(t, ast.Name) and t.id in wanted for t in node.targets)
               for node in walk_scope(scope.body))


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
        if name in NO_GRAD or (name == "eval" and not call.args and isinstance(call.func, ast.Attribute)):
            return True
    return False


def _syncs_elsewhere(ctx: FileContext, scope: ast.AST) -> bool:
    """A call to a helper whose name says it syncs (``sync_metrics``, ``gather_all``): trust it."""
    return any(any(w in (last_name(c.func) or "").lower() for w in ("reduce", "gather", "sync"))
               for c in scope_calls(ctx, scope))


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
