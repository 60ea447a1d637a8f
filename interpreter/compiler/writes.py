"""``x.name = value``, a variable of players, spaces or components written in place.

``OwnedVariable.write`` (tables/attributes.py) checks the owner's kind, the value's type and
records the event: three calls for one item of a list. Where the owner is of the kind the
variable belongs to, the value of the class its type alone tells (``OwnedVariable.plain``)
and no event is recorded, the generated code writes the item itself; any other case (a
wrong owner, a value to check, events, spaces of several boards) calls ``write`` as before,
which does the same or reports the same error.
"""
from __future__ import annotations

from rulelang.boards import Space

from ..model.values import Component, Player
from ..tables.attributes import OwnedVariable
from ..tables.catalog import Catalog
from .module import KIND_NAMES, Module

__all__ = ["owned_write"]

_OWNERS = {"player": (Player, "index"), "space": (Space, "index"), "component": (Component, "id")}
"""The class of each table's owners, and the field that is its place in the table."""


def owned_write(cat: Catalog, module: Module, variable: OwnedVariable, owner: str, value: str) -> list[str]:
    """The lines (indented from 0) that write ``value`` (a local) as ``variable`` of the
    owner whose value the local ``owner`` holds."""
    called = f"{module.constant(variable)}.write(st, {owner}, {value})"
    cls, field = _OWNERS[variable.table]
    several_boards = variable.table == "space" and len(cat.boards) != 1
    if several_boards or (variable.promise is not None and variable.plain is None):  # (a value to check each time)
        return [called]
    tests = [f"type({owner}) is {KIND_NAMES[cls]}", "st.event_log is None"]
    if variable.promise is not None and variable.plain is not None:
        tests.insert(1, f"type({value}) is {module.constant(variable.plain, f'<class {variable.plain.__name__}>')}")
    table = f"st.{variable.attribute}[{module.constant(variable.name)}]"
    return [f"if {' and '.join(tests)}:", f"    {table}[{owner}.{field}] = {value}", "else:", f"    {called}"]
