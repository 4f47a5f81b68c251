"""One parsed file, walked once: parents, the nodes rules look for, and resolved imports.

Rules never walk the whole tree again; they read the buckets filled here (``calls``, ``functions``,
``loops``, ``tries``) and climb ``parent()`` links. The helpers that several rule families share
(is this a collective? is this test rank-dependent? is this call under a rank guard?) live in
``semantics``.
"""

from __future__ import annotations

import ast
import gc
from dataclasses import dataclass, field

from ..findings import Edit, Finding, Location
from .codes import Rule
from .names import Imports

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class FileContext:
    path: str
    text: str
    tree: ast.Module
    imports: Imports = field(default_factory=Imports)
    calls: list[ast.Call] = field(default_factory=list)
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=list)
    loops: list[ast.For | ast.AsyncFor] = field(default_factory=list)
    tries: list[ast.Try] = field(default_factory=list)
    assigns: list[ast.Assign] = field(default_factory=list)
    import_nodes: list[ast.Import | ast.ImportFrom] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    cache: dict = field(default_factory=dict)  # per-file memo for the semantics helpers
    linked: list[ast.AST] = field(default_factory=list)  # the nodes given a parent link (release)

    @classmethod
    def build(cls, path: str, text: str, tree: ast.Module) -> FileContext:
        ctx = cls(path, text, tree)
        buckets = {ast.Call: ctx.calls, ast.FunctionDef: ctx.functions, ast.AsyncFunctionDef: ctx.functions,
                   ast.For: ctx.loops, ast.AsyncFor: ctx.loops, ast.Try: ctx.tries, ast.Assign: ctx.assigns,
                   ast.Import: ctx.import_nodes, ast.ImportFrom: ctx.import_nodes}
        if hasattr(ast, "TryStar"):
            buckets[ast.TryStar] = ctx.tries
        stack: list[ast.AST] = [tree]
        linked, AST, fields_of = ctx.linked, ast.AST, _LINKED_FIELDS
        while stack:  # ast.iter_child_nodes, inlined: this loop is a third of a lint run
            node = stack.pop()
            linked.append(node)
            kind = type(node)
            bucket = buckets.get(kind)
            if bucket is not None:
                bucket.append(node)
            fields = fields_of.get(kind)
            for name, is_list in _fields_of(node, _LINKED_FIELDS, _NOT_LINKED) if fields is None else fields:
                if is_list:
                    for item in getattr(node, name, ()):
                        if isinstance(item, AST):  # not the None keys of `{**a}`
                            item._pd_parent = node  # type: ignore[attr-defined]
                            stack.append(item)
                else:
                    value = getattr(node, name, None)
                    if isinstance(value, AST):
                        value._pd_parent = node  # type: ignore[attr-defined]
                        stack.append(value)
        for node in ctx.import_nodes:
            ctx.imports.add(node)
        # the walk is depth-first from the end; rules read these in source order
        for bucket in (ctx.calls, ctx.functions, ctx.loops, ctx.tries, ctx.assigns):
            bucket.sort(key=lambda n: (n.lineno, n.col_offset))
        return ctx

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def release(self) -> None:
        """Unlinks the parents: a linked tree is a cycle that only the garbage collector frees (its
        passes were a tenth of a cold run's CPU), an unlinked one is freed as soon as it is dropped."""
        for node in self.linked:
            node.__dict__.pop("_pd_parent", None)
        self.linked = []

    @property
    def lines(self) -> list[str]:
        if "lines" not in self.cache:
            self.cache["lines"] = self.text.splitlines()
        return self.cache["lines"]

    def column(self, line: int, col_offset: int) -> int:
        """A 1-based character column from ast's 0-based UTF-8 byte offset."""
        if 0 < line <= len(self.lines):
            text = self.lines[line - 1]
            if not text.isascii():
                return len(text.encode("utf-8")[:col_offset].decode("utf-8", "ignore")) + 1
        return col_offset + 1

    def report(self, rule: Rule, node: ast.AST, message: str, *, why: str = "", confidence: str = "high",
               edits: tuple[Edit, ...] = (), facts: dict | None = None) -> None:
        """A finding of ``rule`` (the declaration itself, as its family module holds it) at ``node``."""
        end_line = getattr(node, "end_lineno", None) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        location = Location(
            path=self.path, line=node.lineno, column=self.column(node.lineno, node.col_offset),
            end_line=end_line, end_column=self.column(end_line, end_col) if end_col is not None else None)
        self.findings.append(Finding(
            code=rule.code, cause=rule.cause, message=message, severity=rule.severity, locations=(location,),
            fix=rule.fix, confidence=confidence, why=why,
            fixable=rule.fixable if edits else None, edits=edits, facts=facts or {}))

    def edit(self, node: ast.AST, replacement: str) -> Edit:
        """Replace the exact source span of ``node`` (0-based character columns)."""
        return Edit(path=self.path, line=node.lineno, column=self.column(node.lineno, node.col_offset) - 1,
                    end_line=node.end_lineno, end_column=self.column(node.end_lineno, node.end_col_offset) - 1,
                    replacement=replacement)


# The fields that never hold a child node (identifiers, numbers, strings), and those that hold only the
# operators and contexts (shared singletons: given no parent, not walked by build). Each node type's
# other fields, in order, each a list or a single node, are read from its first node and kept.
_SCALAR_FIELDS = frozenset({"id", "attr", "arg", "asname", "module", "level", "type_comment", "kind", "conversion",
                            "simple", "is_async", "tag", "kwd_attrs", "rest"})
_SCALAR_OF = frozenset({(ast.Constant, "value"), (ast.MatchSingleton, "value"), (ast.Global, "names"),
                        (ast.Nonlocal, "names")})
_NOT_LINKED = _SCALAR_FIELDS | {"ctx", "op", "ops"}
_LINKED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_WALKED_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _fields_of(node: ast.AST, table: dict, skipped: frozenset[str]) -> tuple[tuple[str, bool], ...]:
    """(field, is it a list?) for each field of ``node``'s type that may hold a child (`*` fields are always lists)."""
    kind = type(node)
    kept = tuple((name, isinstance(getattr(node, name, None), list)) for name in kind._fields
                 if name not in skipped and (kind, name) not in _SCALAR_OF)
    if all(hasattr(node, name) for name, _ in kept):  # a node built by hand may lack one: not the type's model
        table[kind] = kept
    return kept


def parent(node: ast.AST) -> ast.AST | None:
    return getattr(node, "_pd_parent", None)


def ancestors(node: ast.AST):
    node = parent(node)
    while node is not None:
        yield node
        node = parent(node)


def scope_of(node: ast.AST) -> ast.AST:
    """The function (or lambda, or module) whose body holds ``node``."""
    for anc in ancestors(node):
        if isinstance(anc, SCOPES):
            return anc
    return node


def walk_scope(nodes, stop=(ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
    """Every node under ``nodes`` (a node or a list) without entering nested functions or classes."""
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    AST, fields_of = ast.AST, _WALKED_FIELDS
    while stack:  # ast.iter_child_nodes, inlined (a generator per node was a fifth of a run)
        node = stack.pop()
        yield node
        fields = fields_of.get(type(node))
        for name, is_list in _fields_of(node, _WALKED_FIELDS, _SCALAR_FIELDS) if fields is None else fields:
            if is_list:
                for item in getattr(node, name, ()):  # a loop, not extend(generator): a fifth faster
                    if isinstance(item, AST) and not isinstance(item, stop):
                        stack.append(item)
            else:
                value = getattr(node, name, None)
                if isinstance(value, AST) and not isinstance(value, stop):
                    stack.append(value)


_FILES_PER_COLLECTION = 32  # the parsed trees that may wait for the cyclic collector
_BYTES_PER_COLLECTION = 1024 * 1024  # ... and their source: a tree holds ~140 bytes per source byte
_since_collection = [0, 0]  # files, bytes


def collected(result, size: int):
    """Counts a linted file of ``size`` bytes; every _FILES_PER_COLLECTION files or
    _BYTES_PER_COLLECTION bytes, collects the garbage cycles if the run paused the collector
    (:class:`.files.Runner`): a tree is released (no cycle) but a rule's own garbage may hold one."""
    _since_collection[0] += 1
    _since_collection[1] += size
    if (_since_collection[0] >= _FILES_PER_COLLECTION or _since_collection[1] >= _BYTES_PER_COLLECTION) \
            and not gc.isenabled():
        _since_collection[:] = [0, 0]
        gc.collect(0)  # the young generation: what was allocated since the last pass
    return result
