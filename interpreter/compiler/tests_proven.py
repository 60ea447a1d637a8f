"""A test of two integer variables left out where the test around it already decided it.

A loop's guard often follows a test of the same two variables: ``for p in line { if drawn >=
capacity { break }  let lost = false  while drawn < capacity {...} }``. The resumable code
writes the block after the test in place in its branch (tails.py), so the guard's test is
written inside the branch where the first one failed:

    if not ((st.global_values[K1] >= st.global_values[K2])):
        ...
        if not ((st.global_values[K1] < st.global_values[K2])):
            (the loop is over)

Where both variables are declared ``int`` (held to Python ``int`` at every write and in a
state read back: ``Declared.fits`` tests the class), ``not (a >= b)`` is ``a < b``, so the
inner test is certainly false and its lines never run. They are left out: the test (two
look-ups of the variables' dict and a comparison) and the branch it would have taken.

The inner test is left out only where it certainly follows the outer one's failure in its
branch (a line of the branch, or of a block the branch opens) with nothing between that may
write a variable (globals_forwarded.stops), nor a loop (a later round may follow a write of
its own). Comparing two integers cannot fail, so no error and no span changes; every line
that runs is the same.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from .globals_forwarded import stops
from .line_blocks import end_of_block, indent_of, is_blank

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["tests_proven"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_TEST = re.compile(r"( *)if not \(\(st\.global_values\[(_k\d+)\] (<=|>=|<|>|==|!=) st\.global_values\[(_k\d+)\]\)\):")
_OPPOSITE = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
_LOOP = re.compile(r" *(?:for|while|async for)\b")


def tests_proven(lines: list[Line], integers: Collection[str]) -> list[Line]:
    """``lines`` (a generated function's) without each test ``if not ((a OP b)):`` of two
    global variables whose keys' constants are in ``integers`` (declared ``int``) that
    certainly runs where the test ``if not ((a OP' b)):`` around it failed, OP' the
    opposite of OP, with nothing between that may write a variable; its lines with it."""
    texts = [text for text, _ in lines]
    dropped: set[int] = set()
    emptied: dict[int, str] = {}   # a line left out whose block would have no other: ``pass`` there
    for at, text in enumerate(texts):
        outer = _TEST.fullmatch(text)
        if outer is None or at in dropped or outer.group(2) not in integers or outer.group(4) not in integers:
            continue
        end = end_of_block(texts, at)
        wanted = (outer.group(2), _OPPOSITE[outer.group(3)], outer.group(4))
        line = at + 1
        while line < end:
            inner = _TEST.fullmatch(texts[line])
            if inner is not None and inner.group(2, 3, 4) == wanted:
                last = end_of_block(texts, line)
                if last < len(texts) and indent_of(texts[last]) == indent_of(texts[line]) \
                        and texts[last].lstrip().startswith(("elif ", "else:")):
                    break   # (its 'else' would be left alone)
                dropped.update(range(line, last))
                if not _others(texts, dropped, line, last):
                    emptied[line] = texts[line][:indent_of(texts[line])] + "pass"
                line = last
                continue
            if is_blank(texts[line]):
                line += 1
                continue
            if stops(texts[line]) or _LOOP.match(texts[line]):
                break
            line += 1
    return [(emptied[at], None) if at in emptied else line for at, line in enumerate(lines)
            if at not in dropped or at in emptied]


def _others(texts: list[str], dropped: set[int], first: int, last: int) -> bool:
    """Whether the block holding the lines ``first..last-1`` keeps another statement."""
    indent = indent_of(texts[first])
    for step, start in ((-1, first - 1), (1, last)):
        at = start
        while 0 <= at < len(texts) and (is_blank(texts[at]) or at in dropped or indent_of(texts[at]) > indent):
            at += step
        if 0 <= at < len(texts) and indent_of(texts[at]) == indent:
            return True
    return False
