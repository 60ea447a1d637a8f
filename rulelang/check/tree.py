"""Walking the AST of a ruleset: every node under a node, in source order, and the local
names that nodes and declarations bind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields

from rulelang import ast


def walk(node: object) -> Iterator[ast.Node]:
    """Every AST node below ``node`` (a node or a tuple of them), ``node`` included, in
    source order (no recursion)."""
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, ast.Node):
            yield n
            stack.extend(getattr(n, name) for name in _children(type(n)))


_CHILDREN: dict[type, tuple[str, ...]] = {}


def _children(kind: type) -> tuple[str, ...]:
    """The fields of a node type that may hold nodes, last first (computed once per type)."""
    names = _CHILDREN.get(kind)
    if names is None:
        names = _CHILDREN[kind] = tuple(f.name for f in reversed(fields(kind)) if f.name not in ("span", "name_span"))
    return names


# The attributes of each node that bind a local name.
BINDERS: dict[type[ast.Node], tuple[str, ...]] = {
    ast.Let: ("name",), ast.Roll: ("name",), ast.RandomPick: ("name",), ast.CallLet: ("name",),
    ast.For: ("var",), ast.Choose: ("var",), ast.Simultaneous: ("player_var", "var"),
    ast.CompClause: ("var",), ast.Param: ("name",), ast.ScoreDecl: ("name",), ast.TiebreakDecl: ("name",)}


def bound_names(node: ast.Node) -> list[str]:
    """The local names that ``node`` itself binds (a 'let', a 'for', a parameter...)."""
    return [str(getattr(node, attr)) for attr in BINDERS.get(type(node), ())]


def local_names(decl: ast.Decl) -> set[str]:
    """Every name that ``decl`` binds somewhere (and 'me' where the engine binds it)."""
    names = {"me"} if getattr(decl, "owner", None) is not None else set()
    for node in walk(decl):
        names.update(bound_names(node))
    return names

