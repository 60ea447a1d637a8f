"""A value of a 'log ... instead { }' line that its block has just computed, read from the
block's local instead of again.

``log "" + p + " plays " + pick[p] instead { move pick[p] to p.played }``: the block's move
holds what moves in a local (``_t248 = env[_k242][_l244]``, moves.py) and the line then reads
``pick[p]`` again, two lookups. A value of the line whose text is a read of the procedure's
locals (``env[K]``, then items of it by locals or constants: a map's or a list's item; never
a zone's, whose items a move changes) is the value the block's local holds where that local
is set at the block's own level (it runs whatever the block does) and nothing in the block
binds a local that the text reads (an assignment to ``env``, a loop's or a 'let''s local) nor
leaves the block's straight line (a return, a jump, a pause): the locals are then as they were
when the block computed it, and the values a map or a list holds never change. An error of
the read is the block's, raised before the line either way.
"""
from __future__ import annotations

import re

from .logs import LOUD_MARK

_QUIET_MARK = "st.event_log.append(('narrate', 'quiet'))"
_READ = re.compile(r"env\[_k\d+\](\[(_[lv]\d+|_k\d+|\d+)\])*")
_HELD = re.compile(r"(_t\d+) = (.+)")
_LEAVES = re.compile(r"^\s*(return\b|continue\b|break\b|pc = |fr\.pc\b|yield\b|del env\b)")
_BINDS_ENV = re.compile(r"^\s*env\[|\bfor env\[|\benv\.(pop|clear|update|setdefault)\(|\benv = ")


def held_by_the_block(lines: list[str], indent: int, values: list[str]) -> list[str]:
    """``values`` (the Python texts of a line's values), each read from the local that the
    quiet block just before the line (its last lines ``lines``, the loud mark's two last,
    written at ``indent``) set to the same text at its own level, where nothing in the block
    can have changed what the text reads; the others as they are."""
    pad = "    " * indent
    if len(lines) < 4 or lines[-1] != f"{pad}    {LOUD_MARK}" or lines[-2] != f"{pad}if st.event_log is not None:":
        return values
    start = _block_start(lines, pad)
    if start is None:
        return values
    block = lines[start:-2]
    if any(_LEAVES.match(line) or _BINDS_ENV.search(line) for line in block):
        return values
    held: dict[str, str] = {}
    for line in block:
        if not line.startswith(pad) or line[len(pad):len(pad) + 1] == " ":
            continue   # (a line of a nested statement: it may not run)
        found = _HELD.fullmatch(line[len(pad):])
        if found is not None and _READ.fullmatch(found.group(2)) and found.group(2) not in held:
            held[found.group(2)] = found.group(1)
    return [held[value] if value in held and not _rebound(block, value) else value for value in values]


def _block_start(lines: list[str], pad: str) -> int | None:
    """The index of the first line of the quiet block that ends with the last two of
    ``lines``: after its own quiet mark at the same indent, with no other mark between."""
    for at in range(len(lines) - 3, 0, -1):
        if lines[at] == f"{pad}    {_QUIET_MARK}" and lines[at - 1] == f"{pad}if st.event_log is not None:":
            return at + 1
        if lines[at].strip() in (_QUIET_MARK, LOUD_MARK):
            return None
    return None


def _rebound(block: list[str], value: str) -> bool:
    """Whether a line of ``block`` binds one of the Python locals that ``value`` reads."""
    return any(re.search(rf"(^\s*|\bfor |, ){local}\b\s*(,|=(?!=)|\bin\b)", line)
               for local in re.findall(r"_[lv]\d+", value) for line in block)
