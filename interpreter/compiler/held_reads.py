"""A held local (held.py: the variable of a 'for' or a 'choose', a 'let', that alone binds
its name) read once in a block of the resumable function (blocks.py). Once a line of a block
has read it into a Python local (``_t4 = env[_k3]``), the lines after it in the same branch
of the block read that Python local instead of the environment (``env[_k3]`` becomes ``_t4``,
``_k3 in env`` is true): nothing between them binds it again. They stop where a line may bind
it (writes it, drops it, or hands the frame to a call), at the end of the branch the read is
in, or where the Python local is set again. The read that fails (the name has no value) is
the first, at its own statement, as before: the lines after it are not reached. A local that
a line writes (``env[_k3] = ...``, held or not) is read the same way by the lines after it
in its branch, from a Python local the write sets too (``env[_k3] = _held3 = ...``).
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

from .line_blocks import indent_of
from .patterns import pattern

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["read_once"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_READ = re.compile(r"( *)(_t\d+) = env\[(_k\d+)\]")   # a statement's read of a local into a Python local
_WRITE = re.compile(r"( *)env\[(_k\d+)\] = (?!_seq\[)(.+)")   # a statement's write of a local (not a walk's)
_COPY = re.compile(r"( *)(_h\d+) = (_t\d+)")   # a search's read of a local (unrolled.py), taken from such a read


def read_once(lines: list[Line], held: Collection[str]) -> list[Line]:
    """``lines`` (a block's) with each later read of a local of ``held`` (the constants that
    name them) taken from the Python local an earlier line of its branch read it into."""
    found = list(lines)
    for at, (line, _) in enumerate(lines):
        read = _READ.fullmatch(line)
        if read is not None and read.group(3) in held:
            _reuse(found, at + 1, len(read.group(1)), read.group(2), read.group(3))
        _written_once(found, at)
    at = 0
    while at < len(found):   # (each copy of a search's read of a local, once taken from a Python local)
        uncopied = _uncopied(found, at)
        if uncopied is None:
            at += 1
        else:
            found = uncopied
    return found


def _written_once(lines: list[Line], at: int) -> None:
    """Where the line at ``at`` writes a local (``env[_k3] = ...``) that lines after it in its
    branch read: the value kept in a Python local too, which they read instead."""
    written = _WRITE.fullmatch(lines[at][0])
    if written is None or f"env[{written.group(2)}]" in written.group(3):
        return
    indent, key, local = written.group(1), written.group(2), f"_held{written.group(2)[2:]}"
    end = next((n for n in range(at + 1, len(lines)) if _rebinds_in_loop(lines, n, key)), len(lines))
    after = lines[at + 1:end]
    _reuse(after, 0, len(indent), local, key)
    if after != lines[at + 1:end]:
        lines[at] = (f"{indent}env[{key}] = {local} = {written.group(3)}", lines[at][1])
        lines[at + 1:end] = after


def _rebinds_in_loop(lines: list[Line], at: int, key: str) -> bool:
    """Whether the line at ``at`` opens a loop whose body may bind ``key`` (then a line of
    the body before that reads it at the next round: it may not be read from a Python local)."""
    line = lines[at][0]
    if not line.lstrip(" ").startswith(("for ", "while ")):
        return False
    body = [text for text, _ in lines[at + 1:]]
    inside = next((n for n, text in enumerate(body) if indent_of(text) <= indent_of(line)), len(body))
    binds = _may_bind(key)
    return any(binds.search(text) for text in [line, *body[:inside]])


def _uncopied(lines: list[Line], at: int) -> list[Line] | None:
    """``lines`` without the line at ``at`` if it is a copy ``_h3 = _t4`` (a search's read of
    a local, unrolled.py, taken from the Python local that read it): the lines of its branch
    that read the copy read the local itself. None for another line, or a copy read after its
    branch or whose local is set again in it."""
    copy = _COPY.fullmatch(lines[at][0])
    if copy is None:
        return None
    indent, name, local = len(copy.group(1)), copy.group(2), copy.group(3)
    end = next((n for n in range(at + 1, len(lines)) if len(lines[n][0]) - len(lines[n][0].lstrip(" ")) < indent),
               len(lines))
    used = pattern(rf"\b{name}\b")
    if any(used.search(line) for line, _ in lines[end:]) or any(pattern(rf"\b{local} =[^=]").search(line)
                                                                for line, _ in lines[at + 1:end]):
        return None
    return [*lines[:at], *((used.sub(local, line), span) for line, span in lines[at + 1:end]), *lines[end:]]


def _reuse(lines: list[Line], start: int, indent: int, local: str, key: str) -> None:
    """Lines from ``start`` on, while they are in the branch of ``indent``, read ``key`` from
    ``local``; up to the first that may bind ``key`` again or sets ``local``."""
    binds = _may_bind(key, local)
    for at in range(start, len(lines)):
        line, span = lines[at]
        if len(line) - len(line.lstrip(" ")) < indent or binds.search(line):
            return
        used = line.replace(f" and {key} in env", "").replace(f"{key} in env", "True").replace(f"env[{key}]", local)
        lines[at] = (used, span)


def _may_bind(key: str, local: str | None = None) -> re.Pattern[str]:
    """What finds a line that may bind the local named by ``key`` again: one that writes it
    (``env[K] = ...``, ``for env[K] in ...``), drops it, hands the frame to a call (``fr``, but
    for setting its ``pc``) or takes another environment; and, given ``local``, one that sets
    that Python local."""
    sets = "" if local is None else rf"|\b{local} =[^=]"
    return pattern(rf"env\[{key}\] =[^=]|for env\[{key}\] in |del env\[{key}\]|env\.pop\({key}\b"
                      rf"|\bfr\b(?!\.pc = )|(?<![.\w])env = {sets}")


_TABLE = re.compile(r"( *)(_t\d+) = (st\.(?:space|player)_values\[_k\d+\])")   # a table of the state read
_GOES_ON = re.compile(r"(else:|elif |except\b|finally:)")   # a clause of the statement before it


def table_read_once(lines: list[Line]) -> list[Line]:
    """``lines`` (a block's) where a line reads a table of the state into a Python local
    (``_t35 = st.space_values[_k8]``) that lines before it in its branch read too: that read
    made once, before the first of them, and every one of them reading the local (a table of
    a state is the same object while the state runs: only a new state, a copy or a state read
    back, has others; the read fails nowhere)."""
    found = list(lines)
    at = 0
    while at < len(found):
        hoisted = _hoisted(found, at)
        found = found if hoisted is None else hoisted
        at += 1
    return found


def _hoisted(lines: list[Line], at: int) -> list[Line] | None:
    """``table_read_once`` for the line at ``at``, None if it is no such read, or no line
    before it in its branch reads that table."""
    read = _TABLE.fullmatch(lines[at][0])
    if read is None:
        return None
    local, table = read.group(2), read.group(3)
    first = next((n for n in range(at) if table in lines[n][0]), None)
    if first is None:
        return None
    least = min(indent_of(line) for line, _ in lines[first:at + 1])
    start = first
    while start > 0 and (indent_of(lines[start][0]) > least or _GOES_ON.match(lines[start][0].lstrip(" "))):
        start -= 1
    if indent_of(lines[start][0]) < least:   # (the first line of the body of the statement it is in)
        start += 1
    end = next((n for n in range(at + 1, len(lines)) if indent_of(lines[n][0]) < least), len(lines))
    made: Line = (f"{' ' * indent_of(lines[start][0])}{local} = {table}", None)
    return [*lines[:start], made, *((line.replace(table, local), span) for line, span in lines[start:at]),
            *((line.replace(table, local), span) for line, span in lines[at + 1:end]), *lines[end:]]

