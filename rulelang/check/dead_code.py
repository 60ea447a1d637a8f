"""W309: statements that never run, because a statement before them in the same block
never goes on to the next one: ``end game``, ``next``, ``return``, ``break``, ``continue``;
an ``if`` whose every branch (``else`` included) leaves, a menu whose every option leaves; a
``repeat`` (or ``while true``) that no ``break`` of its own ends; a call of a procedure that
never returns. The graph's scan of each body finds them (``graph._Scanner``: the same flow
that decides the phase graph's edges); this says why, in words.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.diagnostics import Diagnostic, Span

if TYPE_CHECKING:
    from rulelang.check.flow_graph import FlowGraph

_LEAVING: dict[type[ast.Node], str] = {ast.EndGame: "end game", ast.Next: "next", ast.Return: "return",
                                       ast.Break: "break", ast.Continue: "continue"}


def check_dead_code(g: FlowGraph, path: str) -> Iterator[Diagnostic]:
    """W309 at the statements after each one that never goes on, to the end of their block."""
    for data in g.nodes.values():
        scan = data.get("scan")
        for stopper, first, last in (scan.dead if scan is not None else ()):
            span = Span(first.span.file, first.span.line, first.span.column, last.span.end_line,
                        last.span.end_column)
            yield Diagnostic("W309", f"this never runs: {_why(stopper)}", span,
                             hint=f"remove it, or move it before line {stopper.span.line}")


def _why(statement: ast.Stmt) -> str:
    """Why nothing after ``statement`` runs, in words."""
    line = statement.span.line
    word = _LEAVING.get(type(statement))
    if word is not None:
        return f"the '{word}' on line {line} leaves the block first"
    if isinstance(statement, ast.If):
        return f"the 'if' on line {line} leaves the block in each of its branches"
    if isinstance(statement, ast.Menu):
        return f"the 'choose' on line {line} leaves the block in each of its options"
    if isinstance(statement, (ast.Repeat, ast.While)):
        loop = "repeat" if isinstance(statement, ast.Repeat) else "while"
        return f"the '{loop}' on line {line} has no 'break' of its own: nothing after it runs"
    if isinstance(statement, (ast.CallStmt, ast.CallLet)):
        return f"the call of '{statement.procedure}' on line {line} never returns"
    return f"the statement on line {line} never goes on to the next one"
