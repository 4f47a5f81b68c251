"""Import and alias resolution: what a name in the source refers to.

``import paddle.distributed as dist`` makes ``dist.all_reduce`` resolve to
``paddle.distributed.all_reduce``; ``from paddle.distributed import all_reduce`` makes the bare
name resolve the same way. Imports anywhere in the file count (a function-local
``import paddle.distributed as dist`` is common in Paddle code); shadowing is not tracked, which
is enough for a linter whose rules also look at what the code does with the name.
"""

from __future__ import annotations

import ast


class Imports:
    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}  # local name -> dotted module path or object path

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".", 1)[0]
                    self.aliases[top] = top
        elif node.level == 0 and node.module:
            for alias in node.names:
                if alias.name != "*":
                    self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def qualname(self, node: ast.AST) -> str | None:
        """``paddle.distributed.all_reduce`` for ``dist.all_reduce``; ``X()`` parts keep ``()``."""
        parts: list[str] = []
        while True:
            if isinstance(node, ast.Attribute):
                parts.append(node.attr)
                node = node.value
            elif isinstance(node, ast.Call):
                parts.append("()")
                node = node.func
            elif isinstance(node, ast.Name):
                base = self.aliases.get(node.id)
                if base is None:
                    return None
                parts.append(base)
                break
            else:
                return None
        parts.reverse()
        return ".".join(parts).replace(".()", "()")

    def is_paddle(self, node: ast.AST) -> bool:
        name = self.qualname(node)
        return name is not None and (name == "paddle" or name.startswith("paddle."))


def last_name(node: ast.AST) -> str | None:
    """The rightmost identifier of a Name/Attribute/Call chain (``c`` for ``a.b.c()``)."""
    while isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def dotted(node: ast.AST) -> str | None:
    """``self.model`` for an Attribute chain of Names (no calls), else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
