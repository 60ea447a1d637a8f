"""The block where a decision goes on, run first where a resumable function is entered there.

A resumable function (resumable.py) finds the block it is entered at by its dispatch: the
tests of the counter's ranges, then of the blocks one by one (blocks.py), three to seven tests
where a decision goes on, at every decision. Where the function is entered at the operation
after one that pauses (the operation a choice goes on at, a menu's first option), that block's
lines are written once more before the function's loop, under one test of the counter: the
run goes on there at once, and where those lines went back to the dispatch (``continue``) or
fell off their end (on to the next block), the loop's dispatch finds the block ``pc`` names,
as it would have. Only the function's entry tests them: the rounds of its loop do not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .blocks import Block, Line, jump_target
from .optimistic import in_loops
from .tails import entered_at

if TYPE_CHECKING:
    from ..model.program import Code

__all__ = ["preludes"]

MOST = 2   # the positions a function is entered at that get their block first (each costs the others a test)


def preludes(code: Code, blocks: list[Block]) -> list[Line]:
    """The lines, before the function's loop (at its indent), that run the block of each of up
    to MOST positions where the run goes on after an operation that pauses, when ``pc`` is there."""
    lines: list[Line] = []
    for position in _paused_at(code)[:MOST]:
        body = _block_at(blocks, position)
        if body is None:
            continue
        lines += [(f"    if pc == {position}:", None), ("        while True:", None),
                  *((f"            {line}", span) for line, span in _left(body)), ("            break", None)]
    return lines


def _paused_at(code: Code) -> list[int]:
    """Where the run goes on after each operation that may pause (the one after it, through the
    jumps that follow), in the order of those operations."""
    found: list[int] = []
    for at in sorted(code.stops):
        if at in code.local:
            continue
        position, seen = at + 1, set()
        while code.shapes.get(position, ("",))[0] == "jump" and position not in seen:
            seen.add(position)
            position = jump_target(code.shapes[position][1])
        if position < len(code.ops) and position not in found:
            found.append(position)
    return found


def _block_at(blocks: list[Block], position: int) -> list[Line] | None:
    """The lines that run where the function is entered at ``position``, if a block starts there."""
    for first, side, body in blocks:
        if first == position and side is None:
            return body
        if position in (first, side):
            return entered_at(body, position)
    return None


def _left(body: list[Line]) -> list[Line]:
    """``body`` with each 'continue' of the function's loop made a ``break`` out of the prelude's
    (the loop after it then dispatches on ``pc``, as the 'continue' would have)."""
    return [(line.replace("continue", "break") if line.strip() == "continue" and not loops else line, span)
            for (line, span), loops in in_loops(body)]
