"""Runtime values. Every value a ruleset handles is plain data or one of these interned,
immutable objects, so a state copies cheaply and serializes exactly."""
from __future__ import annotations


class RuleError(Exception):
    """Something the rules asked for cannot be done (the interpreter adds the location)."""

    def __init__(self, message: str, code: str = "E602"):
        super().__init__(message)
        self.message, self.code = message, code


class Player:
    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"player {self.index + 1}"

    __str__ = __repr__

    def __lt__(self, other):
        return self.index < other.index


class EnumValue:
    __slots__ = ("name", "ordinal", "type")

    def __init__(self, type_name: str, name: str, ordinal: int):
        self.type, self.name, self.ordinal = type_name, name, ordinal

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __lt__(self, other):
        return self.ordinal < other.ordinal


class EnumType:
    __slots__ = ("name", "values")

    def __init__(self, name: str, values: tuple[EnumValue, ...]):
        self.name, self.values = name, values

    def __repr__(self) -> str:
        return self.name


class Component:
    """One physical component (a card, a token): a record of fields with a unique id."""

    __slots__ = ("fields", "id", "label", "type")

    def __init__(self, cid: int, type_name: str, fields: dict, label: str):
        self.id, self.type, self.fields, self.label = cid, type_name, fields, label

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__

    def __lt__(self, other):
        return self.id < other.id


class ComponentSpec:
    """A component described in a deck declaration, before it is given an id."""

    __slots__ = ("fields", "type")

    def __init__(self, type_name: str, fields: dict):
        self.type, self.fields = type_name, fields


class ZoneRef:
    """A zone: ``slot`` indexes the state's list of zones; ``owner`` is None for shared zones."""

    __slots__ = ("name", "owner", "slot")

    def __init__(self, name: str, owner: Player | None, slot: int):
        self.name, self.owner, self.slot = name, owner, slot

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.owner}'s {self.name}"


class Ref:
    """A declared thing used as a value: a supply, a die, a board."""

    __slots__ = ("kind", "name", "target")

    def __init__(self, kind: str, name: str, target=None):
        self.kind, self.name, self.target = kind, name, target

    def __repr__(self) -> str:
        return self.name


def display(value) -> str:
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


def kind_of(value) -> str:
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
    if isinstance(value, Component):
        return value.type
    if isinstance(value, EnumValue):
        return value.type
    if isinstance(value, Ref):
        return value.kind
    return type(value).__name__.lower().replace("ref", "")
