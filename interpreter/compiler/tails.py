"""A block of a resumable function (blocks.py) that goes on to a block known where it is
written runs that block's lines in place, instead of going back to the dispatch.

A block that leaves by ``pc = T`` then ``continue`` (a jump, the next round of a loop, a
test's other branch) goes back to the top of the function's ``while True``, whose tests of
the counter then find block ``T`` again: about as many tests as blocks before it, at every
round of a loop. Where ``T`` is known as the text is written (the lines before the
``continue`` set ``pc`` to a number and only count the step), the lines of ``T``'s block are
written there instead, ``pc`` set as the dispatch would have found it: the same lines run, in
the same order, with the same counters, spans and steps, only the tests of the dispatch are
not made. Only a short block's lines are written in place, and in them again only DEPTH
levels deep, so a function grows by a bounded amount; where they fall off their end (they
went on to the block after ``T``), ``continue`` dispatches on ``pc`` as the tests after ``T``
would have.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["LEAVES", "ended", "entered_at", "in_place", "joined"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)
Block = tuple[int, "int | None", list[Line]]  # the operations a block starts at (a second: or None), its lines

SHORT = 60  # the most lines of a block written in place of a 'continue' to it
DEPTH = 2  # blocks written in place in a block written in place, and so on, up to this depth

_SETS = re.compile(r"( *)pc = (\d+)$")
_COUNTS = re.compile(r" *(steps \+= \d+|if steps > limit:)$")
_BACK = re.compile(r"( *)if pc <= (\d+):$")
_GUARD = re.compile(r"if steps \+ \d+ > limit:.*")
LEAVES = re.compile(r"(return|continue|break|raise)\b.*")   # a line after which its block runs no more


def in_place(found: list[Block]) -> list[Block]:
    """The blocks ``found`` (blocks.blocks_at), each 'continue' to a short block known where
    it is written replaced by that block's lines."""
    short: dict[int, tuple[list[Line], bool]] = {}   # (its lines, and whether it is entered at two)
    for first, side, body in found:
        if len(body) <= SHORT:
            short[first] = body, side is not None
            if side is not None:
                short[side] = body, True
    return [(first, side, _joined(body, short, DEPTH)) for first, side, body in found]


def joined(body: list[Line], found: list[Block], depth: int) -> list[Line]:
    """``body`` with each 'continue' to a block of ``found`` (any length) known where it is
    written replaced by that block's lines, and so on in them, ``depth`` levels deep."""
    every: dict[int, tuple[list[Line], bool]] = {}
    for first, side, lines in found:
        every[first] = ended(lines), side is not None
        if side is not None:
            every[side] = ended(lines), True
    return _joined(ended(body), every, depth) if depth > 0 else body


def ended(lines: list[Line]) -> list[Line]:
    """``lines`` with a 'continue' at their end where they fall off it (the dispatch then
    finds the block after them: ``pc`` names it, where the lines before set it)."""
    last = next((line for line, _ in reversed(lines) if not line.startswith(" ")), "")
    return lines if LEAVES.fullmatch(last) else [*lines, ("continue", None)]


def _joined(body: list[Line], short: dict[int, tuple[list[Line], bool]], depth: int) -> list[Line]:
    """``body`` with each 'continue' to a block of ``short`` replaced by its lines (and so on
    in them, ``depth`` levels deep)."""
    joined: list[Line] = []
    at = 0
    while at < len(body):
        line = body[at][0]
        back = _BACK.fullmatch(line)
        if line.strip() == "continue" or (back is not None and at + 1 < len(body)
                                          and body[at + 1][0] == back.group(1) + "    continue"):
            indent = len(line) - len(line.lstrip(" "))
            target = _target(body, at, indent) if _at_top(body, at, indent) else None
            if target is not None and target in short and (back is None or target <= int(back.group(2))):
                lines = entered_at(short[target][0], target) if short[target][1] else short[target][0]
                lines = _joined(lines, short, depth - 1) if depth > 1 else lines
                joined[len(joined) - 3:], lines = _one_test(joined[-3:], lines, " " * indent)
                joined += [(" " * indent + text, span) for text, span in lines]
                joined.append((" " * indent + "continue", None))
                at += 1 if back is None else 2
                continue
        joined.append(body[at])
        at += 1
    return joined


def _one_test(counted: list[Line], lines: list[Line], indent: str) -> tuple[list[Line], list[Line]]:
    """The count of a step and its test (``counted``: ``steps += n``, ``if steps > limit:``,
    the raise) then the test of the budget that a block's ``lines`` start with (``if steps +
    k > limit:``, handing the run to ``run_one``) as one test on the way that goes on: the
    first made only where the second is true (``steps > limit`` is, only if ``steps + k >
    limit`` is). Else both as they are."""
    texts = [line for line, _ in counted]
    if len(texts) < 3 or len(lines) < 3 or not re.fullmatch(rf"{indent}steps \+= \d+", texts[0]) \
            or texts[1] != f"{indent}if steps > limit:" or not texts[2].endswith("raise _runaway(limit)") \
            or not _GUARD.fullmatch(lines[0][0]):
        return counted, lines
    guard, raised = lines[0], (f"    {texts[2][len(indent):]}", counted[2][1])
    return [counted[0]], [guard, ("    if steps > limit:", counted[1][1]), raised, *lines[1:]]


def entered_at(body: list[Line], at: int) -> list[Line]:
    """The lines of a block ``body`` that run where it is entered at ``at``: those of its
    branch for ``at`` where it is entered at either of two operations (blocks.py,
    ``if pc == A: ... else: ...``), then those after the two branches."""
    tested = re.fullmatch(r"if pc == (\d+):", body[0][0])
    if tested is None:
        return body
    otherwise = next(n for n, (line, _) in enumerate(body) if line == "else:")
    end = next((n for n in range(otherwise + 1, len(body)) if not body[n][0].startswith(" ")), len(body))
    branch = body[1:otherwise] if int(tested.group(1)) == at else body[otherwise + 1:end]
    return [*((line[4:], span) for line, span in branch), *body[end:]]


def _at_top(body: list[Line], at: int, indent: int) -> bool:
    """Whether line ``at`` (at ``indent``) is in no loop of its own and no ``try`` (its
    'continue' is the function's, and an error of lines written there is not caught)."""
    for line, _ in reversed(body[:at]):
        depth = len(line) - len(line.lstrip(" "))
        text = line.lstrip()
        if depth < indent:   # (the line that opens the block it is in)
            if text.startswith(("for ", "while ", "try:", "except", "finally:")):
                return False
            # (an 'else:' or 'elif' stands for the 'if' before it at its depth: look on to it)
            indent = depth + 1 if text.startswith(("else:", "elif ")) else depth
    return True


def _target(body: list[Line], at: int, indent: int) -> int | None:
    """The position the counter holds at line ``at`` (at ``indent``) where the lines before
    it at that indent set it to a number and then only count the step (the lines under
    them, more indented, only fail); None where it is not known there."""
    for line, _ in reversed(body[:at]):
        depth = len(line) - len(line.lstrip(" "))
        if depth > indent:
            continue
        if depth < indent:
            return None
        sets = _SETS.fullmatch(line)
        if sets is not None:
            return int(sets.group(2))
        if _COUNTS.fullmatch(line) is None:
            return None
    return None
