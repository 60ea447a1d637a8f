"""The state's tables read once a generated function, into Python locals.

The code a procedure runs reads the state's tables again at every statement: whether the
game keeps events (``st.event_log is None``, before each move's event, log line and write of
a variable), its zones, its variables. Each read is an attribute look-up; a Python local is
one LOAD_FAST. None of these fields is ever set while a generated function runs: a state gets
them when it is made (``State.__init__``, ``clone``, deserialize.py, infostate.py's samples,
precheck.py's light copy: each a state no function is running on yet) and again only after a
run failed (``State._taken_from``, once the error has left every generated function);
everything else changes the objects they hold (a zone appended to, a variable written, the
event log extended by ``+=``, which keeps the list), which a local sees as the field would.
tests/test_fields_read_once.py holds that list of writers to what the source shows, so a new
one fails there first. A function whose lines read a field at least ``READS`` times (and set
it nowhere) reads it once, on the line after its ``def``, into ``_st_FIELD``, which its lines
read instead. That line is in no statement's span and cannot fail (a state has every one of
these slots set), so errors and their spans are unchanged.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

__all__ = ["FIELDS", "fields_read_once"]

Line = tuple[str, "Span | None"]  # a line of the function, and the span of the statement it runs (None: none)

# The fields read once: set only where no generated function is running (see above). (Where
# each is kept or not: docs/performance.md, s42-events. A field that a call reads once or less
# on average costs more in its line after the ``def`` than it saves: ``component_zone``,
# ``component_knowledge``, ``log_lines`` are.)
FIELDS = ("event_log", "zones", "global_values")
# The reads of a field in a function's lines for its one read: a resumable function runs one
# or a few of its blocks a call, so a field its lines read a few times is read about once a
# call, and the line after the ``def`` then costs more than it saves.
READS = 6


def _read(field: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.])st\.{field}\b")


_READS = {field: _read(field) for field in FIELDS}
_SETS = {field: re.compile(rf"(?<![\w.])st\.{field}\s*(=[^=]|,[^=\n]*=[^=]|[-+*/|&]=)") for field in FIELDS}
_SETATTR = re.compile(r"\bsetattr\(|\bdelattr\(")


def fields_read_once(lines: list[Line], fields: tuple[str, ...] = FIELDS, reads: int = READS) -> list[Line]:
    """``lines`` (a generated function's, its ``def`` first) with each of ``fields`` that they
    read at least ``reads`` times, and never set, read once after the ``def`` into a local
    they read."""
    if not lines:
        return lines
    body = lines[1:]
    # (no pattern spans lines: each is searched for once in them all, or where its text is)
    text = "\n".join(line for line, _ in body)
    if ("setattr(" in text or "delattr(" in text or "attr(" in lines[0][0]) \
            and _SETATTR.search(f"{lines[0][0]}\n{text}"):
        return lines
    kept = [field for field in fields
            if f"st.{field}" in text and len(_READS[field].findall(text)) >= reads
            and not any(_SETS[field].search(line) for line, _ in body if f"st.{field}" in line)]
    if not kept:
        return lines
    indent = re.match(r" *", next((line for line, _ in body if line.strip()), "    ")).group(0) or "    "  # type: ignore[union-attr]
    head: list[Line] = [(f"{indent}_st_{field} = st.{field}", None) for field in kept]
    for field in kept:
        read = f"st.{field}"
        body = [(_READS[field].sub(f"_st_{field}", line) if read in line else line, span) for line, span in body]
    return [lines[0], *head, *body]
