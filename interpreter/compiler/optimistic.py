"""A resumable function (resumable.py) whose step budget is tested only where it goes back.

The blocks of a resumable function (blocks.py) test the budget before each of them (``if
steps + k > limit:``, handing the run to ``run_one``) and after each operation counted
alone (``if steps > limit:``), so that a run past the budget fails at the very operation
the run loop, counting one by one, fails at. A decision almost never comes near the
budget: the function written here counts its steps as that one does (the same ``steps +=
k`` where they were), but tests them only before each ``continue`` (every round of a loop
goes back to the top of the function's ``while True`` there, and only there) and the run
loop tests them where it stops (``State``): a run that passes the budget still stops, after
at most one more round of blocks. The count is exact, so a run of these functions passes
the budget if and only if the run of the tested ones does, and then it fails: the state
puts itself back and runs the same decision again with each operation counted one by one
(state/precise.py), which fails where, and as, the tested functions fail.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .blocks import Line
from .line_blocks import indent_of

__all__ = ["OVERRUN", "in_loops", "untested"]

OVERRUN = "if steps > limit: raise _runaway(limit)"   # (where the function goes back: the budget's one test)

_TESTS = re.compile(r" *if steps (\+ \d+ )?> limit:.*")   # a test of the budget (its lines under it go with it)
_HEADER = re.compile(r" *(if|elif|else|for|while|try|except|finally|with)\b.*:( *#.*)?")
_LOOP = re.compile(r" *(for|while) .*:( *#.*)?")
_GOES_BACK = re.compile(r"^ *(?:[^#\n]*[:;])? *continue\b")   # a 'continue' statement, alone or not (no comment)
_MAIN = "    while True:"   # the function's own loop, whose 'continue' goes back to the dispatch


def untested(lines: list[Line]) -> list[Line]:
    """The lines of a resumable function (from its ``def`` on) without the tests of the
    budget, and with one before each 'continue' of the function's own loop."""
    kept: list[Line] = []
    skipped_under: int | None = None   # (the indent of a test dropped: the lines under it go with it)
    for (line, span), loops in in_loops(lines):
        indent = indent_of(line)
        if skipped_under is not None and indent > skipped_under:
            continue
        skipped_under = indent if "steps" in line and _TESTS.fullmatch(line) else None
        if skipped_under is not None:
            continue
        if "continue" in line and _GOES_BACK.search(line) and loops == (len(_MAIN) - len(_MAIN.lstrip()),):
            # (a way back without the test would let a runaway loop of the rules run for good)
            assert line.strip() == "continue", f"a way back that the budget's test cannot precede: {line!r}"
            kept.append((" " * indent + OVERRUN, None))
        kept.append((line, span))
    return _filled(kept)


def in_loops(lines: Iterable[Line]) -> Iterator[tuple[Line, tuple[int, ...]]]:
    """Each line with the indents of the 'for' and 'while' loops of ``lines`` it lies in,
    outermost first (a loop's own header is not in it)."""
    loops: list[int] = []
    for line, span in lines:
        indent = indent_of(line)
        while loops and indent <= loops[-1]:
            loops.pop()
        yield (line, span), tuple(loops)
        if _LOOP.fullmatch(line):
            loops.append(indent)


def _filled(lines: list[Line]) -> list[Line]:
    """``lines`` with ``pass`` in each block whose only lines were tests of the budget."""
    filled: list[Line] = []
    for at, (line, span) in enumerate(lines):
        filled.append((line, span))
        if _HEADER.fullmatch(line) and (at + 1 == len(lines) or indent_of(lines[at + 1][0]) <= indent_of(line)):
            filled.append((" " * (indent_of(line) + 4) + "pass", None))
    return filled

