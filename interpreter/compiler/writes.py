"""``x.name = value`` (and ``x.name += value``...), a variable of players, spaces or
components written in place.

``OwnedVariable.write`` (tables/attributes.py) checks the owner's kind, the value's type and
records the event: three calls for one item of a list. Where the owner is of the kind the
variable belongs to (known from the text, or tested in place) and no event is recorded, the
generated code writes the item itself, the value checked against the variable's type as
``write`` checks it (``HeldParameters.checked_argument``: its class tested in place, the
same error); any other case (a wrong owner, events, spaces of several boards, an update of
an owner not known) calls ``write`` as before, which does the same or reports the same error.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Component, Player
from ..tables.attributes import OwnedVariable
from ..tables.runtime import MAX_INT
from .integers import integer_bound
from .module import CHEAP, KIND_NAMES, Module

if TYPE_CHECKING:
    from .codegen import ExpressionWriter
    from .scope import Scope

__all__ = ["owned_write"]

_OWNERS = {"player": (Player, "index"), "space": (Space, "index"), "component": (Component, "id")}
"""The class of each table's owners, and the field that is its place in the table."""


def owned_write(writer: ExpressionWriter, variable: OwnedVariable, owner: str, value: str,
                owner_kind: type | None, op: str | None = None, proven: bool = False) -> list[str]:
    """The lines (indented from 0) that write ``variable`` of the owner whose value the local
    ``owner`` holds (of class ``owner_kind`` if the text proves it, else None): the local
    ``value`` (``proven`` of the variable's type by the text: not checked), or with ``op``
    (the constant of '+=', ...) its old value updated by the source ``value``."""
    module = writer.module
    name = module.constant(variable)
    if op is None:
        new, called = value, f"{name}.write(st, {owner}, {value})"
    else:
        new = module.fresh("_t")
        called = f"{name}.write(st, {owner}, _updated({name}.read(st, {owner}), {value}, {op}))"
    cls, field = _OWNERS[variable.table]
    known = owner_kind is cls
    if (variable.table == "space" and len(writer.cat.boards) != 1) or (op is not None and not known):
        return [called]
    tests = ([] if known else [f"type({owner}) is {KIND_NAMES[cls]}"]) + ["st.event_log is None"]
    table, place = f"st.{variable.attribute}[{module.constant(variable.name)}]", f"{owner}.{field}"
    checked = writer.held.checked_argument(new, variable.promise, f"variable '{variable.name}'", proven)
    if op is None:
        written = [f"    {table}[{place}] = {checked}"]
    else:
        values = module.fresh("_t")
        written = [f"    {values} = {table}", f"    {new} = _updated({values}[{place}], {value}, {op})",
                   f"    {values}[{place}] = {checked}"]
    return [f"if {' and '.join(tests)}:", *written, "else:", f"    {called}"]


def global_lines(module: Module, name: str, new: str) -> list[str]:
    """The global variable ``name`` (a constant) set to ``new``: its table written in place
    where no events are kept, else by ``effects.set_global``, which keeps one (a value
    computed by more than a name, first into a local: written once)."""
    lines = []
    if not CHEAP.match(new):
        value, new = new, module.fresh("_t")
        lines.append(f"{new} = {value}")
    return [*lines, "if st.event_log is None:", f"    st.global_values[{name}] = {new}",
            "else:", f"    _set_global(st, {name}, {new})"]


def global_update(writer: ExpressionWriter, name: str, node: ast.Assign, value: str, op: str, scope: Scope) -> str:
    """The new value of global variable ``name`` (a constant) in ``name += value`` (or ``-=``,
    ``op`` its constant): in Python where the variable holds an int and the value is a proven
    integer too small to take it out of range (as a local's, procedures.py); by
    ``effects.updated`` otherwise, with its checks and errors."""
    general = f"_updated(st.global_values[{name}], {value}, {op})"
    bound = integer_bound(writer.cat, node.value, scope)
    if bound is None or bound > MAX_INT or node.op not in ("+=", "-="):
        return general
    old, module = writer.module.fresh("_u"), writer.module
    low, high = module.constant(bound - MAX_INT), module.constant(MAX_INT - bound)
    number = node.value.value if isinstance(node.value, ast.Literal) else None
    if integer_bound(writer.cat, node.target, scope) is not None and type(number) is int and number >= 0:
        # (a variable declared int, by a number written in the rules: only one edge to pass)
        edge = f"<= {high}" if node.op == "+=" else f">= {low}"
        return (f"({old} {node.op[0]} {value} if ({old} := st.global_values[{name}]) {edge}"
                f" else _updated({old}, {value}, {op}))")
    return (f"({old} {node.op[0]} {value} if type({old} := st.global_values[{name}]) is int"
            f" and {low} <= {old} <= {high} else _updated({old}, {value}, {op}))")
