"""Runtime values. Every value a ruleset handles is plain data or one of these interned,
immutable objects, so a state copies cheaply and serializes exactly.

A game makes each player, enum value, component and space once (its catalog and its boards),
and every state, copy, saved state and position read back uses those objects. So they are
equal only to themselves, and none of their classes defines a comparison: that keeps ``==``,
``in``, ``list.remove``, ``index`` and hashing at C speed (a class with a rich comparison
written in Python makes each of them about ten times slower). Where the rules order them
(``<``, ``min``, ``sorted``, ``best``...), ``less`` and ``OrderKey`` give the order.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeAlias, Union

from rulelang.boards import Board, Space

CHANCE = -1
"""The player id of chance, in ``current_players()`` and ``history()``."""


class RuleError(Exception):
    """Something the rules asked for cannot be done (the interpreter adds the location)."""

    def __init__(self, message: str, code: str = "E602"):
        super().__init__(message)
        self.message, self.code = message, code


class Player:
    """A seat at the table: a real player or a dummy seat played by the rules."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"player {self.index + 1}"

    __str__ = __repr__

    def __copy__(self) -> Player:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Player:
        return self


class EnumValue:
    """One value of a declared enumeration; ordered (``less``) by its position in the
    declaration."""

    __slots__ = ("name", "ordinal", "type")

    def __init__(self, type_name: str, name: str, ordinal: int):
        self.type, self.name, self.ordinal = type_name, name, ordinal

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __copy__(self) -> EnumValue:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> EnumValue:
        return self


class EnumType:
    """A declared enumeration used as a value (``values(suit)``)."""

    __slots__ = ("name", "values")

    def __init__(self, name: str, values: tuple[EnumValue, ...]):
        self.name, self.values = name, values

    def __repr__(self) -> str:
        return self.name


class Component:
    """One physical component (a card, a token): a record of fields with a unique id."""

    __slots__ = ("fields", "id", "label", "record", "type")

    id: int
    type: str
    fields: Mapping[str, Value]
    label: str
    record: dict[str, Value]

    def __init__(self, cid: int, type_name: str, fields: Mapping[str, Value], label: str):
        # Frozen: every state of a game shares its components, so none may change one. ``fields``
        # is the read-only view of ``record``, the engine's own dict of the same fields, which
        # the generated code reads: CPython 3.11 specialises a subscript of a dict, not of a view.
        record = dict(fields)
        for name, value in (("id", cid), ("type", type_name), ("fields", MappingProxyType(record)),
                            ("label", label), ("record", record)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a component is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a component is immutable: cannot delete {name}")

    def __copy__(self) -> Component:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Component:
        return self

    def __reduce__(self) -> tuple[object, ...]:
        return Component, (self.id, self.type, dict(self.fields), self.label)

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__


class ComponentSpec:
    """A component described in a deck declaration, before it is given an id."""

    __slots__ = ("fields", "type")

    def __init__(self, type_name: str, fields: Mapping[str, Value]):
        self.type, self.fields = type_name, MappingProxyType(dict(fields))


class ZoneRef:
    """A zone: ``slot`` indexes the state's list of zones; ``owner`` is None for shared zones."""

    __slots__ = ("name", "owner", "slot")

    def __init__(self, name: str, owner: Player | None, slot: int):
        self.name, self.owner, self.slot = name, owner, slot

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.owner}'s {self.name}"


class Ref:
    """A declared thing used as a value: a supply, a die (``target``: its faces) or a board
    (``target``: the board)."""

    __slots__ = ("kind", "name", "target")

    def __init__(self, kind: str, name: str, target: Board | tuple[Value, ...] | None = None):
        self.kind, self.name, self.target = kind, name, target

    def __repr__(self) -> str:
        return self.name


Value: TypeAlias = Union[
    bool, int, str, "tuple[Value, ...]", "dict[Value, Value]",
    Player, EnumValue, EnumType, Component, ComponentSpec, ZoneRef, Ref, Space, Board, None,
]
"""Any value a ruleset can handle (a board only while loading, as ``load_board``'s result)."""


def display(value: object) -> str:
    """A readable rendering of any runtime value."""
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(display(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{display(k)}: {display(v)}" for k, v in value.items()) + "}"
    return str(value)


def display_within(value: object, limit: int) -> str | None:
    """``display(value)`` if it has at most ``limit`` characters, else None, found without
    building the longer text (a list may repeat one long string many times)."""
    pieces: list[str] = []
    total = 0
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Piece):
            piece = str(item)
        elif isinstance(item, tuple):
            stack.append(_Piece("]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if i:
                    stack.append(_Piece(", "))
            piece = "["
        elif isinstance(item, dict):
            stack.append(_Piece("}"))
            entries = list(item.items())
            for i in range(len(entries) - 1, -1, -1):
                stack += (entries[i][1], _Piece(": "), entries[i][0])
                if i:
                    stack.append(_Piece(", "))
            piece = "{"
        else:
            piece = display(item)
        total += len(piece)
        if total > limit:
            return None
        pieces.append(piece)
    return "".join(pieces)


class _Piece(str):
    """Punctuation on ``display_within``'s stack, told apart from a string value."""


def kind_of(value: object) -> str:
    """The name of a value's kind, for error messages."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "string"
    if isinstance(value, tuple):
        return "list"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, (Component, EnumValue)):
        return value.type
    if isinstance(value, Ref):
        return value.kind
    return type(value).__name__.lower().replace("ref", "")


def less(a: object, b: object) -> bool:
    """``a < b`` in the order of the rules: numbers and strings as Python orders them, players
    by seat, enum values by declaration order (any two enum values), components by id, spaces
    by (board name, index), lists item by item; TypeError for two values that have no order
    between them (a player and a number, two maps...)."""
    key = ORDER_KEYS.get(type(a))
    if key is not None or type(b) in ORDER_KEYS:
        if key is None or ORDER_KEYS.get(type(b)) is not key:
            raise TypeError(f"cannot order {kind_of(a)} and {kind_of(b)}")
        return key(a) < key(b)  # type: ignore[no-any-return]  # two ints, or two (str, int): a bool
    if type(a) is tuple and type(b) is tuple:
        for x, y in zip(a, b, strict=False):  # the shorter is less when all its items are equal
            if not (x is y or x == y):
                return less(x, y)
        return len(a) < len(b)
    return a < b  # type: ignore[no-any-return, operator]  # TypeError when they have no order


def _player_key(p: Player) -> int:
    return p.index


def _enum_key(v: EnumValue) -> int:
    return v.ordinal


def _component_key(c: Component) -> int:
    return c.id


def _space_key(s: Space) -> tuple[str, int]:
    return s.board, s.index


ORDER_KEYS: dict[type, Callable[[Any], Any]] = {
    Player: _player_key, EnumValue: _enum_key, Component: _component_key, Space: _space_key}
"""How each interned kind of value is ordered; values of two kinds have no order between them."""


class OrderKey:
    """A sort key that orders any values of the rules as ``less`` does: ``sorted(values,
    key=OrderKey)``, ``min(values, key=OrderKey)``."""

    __slots__ = ("value",)

    def __init__(self, value: object):
        self.value = value

    def __lt__(self, other: OrderKey) -> bool:
        return less(self.value, other.value)

    def __gt__(self, other: OrderKey) -> bool:
        return less(other.value, self.value)


def who(player: int) -> str:
    """A seat as people say it ("player 1" for seat 0), or "chance"."""
    return "chance" if player == CHANCE else f"player {player + 1}"
