"""The JSON value codec: each runtime value as JSON data, the key of a zone, and the version
of the saved-state format.

The format is documented in docs/state-format.md; ``state/save.py`` writes a whole state
with it, ``state/deserialize.py`` reads values back.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias, Union

from rulelang import boards

from .values import Component, EnumType, EnumValue, Player, Ref, Value, ZoneRef

FORMAT = 4
"""The version of the saved-state format written. 4 names a 'let' that hides a local by its
name and its place among the 'let's of that name in its procedure (``k@2``), which
formatting does not move; 3 (still read) named it by its line and column (``k@410:7``) and
counts a frame's ``pc`` in operations of the compiled code, where statements that cannot
pause run as one, as 4 does; 2 (still read) counted
one operation per statement and named a space by its name; 1 (still read) gave a space's
index on the board."""
READ_FORMATS = (1, 2, 3, 4)
"""The versions that ``state_from_json`` reads."""

BIG_INT = 1 << 63
"""Integers from this size on are written as {"int": "0x..."} (hexadecimal has no digit
limit in Python, so ``json.dumps`` never fails on a huge one)."""

JsonValue: TypeAlias = Union[bool, int, float, str, "list[JsonValue]", "dict[str, JsonValue]", None]
"""Data that ``json.dumps`` writes as it is."""


def encode_value(v: Value) -> JsonValue:
    """A runtime value as JSON data (tagged objects for everything but plain data)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v if -BIG_INT < v < BIG_INT else {"int": hex(v)}
    if isinstance(v, tuple):
        return [encode_value(x) for x in v]
    if isinstance(v, dict):
        return {"map": [[encode_value(k), encode_value(x)] for k, x in v.items()]}
    return _encode_object(v)


def _encode_object(v: Value) -> dict[str, JsonValue]:
    if isinstance(v, Player):
        return {"player": v.index}
    if isinstance(v, Component):
        return {"component": v.id}
    if isinstance(v, EnumValue):
        return {"enum": v.type, "value": v.name}
    if isinstance(v, boards.Space):
        return {"board": v.board, "space": v.name}
    if isinstance(v, ZoneRef):
        return {"zone": v.slot}
    if isinstance(v, Ref):
        return {"ref": v.kind, "name": v.name}
    if isinstance(v, EnumType):
        return {"enum_type": v.name}
    raise TypeError(f"cannot serialize {type(v).__name__}")


def zone_key(ref: ZoneRef) -> str:
    """The key of a zone in the saved data: its name, and "/SEAT" for a player's zone."""
    return ref.name if ref.owner is None else f"{ref.name}/{ref.owner.index}"


def zone_slots(refs: Iterable[ZoneRef]) -> dict[str, int]:
    """The slot of each zone by its key (``zone_key``)."""
    return {zone_key(ref): ref.slot for ref in refs}
