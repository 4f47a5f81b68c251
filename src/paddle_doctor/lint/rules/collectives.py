"""PDL1xx: collectives that some ranks never reach, or reach out of step."""

from __future__ import annotations

import ast
import unicodedata

from ...catalog.ids import CauseId
from ...findings import Severity
from ..codes import Rule
from ..context import FileContext, ancestors, parent, walk_scope
from ..names import last_name
from ..semantics import (COLLECTIVES, collective_name, collectives_in, has_group, loader_batching, rank_exit_before,
                         rank_guard, reached_collective, scope_calls, scope_of)

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL101 = Rule(
    "PDL101", "collective-in-rank-branch", CauseId.rank_divergent_collective,
    "A collective is called inside a branch that depends on the rank: the other ranks never join it and hang.",
    fix='Call the collective on every rank, outside the branch; keep only the printing or saving under the rank test.',
    wrong="""\
import paddle.distributed as dist

if dist.get_rank() == 0:
    dist.all_reduce(total)      # ranks != 0 never call it
    print(total.item())""",
    right="""\
import paddle.distributed as dist

dist.all_reduce(total)          # every rank
if dist.get_rank() == 0:
    print(total.item())""",
    check=CHECK,
)

PDL102 = Rule(
    "PDL102", "collective-after-rank-exit", CauseId.rank_divergent_collective,
    "A collective follows a rank-dependent return/break/continue: the ranks that left never join it.",
    fix='Run the collective before the rank-dependent exit, or make every rank take the same exit.',
    wrong="""\
import paddle.distributed as dist

for batch in loader:
    if rank != 0:
        continue
    dist.barrier()              # only rank 0 gets here""",
    right="""\
import paddle.distributed as dist

for batch in loader:
    dist.barrier()
    if rank != 0:
        continue""",
    check=CHECK,
)

PDL103 = Rule(
    "PDL103", "collective-error-swallowed", CauseId.rank_divergent_collective,
    "A try/except around a collective swallows the error: this rank goes on while the others are one collective ahead or behind.",
    fix="Let the collective's error propagate (or exit the process) so every rank stops together.",
    wrong="""\
import paddle.distributed as dist

try:
    dist.all_reduce(loss)
except Exception:
    pass                        # this rank continues out of step""",
    right="""\
import paddle.distributed as dist

dist.all_reduce(loss)           # let it fail on every rank""",
    check=CHECK,
)

PDL104 = Rule(
    "PDL104", "per-batch-all-gather-uneven", CauseId.uneven_eval_batches,
    "A per-batch all_gather runs over a loader that is not a DistributedBatchSampler: the last batches differ across ranks.",
    fix='Shard with DistributedBatchSampler (same batch count and shapes), pad to a common shape, or use all_gather_object; paddle_doctor.evaluate() syncs once per evaluation.',
    wrong="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

loader = DataLoader(shard, batch_size=32)
for x, y in loader:
    preds = []
    dist.all_gather(preds, model(x))   # shapes differ on the last batch""",
    right="""\
import paddle.distributed as dist
from paddle.io import DataLoader, DistributedBatchSampler

sampler = DistributedBatchSampler(dataset, batch_size=32)
loader = DataLoader(dataset, batch_sampler=sampler)
for x, y in loader:
    preds = []
    dist.all_gather(preds, model(x))""",
    severity=Severity.WARNING,
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL101, PDL102, PDL103, PDL104)

TRY_NODES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)
TRIGGERS = ("all_reduce", "all_gather", "broadcast", "reduce", "barrier", "scatter", "alltoall", "all_to_all",
            "gather")


def may_report(text: str) -> bool:
    """Whether PDL101-104 could report on this file (if not, it is not even parsed): each starts from a
    call named for a collective (semantics.COLLECTIVES, a whole identifier: NFKC-normalised as Python's
    parser does) that the imports resolve into ``paddle.distributed`` (semantics.collective_name), a
    word the imports spell out in the text."""
    if "distributed" not in text or not any(word in text for word in TRIGGERS):
        return False
    if _names_a_collective(text):
        return True
    return not text.isascii() and not unicodedata.is_normalized("NFKC", text) and _names_a_collective(
        unicodedata.normalize("NFKC", text))


def _names_a_collective(text: str) -> bool:
    """A collective's name as a whole identifier (not `reduce_mean`, `gathered`), found with str.find
    (a regex alternation of the names was 7x slower)."""
    for name in COLLECTIVES:
        at = text.find(name)
        while at >= 0:
            if not _is_word_char(text, at - 1) and not _is_word_char(text, at + len(name)):
                return True
            at = text.find(name, at + 1)
    return False


def _is_word_char(text: str, index: int) -> bool:
    """As a regex's ``\\w``: a letter, a digit or ``_`` (False past either end)."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


def check(ctx: FileContext) -> None:
    for call in ctx.calls:
        name = reached_collective(ctx, call)
        if name is None:
            continue
        if not _check_rank_branch(ctx, call, name):
            _check_rank_exit(ctx, call, name)
        if " (via " not in name:
            _check_swallowed(ctx, call, name)
    _check_uneven_gather(ctx)


def _check_rank_branch(ctx: FileContext, call: ast.Call, name: str) -> bool:
    guard = rank_guard(ctx, call)
    if guard is None:
        return False
    in_body = any(call is n for n in walk_scope(guard.body)) if isinstance(guard, ast.If) else True
    other = guard.orelse if in_body else guard.body
    other = other if isinstance(other, list) else [other]
    if name.split(" ")[0] in collectives_in(ctx, other):
        return False  # every branch runs the same collective
    if in_body and _leaves(guard.body) and _joined_later(ctx, call, guard, name.split(" ")[0]):
        return False  # `if rank != 0: barrier(); continue` ... `barrier()`: the ranks that stay join it later
    mine = _polarity(guard.test)
    if any(other_test == (mine[0], not mine[1]) for other_test in _guards_of(ctx, scope_of(call)).get(
            name.split(" ")[0], ())):
        return False  # `if not main: barrier()` ... `if main: barrier()`: the two halves of one barrier
    ctx.report(PDL101, call,
               f"`{name}` is called only on the ranks where `{ast.unparse(guard.test)}` holds; "
               "the other ranks never join it and the job hangs",
               why=f"rank-dependent branch on line {guard.lineno}")
    return True


def _leaves(body: list) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Continue, ast.Break, ast.Return, ast.Raise))


def _joined_later(ctx: FileContext, call: ast.Call, guard: ast.AST, name: str) -> bool:
    """The same collective is made again after the branch, by the ranks that did not leave."""
    return any(other.lineno > guard.end_lineno and (reached_collective(ctx, other) or "").split(" ")[0] == name
               for other in scope_calls(ctx, scope_of(call)))


def _polarity(test: ast.AST) -> tuple[str, bool]:
    """(condition text, negated): ``not main`` and ``main``, ``rank != 0`` and ``rank == 0`` are opposites."""
    negated = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, not negated
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.NotEq, ast.IsNot)):
        flipped = ast.Compare(test.left, [ast.Eq() if isinstance(test.ops[0], ast.NotEq) else ast.Is()],
                              test.comparators)
        return ast.unparse(flipped), not negated
    return ast.unparse(test), negated


def _guards_of(ctx: FileContext, scope: ast.AST) -> dict[str, set[tuple[str, bool]]]:
    """collective -> the polarities of the rank guards it appears under, in one function."""
    key = ("guards_of", id(scope))
    if key not in ctx.cache:
        found: dict[str, set[int]] = {}
        for call in scope_calls(ctx, scope):
            name = reached_collective(ctx, call)
            guard = rank_guard(ctx, call) if name else None
            if guard is not None:
                found.setdefault(name.split(" ")[0], set()).add(_polarity(guard.test))
        ctx.cache[key] = found
    return ctx.cache[key]


def _check_rank_exit(ctx: FileContext, call: ast.Call, name: str) -> None:
    exit_node = rank_exit_before(ctx, call)
    if exit_node is None:
        return
    branch = parent(exit_node)
    if isinstance(branch, ast.If) and name.split(" ")[0] in collectives_in(ctx, branch.body):
        return  # the leaving ranks made their half of this collective before they left
    word = type(exit_node).__name__.lower()
    ctx.report(PDL102, call,
               f"`{name}` follows a rank-dependent `{word}` on line {exit_node.lineno}; "
               "the ranks that left never join it",
               why=f"`{word}` under a rank test on line {exit_node.lineno}")


# AssertionError is Paddle's argument/mode check (``barrier`` outside dynamic mode, no parallel env),
# raised the same way on every rank before any communication (PaddleFleetX gpt_dataset.py); a
# communication failure is a RuntimeError/OSError and stays reported.
_HARMLESS = frozenset({"ImportError", "ModuleNotFoundError", "KeyboardInterrupt", "StopIteration", "AssertionError"})
_EXITS = frozenset({"exit", "_exit", "quit", "abort"})


def _check_swallowed(ctx: FileContext, call: ast.Call, name: str) -> None:
    for anc in ancestors(call):
        if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return
        if isinstance(anc, TRY_NODES) and any(call is n for n in walk_scope(anc.body)):
            for handler in anc.handlers:
                if _swallows(handler) and not _single_process_fallback(handler, call):
                    ctx.report(PDL103, handler,
                               f"this handler swallows a failure of `{name}` (line {call.lineno}); this rank "
                               "goes on while the others are a collective ahead or waiting",
                               why="no raise or exit in the except block")
                    return
            return


def _single_process_fallback(handler: ast.ExceptHandler, call: ast.Call) -> bool:
    """``try: all_reduce(n) ... except: n = max(n, 1)``: the handler computes the collective's
    result locally, for a run without a process group (ppdet's gfl_head, simota_head). The error it
    catches (no parallel environment) is the same on every rank, so every rank takes the fallback."""
    reduced = {ast.unparse(n) for a in call.args[:1] for n in ast.walk(a) if isinstance(n, (ast.Name, ast.Attribute))}
    body = [s for s in handler.body if not isinstance(s, ast.Pass)]
    return bool(body) and bool(reduced) and all(
        isinstance(s, (ast.Assign, ast.AugAssign)) and {ast.unparse(t) for t in getattr(s, "targets", [])}
        | ({ast.unparse(s.target)} if isinstance(s, ast.AugAssign) else set()) <= reduced for s in body)


def _swallows(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = [last_name(e) for e in (caught.elts if isinstance(caught, ast.Tuple) else [caught])] if caught else []
    if names and all(n in _HARMLESS for n in names):
        return False
    for node in walk_scope(handler.body):
        if isinstance(node, ast.Raise):
            return False
        if isinstance(node, ast.Call) and last_name(node.func) in _EXITS:
            return False
    return True


def _check_uneven_gather(ctx: FileContext) -> None:
    """PDL104: a tensor all_gather per batch over a loader whose batches are not the same on all ranks."""
    for loop in ctx.loops:
        gathers = [c for c in walk_scope(loop.body) if isinstance(c, ast.Call)
                   and collective_name(ctx, c) == "all_gather" and not has_group(c)]
        if not gathers:
            continue
        batching = loader_batching(ctx, loop)
        if batching is None or batching == "distributed":
            continue
        ctx.report(PDL104, gathers[0],
                   f"`all_gather` runs on every batch of a loader built with {batching}: ranks can have "
                   "different last batches (or counts), and all_gather needs the same shape on every rank",
                   why=f"loader built with {batching} in the same function", confidence="medium")
