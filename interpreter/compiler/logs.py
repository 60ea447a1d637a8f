"""A 'log' line whose values certainly show short, written in place.

``effects.say`` keeps a line as a ``LogLine`` (its text built when the log is read) when its
template leaves room for each value (``LogTemplate.room``: each counted at the widest a name
of the catalog shows, at least 20 characters) and every value is a name, none, true or false,
or a number within the rules' range: it tests the kinds of the values each time it runs.
The generated code appends the line itself (a plain tuple, the template then the values:
``program.LogLine``), testing in place only the values the text does not prove short (a
player, a space, a component or a supply, an integer, or a variable declared an enumeration's
value or none, a bool...: scope.py, tokens.py, integers.py),
nor certainly texts that fit the room together (a literal text, or an 'if' between such:
``proven_texts``); with an event log kept, or a value that is not short, ``say`` runs as
before, so the line, its text and its events are the same.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..tables.effects import NAMED
from .integers import integer_bound
from .scope import Scope, promise_of

if TYPE_CHECKING:
    from rulelang.diagnostics import Span

    from .codegen import ExpressionWriter


def shows_short(writer: ExpressionWriter, node: ast.Expr, scope: Scope) -> bool:
    """Whether the value of ``node`` is certainly a player, a space, a component, a supply
    or an integer within the rules' range, or a component of a known type or none (``top(Z)``
    of a typed zone: each shows within a template's room for a value), or a variable whose
    declared type shows as a name, none, true or false (an enumeration's value or none, a
    bool...: ``promise_of``, held to at every write and in a state read back)."""
    if integer_bound(writer.cat, node, scope) is not None or writer.tokens.is_supply_for_certain(node, scope):
        return True
    if (promise := promise_of(writer.cat, node, scope)) is not None and promise.cls in NAMED:
        return True
    if writer.component_type(node, scope) is not None:   # (a component of a typed zone, or none: typed.py)
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


def kept_line(template: str, values: str, unproven: list[int], local: str, spent: int = 0,
              most: int | None = None) -> list[tuple[int, str]]:
    """The lines (indent, text) that log the line of ``template`` (the constant's source)
    and the values of source ``values`` (each followed by ', '), held with the template by
    ``local`` (the line itself, ``(template, value...)``): kept as it is where the values at
    ``unproven`` (those the text does not prove short) are names, none, true or false, or
    integers within the rules' range (or, where it is the only one, a list of names short
    enough, within the room less the ``spent`` that proven texts take), as ``say`` tests
    them; else ``say`` runs. Where the values at ``unproven`` are certainly lists of names
    (``known_lines.named_lists``), ``most`` is how many items they may hold together
    (``known_lines.most_items``): their lengths alone are tested."""
    tests = _value_tests(template, unproven, local, spent, most)
    if not tests:   # (the values go straight into the line: no local to hold them)
        return [(0, "if st.event_log is None:"), (1, f"st.log_lines.append(({template}, {values}))"),
                (0, "else:"), (1, f"_say(st, {template}, ({values}))")]
    return [(0, f"{local} = ({template}, {values})"),
            (0, f"if {' and '.join(['st.event_log is None', *tests])}:"),
            (1, f"st.log_lines.append({local})"),
            (0, "else:"),
            (1, f"_say(st, {template}, {local}[1:])")]


def kept_private_line(template: str, values: str, unproven: list[int], local: str, audience: str, heard: str,
                      spent: int = 0) -> list[tuple[int, str]]:
    """``kept_line`` for a line to some players (``log ... to AUDIENCE``), the audience's
    source ``audience`` held by ``heard`` and computed after the values, as ``say``'s call
    computes it: where it is one player, or a list of one, and no event log is kept, the
    line goes into the private lines with that player's index as ``say`` would put it
    (``audience_of``: no set made and sorted); else ``say`` runs with the audience."""
    one = (f"(type({heard}) is _Player"
           f" or (type({heard}) is tuple and len({heard}) == 1 and type({heard}[0]) is _Player))")
    tests = ["st.event_log is None", one, *_value_tests(template, unproven, local, spent)]
    return [(0, f"{local} = ({template}, {values})"), (0, f"{heard} = {audience}"),
            (0, f"if {' and '.join(tests)}:"),
            (1, f"{heard} = {heard} if type({heard}) is _Player else {heard}[0]"),
            (1, f"st.private_lines.append((len(st.log_lines), ({heard}.index,), {local}))"),
            (0, "else:"),
            (1, f"_say(st, {template}, {local}[1:], {heard}, True)")]


LOUD_MARK = "st.event_log.append(('narrate', 'loud'))"
"""The end of a quiet block, as procedures._Narrate writes it (under ``if st.event_log is not None:``)."""


def after_loud_mark(lines: list[tuple[str, Span | None]], indent: int) -> bool:
    """Whether the last two of ``lines`` are the end of a quiet block written at ``indent``
    (``log ... instead { }``'s, then its line): the line may take the mark's test in."""
    pad = "    " * indent
    return (len(lines) >= 2 and lines[-2][0] == f"{pad}if st.event_log is not None:"
            and lines[-1][0] == f"{pad}    {LOUD_MARK}")


def kept_after_mark(template: str, values: str, unproven: list[int], local: str,
                    spent: int = 0, most: int | None = None) -> list[tuple[int, str]]:
    """``kept_line`` with the end of the quiet block before it (``after_loud_mark``) in one
    test of the event log instead of two: with none, the line kept as ``kept_line`` keeps it;
    with one, the mark, then ``say``, as before. The values are computed once either way,
    after the mark (the same work, and the same error where one fails)."""
    tests = _value_tests(template, unproven, local, spent, most)
    lines = [(0, "if st.event_log is None:")]
    if tests:
        lines += [(1, f"{local} = ({template}, {values})"), (1, f"if {' and '.join(tests)}:"),
                  (2, f"st.log_lines.append({local})"), (1, "else:"), (2, f"_say(st, {template}, {local}[1:])")]
    else:
        lines.append((1, f"st.log_lines.append(({template}, {values}))"))
    return [*lines, (0, "else:"), (1, LOUD_MARK), (1, f"_say(st, {template}, ({values}))")]


def _value_tests(template: str, unproven: list[int], local: str, spent: int, most: int | None = None) -> list[str]:
    """The tests, in Python, that the values at ``unproven`` of the line ``local`` (its
    template first, then the values) show short (``kept_line``); where they are lists of
    names (``most`` given), that they hold at most ``most`` items together, as ``effects._fits``
    counts them."""
    if most is not None and unproven:
        return [f"{' + '.join(f'len({local}[{k + 1}])' for k in unproven)} <= {most}"]
    room = f"{template}.room" if spent == 0 else f"({template}.room - {spent})"
    tests = [f"(type({local}[{k + 1}]) in _NAMED or (type({local}[{k + 1}]) is int"
             f" and -_MAX_INT <= {local}[{k + 1}] <= _MAX_INT))" for k in unproven]
    if len(unproven) == 1:   # (or a list of names, its items within the room left: as effects._fits counts them)
        item = f"{local}[{unproven[0] + 1}]"
        tests[0] = (f"{tests[0][:-1]} or (type({item}) is tuple and len({item}) * {template}.item <= {room}"
                    f" and _NAMED.issuperset(map(type, {item}))))")
    return tests
