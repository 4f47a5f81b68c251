"""PDL301: a checkpoint loaded into a layer whose key mismatch would go unseen, where it matters.

``Layer.set_state_dict`` (``set_dict``, ``load_dict``) warns once per process (``Skip loading for
...``), returns ``(missing, unexpected)`` and keeps random weights for every key it could not match:
a `_layers.`/`module.` prefix written by one side and not stripped by the other leaves the whole
model random (seed 001 §3.1). The rule reports such a load when the result is dropped, the dict
comes from a file, the function compares no keys, and the mismatch would matter:

- the model is then evaluated, exported or used for inference in the same function (``model.eval()``,
  ``paddle.jit.to_static(model)``, ``evaluate(model, ...)``, ``model.generate(...)``), in a
  function that does not train it, or by a caller in the same file that gets it back;
- training resumes from it (the optimizer state is restored beside it, or the function or the
  path says ``resume``);
- the receiver is a ``fleet.distributed_model()`` wrapper (its keys need the `_layers.` prefix);
- the call says ``strict=False``.

Silent where the load cannot mismatch or is a warm start by design: a dict built from the model's
own state (an EMA copy, ``load(path, model.state_dict())``), a function that compares keys itself
(a matcher, a ``missing``/``unexpected`` list, ``k in model.state_dict()``), a dict trimmed before
the load (``del sd["fc.weight"]``, ``sd.pop(...)``: a documented partial load), and pretrained
backbones loaded in a constructor or a training function (a partial warm start is expected there).
"""

from __future__ import annotations

import ast
import re

from ...catalog.ids import CauseId
from ..codes import Rule
from ..context import FileContext, ancestors, parent, walk_scope
from ..names import dotted, last_name
from ..semantics import callers, scope_of

CHECK = f"{__name__}:check"

PDL301 = Rule(
    "PDL301", "state-dict-load-unchecked", CauseId.state_dict_prefix_mismatch,
    "A checkpoint is loaded with set_state_dict()/set_dict()/load_dict() and the result (missing and "
    "unexpected keys) is ignored before the model is evaluated, exported or resumed: a mismatch only "
    "warns and keeps random weights.",
    fix="Load with `paddle_doctor.load_clean(model, path)` (aligns `_layers.`/`module.` prefixes, raises on "
        "missing or unexpected keys), or keep `missing, unexpected = model.set_state_dict(sd)` and raise if "
        "either is non-empty.",
    wrong="""\
import paddle
import paddle_doctor

model = build_model()
model.set_state_dict(paddle.load("model.pdparams"))
model.eval()
evaluate(model, val_loader)""",
    right="""\
import paddle
import paddle_doctor

model = build_model()
paddle_doctor.load_clean(model, "model.pdparams")  # raises on missing or unexpected keys
model.eval()
evaluate(model, val_loader)""",
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL301,)

TRIGGERS = ("set_state_dict", "set_dict", "load_dict")
LOADERS = frozenset({"set_state_dict", "set_dict", "load_dict"})
WRAPPERS = frozenset({"distributed_model"})
# Optimizers, schedulers and scalers return nothing from set_state_dict: nothing to check there.
_NOT_A_LAYER = ("opt", "sched", "lr", "scaler", "sampler", "state", "loss")  # a loss takes the net's dict on purpose
_OPTIMIZER = ("opt",)
_KEY_CHECK_WORDS = ("missing", "unexpected", "mismatch", "unmatched", "incorrect", "match_state_dict")
_READERS = ("load", "read")  # paddle.load, load_state_dict, safe_load, load_file, read_checkpoint...
_TRACE_DEPTH = 3
# Words of a call that runs or exports the model (split on `_` and camel case).
_USE_WORDS = frozenset({"eval", "evaluate", "evaluation", "export", "static", "predict", "prediction", "predictor",
                        "infer", "inference", "generate", "test", "val", "validate", "validation", "sensitive"})
_TRAIN_CALLS = frozenset({"backward", "minimize", "clear_grad", "clear_gradients"})
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        if last_name(call.func) in LOADERS and isinstance(call.func, ast.Attribute):
            _check_load(ctx, call)


def _check_load(ctx: FileContext, call: ast.Call) -> None:
    if not isinstance(parent(call), ast.Expr) or not call.args:
        return  # the result is kept (and presumably read), or nothing is loaded
    receiver = dotted(call.func.value) or ""
    tail = receiver.rsplit(".", 1)[-1].lower()
    if not tail or any(word in tail for word in _NOT_A_LAYER):
        return
    if isinstance(call.func.value, ast.Name) and call.func.value.id in ctx.imports.aliases:
        return  # a module's function (``utils.set_state_dict``), not a layer's method
    if _own_method(call):
        return  # ``self.set_state_dict`` of a class that defines it (an updater, a trainer): its own API
    scope = scope_of(call)
    body = scope.body if hasattr(scope, "body") else []
    if not _from_disk(ctx, body, call.args[0], _TRACE_DEPTH) or _checks_keys(body):
        return
    if _trimmed(body, call.args[0]):
        return  # ``del sd["fc.weight"]`` before the load: a partial load on purpose
    why = _why_it_matters(ctx, scope, body, call, receiver)
    if why is None:
        return
    ctx.report(PDL301, call,
               f"the result of `{ast.unparse(call.func)}(...)` is ignored and {why}: missing or unexpected keys "
               "(a `_layers.`/`module.` prefix) only warn (`Skip loading for ...`) and leave random weights; "
               "load with `paddle_doctor.load_clean(model, path)`",
               why=f"the (missing, unexpected) result is dropped, the function compares no keys, and {why}",
               confidence="medium")


def _why_it_matters(ctx: FileContext, scope: ast.AST, body: list, call: ast.Call, receiver: str) -> str | None:
    strict = next((k.value for k in call.keywords if k.arg == "strict"), None)
    if isinstance(strict, ast.Constant) and strict.value is False:
        return "it is called with `strict=False`"
    if _resumes(scope, body, call):
        return "training resumes from this checkpoint"
    root = receiver.split(".", 1)[0]
    if root == "self" or _trains(body):
        return None  # a constructor's or a training function's warm start: a partial load is expected there
    if _wrapped(body, root, call.lineno):
        return f"`{root}` is a `fleet.distributed_model()` wrapper (under hybrid parallelism its keys need a `_layers.` prefix)"
    use = _used(ctx, body, _aliases(body, root)) or _used_by_caller(ctx, scope, body, root)
    if use is not None:
        return f"the model is then run or exported (`{_short(use)}`, line {use.lineno})"
    return None


def _used_by_caller(ctx: FileContext, scope: ast.AST, body: list, root: str) -> ast.Call | None:
    """The function returns the loaded model, and a caller in this file that does not train runs or
    exports what it gets back (``model, loaders = get_model(...)`` then ``evaluate(model, ...)``)."""
    if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or not any(
            isinstance(n, ast.Return) and n.value is not None and any(
                isinstance(v, ast.Name) and v.id == root for v in ast.walk(n.value)) for n in walk_scope(body)):
        return None
    for call in callers(ctx, scope):
        stmt = parent(call)
        outer = scope_of(call)
        outer_body = outer.body if hasattr(outer, "body") else []
        if not isinstance(stmt, ast.Assign) or _trains(outer_body):
            continue
        names = {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        use = _used(ctx, outer_body, names)
        if use is not None:
            return use
    return None


def _short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _own_method(call: ast.Call) -> bool:
    if not (isinstance(call.func.value, ast.Name) and call.func.value.id == "self"):
        return False
    for anc in ancestors(call):
        if isinstance(anc, ast.ClassDef):
            return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == call.func.attr
                       for n in anc.body)
    return False


def _from_disk(ctx: FileContext, body: list, value: ast.AST, depth: int) -> bool:
    """The loaded dict comes from a file (a ``*load*`` call), not from another layer's own state."""
    if depth < 0:
        return False
    if isinstance(value, ast.Subscript):
        return _from_disk(ctx, body, value.value, depth)
    if isinstance(value, ast.Call):
        name = (last_name(value.func) or "").lower()
        if name in ("state_dict", "apply", "deepcopy", "copy"):
            return False
        if any(isinstance(a, ast.Call) and last_name(a.func) == "state_dict" for a in value.args):
            return False  # ``load(path, model.state_dict())``: matched against the model's own keys
        return any(word in name for word in _READERS)
    if not isinstance(value, ast.Name):
        return False
    for node in walk_scope(body):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets):
            if _from_disk(ctx, body, node.value, depth - 1):
                return True
    return False


def _checks_keys(body: list) -> bool:
    """The function compares keys itself (a matcher, a missing-keys list): the load is checked."""
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


def _trimmed(body: list, value: ast.AST) -> bool:
    """Keys are deleted from the loaded dict before the load: a partial load the author chose."""
    while isinstance(value, ast.Subscript):
        value = value.value
    if not isinstance(value, ast.Name):
        return False
    for node in walk_scope(body):
        if isinstance(node, ast.Delete) and any(isinstance(t, ast.Subscript) and _root(t) == value.id
                                                for t in node.targets):
            return True
        if isinstance(node, ast.Call) and last_name(node.func) == "pop" and isinstance(node.func, ast.Attribute) \
                and _root(node.func.value) == value.id:
            return True
    return False


def _root(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _wrapped(body: list, root: str, before: int) -> bool:
    for node in walk_scope(body):
        if isinstance(node, ast.Assign) and node.lineno < before and isinstance(node.value, ast.Call) \
                and last_name(node.value.func) in WRAPPERS \
                and any(isinstance(t, ast.Name) and t.id == root for t in node.targets):
            return True
    return False


def _resumes(scope: ast.AST, body: list, call: ast.Call) -> bool:
    """Training continues from this checkpoint: the optimizer state is restored in the same block,
    or the function or the loaded names say ``resume``."""
    if "resume" in getattr(scope, "name", "").lower():
        return True
    names = {n.id.lower() for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)}
    for _ in range(_TRACE_DEPTH):  # sd <- paddle.load(path) <- os.path.join(resume_dir, ...)
        names |= _assigned_from(body, names)
    if any("resume" in n for n in names):
        return True
    block = _block_of(call)
    for node in walk_scope(block):
        if isinstance(node, ast.Call) and node is not call and last_name(node.func) in LOADERS \
                and any(w in (dotted(node.func.value) or _root(node.func.value) or "").lower() for w in _OPTIMIZER):
            return True
    return False


def _assigned_from(body: list, names: set[str]) -> set[str]:
    """Names and attribute words the given names were assigned from (one step)."""
    out: set[str] = set()
    for node in walk_scope(body):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.lower() in names for t in node.targets):
            out |= {(n.id if isinstance(n, ast.Name) else n.attr).lower() for n in ast.walk(node.value)
                    if isinstance(n, (ast.Name, ast.Attribute))}
    return out


def _block_of(node: ast.AST) -> list:
    """The statement list that holds ``node``'s statement."""
    child = node
    for anc in ancestors(node):
        for field in ("body", "orelse", "finalbody", "handlers"):
            stmts = getattr(anc, field, None)
            if isinstance(stmts, list) and child in stmts:
                return stmts
        child = anc
    return []


def _trains(body: list) -> bool:
    for node in walk_scope(body):
        if isinstance(node, ast.Call):
            name = last_name(node.func)
            if name in _TRAIN_CALLS:
                return True
            if name == "step" and any(w in (_root(node.func) or "").lower() for w in _OPTIMIZER):
                return True
    return False


def _words(name: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(name)}


def _aliases(body: list, root: str) -> set[str]:
    """``root`` and the names assigned from an expression that holds it (``new_net = Wrapped(net)``)."""
    names = {root}
    for node in walk_scope(body):
        if isinstance(node, ast.Assign) and any(isinstance(n, ast.Name) and n.id == root for n in ast.walk(node.value)):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _used(ctx: FileContext, body: list, roots: set[str]) -> ast.Call | None:
    """A call that runs or exports the loaded model (or a name made from it): ``root.eval()``,
    ``paddle.jit.to_static(root)``, ``evaluate(cfg, root)``, ``partial(eval_fn, root, ...)``."""
    for node in walk_scope(body):
        if not isinstance(node, ast.Call):
            continue
        name = last_name(node.func) or ""
        args = [*node.args, *(k.value for k in node.keywords)]
        on_model = isinstance(node.func, ast.Attribute) and _root(node.func) in roots
        passes_model = any(_root(a) in roots for a in args)
        if _words(name) & _USE_WORDS and (on_model or passes_model):
            return node
        if ctx.imports.qualname(node.func) in ("paddle.jit.save", "paddle.static.save_inference_model") \
                and passes_model:
            return node
        if passes_model and any(isinstance(a, ast.Name) and _words(a.id) & _USE_WORDS for a in args):
            return node  # ``partial(eval_fn, model, ...)``: the model handed to an evaluation function
    return None
