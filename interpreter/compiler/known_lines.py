"""A log line whose lists of names and whose one listener the compiler knows, kept in place.

``logs.kept_line`` and ``logs.kept_private_line`` test, each time the line runs, what the
text does not prove: that a value is a name or a number within the rules' range, or a list
whose items are all names (``_NAMED.issuperset(map(type, ...))``) short enough for the
template's room; and, for a line to some players, that the audience is one player or a list
of one. Where the kinds of these are certain (kinds.py: ``list(p.hand)`` is a list of
components, ``[p]`` a list of one player where ``p`` walks ``players``), what is left to
test is how many items the lists hold: ``effects._fits`` takes ``template.item`` from the
room for each item of a list of names, so the line is kept unbuilt where they hold together
at most ``room // item`` items (the room less what proven texts take). Any other line, an
event log kept, or lists too long go through ``say`` as before, with the same values and
audience computed in the same order (the same line, events and errors).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Component, Player, ZoneRef

if TYPE_CHECKING:
    from ..model.program import LogTemplate
    from .codegen import ExpressionWriter
    from .scope import Scope

_NAMED_ITEMS = (Player, Component, Space, ZoneRef)
"""Kinds (kinds.py) whose values show as a name of the catalog (``effects.NAMED``)."""

_PLAIN_LOCAL = re.compile(r"_[a-z]+\d+$")
"""A Python local of the generated code: reading it neither fails nor does anything."""


def named_lists(writer: ExpressionWriter, shown: list[ast.Expr], unproven: list[int], scope: Scope) -> bool:
    """Whether every value at ``unproven`` of ``shown`` is certainly a list of names (a
    list, one deep, of players, components, spaces or zones), and there is one at least."""
    if not unproven:
        return False
    for k in unproven:
        kind = writer.items_kind(shown[k], scope)
        if kind is None or kind[1] != 1 or kind[0] not in _NAMED_ITEMS:
            return False
    return True


def most_items(made: LogTemplate, spent: int) -> int:
    """How many items lists of names may hold together with the line still kept unbuilt
    (``effects._fits``: each item takes ``made.item`` from the room less ``spent``)."""
    return (made.room - spent) // made.item


def one_listener(writer: ExpressionWriter, audience: ast.Expr, scope: Scope) -> ast.Expr | None:
    """The player that an audience certainly is alone (``[p]`` or ``p``, ``p`` known to be a
    player); else None."""
    item = audience.items[0] if isinstance(audience, ast.ListExpr) and len(audience.items) == 1 else audience
    return item if writer.items_kind(item, scope) == (Player, 0) else None


def private_line_of_lists(template: str, values: str, unproven: list[int], most: int, local: str,
                          audience: str, listener: str, heard: str) -> list[tuple[int, str]]:
    """The lines (indent, text) that log a line to one player (``one_listener``, written
    ``listener``; the audience written ``audience``) whose values at ``unproven`` of
    ``values`` (held with the template by ``local``: the line itself, as logs.py keeps
    lines) are lists of names: kept as ``say`` keeps it where no
    event log is kept and the lists hold at most ``most`` items (``most_items``); else
    ``say``. The audience is computed after the values, as ``say``'s call computes it (once
    in a local ``heard`` unless ``listener`` is a plain Python local and the audience no
    more than it or a list of it)."""
    counted = " + ".join(f"len({local}[{k + 1}])" for k in unproven)   # (the line: its template, then its values)
    plain = _PLAIN_LOCAL.match(listener) is not None and audience in (listener, f"({listener}, )", f"({listener},)")
    who = listener if plain else (heard if audience == listener else f"{heard}[0]")
    lines = [(0, f"{local} = ({template}, {values})")]
    if not plain:
        lines.append((0, f"{heard} = {audience}"))
        audience = heard
    return [*lines, (0, f"if st.event_log is None and {counted} <= {most}:"),
            (1, f"st.private_lines.append((len(st.log_lines), ({who}.index,), {local}))"),
            (0, "else:"),
            (1, f"_say(st, {template}, {local}[1:], {audience}, True)")]
