"""Runtime values. Every value a ruleset handles is plain data or one of these interned,
immutable objects, so a state copies cheaply and serializes exactly."""
from __future__ import annotations

from typing import TypeAlias, Union

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

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return self.index < other.index


class EnumValue:
    """One value of a declared enumeration; ordered by its position in the declaration."""

    __slots__ = ("name", "ordinal", "type")

    def __init__(self, type_name: str, name: str, ordinal: int):
        self.type, self.name, self.ordinal = type_name, name, ordinal

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, EnumValue):
            return NotImplemented
        return self.ordinal < other.ordinal


class EnumType:
    """A declared enumeration used as a value (``values(suit)``)."""

    __slots__ = ("name", "values")

    def __init__(self, name: str, values: tuple[EnumValue, ...]):
        self.name, self.values = name, values

    def __repr__(self) -> str:
        return self.name


class Component:
    """One physical component (a card, a token): a record of fields with a unique id."""

    __slots__ = ("fields", "id", "label", "type")

    def __init__(self, cid: int, type_name: str, fields: dict[str, Value], label: str):
        self.id, self.type, self.fields, self.label = cid, type_name, fields, label

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Component):
            return NotImplemented
        return self.id < other.id


class ComponentSpec:
    """A component described in a deck declaration, before it is given an id."""

    __slots__ = ("fields", "type")

    def __init__(self, type_name: str, fields: dict[str, Value]):
        self.type, self.fields = type_name, fields


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
    if isinstance(value, (Component, EnumValue)):
        return value.type
    if isinstance(value, Ref):
        return value.kind
    return type(value).__name__.lower().replace("ref", "")


def who(player: int) -> str:
    """A seat as people say it ("player 1" for seat 0), or "chance"."""
    return "chance" if player == CHANCE else f"player {player + 1}"
