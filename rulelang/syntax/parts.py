"""Named parts (``part NAME { ... }``) in a block of statements: finding them, giving one
a new body, and splicing them into their blocks.

A part is its statements run in place: splicing replaces each part by its statements (a
part within a part too), so no stage after the front end knows that parts exist. These
are pure functions of the AST; what a wrong name means is said in
``rulelang.check.part_overrides``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from rulelang import ast

BlockMap = Callable[[ast.Block], ast.Block]


def parts_in(block: ast.Block) -> Iterator[ast.Part]:
    """Every part of ``block``, parts within blocks and within parts included, in source order."""
    for statement in block.statements:
        if isinstance(statement, ast.Part):
            yield statement
        for inner in _inner_blocks(statement):
            yield from parts_in(inner)


def with_part_body(block: ast.Block, name: str, body: ast.Block) -> ast.Block:
    """``block`` with the body of each part called ``name`` replaced by ``body``."""
    def swap(statement: ast.Stmt) -> ast.Stmt:
        if isinstance(statement, ast.Part) and statement.name == name:
            return replace(statement, body=body)
        return _map_blocks(statement, lambda inner: with_part_body(inner, name, body))
    return replace(block, statements=tuple(swap(s) for s in block.statements))


def splice_parts(block: ast.Block) -> ast.Block:
    """``block`` with every part replaced by its statements, at every depth (``block``
    itself when it holds no part)."""
    if next(parts_in(block), None) is None:
        return block
    statements: list[ast.Stmt] = []
    for statement in block.statements:
        if isinstance(statement, ast.Part):
            statements.extend(splice_parts(statement.body).statements)
        else:
            statements.append(_map_blocks(statement, splice_parts))
    return replace(block, statements=tuple(statements))


def _inner_blocks(statement: ast.Stmt) -> Iterator[ast.Block]:
    """The blocks written directly in ``statement`` (a part's own body included)."""
    if isinstance(statement, ast.If):
        yield from (body for _, body in statement.branches)
        if statement.otherwise is not None:
            yield statement.otherwise
    elif isinstance(statement, (ast.For, ast.While, ast.Repeat, ast.Part)):
        yield statement.body
    elif isinstance(statement, ast.Choose) and statement.otherwise is not None:
        yield statement.otherwise
    elif isinstance(statement, ast.Menu):
        yield from (option.body for option in statement.options)


def _map_blocks(statement: ast.Stmt, change: BlockMap) -> ast.Stmt:
    """``statement`` with ``change`` applied to each block written directly in it."""
    if isinstance(statement, ast.If):
        branches = tuple((condition, change(body)) for condition, body in statement.branches)
        otherwise = change(statement.otherwise) if statement.otherwise is not None else None
        return replace(statement, branches=branches, otherwise=otherwise)
    if isinstance(statement, (ast.For, ast.While, ast.Repeat, ast.Part)):
        return replace(statement, body=change(statement.body))
    if isinstance(statement, ast.Choose) and statement.otherwise is not None:
        return replace(statement, otherwise=change(statement.otherwise))
    if isinstance(statement, ast.Menu):
        return replace(statement, options=tuple(replace(o, body=change(o.body)) for o in statement.options))
    return statement


@dataclass(frozen=True)
class Spliced:
    """Statements that one statement of the text stands for, written in place in the block
    that holds it (``quiet { ... }``: its two ends and its statements between)."""

    statements: tuple[ast.Stmt, ...]


def spliced(statements: Iterable[ast.Stmt | Spliced]) -> Iterator[ast.Stmt]:
    """The statements of a block, each ``Spliced`` written out in place."""
    for statement in statements:
        if isinstance(statement, Spliced):
            yield from statement.statements
        else:
            yield statement
