"""A 'log' line whose values certainly show short, written in place.

``effects.say`` keeps a line as a ``LogLine`` (its text built when the log is read) when its
template leaves room for each value (``LogTemplate.room``: each counted at the widest a name
of the catalog shows, at least 20 characters) and every value is a name, none, true or false,
or a number within the rules' range: it tests the kinds of the values each time it runs.
The generated code appends the ``LogLine`` itself, testing in place only the values the text
does not prove short (a player, a space, a component or a supply, or an integer: scope.py,
tokens.py, integers.py), nor certainly texts that fit the room together (a literal text, or an
'if' between such: ``proven_texts``); with an event log kept, or a value that is not short, ``say`` runs as
before, so the line, its text and its events are the same.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from .integers import integer_bound
from .scope import Scope

if TYPE_CHECKING:
    from .codegen import ExpressionWriter


def shows_short(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> bool:
    """Whether the value of ``node`` is certainly a player, a space, a component, a supply
    or an integer within the rules' range (each shows within a template's room for a value)."""
    if integer_bound(writer.cat, node, scope) is not None or writer.tokens.is_supply_for_certain(node, scope):
        return True
    kind = writer.items_kind(node, scope)
    return kind is not None and kind[1] == 0


def text_width(node: ast.Expr) -> int | None:
    """The most characters the value of ``node`` has where it is certainly a text: a literal
    text, or an 'if' between such (``if dir > 0 then "forward " else "backward "``); else None."""
    if isinstance(node, ast.Literal):
        return len(node.value) if type(node.value) is str else None
    if isinstance(node, ast.IfExpr):
        then, otherwise = text_width(node.then), text_width(node.otherwise)
        return None if then is None or otherwise is None else max(then, otherwise)
    return None


def proven_texts(shown: list[ast.Expr], unproven: list[int], room: int) -> tuple[list[int], int]:
    """``unproven`` without the values that are certainly texts (``text_width``) when all of
    them fit the template's ``room`` together at their longest (``effects._fits`` takes a
    text's length from the room, which can only shrink: the line is kept unbuilt for the same
    values), and the room they take (0 when none is taken out)."""
    widths = {k: text_width(shown[k]) for k in unproven}
    spent = sum(width for width in widths.values() if width is not None)
    if spent == 0 or spent > room:
        return unproven, 0
    return [k for k in unproven if widths[k] is None], spent


def kept_line(template: str, values: str, unproven: list[int], local: str, spent: int = 0) -> list[tuple[int, str]]:
    """The lines (indent, text) that log the line of ``template`` (the constant's source)
    and the values of source ``values`` (each followed by ', '), held by ``local``: kept as
    a ``LogLine`` where the values at ``unproven`` (those the text does not prove short) are
    names, none, true or false, or integers within the rules' range (or, where it is the only
    one, a list of names short enough, within the room less the ``spent`` that proven texts
    take), as ``say`` tests them; else ``say`` runs."""
    room = f"{template}.room" if spent == 0 else f"({template}.room - {spent})"
    tests = [f"(type({local}[{k}]) in _NAMED or (type({local}[{k}]) is int and -_MAX_INT <= {local}[{k}] <= _MAX_INT))"
             for k in unproven]
    if len(unproven) == 1:   # (or a list of names, its items within the room left: as effects._fits counts them)
        item = f"{local}[{unproven[0]}]"
        tests[0] = (f"{tests[0][:-1]} or (type({item}) is tuple and len({item}) * {template}.item <= {room}"
                    f" and _NAMED.issuperset(map(type, {item}))))")
    return [(0, f"{local} = ({values})"),
            (0, f"if {' and '.join(['st.event_log is None', *tests])}:"),
            (1, f"st.log_lines.append(_LogLine(({template}, {local})))"),
            (0, "else:"),
            (1, f"_say(st, {template}, {local})")]
