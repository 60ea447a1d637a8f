"""A test whose conditional jump is long, written so that CPython 3.11 specialises its
comparison.

CPython 3.11 specialises ``COMPARE_OP`` only into its fused compare-and-jump forms
(``COMPARE_OP_INT_JUMP``, ``_STR_JUMP``, ``_FLOAT_JUMP``), and only where the instruction
after it is the conditional jump itself (Python/specialize.c, ``_Py_Specialize_CompareOp``);
a jump over more than 255 code units has an ``EXTENDED_ARG`` before it, so the comparison
of ``if pc == 9:`` over a long block, of a resumable function's dispatch or of a long
``if`` of the rules' code, runs the generic comparison every time (about 105 instructions
more a test, valgrind).

``compiled`` compiles the generated source as ``compile`` does; where a comparison of the
code has such a long jump after it and its line is the header of an ``if``, ``elif`` or
``while`` (the test on one line), the line's test ``T`` is written ``(T) or False`` and the
source compiled again. ``T or False`` in a test jumps *into* the body when ``T`` holds (a
short jump over the unconditional one that the constant ``False`` becomes), so the
comparison is followed by its jump and specialised, and the way past the body is a plain
``JUMP_FORWARD``. ``T`` is evaluated and its truth tested once, as before, and no line is
added or moved (the spans of the lines, and so the errors' places, stay), so the code means
what it meant. Only lines whose comparison's jump was long change; a source with none is
compiled once. The listing (``rulelang code``) shows the source as the writers wrote it.
"""
from __future__ import annotations

import dis
import re
import sys
import types

__all__ = ["compiled", "long_tests", "rewritten"]

APPLIES = sys.version_info[:2] == (3, 11)
"""Only 3.11 needs it: 3.12 specialises a comparison whatever follows it."""
_HEADER = re.compile(r"^(\s*(?:if|elif|while) )(.+):(\s*#.*)?$")
_JUMPS = frozenset(code for name, code in dis.opmap.items() if name.startswith("POP_JUMP_"))
_COMPARE, _EXTENDED = dis.opmap["COMPARE_OP"], dis.opmap["EXTENDED_ARG"]
_AFTER = 2 + 2 * getattr(dis, "_inline_cache_entries", [0] * 256)[_COMPARE]
"""From a ``COMPARE_OP`` to the instruction after it, past its inline cache (in bytes)."""


def compiled(source: str, filename: str, flags: int) -> types.CodeType:
    """``compile(source, filename, "exec")`` with ``flags``, each test whose comparison is
    followed by a long jump written so that the comparison is specialised."""
    code: types.CodeType = compile(source, filename, "exec", flags=flags, dont_inherit=True)
    if not APPLIES:
        return code
    lines = long_tests(code)
    if not lines:
        return code
    text = _rewritten_lines(source, lines)
    if text == source:
        return code
    try:
        again: types.CodeType = compile(text, filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError:   # (a header the pattern split wrongly: the code as written)
        return code
    return again


def rewritten(source: str, flags: int = 0) -> str:
    """The source ``compiled`` compiles for ``source`` (for tests and for reading)."""
    code: types.CodeType = compile(source, "<rewritten>", "exec", flags=flags, dont_inherit=True)
    lines = long_tests(code) if APPLIES else set()
    return _rewritten_lines(source, lines) if lines else source


def long_tests(code: types.CodeType) -> set[int]:
    """The lines (1-based) of ``code`` and the code nested in it where a comparison is
    followed by a conditional jump with an ``EXTENDED_ARG`` before it."""
    found: set[int] = set()
    raw, positions = code.co_code, None
    for at in range(0, len(raw) - _AFTER, 2):   # (one code unit: opcode, argument)
        if raw[at] == _COMPARE and raw[at + _AFTER] == _EXTENDED and _jump_after(raw, at + _AFTER):
            positions = _positions(code) if positions is None else positions   # (read where one is found)
            line = positions[at // 2] if at // 2 < len(positions) else None
            if line is not None:
                found.add(line)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found |= long_tests(constant)
    return found


def _positions(code: types.CodeType) -> list[int | None]:
    """The line of each code unit of ``code`` (3.11 on; none before)."""
    if sys.version_info >= (3, 11):
        return [line for line, _, _, _ in code.co_positions()]
    return []


def _jump_after(raw: bytes, at: int) -> bool:
    """Whether the ``EXTENDED_ARG``\\ s from ``at`` in ``raw`` prefix a conditional jump."""
    while at < len(raw) and raw[at] == _EXTENDED:
        at += 2
    return at < len(raw) and raw[at] in _JUMPS


def _rewritten_lines(source: str, lines: set[int]) -> str:
    """``source`` with the test of each header among ``lines`` written ``(T) or False``."""
    text = source.split("\n")
    for number in lines:
        header = _HEADER.match(text[number - 1]) if 0 < number <= len(text) else None
        if header is not None and not header.group(2).endswith(" or False"):
            text[number - 1] = f"{header.group(1)}({header.group(2)}) or False:{header.group(3) or ''}"
    return "\n".join(text)
