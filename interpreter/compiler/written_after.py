"""The locals a loop's rounds write to the environment, written once after the loop.

A procedure that may pause, run as a Python function until it does (unpaused.py), keeps each
local in a Python local and writes every value it is given to ``env`` too, so that the
frame it pushes where it pauses holds what the lowered code's would: in a loop, each round
writes its variable and the 'let's of its body (``env[K] = _l12``), dict stores that only a
pause after the loop, or nothing at all, reads. Where the loop's rounds are charged at once
(bulk_rounds.py: its body counts no step, calls nothing and leaves before no round's end),
its body neither reads the environment nor hands it or the frame to anything, nor has a
'continue', and each write is a line of the body's own level (made every round, in the
order of the text), those writes go: after the loop, where it had a round, each entry is
written once from its Python local, which holds the last round's value, as the last round
left it. A round that fails leaves no state the run keeps (the action is run again from the
state before it: state/precise.py), so only the environment after the loop counts, and it
is the same, its new entries in the same order.
"""
from __future__ import annotations

import re

from rulelang.diagnostics import Span

_FOR = re.compile(r"( *)for _l\d+ in (_s\d+):")
_CHARGED = re.compile(r" *_b\d+ = st\.rounds \+ len\((_s\d+)\) <= st\.max_steps")
_WRITE = re.compile(r"env\[_k\d+\] = _l\d+")
_OTHER_USE = re.compile(r"\benv\b|\bfr\b|^\s*(?:continue|break|return)\b")


def written_after_the_loop(lines: list[tuple[str, Span | None]], start: int) -> None:
    """The first loop of ``lines`` from ``start`` (as ``ProcedureWriter.for_over`` wrote it)
    with its writes to the environment moved after it, where that keeps the environment."""
    at = next((k for k in range(start, len(lines)) if _FOR.fullmatch(lines[k][0])), None)
    if at is None:
        return
    found = _FOR.fullmatch(lines[at][0])
    assert found is not None
    indent, items = found.group(1), found.group(2)
    charged = any((c := _CHARGED.fullmatch(text)) is not None and c.group(1) == items for text, _ in lines[start:at])
    end = at + 1
    while end < len(lines) and (lines[end][0].startswith(indent + " ") or not lines[end][0].strip()):
        end += 1
    level = indent + "    "
    writes = [k for k in range(at + 1, end)
              if lines[k][0].startswith(level) and _WRITE.fullmatch(lines[k][0][len(level):])]
    if not charged or not writes or any(_OTHER_USE.search(lines[k][0]) for k in range(at + 1, end) if k not in writes):
        return
    moved = [lines[k] for k in writes]
    kept = [lines[k] for k in range(at + 1, end) if k not in writes]
    if not kept:
        return   # (a body of nothing else: left as it is)
    lines[at + 1:end] = [*kept, (f"{indent}if {items}:", lines[at][1]),
                         *((f"{level}{text.strip()}", span) for text, span in moved)]
