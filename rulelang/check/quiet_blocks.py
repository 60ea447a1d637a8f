"""E204 for a ``quiet { ... }`` block (or the block of ``log ... instead``) left half-way:
a ``break`` or ``continue`` of a loop outside it, a ``return`` or a ``next`` inside it would
leave the block without its end, and the narration would stay quiet after it. W312 for a
decision written in a quiet block: the narrated log would never tell the choice made; W313
for a ``log turn`` there: the narrated log would never head the turn.

The parser writes a quiet block as its two marks (``ast.Narrate``) around its statements, in
the block that holds it; this check counts the ends open at each statement.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from rulelang import ast
from rulelang.check.graph import DECISIONS
from rulelang.diagnostics import Diagnostic

_HINT = "end the quiet block first, or set a variable and leave after the block"


def check_quiet_exits(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E204: a statement that would leave a quiet block before its end."""
    for decl in decls:
        body = getattr(decl, "body", None)
        if isinstance(body, ast.Block):
            yield from _scan(body, 0, 0)


def check_quiet_decisions(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """W312: a choice, a menu or a simultaneous choice written in a quiet block."""
    for decl in decls:
        body = getattr(decl, "body", None)
        if isinstance(body, ast.Block):
            yield from _decisions(body, 0)


def check_quiet_turns(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """W313: a ``log turn`` written in a quiet block."""
    for decl in decls:
        body = getattr(decl, "body", None)
        if isinstance(body, ast.Block):
            for statement in _quiet_statements(body, 0):
                if isinstance(statement, ast.Turn):
                    yield Diagnostic("W313", "a 'log turn' in a quiet block: the narrated log will not head the "
                                             "turn", statement.span, hint="write 'log turn' before the quiet block")


def _decisions(block: ast.Block, open_outside: int) -> Iterator[Diagnostic]:
    for statement in _quiet_statements(block, open_outside):
        if isinstance(statement, DECISIONS):
            yield Diagnostic("W312", "a decision in a quiet block: the narrated log will not tell the choice made",
                             statement.span, hint="end the quiet block before the decision")


def _quiet_statements(block: ast.Block, open_outside: int) -> Iterator[ast.Stmt]:
    """The statements written in a quiet block, in ``block`` (inside ``open_outside`` quiet
    blocks) and the blocks within it."""
    depth = 0
    for statement in block.statements:
        if isinstance(statement, ast.Narrate) and statement.mark != "heading":
            depth += 1 if statement.mark == "quiet" else -1
        elif open_outside + depth > 0:
            yield statement
        for inner, _ in _inner_blocks(statement):
            yield from _quiet_statements(inner, open_outside + depth)


def _scan(block: ast.Block, open_in_loop: int, open_in_all: int) -> Iterator[Diagnostic]:
    """The exits in ``block``, where ``open_in_loop`` quiet blocks are open within the
    nearest loop and ``open_in_all`` within the whole body."""
    depth = 0
    for statement in block.statements:
        if isinstance(statement, ast.Narrate) and statement.mark != "heading":
            depth += 1 if statement.mark == "quiet" else -1
        elif isinstance(statement, (ast.Break, ast.Continue)) and open_in_loop + depth > 0:
            word = "break" if isinstance(statement, ast.Break) else "continue"
            yield Diagnostic("E204", f"'{word}' leaves a quiet block before its end", statement.span, hint=_HINT)
        elif isinstance(statement, (ast.Return, ast.Next)) and open_in_all + depth > 0:
            word = "return" if isinstance(statement, ast.Return) else "next"
            yield Diagnostic("E204", f"'{word}' leaves a quiet block before its end", statement.span, hint=_HINT)
        for inner, is_loop in _inner_blocks(statement):
            yield from _scan(inner, 0 if is_loop else open_in_loop + depth, open_in_all + depth)


def _inner_blocks(statement: ast.Stmt) -> Iterator[tuple[ast.Block, bool]]:
    """The blocks written in ``statement``, each with whether it is a loop's body."""
    if isinstance(statement, ast.If):
        yield from ((body, False) for _, body in statement.branches)
        if statement.otherwise is not None:
            yield statement.otherwise, False
    elif isinstance(statement, (ast.For, ast.While, ast.Repeat)):
        yield statement.body, True
    elif isinstance(statement, ast.Part):
        yield statement.body, False
    elif isinstance(statement, ast.Choose) and statement.otherwise is not None:
        yield statement.otherwise, False
    elif isinstance(statement, ast.Menu):
        yield from ((option.body, False) for option in statement.options)
