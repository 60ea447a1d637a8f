"""How ``x.name`` reads and is assigned on the values of one game.

A player has its variables, its zones and its tokens of each supply; a component its
variables, its fields and the tokens held on it; a space its variables and the attributes
its board gives it. These are read from the state's tables: the compiler (codegen.py)
writes a ``VariableReader`` (a variable, or tokens) in place and calls any other reader; an assignment
``x.name = ...`` writes an ``OwnedVariable``, recording its event.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang import boards
from rulelang.diagnostics import Span

from ..model.problems import unchecked
from ..model.program import Env, Expr
from ..model.values import Component, Player, RuleError, Value, ZoneRef, kind_of
from .declared import Declared, checked_write, variable_promise

if TYPE_CHECKING:
    from rulelang import ast

    from ..state.state import State
    from .catalog import Catalog

Reader = Callable[["State", Any], Value]
"""How an attribute reads on one kind of value: ``reader(state, owner)``; the owner's type
is checked before (the attribute tables are by type), so readers take it as it comes."""
Write = Callable[["State", Env, Value], None]
"""How an assignment writes: ``write(state, env, value)``."""


def attribute_readers(catalog: Catalog, name: str) -> dict[type, Reader]:
    """How ``x.name`` reads for each kind of ``x`` that has it (the compiler writes a
    ``VariableReader`` in place, and calls any other)."""
    table: dict[type, Reader] = {}
    player_reader = _player_reader(catalog, name)
    if player_reader is not None:
        table[Player] = player_reader
    component_reader = _component_reader(catalog, name)
    if component_reader is not None:
        table[Component] = component_reader
    space_reader = _space_reader(catalog, name)
    if space_reader is not None:
        table[boards.Space] = space_reader
    return table


def _player_reader(catalog: Catalog, name: str) -> Reader | None:
    """How ``p.name`` reads on a player: a player variable, a player's zone, the tokens
    of a supply, or ``index`` (the seat, whatever else is so named)."""
    if name == "index":
        return OwnField("index")
    if name in catalog.player_vars:
        return VariableReader("player_values", name, "index")
    if name in catalog.zones and catalog.zones[name].owner == "player":
        base = catalog.zone_slot[name]
        return PlayerZone(tuple(catalog.zone_refs[base + p.index] for p in catalog.players))
    if name in catalog.supplies:   # the seat's slot of the supply's counts (Catalog.holder_slot)
        return VariableReader("supply_counts", name, "index", 1)
    return None


def _component_reader(catalog: Catalog, name: str) -> Reader | None:
    """How ``c.name`` reads on a component: a component variable, the tokens of a supply
    held on it, or one of its fields."""
    if name in catalog.component_vars:
        return VariableReader("component_values", name, "id")
    if name in catalog.supplies:   # the component's slot of the supply's counts (Catalog.holder_slot)
        return VariableReader("supply_counts", name, "id", catalog.holder_base)
    if any(name in {f.name for f in c.fields} for c in catalog.component_types.values()):
        return ComponentField(name)
    return None


def _space_reader(catalog: Catalog, name: str) -> Reader | None:
    """How ``s.name`` reads on a space: a space variable or an attribute from the board."""
    if name in catalog.space_vars and len(catalog.boards) == 1:
        return VariableReader("space_values", name, "index")
    if name in catalog.space_vars:
        offsets = catalog.space_offset

        return lambda st, s: st.space_values[name][offsets[s.board] + s.index]
    if any(name in s.attributes for s in catalog.spaces) or name in ("name", "index"):
        return _space_attribute(name)
    return None


def owned_variable(catalog: Catalog, name: str, span: Span) -> OwnedVariable:
    """The variable ``name`` of players, spaces or components, that ``x.name = ...``
    assigns (there is one: the checker reports an assignment of anything else, E203)."""
    offsets = catalog.space_offset
    owned: tuple[tuple[str, dict[str, ast.VarDecl], Callable[[Value], int]], ...] = (
        ("player", catalog.player_vars, lambda v: _as_player(v, name).index),
        ("space", catalog.space_vars, lambda v: _space_index(v, name, offsets)),
        ("component", catalog.component_vars, lambda v: _as_component(v, name).id))
    for table, variables, index_of in owned:
        if name in variables:
            return OwnedVariable(table, name, index_of, variable_promise(catalog, variables[name]))
    raise unchecked(f"'{name}' is not a player, space or component variable that can be assigned", span)


def attribute_promise(catalog: Catalog, name: str) -> Declared | None:
    """What ``x.name`` always is when it reads (on whatever kind of ``x`` has it): the type
    of the variables so named, when every reader of that name reads one of them and they
    agree; else None (a zone, a field, a supply of that name too...)."""
    found: set[Declared | None] = set()
    for kind in attribute_readers(catalog, name):
        table = {Player: catalog.player_vars, Component: catalog.component_vars}.get(kind, catalog.space_vars)
        if name not in table or (kind is Player and name == "index"):
            return None
        found.add(variable_promise(catalog, table[name]))
    return found.pop() if len(found) == 1 else None


def is_owned_variable(catalog: Catalog, name: str) -> bool:
    """Whether ``name`` is a variable of players, spaces or components (``owned_variable``)."""
    return name in catalog.player_vars or name in catalog.space_vars or name in catalog.component_vars


def attribute_setter(catalog: Catalog, target: Expr, name: str, span: Span) -> tuple[Expr, Write]:
    """(read, write) closures for assigning ``target.name``."""
    variable = owned_variable(catalog, name, span)

    def read(st: State, env: Env) -> Value:
        return variable.read(st, target(st, env))

    def write(st: State, env: Env, value: Value) -> None:
        variable.write(st, target(st, env), value)
    return read, write


class OwnedVariable:
    """Variable ``name`` of the players, spaces or components (``table``), read and written
    for an owner (its place in the table: ``index_of(owner)``, which checks its kind); a
    value written is of its declared type (``promise``, declared.py), and recorded as an
    event of ``table`` (see events.py)."""

    __slots__ = ("attribute", "index_of", "name", "plain", "promise", "table")

    def __init__(self, table: str, name: str, index_of: Callable[[Value], int], promise: Declared | None = None):
        self.table, self.name, self.index_of, self.promise = table, name, index_of, promise
        self.attribute = f"{table}_values"  # the state's table of them
        # the class of every value of the type, when that alone tells (not a list's items)
        self.plain = promise.cls if promise is not None and promise.item is None and not promise.ref else None

    def __repr__(self) -> str:
        return f"<{self.table} variable {self.name}>"

    def read(self, st: State, owner: Value) -> Value:
        values: list[Value] = getattr(st, self.attribute)[self.name]
        return values[self.index_of(owner)]

    def write(self, st: State, owner: Value, value: Value) -> None:
        index = self.index_of(owner)
        if type(value) is not self.plain and self.promise is not None:
            checked_write(value, self.promise, self.name)
        values: list[Value] = getattr(st, self.attribute)[self.name]
        values[index] = value
        if st.event_log is not None:
            slot = st.component_zone[index] if self.table == "component" else -1
            st.event_log.append(("set", self.table, self.name, index, value, slot))


class VariableReader:
    """How ``x.name`` reads a variable of players, spaces or components, or the tokens of
    supply ``name`` a player or a component holds: item ``x.<index> + offset`` of the
    state's table ``st.<table>[name]``. The compiler writes it in place."""

    __slots__ = ("index", "name", "offset", "table")

    def __init__(self, table: str, name: str, index: str, offset: int = 0):
        self.table, self.name, self.index, self.offset = table, name, index, offset

    def __call__(self, st: State, owner: Any) -> Value:
        values: list[Value] = getattr(st, self.table)[self.name]
        value: Value = values[getattr(owner, self.index) + self.offset]
        return value


class OwnField:
    """How ``x.index`` or ``x.name`` reads a player's or a space's own field: the compiler
    writes ``x.<field>`` in place."""

    __slots__ = ("field",)

    def __init__(self, field: str):
        self.field = field

    def __call__(self, st: State, owner: Any) -> Value:
        value: Value = getattr(owner, self.field)
        return value


class PlayerZone:
    """How ``p.name`` reads a zone each player has: ``refs[p.index]``, which the compiler
    writes in place."""

    __slots__ = ("refs",)

    def __init__(self, refs: tuple[ZoneRef, ...]):
        self.refs = refs

    def __call__(self, st: State, player: Player) -> Value:
        return self.refs[player.index]


class BoardAttribute:
    """How ``s.name`` reads an attribute of a space from its board's data (none where the
    space has none): the compiler writes ``s.attributes.get(name)`` in place."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __call__(self, st: State, space: boards.Space) -> Any:  # Any: board data, checked by its schema
        return space.attributes.get(self.name)


def _space_attribute(name: str) -> Reader:
    return OwnField(name) if name in ("name", "index") else BoardAttribute(name)


class ComponentField:
    """How ``c.name`` reads a field of a component: ``c.fields[name]``, which the compiler
    writes as one subscript where no component lacks it (compiler/fields.py), in place where
    ``c`` reads at no cost, else calls ``read`` (a plain function: a call cheaper than this
    object's); a component without it is the rules' error."""

    __slots__ = ("name", "read")

    def __init__(self, name: str):
        self.name = name
        self.read = _component_field(name)

    def __call__(self, st: State, component: Component) -> Value:
        return self.read(st, component)


def _component_field(name: str) -> Callable[[State, Component], Value]:
    def read(st: State, component: Component) -> Value:
        try:
            return component.record[name]
        except KeyError:
            raise RuleError(f"a {component.type} has no field '{name}'") from None
    return read


def _as_player(value: Value, name: str) -> Player:
    if not isinstance(value, Player):
        raise RuleError(f"'{name}' belongs to players, not to a {kind_of(value)}")
    return value


def _as_component(value: Value, name: str) -> Component:
    if not isinstance(value, Component):
        raise RuleError(f"'{name}' belongs to components, not to a {kind_of(value)}")
    return value


def _space_index(value: Value, name: str, offsets: dict[str, int]) -> int:
    if not isinstance(value, boards.Space):
        raise RuleError(f"'{name}' belongs to spaces, not to a {kind_of(value)}")
    return offsets[value.board] + value.index
