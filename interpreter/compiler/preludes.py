"""The blocks where the function is entered from outside, run first where it is entered there.

A resumable function (resumable.py) finds the block it is entered at by its dispatch: the
tests of the counter's ranges, then of the blocks one by one (blocks.py), three to seven tests
where a decision goes on, at every decision. Where the function is entered from outside (the
operation after one that pauses, a menu's options, where it goes on after a call), that
block's lines are written once more before the function's loop, under one test of the
counter (up to MOST of them, the others tested in turn): the run goes on there at once. The
blocks those lines go on to where they are known (a 'continue' after ``pc = N``, or their end
after it: the next round of a loop, the menu again, the function's end) are written there in
place too, as tails.py writes short ones in the loop, up to LINES lines; where the lines still
go back to the dispatch (``continue``) or fall off their end, the loop's dispatch finds the
block ``pc`` names, as it would have. Only the function's entry tests them: the rounds of its
loop do not. The same lines run in the same order with the same counts: steps, counters,
spans and errors are those of the dispatch.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .blocks import Block, Line, jump_target
from .optimistic import in_loops
from .tails import LEAVES, ended, entered_at, joined

if TYPE_CHECKING:
    from ..model.program import Code

__all__ = ["preludes"]

MOST = 3   # the positions a function is entered at that get their block first (each costs the others a test)
DEPTH = 2   # blocks written in place in a prelude, in those, and so on, up to this depth
LINES = 150   # the most lines of one prelude (less deep where it would be longer)

_SETS = re.compile(r"(?<![.\w])pc = (\d+)(?: if .* else (\d+))?$")   # a line that sets the counter (to what)


def preludes(code: Code, blocks: list[Block]) -> list[Line]:
    """The lines, before the function's loop (at its indent), that run the block of each of up
    to MOST positions where the function is entered from outside (``_entered_at``), when ``pc``
    is there; each goes on in place to the blocks it goes to where they are known (``_continued``)."""
    lines: list[Line] = []
    for position, body in [(at, body) for at in _entered_at(code, blocks)
                           for body in [_block_at(blocks, at)] if body is not None][:MOST]:
        test = "elif" if lines else "if"   # (after one, on to the loop's dispatch at once)
        lines += [(f"    {test} pc == {position}:", None), ("        while True:", None),
                  *((f"            {line}", span) for line, span in _reached([*_left(_continued(body, blocks)),
                                                                              ("break", None)]))]
    return lines


def _reached(lines: list[Line]) -> list[Line]:
    """``lines`` without those after a 'return', 'break' or 'continue' in the same block (never run)."""
    kept: list[Line] = []
    gone: int | None = None   # (the indent of the last line that leaves: those after it at it are not run)
    for line, span in lines:
        indent = len(line) - len(line.lstrip(" "))
        if gone is not None and indent >= gone:
            continue
        gone = indent if LEAVES.fullmatch(line.strip()) else None
        kept.append((line, span))
    return kept


def _entered_at(code: Code, blocks: list[Block]) -> list[int]:
    """Where the function is entered from outside, in this order: where the run goes on after
    an operation that pauses (``_paused_at``); a menu's other options and a choice's
    'otherwise' (the blocks the run goes on at that no block goes to); the operations that
    pause themselves (a procedure run as a Python function pushes its frame there, and the
    function runs the operation); and where it goes on after a call (if the procedure called
    paused: each call a position, so they come last)."""
    found = _paused_at(code)
    firsts = {first for first, _, _ in blocks}
    gone_to = {int(n) for _, _, body in blocks for line, _ in body
               for sets in [_SETS.search(line.strip())] if sets is not None for n in sets.groups() if n is not None}
    found += [at for at in sorted(code.resumed) if at in firsts and at not in gone_to and at not in found]
    found += [at for at in sorted(code.stops) if at not in code.local and at not in found]
    found += [at + 1 for at in sorted(set(range(len(code.ops))) - code.local - code.stops)   # (the frame's
              if at + 1 not in found]                                                           # counter as written)
    return [at for at in found if at < len(code.ops)]


def _continued(body: list[Line], blocks: list[Block]) -> list[Line]:
    """``body`` with the blocks it goes to (by 'continue', or falling off its end with ``pc``
    set) written in place where they are known, as deep as LINES allows."""
    for depth in range(DEPTH, 0, -1):
        lines = _reached(joined(body, blocks, depth))
        if len(lines) <= LINES:
            return lines
    return ended(body)


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
    lines = list(in_loops(body))
    assert not any(line.strip() == "break" and not loops for (line, _), loops in lines), \
        "a block that leaves the function's loop (a prelude's 'break' would not)"
    return [(line.replace("continue", "break") if line.strip() == "continue" and not loops else line, span)
            for (line, span), loops in lines]
