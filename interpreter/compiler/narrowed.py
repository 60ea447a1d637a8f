"""A 'let' local read as a component by the first test of an 'if': known a component in the
rest of the statement.

``c.name``, where only components have an attribute so named, fails for any other value (a
none, a player...): the code of ``if c.power == eight { ... } elif c.power != plain { ... }``
goes past the first test only if ``c`` holds a component. Where ``c`` is a local that one
'let' alone binds (lets.py: nothing else binds or assigns it), the later tests of the
statement, its branches and its 'else' read ``c.colour``, ``c.rank``... without testing its
kind (codegen.py: a kind the scope knows for certain), the same value read, or the same error
of a component without the field. Only the reads the first test makes whatever its values
(down the left of its operators, which Python computes first) count; the statement after the
'if' is not taught (the first test may be where a loop's body starts again).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import Component
from ..tables.attributes import attribute_readers
from .lets import Facts

if TYPE_CHECKING:
    from .procedures import ProcedureWriter

_LEFT_FIRST = frozenset({"==", "!=", "<", "<=", ">", ">=", "and", "or", "+", "-", "*"})
"""The operators whose left operand is computed whatever the right one is."""


def read_first(writer: ProcedureWriter, condition: ast.Expr, written: str) -> dict[str, Facts | None]:
    """The Python locals of 'let' locals whose field ``condition`` (written as ``written``)
    certainly reads as a component's, each with what was known of it before (None: nothing)."""
    node = condition
    while isinstance(node, (ast.BinaryOp, ast.UnaryOp)):
        if isinstance(node, ast.UnaryOp):
            node = node.operand
        elif node.op in _LEFT_FIRST:
            node = node.left
        else:
            return {}
    if not isinstance(node, ast.Attribute) or not isinstance(node.target, ast.Name) \
            or node.target.name not in writer.once \
            or set(attribute_readers(writer.cat, node.name)) != {Component}:
        return {}
    local = writer.scope().python.get(node.target.name)
    if local is None or not local.isidentifier() \
            or f"else _no_attribute({local}, {writer.constant(node.name)})" not in written:
        return {}
    return {local: writer.known.get(local)}


def known_component(writer: ProcedureWriter, before: dict[str, Facts | None]) -> None:
    """Teach the writer that each local of ``before`` holds a component."""
    for local, facts in before.items():
        old = facts or Facts(None, False, None)
        writer.known[local] = old._replace(kind=(Component, 0))


def forget(writer: ProcedureWriter, before: dict[str, Facts | None]) -> None:
    """What the writer knew of each local of ``before`` before it was taught."""
    for local, facts in before.items():
        if facts is None:
            writer.known.pop(local, None)
        else:
            writer.known[local] = facts
