"""``x.name`` of a value computed once (``top(p.played).power``), where only components have
an attribute so named, read in place through an assignment expression where the text of the
expression may hold one.

Codegen reads such a value's field by one call of the field's reader (fields.py:
``field_read``, which tests the kind, reads the field and raises their errors), as the text of
an expression may go where Python takes no assignment expression (a comprehension's source).
Where an expression is written whole as a statement's test (an 'if' of a procedure, the test
of an item of any(), all() or first()), each such call is written out: the value assigned to a
Python local of its own (``_u3 := ...``), its kind and field tested in place, the reader called
only to raise its error (a value of another kind, a component without the field): the same
value computed once, in the same order, and the same errors. A field every component has of
the top of a zone read in place (``(st.zones[S] or (None,))[-1]``) tests the zone's list, not
the kind of its top: a zone holds only components, so the top is one where the list is not
empty, and the reader raises none's error where it is. The whole text is compiled once
as it is written: one Python refuses (an assignment in the source of a comprehension in it)
keeps its calls.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .fields import FIELD_READERS, OF_COMPONENT_OR_NONE

if TYPE_CHECKING:
    from rulelang import ast

    from .codegen import ExpressionWriter
    from .module import Module
    from .scope import Scope

__all__ = ["assigned_in_place", "written_assigning"]

_CALLED = re.compile(r"\b(_k\d+)\(")


def written_assigning(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> str:
    """``node`` written whole for a statement's test, its reads of fields in place where Python
    takes the text (else as codegen writes them)."""
    return assigned_in_place(writer.module, writer.write(node, scope))


def assigned_in_place(module: Module, text: str) -> str:
    """The generated ``text`` of a statement's test, its reads of fields in place where Python
    takes the text (else as it is)."""
    found = _in_place(module, text)
    if found == text:
        return text
    try:
        compile(found, "<test>", "eval")   # (our own text, compiled and not run: only checked)
    except SyntaxError:
        return text
    return found


def _in_place(module: Module, text: str) -> str:
    """``text`` with each call of a field's reader on a value written out."""
    if "'" in text or '"' in text:   # (no literal in the text: its brackets are all code)
        return text
    at = 0
    while (call := _CALLED.search(text, at)) is not None:
        reader = module.namespace.get(call.group(1))
        read = FIELD_READERS.get(reader) if callable(reader) else None
        end = _closing(text, call.end())
        if read is None or end is None:
            at = call.end()
            continue
        obj, (name, everywhere) = _in_place(module, text[call.end():end]), read   # (reads within it first)
        local, field, fn = module.fresh("_u"), module.constant(name), call.group(1)
        value = f"{local}.record[{field}]" if everywhere else \
            f"({local}.record[{field}] if {field} in {local}.record else {fn}({local}))"
        kind = f"({local} := {obj}) is not None" if reader in OF_COMPONENT_OR_NONE else \
            f"type({local} := {obj}) is _Component"   # (a value proven a component or none: typed.py)
        written = f"({value} if {kind} else {fn}({local}))"
        zone = _top_zone(module, obj) if everywhere else None
        if zone is not None:   # (the top of a zone: its last component, or none where it is empty)
            written = f"({local}[-1].record[{field}] if ({local} := {zone}) else {fn}(None))"
        text = text[:call.start()] + written + text[end + 1:]
        at = call.start() + len(written)
    return text


_TOP = re.compile(r"\((.+) or (_k\d+)\)\[-1\]")
"""``top(ZONE)`` read in place (moves.top_in_place): the zone's list, or a constant ``(None,)``."""


def _top_zone(module: Module, obj: str) -> str | None:
    """The zone's list whose top the text ``obj`` reads in place (``(ZONE or (None,))[-1]``),
    where ``obj`` is that alone; else None. A zone holds only components, so its top is a
    component where it has one, else none: the read of ``field_of`` (every such component has
    the field) is the last item's field where the list is not empty, else the reader's error
    of none."""
    found = _TOP.fullmatch(obj)
    if found is None or _closing(obj, 1) != len(obj) - 5 or module.namespace.get(found.group(2)) != (None,) \
            or not found.group(1).startswith("st.zones["):
        return None
    return found.group(1)


def _closing(text: str, start: int) -> int | None:
    """The position of the bracket that closes the one before ``start`` (None: none, or the
    call takes more than one argument)."""
    depth = 0
    for at in range(start, len(text)):
        char = text[at]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return at
            depth -= 1
        elif char == "," and depth == 0:
            return None
    return None
