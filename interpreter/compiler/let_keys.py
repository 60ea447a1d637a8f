"""The environment key of a 'let' that hides a local.

A 'let' of a name that the procedure bound before it, outside the 'let''s block, makes a new
variable for the rest of that block (``Compiler.bind_let``): the frame's environment keeps it
under ``NAME@N``, where the 'let' is the Nth 'let' (or 'let x = call/roll/random') of NAME in
the procedure, counted in the order of the text. Formatting a ruleset moves lines and columns
but keeps its statements' order, so a saved state names the same variable before and after
(docs/state-format.md). Saved states before format 4 named it ``NAME@LINE:COL``
(state/let_keys_read.py reads them).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.check.tree import walk

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

LETS = (ast.Let, ast.CallLet, ast.Roll, ast.RandomPick)
"""The statements that bind a name by 'let'."""


def let_ordinals(body: ast.Block | None) -> dict[Span, int]:
    """Each 'let' of ``body`` (by its span): its place among the 'let's of its name in the
    text, from 1."""
    seen: Counter[str] = Counter()
    ordinals: dict[Span, int] = {}
    for node in walk(body) if body is not None else ():
        if isinstance(node, LETS):
            seen[node.name] += 1
            ordinals[node.span] = seen[node.name]
    return ordinals


def hidden_key(name: str, ordinal: int) -> str:
    """The environment key of the ``ordinal``-th 'let' of ``name`` when it hides a local."""
    return f"{name}@{ordinal}"
