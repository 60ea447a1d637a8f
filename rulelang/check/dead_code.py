"""W309: statements that never run, because a statement before them in the same block
always leaves it: ``end game``, ``next``, ``return``, ``break``, ``continue``; an ``if``
whose every branch (``else`` included) leaves; a ``repeat`` without ``until`` that no
``break`` of its own ends.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from rulelang import ast
from rulelang.check.tree import walk
from rulelang.diagnostics import Diagnostic, Span

_LEAVING: dict[type[ast.Node], str] = {ast.EndGame: "end game", ast.Next: "next", ast.Return: "return",
                                       ast.Break: "break", ast.Continue: "continue"}
_LOOPS = (ast.For, ast.While, ast.Repeat)


def dead_code(declarations: Iterable[ast.Decl]) -> Iterator[Diagnostic]:
    """W309 at the first statement of each run of statements that never runs."""
    for node in walk(tuple(declarations)):
        if isinstance(node, ast.Block):
            yield from _dead_in(node)


def _dead_in(block: ast.Block) -> Iterator[Diagnostic]:
    statements = block.statements
    for i, statement in enumerate(statements[:-1]):
        leaving = _leaves(statement)
        if leaving is not None:
            first, last = statements[i + 1], statements[-1]
            span = Span(first.span.file, first.span.line, first.span.column, last.span.end_line,
                        last.span.end_column)
            yield Diagnostic("W309", f"this never runs: {leaving}", span,
                             hint=f"remove it, or move it before line {statement.span.line}")
            return


def _leaves(statement: ast.Node) -> str | None:
    """How ``statement`` always leaves its block ("the 'end game' on line 38 leaves the block
    first"...), or None if the statements after it may run."""
    line = statement.span.line
    word = _LEAVING.get(type(statement))
    if word is not None:
        return f"the '{word}' on line {line} leaves the block first"
    if isinstance(statement, ast.If) and statement.otherwise is not None:
        blocks = [block for _, block in statement.branches] + [statement.otherwise]
        if all(_block_leaves(block) for block in blocks):
            return f"the 'if' on line {line} leaves the block in each of its branches"
    if isinstance(statement, ast.Repeat) and statement.until is None and not _breaks(statement.body):
        return f"the 'repeat' on line {line} has no 'break' of its own: nothing after it runs"
    return None


def _block_leaves(block: ast.Block) -> bool:
    return any(_leaves(statement) is not None for statement in block.statements)


def _breaks(node: ast.Node) -> bool:
    """Whether a ``break`` stands below ``node`` outside the loops inside it (the body of a
    loop: a ``break`` that ends that loop)."""
    for child in ast.children(node):
        if isinstance(child, ast.Break) or (not isinstance(child, _LOOPS) and _breaks(child)):
            return True
    return False
