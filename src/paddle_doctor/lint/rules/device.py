"""PDL5xx: device variables that Paddle reads once, at import time."""

from __future__ import annotations

import ast

from ...catalog.ids import CauseId
from ..codes import Rule
from ..context import FUNCS, FileContext, walk_scope
from ..names import dotted, last_name

CHECK = f"{__name__}:check"  # the function that reports the rules below

PDL501 = Rule(
    "PDL501", "device-env-after-import", CauseId.cuda_visible_devices_misconfig,
    "CUDA_VISIBLE_DEVICES or FLAGS_selected_gpus is set in os.environ after `import paddle`: Paddle has already read it.",
    fix="Set it before `import paddle` (first lines of the script) or in the launch command's environment.",
    wrong="""\
import os
import paddle
os.environ["CUDA_VISIBLE_DEVICES"] = "0\"""",
    right="""\
import os
os.environ["CUDA_VISIBLE_DEVICES"] = "0"
import paddle""",
    check=CHECK,
)

RULES: tuple[Rule, ...] = (PDL501,)

TRIGGERS = ("CUDA_VISIBLE_DEVICES", "FLAGS_selected_gpus")
DEVICE_VARS = frozenset(TRIGGERS)
# A process that sets the variable for the children it starts uses it correctly.
_SPAWNERS = frozenset({"Popen", "run", "call", "check_call", "check_output", "system", "Process", "spawn",
                       "start_processes", "execv", "execve", "execvp", "launch"})


def check(ctx: FileContext) -> None:
    """PDL501: ``os.environ[VAR] = ...`` after ``import paddle`` (module level or any function)."""
    module_import = _first_paddle_import(ctx.tree.body)
    for node, var in _device_writes(ctx):
        scope = _scope(node)
        in_function = isinstance(scope, FUNCS)
        if in_function and module_import is None:
            # no module-level import: only the function's own (lazy) import can come first
            first_import = _first_paddle_import(scope.body)
            if first_import is None or first_import > node.lineno:
                continue  # set before this function's `import paddle`: Paddle reads it
        elif module_import is None or node.lineno < module_import:
            continue
        else:
            first_import = module_import
        if _spawns_children(ctx, scope):
            continue
        where = "in a function that runs after" if in_function else "after"
        ctx.report(PDL501, node,
                   f"`{var}` is set {where} `import paddle` (line {first_import}): Paddle has already read the "
                   "devices, so this process ignores it; set it before the import or in the launch command",
                   why=f"paddle imported on line {first_import}")


def _first_paddle_import(body: list[ast.stmt]) -> int | None:
    """The line of the first ``import paddle...`` in ``body``, not counting nested functions'."""
    lines = [node.lineno for node in walk_scope([s for s in body if not isinstance(s, (*FUNCS, ast.ClassDef))])
             if _imports_paddle(node)]
    return min(lines) if lines else None


def _imports_paddle(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] == "paddle" for a in node.names)
    return isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "paddle"


def _device_writes(ctx: FileContext):
    for node in ast.walk(ctx.tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and _is_environ(target.value):
                    var = _const(target.slice)
                    if var in DEVICE_VARS:
                        yield node, var
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("setdefault", "update", "__setitem__") and _is_environ(node.func.value):
                for var in _call_vars(node):
                    yield node, var
            elif node.func.attr == "putenv" and node.args and _const(node.args[0]) in DEVICE_VARS:
                yield node, _const(node.args[0])


def _call_vars(call: ast.Call):
    if call.func.attr == "update":
        for arg in call.args:
            if isinstance(arg, ast.Dict):
                yield from (_const(k) for k in arg.keys if k is not None and _const(k) in DEVICE_VARS)
        yield from (k.arg for k in call.keywords if k.arg in DEVICE_VARS)
    elif call.args and _const(call.args[0]) in DEVICE_VARS:
        yield _const(call.args[0])


def _is_environ(node: ast.AST) -> bool:
    return dotted(node) in ("os.environ", "environ")


def _const(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _scope(node: ast.AST) -> ast.AST:
    anc = getattr(node, "_pd_parent", None)
    while anc is not None and not isinstance(anc, (*FUNCS, ast.Module)):
        anc = getattr(anc, "_pd_parent", None)
    return anc


def _spawns_children(ctx: FileContext, scope: ast.AST) -> bool:
    body = scope.body if scope is not None else []
    return any(isinstance(n, ast.Call) and last_name(n.func) in _SPAWNERS for n in walk_scope(body))
