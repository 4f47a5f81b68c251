"""The tree walks (FileContext.build, walk_scope) read only the fields that can hold a child node, as
each node type's first node shows them (issue 32, cold speed): they must visit exactly what the
generic walk over every field visited."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from paddle_doctor.lint.context import FileContext, parent, walk_scope
from paddle_doctor.lint.rules import BY_CODE

HERE = Path(__file__).parent
EVERY_KIND = '''
import os, sys as system
from . import x as y
global_name = {**a, "k": 1, None: 2}
def f(a, /, b: int = 1, *args, c, d=2, **kw) -> "r":  # type: ignore
    global g
    def inner():
        nonlocal a
    x = [i for i in range(3) if i] + list({j: j for j in ()}) + [*(k async for k in z)]
    y = lambda q=1: q ** -~+q
    a += 1; b: int = 2; del b
    assert a < b <= c is not d, f"{a!r:>{b}}"
    with open(p) as h, other():
        raise ValueError("x") from None
    try:
        pass
    except (KeyError, ValueError) as exc:
        pass
    else:
        pass
    finally:
        pass
    while not a and b or c:
        break
    match command:
        case [1, *rest] | {"k": v, **others} if v:
            pass
        case Point(x=0, y=_) | None | True:
            pass
        case str() as s:
            pass
    return (yield from g) if a else (yield)
@decorator(arg)
class C(Base, metaclass=M):
    attr: int
    async def m(self):
        async with s:
            async for i in t:
                await u[1:2, ::3]
'''


def _old_walk_scope(nodes, stop=(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        yield node
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST) and not isinstance(item, stop))
            elif isinstance(value, ast.AST) and not isinstance(value, stop):
                stack.append(value)


def _old_parents(tree: ast.AST) -> dict[int, ast.AST]:
    skip = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop)
    parents, stack = {}, [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, skip):
                parents[id(child)] = node
                stack.append(child)
    return parents


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def _sources() -> list[str]:
    """Every kind of node, the lint fixtures, the rules' examples, and some of the standard library."""
    files = sorted((HERE / "fixtures").rglob("*.py")) + [Path(ast.__file__), Path(ast.__file__).with_name("argparse.py")]
    texts = [EVERY_KIND] + [p.read_text(encoding="utf-8") for p in files] + [
        t for rule in BY_CODE.values() for t in (rule.wrong, rule.right) if t]
    return [t for t in texts if _parses(t)]


@pytest.mark.parametrize("index", range(len(_sources())))
def test_the_walks_visit_what_the_generic_walk_visited(index):
    text = _sources()[index]
    tree = ast.parse(text)
    expected = _old_parents(tree)
    ctx = FileContext.build("x.py", text, tree)
    every = [n for n in ast.walk(tree)]
    assert {id(n): parent(n) for n in every if parent(n) is not None} == expected
    for node in every:
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assert list(walk_scope(node.body)) == list(_old_walk_scope(node.body))
    ctx.release()
    assert all(parent(n) is None for n in every)


def test_a_node_built_by_hand_does_not_change_how_parsed_nodes_are_walked():
    lonely = ast.Call(func=ast.Name(id="f", ctx=ast.Load()))  # no args, no keywords
    assert [type(n) for n in walk_scope(lonely)] == [ast.Call, ast.Name, ast.Load]
    call = ast.parse("f(a, k=b)").body[0].value
    assert list(walk_scope(call)) == list(_old_walk_scope(call))


def test_each_node_type_is_looked_at_once(monkeypatch):
    """The fields of a type are read from its first node and kept, also when none can hold a child
    (a Name's, a Constant's): read again for every node, they cost more than the walk they spare."""
    from paddle_doctor.lint import context

    seen, fields_of = [], context._fields_of
    monkeypatch.setattr(context, "_fields_of", lambda node, *a: seen.append(type(node)) or fields_of(node, *a))
    monkeypatch.setattr(context, "_LINKED_FIELDS", {})
    monkeypatch.setattr(context, "_WALKED_FIELDS", {})
    tree = ast.parse("a = b + c\nd = [1, 2, 3]\nf(a, b, c, 4)\n" * 20)
    FileContext.build("x.py", tree=tree, text="").release()
    list(walk_scope(tree.body))
    assert seen.count(ast.Name) == 2 and seen.count(ast.Constant) == 2  # once for each walk's table
    assert max(seen.count(kind) for kind in seen) == 2
