"""A held local (held.py: the variable of a 'for' or a 'choose', a 'let', that alone binds
its name) read once in a block of the resumable function (blocks.py). Once a line of a block
has read it into a Python local (``_t4 = env[_k3]``), the lines after it in the same branch
of the block read that Python local instead of the environment (``env[_k3]`` becomes ``_t4``,
``_k3 in env`` is true): nothing between them binds it again. They stop where a line may bind
it (writes it, drops it, or hands the frame to a call), at the end of the branch the read is
in, or where the Python local is set again. The read that fails (the name has no value) is
the first, at its own statement, as before: the lines after it are not reached.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["read_once"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_READ = re.compile(r"( *)(_t\d+) = env\[(_k\d+)\]")   # a statement's read of a local into a Python local


def read_once(lines: list[Line], held: Collection[str]) -> list[Line]:
    """``lines`` (a block's) with each later read of a local of ``held`` (the constants that
    name them) taken from the Python local an earlier line of its branch read it into."""
    found = list(lines)
    for at, (line, _) in enumerate(lines):
        read = _READ.fullmatch(line)
        if read is not None and read.group(3) in held:
            _reuse(found, at + 1, len(read.group(1)), read.group(2), read.group(3))
    return found


def _reuse(lines: list[Line], start: int, indent: int, local: str, key: str) -> None:
    """Lines from ``start`` on, while they are in the branch of ``indent``, read ``key`` from
    ``local``; up to the first that may bind ``key`` again or sets ``local``."""
    binds = re.compile(rf"env\[{key}\] =[^=]|del env\[{key}\]|env\.pop\({key}\b|\bfr\b(?!\.pc = )|\b{local} =[^=]")
    for at in range(start, len(lines)):
        line, span = lines[at]
        if len(line) - len(line.lstrip(" ")) < indent or binds.search(line):
            return
        used = line.replace(f" and {key} in env", "").replace(f"{key} in env", "True").replace(f"env[{key}]", local)
        lines[at] = (used, span)
