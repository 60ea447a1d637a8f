"""A local read more than once in a branch of a block of the resumable function, read once.

held_reads.py takes the reads of a local from a Python local where a statement read it into
one (``_t4 = env[_k3]``) or wrote it; most reads are inside expressions, though
(``_k323[env[_k12].index]``, ``_p = env[_k12]``, ``if env[_k310]:``), each a look-up of
the environment with a str key. Here the first of them in a branch of a block (with the
tails written in place, tails.py) that lines after it read again keeps the value too
(``(_env12 := env[_k12])``), and those lines read the Python local; so does the walk of a
'for' that binds its variable (``env[_k12] = _env12 = _seq[_i]``). The environment is
written as before: only reads change. The first read is where it was, so a local with no
value fails there, at its own statement, as before; it is one the line always makes when it
runs (no ``and``, ``or``, ``if`` or loop in the line), so the lines after read a value their
own run read. They are those of its branch up to a line that may bind it (writes it, drops
it, hands the frame or the environment to a call, pushes or pops a frame: a return writes its
value into the caller's environment, or opens a loop whose body does), and
those of a later 'elif' or 'else' of an 'if' whose branch held such a line (they run instead
of it). A block is entered at its first line only (blocks.py), so the Python local is always
set in the run that reads it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from .line_blocks import indent_of
from .patterns import pattern

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["locals_read_once"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_READ = re.compile(r"(?<![\w.])env\[(_k\d+)\](?!\s*=[^=])")   # a read of a local (not a write of it)
# the environment handed on or read otherwise, the frame (but for its counter written), or the
# frames' stack (a call pushed, a return that writes its value into the caller's environment)
_OTHER_USE = re.compile(r"(?<![\w.])env(?!\[_k\d+\])\b|(?<![\w.])fr\b(?!\.pc = )"
                        r"|\bst\.(push|pop)\b|\bst\.frames\b(?!\))|\b_frames\b")
_CONDITIONAL = re.compile(r" if | and | or |\bor\b|\band\b|lambda\b| for | while |\bnot in\b|\bin env\b|:=")
_CLAUSE = re.compile(r" *(elif|else|except|finally|try)\b")
_LOOP = re.compile(r" *(for|while) ")
_WALKED = re.compile(r"( *)env\[(_k\d+)\] = _seq\[_i\]")   # a walk of a 'for' binds its variable


def locals_read_once(lines: list[Line]) -> list[Line]:
    """``lines`` (a block's) with each local that a line always reads, or a walk of a 'for'
    binds, and lines after it in its branch read again kept by that line in a Python local,
    which those lines read."""
    found = list(lines)
    for at in range(len(found)):
        line = found[at][0]
        if "env[" not in line:   # (neither a read nor a walk: no pattern tried)
            continue
        walked = _WALKED.fullmatch(line)
        if walked is not None:
            _kept_walked(found, at, walked.group(2))
        elif not _CLAUSE.match(line) and not _other_use(line):
            for key in dict.fromkeys(_READ.findall(line)):
                _kept(found, at, key)
    return found


@lru_cache(maxsize=4096)
def _other_use(line: str) -> bool:
    """Whether ``line`` reads the environment otherwise than by a local, or names the frame or
    the frames' stack (``_OTHER_USE``; asked of a line once for each local after it)."""
    return _OTHER_USE.search(line) is not None


def _kept(lines: list[Line], at: int, key: str) -> None:
    """Where the line at ``at`` always reads ``key`` and lines after it in its branch read it
    again, before any line may bind it: the first read kept in a Python local they read."""
    line, span = lines[at]
    read = f"env[{key}]"
    statement = re.sub(r"^(if|return) ", "", line.lstrip(" "))
    if _CONDITIONAL.search(statement) or _LOOP.match(line) or _binds(line, key):
        return
    local = f"_env{key[2:]}"
    after = [n for n in _run_after(lines, at, key, local) if read in lines[n][0]]
    if not after:
        return
    lines[at] = (line.replace(read, f"({local} := {read})", 1), span)
    for n in after:
        lines[n] = (lines[n][0].replace(read, local), lines[n][1])


def _kept_walked(lines: list[Line], at: int, key: str) -> None:
    """Where the line at ``at`` binds ``key`` to the next item of a walk (``env[K] = _seq[_i]``)
    and lines after it in its branch read it: the item kept in a Python local they read."""
    read, local = f"env[{key}]", f"_env{key[2:]}"
    after = [n for n in _run_after(lines, at, key, local) if read in lines[n][0]]
    if not after:
        return
    line, span = lines[at]
    lines[at] = (line.replace(" = _seq[_i]", f" = {local} = _seq[_i]"), span)
    for n in after:
        lines[n] = (lines[n][0].replace(read, local), lines[n][1])


def _run_after(lines: list[Line], at: int, key: str, local: str) -> list[int]:
    """The lines after ``at`` that run only once it has run, before any line after it that
    may bind ``key`` or set ``local`` (``_stops``): those of its branch up to such a line,
    and those of a later clause ('elif', 'else') of an 'if' whose branch holds such a line
    (they run instead of it), up to the end of that 'if'."""
    indent = indent_of(lines[at][0])
    found: list[int] = []
    blocked: int | None = None   # (past a line that stops: the lines it is in, at this indent and more)
    sibling: int | None = None   # (in a clause of an 'if' whose branch stopped, at this indent)
    for n in range(at + 1, len(lines)):
        depth = indent_of(lines[n][0])
        if depth < indent:
            break
        if blocked is not None and depth >= blocked:
            continue
        if blocked is not None or (sibling is not None and depth <= sibling):
            if not _if_clause(lines, n):
                break
            blocked, sibling = None, depth
        if _stops(lines, n, key, local):
            blocked = depth
            continue
        found.append(n)
    return found


def _if_clause(lines: list[Line], at: int) -> bool:
    """Whether the line at ``at`` is an 'elif' or 'else' of an 'if' (not of a 'try' or a loop)."""
    line = lines[at][0].lstrip(" ")
    if not (line.startswith("elif ") or line == "else:"):
        return False
    depth = indent_of(lines[at][0])
    for n in range(at - 1, -1, -1):
        text = lines[n][0]
        if indent_of(text) > depth:
            continue
        head = text.lstrip(" ")
        if indent_of(text) < depth or not head.startswith(("if ", "elif ")):
            return False
        if head.startswith("if "):
            return True
    return False


def _stops(lines: list[Line], at: int, key: str, local: str) -> bool:
    """Whether the line at ``at`` may bind ``key``, sets ``local``, reads the environment
    otherwise, or opens a loop whose body may bind it (its next round reads it again)."""
    line = lines[at][0]
    if _binds(line, key) or (local in line and pattern(rf"\b{local}\b").search(line)) or _other_use(line):
        return True
    if not _LOOP.match(line):
        return False
    inside = next((n for n in range(at + 1, len(lines)) if indent_of(lines[n][0]) <= indent_of(line)), len(lines))
    return any(_binds(text, key) or _other_use(text) for text, _ in lines[at + 1:inside])


def _binds(line: str, key: str) -> bool:
    if key not in line:   # (no pattern tried where the local's key is not named)
        return False
    return pattern(rf"env\[{key}\]\s*(=[^=]|(//|\*\*|<<|>>|[-+*/%@|&^])=)|for env\[{key}\] in |del env\[{key}\]"
                   rf"|env\.pop\({key}\b|^[\w\[\], ]*env\[{key}\][\w\[\], ]* = ").search(line.lstrip(" ")) is not None

