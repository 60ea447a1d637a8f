"""Walking the AST of a ruleset: every node under a node, in source order, and the local
names that nodes and declarations bind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import fields

from rulelang import ast


def walk(node: object) -> Iterator[ast.Node]:
    """Every AST node below ``node`` (a node or a tuple of them), ``node`` included, in
    source order (no recursion). The nodes of a declaration are listed once and kept (the
    checks walk each declaration several times; an AST never changes)."""
    if isinstance(node, ast.Decl):
        return iter(_declaration_nodes(node))
    if isinstance(node, tuple) and all(isinstance(item, ast.Decl) for item in node):
        return (n for decl in node for n in _declaration_nodes(decl))
    return iter(_nodes(node))


def _nodes(node: object) -> list[ast.Node]:
    """The nodes of ``walk``, listed."""
    found: list[ast.Node] = []
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, ast.Node):
            found.append(n)
            stack.extend(getattr(n, name) for name in _children(type(n)))
    return found


_KEPT: dict[int, tuple[ast.Decl, tuple[ast.Node, ...]]] = {}   # by id: the declaration kept, so its id stays its own
MAX_KEPT = 4096


def _declaration_nodes(decl: ast.Decl) -> tuple[ast.Node, ...]:
    kept = _KEPT.get(id(decl))
    if kept is not None and kept[0] is decl:
        return kept[1]
    if len(_KEPT) >= MAX_KEPT:
        _KEPT.clear()
    nodes = tuple(_nodes(decl))
    _KEPT[id(decl)] = (decl, nodes)
    return nodes


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


def bound_by_one(params: Iterable[str], body: ast.Block | None) -> frozenset[str]:
    """The names of a procedure (its parameters ``params``, its ``body``) that one statement
    binds and nothing else binds or assigns (a comprehension's variable is its own: it never
    binds the procedure's local of its name, which keeps its value in the comprehension's
    text and after it)."""
    counts: Counter[str] = Counter(params)
    for node in walk(body) if body is not None else ():
        if not isinstance(node, ast.CompClause):
            counts.update(bound_names(node))
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
            counts[node.target.name] += 2
    return frozenset(name for name, count in counts.items() if count == 1 and name not in params)


def names_bound_once(params: tuple[str, ...], body: ast.Block | None) -> frozenset[str]:
    """The names of a procedure or phase (its parameters ``params``, its ``body``) that one
    'let' binds and nothing else binds or assigns."""
    lets = {node.name for node in walk(body) if isinstance(node, ast.Let)} if body is not None else set()
    return bound_by_one(params, body) & lets
