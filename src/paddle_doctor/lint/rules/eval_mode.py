"""PDL403, PDL404: an evaluation loop that runs the model with gradients on, or in training mode."""

from __future__ import annotations

import ast
import re
import unicodedata

from ...catalog.ids import CauseId
from ...findings import Severity
from ..codes import Rule
from ..context import FileContext, ancestors, walk_scope
from ..names import dotted, last_name
from ..semantics import EVAL_WORDS, MODEL_NAMES, callers, enclosing_function, is_eval_name, model_like, scope_calls, scope_of
from .evaluation import NO_GRAD as _NO_GRAD, TRIGGERS  # the PDL4xx family's words

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL403 = Rule(
    "PDL403", "eval-loop-without-no-grad", CauseId.gpu_oom,
    "An evaluation loop runs the model outside paddle.no_grad(): every batch keeps its autograd graph and memory.",
    fix='Run the loop under `with paddle.no_grad():` or decorate the function with `@paddle.no_grad()`.',
    wrong="""\
import paddle


def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)


evaluate(build_model(), val_loader)  # the caller is in this file: nothing else sets it""",
    right="""\
import paddle


@paddle.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)


evaluate(build_model(), val_loader)  # the caller is in this file: nothing else sets it""",
    severity=Severity.WARNING,
    check=CHECK,
)

PDL404 = Rule(
    "PDL404", "eval-loop-without-eval-mode", CauseId.model_not_in_eval_mode,
    "An evaluation loop runs the model without model.eval(): dropout and batch norm stay in training mode.",
    fix='Call `model.eval()` before the loop (and `model.train()` after, if training continues).',
    wrong="""\
import paddle


@paddle.no_grad()
def evaluate(model, loader):
    for x, y in loader:
        out = model(x)


evaluate(build_model(), val_loader)  # the caller is in this file: nothing else sets it""",
    right="""\
import paddle


@paddle.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)


evaluate(build_model(), val_loader)  # the caller is in this file: nothing else sets it""",
    severity=Severity.WARNING,
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL403, PDL404)

_CALLER_DEPTH = 3
# The statements PDL403/404 start from: a function whose name holds an evaluation word (its loops),
# or a loop whose header does (a script's module-level loop). Both begin a logical line: the head is
# matched at the start of the line that holds a `def`/`for`, found with str.find (one regex tried at
# every line start was a twelfth of a cold run's CPU).
_HEAD = re.compile(r"[ \t\f]*(?:async[\s\\]+)?(?:def[\s\\]+(\w+)|for\b([^:]*))")
_LETTERS = re.compile(r"[a-z]+")  # semantics.is_eval_name's words
_MODEL_WORDS = ("model", *MODEL_NAMES)  # one of them is in every name model_like accepts


def may_report(text: str) -> bool:
    """Whether PDL403/404 could report on this file (if not, it is not even parsed): both report a call
    of a model (semantics.model_like: a name holding ``model``, or ``net``, ``network``, ``ema``) in a
    loop, and start from a line that begins with a ``def`` or a ``for`` header holding one of
    :data:`EVAL_WORDS` as is_eval_name splits words (identifiers are NFKC-normalised by Python's
    parser: so is the text when it is not already)."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text):
        text = unicodedata.normalize("NFKC", text)
    lowered = text.lower()
    return any(word in lowered for word in _MODEL_WORDS) and any(_eval_head_at(lowered, kw) for kw in ("def", "for"))


def _eval_head_at(lowered: str, keyword: str) -> bool:
    """A line holding ``keyword`` starts with a head whose words hold an evaluation word (every head
    is found: between its line's start and its keyword there is only blank space or ``async``)."""
    at = lowered.find(keyword)
    while at >= 0:
        head = _HEAD.match(lowered, lowered.rfind("\n", 0, at) + 1)
        if head is not None and any(word in EVAL_WORDS for word in _LETTERS.findall(head[1] or head[2])):
            return True
        at = lowered.find(keyword, at + len(keyword))
    return False


def check(ctx: FileContext) -> None:
    for loop in ctx.loops:
        _check_eval_loop(ctx, loop)


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
        ctx.report(PDL403, model_call,
                   f"`{model}` runs in an evaluation loop outside `paddle.no_grad()`: each batch keeps its "
                   "autograd graph (memory grows with the batch and the model)",
                   why=guard[2], confidence="medium")
    if not guard[1]:
        ctx.report(PDL404, model_call,
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
        ctx.report(PDL403, model_call, f"`{model}` runs in an evaluation loop outside `paddle.no_grad()`: each "
                   "batch keeps its autograd graph (memory grows with the batch and the model)", why=why)
    if not any(_is_eval_call(c) for c in before):
        ctx.report(PDL404, model_call, f"`{model}` runs in an evaluation loop without "
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
