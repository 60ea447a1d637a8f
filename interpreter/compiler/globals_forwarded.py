"""A global variable read just after the code wrote it, read from the local it was written from.

A write of a global variable ``g`` (writes.global_lines: ``if st.event_log is None:``,
``st.global_values[K] = V``, ``else:``, ``_set_global(st, K, V)``, where V is a Python name
or a constant) leaves ``st.global_values[K]`` holding V itself on either branch. The lines
after it often read ``g`` again, where the rules do: ``drawn += 1`` then a log line that
shows ``drawn`` and the test of the ``while drawn < capacity`` around them; ``drawn = 0``,
``capacity = ch.capacity``, then a loop whose tests compare them. Each read is a look-up of
the variables' dict (a str key); V is a LOAD_FAST or LOAD_CONST.

Here a read of ``st.global_values[K]`` becomes V on the lines that certainly run after the
write and before anything that may change ``g`` or V:

- the lines after the write in its block, and in the blocks those lines open (deeper
  indented); a line indented less than the write ends it (an 'else', the end of a loop's
  body or of the branch that wrote it);
- up to a line that stops it: one that writes any variable (``global_values[...] =``,
  ``_set_global``), hands the state on (``st`` as a value: a call of a procedure or of a
  helper, but ``_say``, ``_move`` and ``_as_list``, which change no variable) or calls a
  method of the state but ``charge``, ``step``, ``transfer``, ``move_all`` (none of which
  writes a variable); such a line is left as it is;
- up to a line that may bind V again (V before an ``=`` of the line, ``del``), after the
  line's reads;
- a loop (``for``, ``while``) is entered only if no line of it stops it or binds V (a read in
  its second round comes after its first round's lines); else nothing is known from its
  header on;
- a branch (``if``, ``elif``, ``else``) whose block ends by leaving the function (its last
  line a ``return`` or ``raise``, no ``break`` or ``continue`` in it) runs no line after it:
  what its lines stop or bind is not stopped nor bound after its block, nor in a loop's next
  round (the decision a function that runs a procedure makes where it pauses: decided.py).

A function that names ``global_values`` other than as ``st.global_values[...]`` (the table
held in a local, handed on) is left as it is. The value read is the same object, so the
code's results, errors and their spans are the same: no read of a variable can fail (a state
holds every declared one), and the lines written are the same statements.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from .line_blocks import end_of_block, indent_of, is_blank
from .patterns import pattern

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["globals_forwarded", "stops"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

_HELD = re.compile(r"global_values")
_PLAIN = re.compile(r"(?<![\w.])st\.global_values\[")
_ASSIGNS = r"\s*(?:=(?!=)|(?:[-+*/|&%@^]|//|\*\*|<<|>>)=)"   # after a target: an assignment, plain or augmented
_STORE = re.compile(rf"global_values\[[^\]]*\]{_ASSIGNS}|\b_set_global\(")
_HANDED = re.compile(r"(?<![\w.])st\b(?!\.)")
_SAFE_CALLS = re.compile(r"(?<![\w.])_(?:say|move|as_list)\(st\b")
_METHOD = re.compile(r"(?<![\w.])st\.(\w+)\(")
_SAFE_METHODS = frozenset({"charge", "step", "transfer", "move_all"})
_VALUE = r"_[a-z]+\d+"   # a generated local or constant: ``_t12``, ``_k3``, ``_l40``
_WRITE = (re.compile(r"if st\.event_log is None:"),
          re.compile(rf"st\.global_values\[(_k\d+)\] = ({_VALUE})"),
          re.compile(r"else:"),
          re.compile(rf"_set_global\(st, (_k\d+), ({_VALUE})\)"))
_LOOP = re.compile(r"(?:for|while|async for)\b")
_READ = re.compile(rf"(?<![\w.])st\.global_values\[(_k\d+)\](?!{_ASSIGNS})")   # a read, not a store
_BRANCH = re.compile(r"(?:if|elif)\b.*:|else:")
_LEAVES = re.compile(r"(?:return|raise)\b.*")
_JUMPS = re.compile(r"\s*(?:break|continue)\b")


def stops(text: str) -> bool:
    """Whether the line ``text`` may write a global variable: it writes one, hands the state
    on (but to ``_say``, ``_move``, ``_as_list``) or calls a method of the state that may."""
    if _STORE.search(text):
        return True
    rest = _SAFE_CALLS.sub("", text)
    return bool(_HANDED.search(rest)) or any(m.group(1) not in _SAFE_METHODS for m in _METHOD.finditer(rest))


def _binds(text: str, name: str) -> bool:
    """Whether the line ``text`` may bind the Python name ``name`` (it is before an ``=``,
    ``:=`` or an augmented assignment of the line, after ``del`` or in a 'for' header)."""
    return bool(pattern(rf"(?<![\w.]){name}\b(?=[^\n]*?(?<![=!<>])=(?!=))").search(text)
                or pattern(rf"^\s*(?:del|for|async for)\b[^\n]*(?<![\w.]){name}\b").search(text))


def _written(texts: list[str], at: int) -> tuple[str, str] | None:
    """The key constant and value of the write of a global that begins at line ``at``
    (writes.global_lines' four lines), or None."""
    if at + 3 >= len(texts):
        return None
    indent = indent_of(texts[at])
    found = []
    for offset, shape in enumerate(_WRITE):
        text = texts[at + offset]
        if indent_of(text) != indent + (4 if offset % 2 else 0):
            return None
        matched = shape.fullmatch(text.strip())
        if matched is None:
            return None
        found.append(matched.groups())
    (key, value), (other_key, other_value) = found[1], found[3]
    return (key, value) if (key, value) == (other_key, other_value) else None


def _leaves(texts: list[str], at: int) -> int | None:
    """Where the block ends that the line ``at`` opens, if it is a branch that certainly
    leaves the function: its last line at its own indent a ``return`` or ``raise``, and no
    ``break`` or ``continue`` in it; else None."""
    if not _BRANCH.fullmatch(texts[at].strip()):
        return None
    end = end_of_block(texts, at)
    body = [text for text in texts[at + 1:end] if not is_blank(text)]
    if not body or any(_JUMPS.match(text) for text in body):
        return None
    inner = indent_of(body[0])
    last = [text for text in body if indent_of(text) == inner][-1]
    return end if _LEAVES.fullmatch(last.strip()) else None


def _reaching(texts: list[str], start: int, end: int, leaves: Callable[[int], int | None]) -> list[str]:
    """The lines ``start..end-1`` of ``texts`` without those of the branches that leave the
    function (``leaves``: ``_leaves`` of a line, asked once a line)."""
    kept, at = [], start
    while at < end:
        kept.append(texts[at])
        stop = leaves(at)
        at = stop if stop is not None else at + 1
    return kept


def globals_forwarded(lines: list[Line]) -> list[Line]:
    """``lines`` (a generated function's, its ``def`` first) with each read of a global
    variable that certainly follows its write, with nothing between that may write it or
    bind the value's local, reading that local (see the module's docstring)."""
    texts = [text for text, _ in lines]
    if not any(_WRITE[1].fullmatch(text.strip()) for text in texts) \
            or any(len(_HELD.findall(text)) != len(_PLAIN.findall(text)) for text in texts):
        return lines   # (no write of a variable to read again, or the table held otherwise)
    ends: dict[int, int | None] = {}

    def leaves(at: int) -> int | None:
        if at not in ends:
            ends[at] = _leaves(texts, at)
        return ends[at]

    out = list(lines)
    known: dict[str, tuple[str, int]] = {}   # key constant -> the value's text, the write's indent
    after: list[tuple[int, dict[str, tuple[str, int]]]] = []   # the ends of the branches that leave, what was known
    at = 1
    while at < len(texts):
        while after and at >= after[-1][0]:
            known = after.pop()[1]
        text = texts[at]
        if is_blank(text):
            at += 1
            continue
        indent = indent_of(text)
        known = {key: held for key, held in known.items() if indent >= held[1]}
        write = _written(texts, at)
        if write is not None:
            key, value = write
            known[key] = (value, indent)
            at += 4
            continue
        if known and _LOOP.match(text.lstrip()):   # (nothing known: nothing to forget)
            loop = _reaching(texts, at, end_of_block(texts, at), leaves)
            if any(stops(line) or any(_binds(line, held[0]) for held in known.values()) for line in loop):
                known = {}
        if stops(text):
            known = {}
        elif known:
            out[at] = (_read_from(text, known), out[at][1])
            known = {key: held for key, held in known.items() if not _binds(text, held[0])}
        end = leaves(at)
        if end is not None:   # (what is known after its header holds again after its block)
            after.append((end, dict(known)))
        at += 1
    return out


def _read_from(text: str, known: dict[str, tuple[str, int]]) -> str:
    """``text`` with each read of a known global (not a store to it) reading its value."""
    def value(matched: re.Match[str]) -> str:
        held = known.get(matched.group(1))
        return matched.group(0) if held is None else held[0]
    return _READ.sub(value, text)
