"""A statement's ``try`` that names a local read before it has a value, dropped from a block of
a resumable function (blocks.py) where its lines no longer read the environment.

A statement that reads a local of the rules from the environment runs in ``try: ... except
KeyError as error: raise _unbound(error, K) from None``, so that a local read before it has a
value fails with the rules' error. Once its reads are taken from Python locals that an earlier
line of the block read (held_reads.py), the lines under the ``try`` read no entry of the
environment and hand it to nothing (no ``env``, no frame): no KeyError of a local can arise
there. The ``try`` is then dropped and its lines run as they are, so that a ``continue`` among
them is the function's own and the block it goes to may be written there (tails.py). Any
other KeyError of those lines (a map read in place without a player's entry, the only one
they may raise) is still the rules' error: ``Module.locate`` makes it so where the
``try`` did, at the span of the same line.

The resumable function compiled tests the step budget only where it goes back
(optimistic.py), and whatever fails in it runs again one operation at a time, where the
error is located: it locates none itself, so it drops every such ``try`` (``anywhere``).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .line_blocks import indent_of

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["untried"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_READS = re.compile(r"\b(env|fr)\b")   # a read of the environment, or the frame that holds it, handed on
_HANDLER = re.compile(r"except KeyError as error:")
_RAISED = re.compile(r"raise _unbound\(error, _k\d+\) from None")


def untried(lines: list[Line], anywhere: bool = False) -> list[Line]:
    """``lines`` (a block's) with each ``try`` of an unbound local whose lines read no entry of
    the environment (``anywhere``: every one) replaced by those lines, one level less indented."""
    found = list(lines)
    at = 0
    while at < len(found):
        end = _bare_try(found, at, anywhere)
        if end is None:
            at += 1
            continue
        body = found[at + 1:end]
        found[at:end + 2] = [(line[4:], span) for line, span in body]
    return found


def _bare_try(lines: list[Line], at: int, anywhere: bool) -> int | None:
    """Where the line at ``at`` opens such a ``try``, the position of its handler; else None."""
    line = lines[at][0]
    if line.lstrip(" ") != "try:":
        return None
    indent = indent_of(line)
    end = next((n for n in range(at + 1, len(lines)) if indent_of(lines[n][0]) <= indent), len(lines))
    if end == at + 1 or end + 1 >= len(lines):
        return None
    handler, raised = lines[end][0], lines[end + 1][0]
    if indent_of(handler) != indent or not _HANDLER.fullmatch(handler.lstrip(" ")) \
            or indent_of(raised) != indent + 4 or not _RAISED.fullmatch(raised.lstrip(" ")):
        return None
    after = lines[end + 2][0] if end + 2 < len(lines) else ""
    if after and indent_of(after) == indent and after.lstrip(" ").startswith(("except", "else:", "finally:")):
        return None
    if not anywhere and any(_READS.search(text) for text, _ in lines[at + 1:end]):
        return None
    return end

