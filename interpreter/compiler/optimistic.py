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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["OVERRUN", "untested"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

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
    at = 0
    loops: list[int] = []   # (the indents of the loops the line is in, innermost last)
    while at < len(lines):
        line, span = lines[at]
        indent = _indent(line)
        if _TESTS.fullmatch(line):
            at += 1
            while at < len(lines) and _indent(lines[at][0]) > indent:
                at += 1
            continue
        while loops and indent <= loops[-1]:
            loops.pop()
        if _GOES_BACK.search(line) and loops == [len(_MAIN) - len(_MAIN.lstrip())]:
            # (a way back without the test would let a runaway loop of the rules run for good)
            assert line.strip() == "continue", f"a way back that the budget's test cannot precede: {line!r}"
            kept.append((" " * indent + OVERRUN, None))
        if _LOOP.fullmatch(line):
            loops.append(indent)
        kept.append((line, span))
        at += 1
    return _filled(kept)


def _filled(lines: list[Line]) -> list[Line]:
    """``lines`` with ``pass`` in each block whose only lines were tests of the budget."""
    filled: list[Line] = []
    for at, (line, span) in enumerate(lines):
        filled.append((line, span))
        if _HEADER.fullmatch(line) and (at + 1 == len(lines) or _indent(lines[at + 1][0]) <= _indent(line)):
            filled.append((" " * (_indent(line) + 4) + "pass", None))
    return filled


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
