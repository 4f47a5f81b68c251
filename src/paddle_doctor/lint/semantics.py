"""What the rules need to know about Paddle code: collectives, ranks, guards, evaluation.

The rank logic follows the mechanism, not the spelling: a test is *rank-divergent* when ranks can
take different branches (``rank == 0``, ``is_main_process``, ``local_rank in (-1, 0)``); a test of
the *mode* (``local_rank != -1``, ``rank is None``, ``rank >= 0``) is the same on every rank and is
not divergent.
"""

from __future__ import annotations

import ast
import re

from .context import FUNCS, FileContext, ancestors, parent, scope_of, walk_scope
from .names import dotted, last_name

# Group collectives: every rank of the group must call them, in the same order.
COLLECTIVES = frozenset({
    "all_reduce", "all_gather", "all_gather_object", "broadcast", "broadcast_object_list", "reduce",
    "barrier", "scatter", "scatter_object_list", "alltoall", "alltoall_single", "reduce_scatter",
    "gather", "barrier_worker", "all_to_all",
})
# Point-to-point ops pair with one named peer: a rank branch is how correct code selects the peer.
P2P = frozenset({"send", "recv", "isend", "irecv", "batch_isend_irecv"})

RANK_VALUES = frozenset({"rank", "local_rank", "global_rank", "rank_id", "trainer_id", "local_rank_id",
                         "process_index", "local_process_index", "worker_index", "node_rank", "trainer_rank",
                         "get_rank", "get_local_rank", "get_global_rank", "get_trainer_id"})
RANK_FLAGS = frozenset({"is_main_process", "is_master", "is_local_main_process", "is_world_process_zero",
                        "is_local_process_zero", "is_first_worker", "is_local_master", "is_rank_zero",
                        "is_main_rank", "is_global_master"})
RANK_ENV = frozenset({"PADDLE_TRAINER_ID", "PADDLE_RANK_IN_NODE", "PADDLE_LOCAL_RANK", "PADDLE_GLOBAL_RANK",
                      "LOCAL_RANK", "RANK", "FLAGS_selected_gpus"})
DIST_SETUP = frozenset({"init_parallel_env", "DataParallel", "distributed_model", "distributed_optimizer",
                        "DistributedBatchSampler"})  # not spawn(): its caller is the parent, not a rank
EVAL_WORDS = frozenset({"eval", "evaluate", "evaluation", "evaluator", "val", "valid", "validate", "validation",
                        "test", "testing", "dev"})
_WORDS = re.compile(r"[a-z]+")


def collective_name(ctx: FileContext, call: ast.Call) -> str | None:
    """``all_reduce`` when ``call`` is a Paddle group collective (resolved through imports)."""
    name = last_name(call.func)
    if name not in COLLECTIVES:
        return None
    qual = ctx.imports.qualname(call.func)
    if qual is None or not qual.startswith("paddle.") or "distributed" not in qual:
        return None
    return name


# Where ``group`` sits among the positional arguments (paddle.distributed 2.4-3.3 signatures).
GROUP_POSITION = {"all_reduce": 2, "broadcast": 2, "reduce": 3, "all_gather": 2, "all_gather_object": 2,
                  "broadcast_object_list": 2, "barrier": 0, "scatter": 3, "scatter_object_list": 3,
                  "alltoall": 2, "alltoall_single": 4, "reduce_scatter": 3, "gather": 3, "all_to_all": 2}


def has_group(call: ast.Call) -> bool:
    """A collective over a sub-group: only that group's ranks call it, so a rank branch can be right.

    The group may be passed by keyword or by position (``dist.all_reduce(t, op, group)``)."""
    value = next((kw.value for kw in call.keywords if kw.arg == "group"), None)
    position = GROUP_POSITION.get(last_name(call.func) or "")
    if value is None and position is not None and len(call.args) > position:
        value = call.args[position]
    return value is not None and not (isinstance(value, ast.Constant) and value.value is None)


def is_rank_atom(ctx: FileContext, node: ast.AST) -> bool:
    """A value that differs between ranks: ``rank``, ``dist.get_rank()``, ``os.environ["PADDLE_TRAINER_ID"]``."""
    if isinstance(node, ast.Call):
        func_name = (last_name(node.func) or "").lstrip("_")
        if func_name in RANK_VALUES or func_name in RANK_FLAGS:
            return True
        if func_name in ("int", "bool", "str") and node.args:
            return is_rank_atom(ctx, node.args[0])
        if func_name in ("getenv", "get") and node.args and _const_str(node.args[0]) in RANK_ENV:
            return True
        return False
    if isinstance(node, ast.Subscript) and _const_str(node.slice) in RANK_ENV:
        return True
    name = last_name(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if name is None:
        return False
    name = name.lstrip("_")  # self._local_rank
    return name in RANK_VALUES or name in RANK_FLAGS or name in rank_aliases(ctx)


def contains_rank(ctx: FileContext, node: ast.AST) -> bool:
    return any(is_rank_atom(ctx, sub) for sub in ast.walk(node))


def rank_aliases(ctx: FileContext) -> frozenset[str]:
    """Names assigned from a rank value (``r = dist.get_rank()``, ``main = rank == 0``)."""
    if "rank_aliases" not in ctx.cache:
        ctx.cache["rank_aliases"] = frozenset()  # no recursion through the assignments below
        found = set()
        for node in ctx.assigns:
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = node.value
                if is_rank_atom(ctx, value) or (isinstance(value, ast.Compare) and is_rank_test(ctx, value)):
                    found.add(node.targets[0].id)
        ctx.cache["rank_aliases"] = frozenset(found)
    return ctx.cache["rank_aliases"]


def is_rank_test(ctx: FileContext, test: ast.AST) -> bool:
    """True when ranks can evaluate ``test`` differently (see the module docstring)."""
    if isinstance(test, ast.BoolOp):
        return any(is_rank_test(ctx, value) for value in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return is_rank_test(ctx, test.operand)
    if isinstance(test, ast.Compare):
        operands = [test.left, *test.comparators]
        for op, left, right in zip(test.ops, operands, operands[1:]):
            if contains_rank(ctx, left) and not _mode_check(op, right):
                return True
            if contains_rank(ctx, right) and not _mode_check(op, left, reflected=True):
                return True
        return False
    return is_rank_atom(ctx, test)


def _mode_check(op: ast.cmpop, other: ast.AST, reflected: bool = False) -> bool:
    """``rank != -1``, ``rank is None``, ``rank >= 0``: the same answer on every rank."""
    values = _constants(other)
    if values is None:
        return False
    if all(v is None or (isinstance(v, int) and v < 0) for v in values):
        return True
    if len(values) == 1 and values[0] == 0:
        lt, ge = (ast.Gt, ast.LtE) if reflected else (ast.Lt, ast.GtE)
        return isinstance(op, (lt, ge))
    return False


def _constants(node: ast.AST):
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return [-node.operand.value] if isinstance(node.operand.value, (int, float)) else None
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        out = []
        for elt in node.elts:
            sub = _constants(elt)
            if sub is None:
                return None
            out.extend(sub)
        return out
    return None


def _const_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def rank_guard(ctx: FileContext, node: ast.AST) -> ast.If | None:
    """The nearest enclosing ``if`` (in the same function) whose test is rank-divergent."""
    child = node
    for anc in ancestors(node):
        if isinstance(anc, (*FUNCS, ast.Lambda, ast.Module, ast.ClassDef)):
            return None
        if isinstance(anc, (ast.If, ast.IfExp)) and child is not anc.test and is_rank_test(ctx, anc.test):
            return anc
        child = anc
    return None


def rank_exit_before(ctx: FileContext, node: ast.AST) -> ast.AST | None:
    """A rank-dependent ``return``/``break``/``continue`` that runs before ``node`` in its function."""
    exits: tuple[type, ...] = (ast.Return, ast.Break, ast.Continue)
    stmt = node
    for anc in ancestors(node):
        if isinstance(anc, (ast.Lambda, ast.ClassDef)):
            return None
        for body in _bodies_holding(anc, stmt):
            for prev in body[: _index(body, stmt)]:
                found = _rank_exit(ctx, prev, exits)
                if found is not None:
                    return found
        if isinstance(anc, (*FUNCS, ast.Module)):
            return None
        if isinstance(anc, (ast.For, ast.AsyncFor, ast.While)) and stmt in anc.body:
            exits = (ast.Return,)  # a break/continue further out ends another loop
        stmt = anc
    return None


def _bodies_holding(node: ast.AST, stmt: ast.AST):
    for name in ("body", "orelse", "finalbody", "handlers"):
        body = getattr(node, name, None)
        if isinstance(body, list) and _index(body, stmt) >= 0:
            yield body


def _index(body: list, stmt: ast.AST) -> int:
    """Position by identity (``list.index`` compares AST nodes with ``==``, which is identity anyway)."""
    for i, item in enumerate(body):
        if item is stmt:
            return i
    return -1


def _rank_exit(ctx: FileContext, stmt: ast.AST, exits: tuple[type, ...]) -> ast.AST | None:
    if not isinstance(stmt, ast.If) or not is_rank_test(ctx, stmt.test):
        return None
    for branch in (stmt.body, stmt.orelse):
        for sub in branch:
            if isinstance(sub, exits):
                return sub
    return None


def local_collectives(ctx: FileContext) -> dict[str, str]:
    """Functions and methods of this file that run a collective directly: name -> collective."""
    if "local_collectives" not in ctx.cache:
        found: dict[str, str] = {}
        for call in ctx.calls:
            if last_name(call.func) in COLLECTIVES and not has_group(call):
                name = collective_name(ctx, call)
                func = scope_of(call) if name else None
                if isinstance(func, FUNCS):
                    found.setdefault(func.name, name)
        ctx.cache["local_collectives"] = found
    return ctx.cache["local_collectives"]


def reached_collective(ctx: FileContext, call: ast.Call) -> str | None:
    """The collective a call runs: itself, or a function of this file that runs one directly."""
    name = collective_name(ctx, call)
    if name:
        return None if has_group(call) else name
    func = call.func
    target = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls") else None)
    helper = local_collectives(ctx).get(target) if target else None
    return f"{helper} (via {target}())" if helper else None


def collectives_in(ctx: FileContext, stmts: list[ast.stmt]) -> set[str]:
    out = set()
    for sub in walk_scope(stmts):
        if isinstance(sub, ast.Call):
            name = reached_collective(ctx, sub)
            if name:
                out.add(name.split(" ")[0])
    return out


def is_eval_name(name: str | None, *, function: bool = False) -> bool:
    if not name:
        return False
    lowered = name.lower()
    if function and lowered.startswith("test_"):  # a unit test, not an evaluation
        return False
    return any(word in EVAL_WORDS for word in _WORDS.findall(lowered))


def enclosing_function(node: ast.AST):
    scope = scope_of(node)
    return scope if isinstance(scope, FUNCS) else None


def scope_calls(ctx: FileContext, scope: ast.AST) -> list[ast.Call]:
    """Calls made directly in ``scope`` (not in nested functions), memoised per scope."""
    key = ("scope_calls", id(scope))
    if key not in ctx.cache:
        body = scope.body if isinstance(scope, (*FUNCS, ast.Module)) else [scope]
        ctx.cache[key] = [n for n in walk_scope(body) if isinstance(n, ast.Call)]
    return ctx.cache[key]


def is_distributed_scope(ctx: FileContext, scope: ast.AST) -> bool:
    """The scope sets up or queries data parallelism itself, so every rank runs it."""
    for call in scope_calls(ctx, scope):
        name = last_name(call.func)
        if name in DIST_SETUP or (name == "init" and ctx.imports.qualname(call.func) ==
                                  "paddle.distributed.fleet.init"):
            return True
    return False


def callers(ctx: FileContext, func: ast.AST) -> list[ast.Call]:
    """Calls in this file to the function or method ``func`` (by name: ``f()``, ``self.f()``)."""
    return calls_by_name(ctx).get(func.name, [])


def calls_by_name(ctx: FileContext) -> dict[str, list[ast.Call]]:
    """``f()`` and ``self.f()`` calls of the file by name, built once (a lookup per function was
    quadratic: 90 % of a 5 MB file's time)."""
    if "calls_by_name" not in ctx.cache:
        index: dict[str, list[ast.Call]] = {}
        for c in ctx.calls:
            func = c.func
            if isinstance(func, ast.Name):
                index.setdefault(func.id, []).append(c)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
                index.setdefault(func.attr, []).append(c)
        ctx.cache["calls_by_name"] = index
    return ctx.cache["calls_by_name"]


MODEL_NAMES = ("net", "network", "ema")  # a network object's whole name (besides any name holding "model")
_FACTORY_VERBS = ("build", "create", "get", "load", "clone", "init", "make", "save", "copy", "export", "convert",
                  "prepare", "wrap", "setup", "set_", "to_", "register")


def model_like(node: ast.AST, ctx: FileContext | None = None) -> str | None:
    """``model`` / ``self.model`` / ``net`` when ``node`` names a network object.

    Not a function that makes or handles one (``build_model``, ``utils.clone_model``): calling those
    does not run the network.
    """
    text = dotted(node)
    if text is None:
        return None
    if ctx is not None and "." in text and text.split(".", 1)[0] in ctx.imports.aliases:
        return None  # a module's function
    tail = text.rsplit(".", 1)[-1].lower().lstrip("_")
    if tail.startswith(_FACTORY_VERBS):
        return None
    return text if ("model" in tail or tail in MODEL_NAMES) else None


def is_under(node: ast.AST, container: ast.AST) -> bool:
    return any(anc is container for anc in ancestors(node))


def statement_of(node: ast.AST) -> ast.stmt:
    while not isinstance(node, ast.stmt):
        node = parent(node)
    return node


def loader_batching(ctx: FileContext, loop: ast.For) -> str | None:
    """How the loop's loader batches (through ``enumerate``, ``tqdm``, ``iter``): "distributed" (a
    DistributedBatchSampler), a description of a per-rank batching, or None (not a Paddle DataLoader we can see)."""
    target = loop.iter
    while isinstance(target, ast.Call) and last_name(target.func) in ("enumerate", "tqdm", "iter"):
        if not target.args:
            return None
        target = target.args[0]
    loader = None
    if isinstance(target, ast.Call) and last_name(target.func) == "DataLoader":
        loader = target
    elif isinstance(target, ast.Name):
        for call in scope_calls(ctx, scope_of(loop)):
            if last_name(call.func) == "DataLoader" and assigned_to(call) == target.id:
                loader = call
    if loader is None or not ctx.imports.is_paddle(loader.func):
        return None
    sampler = next((kw.value for kw in loader.keywords if kw.arg == "batch_sampler"), None)
    if sampler is None:
        return "`DataLoader(batch_size=...)` and no DistributedBatchSampler"
    text = ast.unparse(sampler)
    if "DistributedBatchSampler" in text:
        return "distributed"
    if isinstance(sampler, ast.Name):
        for call in scope_calls(ctx, scope_of(loop)):
            if assigned_to(call) == sampler.id:
                return "distributed" if last_name(call.func) == "DistributedBatchSampler" else (
                    f"`{last_name(call.func)}`" if last_name(call.func) == "BatchSampler" else None)
    return None


def assigned_to(call: ast.Call) -> str | None:
    node = getattr(call, "_pd_parent", None)
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None
