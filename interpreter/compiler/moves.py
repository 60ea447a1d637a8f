"""The generated code of 'move': the few cases most moves are, written as one call each.

``move top(ZONE) to W`` takes the zone's last component off in place (``State.move_top``),
without reading it first and searching for it; ``move ZONE to W`` of a zone with at most
FREE_WORK components, which costs no work (``effects.move``), is one ``State.move_all``;
one component is ``State.move``. Anything else (a list, none, a value of another kind) goes
to ``effects.move``, which says what is wrong where the rules wrote it.
"""
from __future__ import annotations

from collections.abc import Callable

from rulelang import ast

from ..tables.builtins import AGGREGATES, FREE_WORK
from ..tables.catalog import Catalog


def top_of(node: ast.Expr, cat: Catalog) -> ast.Expr | None:
    """The zone of ``node`` if it is the builtin ``top(ZONE)`` (not a function or component
    type of the rules named so), else None."""
    if not (isinstance(node, ast.Call) and node.function == "top" and len(node.args) == 1):
        return None
    if "top" in cat.component_types or "top" in cat.functions or "top" in AGGREGATES \
            or "top" in cat.load_time_functions:
        return None
    return node.args[0]


def move_lines(node: ast.Move, cat: Catalog, write: Callable[[ast.Expr], str],
               fresh: Callable[[str], str]) -> list[str]:
    """The lines (indented from 0) of ``move what to destination``: the destination is
    evaluated first, then what moves, as ``effects.move`` receives them."""
    zone = top_of(node.what, cat)
    what = write(node.what if zone is None else zone)
    where, moved = fresh("_t"), fresh("_t")
    lines = [f"{where} = {write(node.to)}", f"{moved} = {what}"]
    if zone is not None:
        return [*lines,
                f"if type({moved}) is _ZoneRef and type({where}) is _ZoneRef:",
                f"    st.move_top({moved}.slot, {where}.slot)",
                "else:",
                f"    _move(st, {where}, _top(st, {moved}))"]
    return [*lines,
            f"if type({where}) is not _ZoneRef:",
            f"    _move(st, {where}, {moved})",
            f"elif type({moved}) is _Component:",
            f"    st.move({moved}, {where}.slot)",
            f"elif type({moved}) is _ZoneRef and len(st.zones[{moved}.slot]) <= {FREE_WORK}:",
            f"    st.move_all({moved}.slot, {where}.slot)",
            "else:",
            f"    _move(st, {where}, {moved})"]
