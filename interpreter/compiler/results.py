"""What a list built by the rules' text holds, and what a call of a ruleset's function gives,
from the text alone: the kinds that ``ExpressionWriter.items_kind`` (codegen.py) does not
read off one name or query. A function's call gives the value of its body, so its body's
kind (its held parameters known, scope.py) is the call's; a function whose body calls
itself back is not known (the question is open while it is asked).

Nothing here is checked while the game runs: each kind is proven by the text, so code that
reads by it reads what is there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import Component
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter

Kind = tuple[type, int]


def built_kind(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> Kind | None:
    """The kind of ``node`` when it builds a list (``a + b`` of two lists of one kind or of
    one and ``[]``, a list of items of one kind, a comprehension of such items or that keeps
    the items of its source, ``list(x)``, ``sorted(...)`` of such items) or calls a function
    of the ruleset whose body's kind is known; else None."""
    cat = writer.cat
    if isinstance(node, ast.BinaryOp) and node.op == "+":
        return writer.either_list(node.left, node.right, scope)
    if isinstance(node, ast.ListExpr) and node.items:
        kinds = {writer.items_kind(item, scope) for item in node.items}
        (kind,) = kinds if len(kinds) == 1 else (None,)
        return None if kind is None else (kind[0], kind[1] + 1)
    if isinstance(node, (ast.Comprehension, ast.Generator)) and len(node.clauses) == 1 \
            and isinstance(node.element, ast.Name) and node.element.name == node.clauses[0].var:
        return _items_of(writer, node.clauses[0].source, scope)
    if isinstance(node, ast.Comprehension):
        return _elements_kind(writer, node, scope)
    if not isinstance(node, ast.Call) or node.function in cat.component_types:
        return None
    if node.function == "sorted" and len(node.args) == 1 and node.function not in cat.functions:
        return built_kind(writer, node.args[0], scope) if isinstance(node.args[0], ast.Generator) \
            else _items_of(writer, node.args[0], scope)
    if node.function in cat.functions:
        return _result_kind(writer, cat.functions[node.function])
    if node.function == "list" and len(node.args) == 1 and node.function not in cat.load_time_functions:
        return _items_of(writer, node.args[0], scope)
    return None


def _elements_kind(writer: ExpressionWriter, node: ast.Comprehension, scope: Scope) -> Kind | None:
    """The kind of the list a comprehension makes, one list deeper than its element's, with
    each clause's variable known to hold what the items of its source certainly are."""
    inner = scope.inner()
    for number, clause in enumerate(node.clauses):
        var = inner.python[clause.var] = f"_kind{number}"   # (a name for this question only)
        writer.bind_item_kind(var, clause.source, inner)
    kind = writer.items_kind(node.element, inner)
    return None if kind is None else (kind[0], kind[1] + 1)


def _items_of(writer: ExpressionWriter, source: ast.Expr, scope: Scope) -> Kind | None:
    """The kind of a list of the items of ``source`` (a zone's are components)."""
    if writer.zone_read(source, scope):
        return Component, 1
    kind = writer.items_kind(source, scope)
    return kind if kind is not None and kind[1] >= 1 else None


def _result_kind(writer: ExpressionWriter, decl: ast.FunctionDecl) -> Kind | None:
    """The kind of what function ``decl`` gives: its body's, read with its held parameters."""
    found = writer.results
    if decl.name not in found:
        found[decl.name] = None   # (asked again while it is asked: not known)
        if decl.body is not None:
            params = {p.name: f"_p{i}" for i, p in enumerate(decl.params)}
            scope = Scope(set(), str, dict(params), "0", env="None")
            scope.tables, scope.learnt = {}, True
            for param, promise in writer.held.of(decl).items():
                scope.learn(params[param], promise)
            found[decl.name] = writer.items_kind(decl.body, scope)
    return found[decl.name]
