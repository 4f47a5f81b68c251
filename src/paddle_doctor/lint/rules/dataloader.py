"""PDL2xx: DataLoader worker processes and the ``__main__`` guard."""

from __future__ import annotations

import ast

from ...catalog.ids import CauseId
from ..codes import Rule
from ..context import FUNCS, FileContext, walk_scope
from ..names import last_name

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL201 = Rule(
    "PDL201", "dataloader-workers-without-main-guard", CauseId.main_guard_missing,
    "A DataLoader with num_workers > 0 is reached at module level without an `if __name__ == \"__main__\":` guard.",
    fix='Move the loader and the loop into main() and call it under `if __name__ == "__main__":`.',
    wrong="""\
from paddle.io import DataLoader

loader = DataLoader(ds, batch_size=32, num_workers=4)
for batch in loader:
    ...""",
    right="""\
from paddle.io import DataLoader

def main():
    loader = DataLoader(ds, batch_size=32, num_workers=4)
    for batch in loader:
        ...

if __name__ == "__main__":
    main()""",
    check=CHECK,
)

PDL202 = Rule(
    "PDL202", "spawn-without-main-guard", CauseId.main_guard_missing,
    "paddle.distributed.spawn() runs at module level without an `if __name__ == \"__main__\":` guard: each spawned process re-imports the module and spawns again.",
    fix='Call spawn() from main() under `if __name__ == "__main__":`.',
    wrong="""\
import paddle.distributed as dist
dist.spawn(train, nprocs=2)""",
    right="""\
import paddle.distributed as dist

if __name__ == "__main__":
    dist.spawn(train, nprocs=2)""",
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL201, PDL202)

TRIGGERS = ("num_workers", "spawn")
_HAPI = frozenset({"fit", "evaluate", "predict"})  # paddle.Model methods that build DataLoaders
_SPAWN = frozenset({"paddle.distributed.spawn", "paddle.distributed.spawn.spawn"})
_MAX_DEPTH = 4  # module level -> main() -> build() -> ...: enough for scripts, bounded for speed


def may_report(text: str) -> bool:
    """Whether PDL201/202 could report on this file (if not, it is not even parsed): a ``num_workers=``
    keyword of a DataLoader or of a hapi method, or a ``spawn`` the imports resolve into
    ``paddle.distributed``."""
    return "num_workers" in text and ("DataLoader" in text or any(m in text for m in _HAPI)) or (
        "spawn" in text and "distributed" in text)


def check(ctx: FileContext) -> None:
    """PDL201: module-level code (outside the guard) reaches a DataLoader with worker processes.

    With the ``spawn`` start method (Windows, macOS, or set explicitly) every worker re-imports the
    main module; unguarded module-level code then builds the loader again inside each worker.
    """
    module_funcs = {f.name: f for f in ctx.tree.body if isinstance(f, FUNCS)}
    unguarded = [s for s in ctx.tree.body if not _is_main_guard(s) and not isinstance(s, (*FUNCS, ast.ClassDef))]
    seen: set[str] = set()
    _visit(ctx, unguarded, module_funcs, seen, path=(), depth=0)


def _visit(ctx, stmts, module_funcs, seen, path, depth) -> None:
    for node in walk_scope(stmts):
        if not isinstance(node, ast.Call):
            continue
        if last_name(node.func) == "DataLoader" and ctx.imports.is_paddle(node.func):
            workers = _workers(node)
            if workers is not None:
                via = f" (reached through {' -> '.join(path)}())" if path else ""
                ctx.report(PDL201, node,
                           f"DataLoader with num_workers={workers} runs at import time{via} without an "
                           "`if __name__ == \"__main__\":` guard; spawned workers re-run this module",
                           confidence="high" if workers.isdigit() else "medium",
                           why="module-level code outside the __main__ guard")
        elif last_name(node.func) in _HAPI and isinstance(node.func, ast.Attribute) and _workers(node):
            via = f" (reached through {' -> '.join(path)}())" if path else ""
            ctx.report(PDL201, node,
                       f"`{ast.unparse(node.func)}(num_workers={_workers(node)})` builds DataLoader workers at import "
                       f"time{via} without an `if __name__ == \"__main__\":` guard; spawned workers re-run this module",
                       confidence="medium", why="hapi Model method with num_workers, outside the __main__ guard")
        elif last_name(node.func) == "spawn" and ctx.imports.qualname(node.func) in _SPAWN:
            via = f" (reached through {' -> '.join(path)}())" if path else ""
            ctx.report(PDL202, node,
                       f"`{ast.unparse(node.func)}(...)` runs at import time{via} without an `if __name__ == "
                       "\"__main__\":` guard: every spawned process imports this module again and spawns again",
                       why="module-level code outside the __main__ guard")
        elif isinstance(node.func, ast.Name) and node.func.id in module_funcs and depth < _MAX_DEPTH:
            name = node.func.id
            if name not in seen:
                seen.add(name)
                _visit(ctx, module_funcs[name].body, module_funcs, seen, (*path, name), depth + 1)


def _workers(call: ast.Call) -> str | None:
    """The num_workers expression when it can be > 0 (a positive constant or any non-constant)."""
    for kw in call.keywords:
        if kw.arg == "num_workers":
            value = kw.value
            if isinstance(value, ast.Constant):
                return str(value.value) if isinstance(value.value, int) and value.value > 0 else None
            return ast.unparse(value)
    return None


def _is_main_guard(stmt: ast.stmt) -> bool:
    """``if __name__ == "__main__":``, also ``if __name__ == "__main__" and args.run:`` (an ``and`` of
    tests holding the guard: the body still never runs on import)."""
    if not isinstance(stmt, ast.If):
        return False
    test = stmt.test
    tests = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return any(_is_name_test(t) for t in tests)


def _is_name_test(test: ast.AST) -> bool:
    if not isinstance(test, ast.Compare):
        return False
    return any(isinstance(p, ast.Name) and p.id == "__name__" for p in (test.left, *test.comparators))
