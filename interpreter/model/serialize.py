"""States as JSON data: ``state_to_json`` and the encoding of each value.

The format is documented in docs/state-format.md; ``deserialize.state_from_json`` reads it back.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, Union

from rulelang import boards

from .values import Component, EnumType, EnumValue, Player, Ref, Value, ZoneRef

if TYPE_CHECKING:
    from ..state.state import State

FORMAT = 3
"""The version of the saved-state format written. 3 counts a frame's ``pc`` in operations of
the compiled code, where statements that cannot pause run as one; 2 (still read) counted
one operation per statement and named a space by its name; 1 (still read) gave a space's
index on the board."""
READ_FORMATS = (1, 2, 3)
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


def state_to_json(st: State) -> dict[str, JsonValue]:
    """The whole state as JSON-serializable data (the decision awaited is not stored: it is
    found again by running on)."""
    refs = st.game.catalog.zone_refs
    return {
        "format": FORMAT,
        "players": st.game.num_players,
        "seed": encode_value(st.seed),
        "explicit_chance": st.explicit_chance,
        "rng": st.rng,
        "terminal": st.terminal,
        "decisions": st.decisions,
        "globals": {k: encode_value(v) for k, v in st.global_values.items()},
        "player_vars": _encode_tables(st.player_values),
        "space_vars": _encode_tables(st.space_values),
        "component_vars": _encode_tables(st.component_values),
        "supplies": {k: list(v) for k, v in st.supply_counts.items()},
        "zones": {zone_key(refs[i]): [c.id for c in z] for i, z in enumerate(st.zones)},
        "frames": [{"procedure": f.name, "pc": f.pc, "env": {k: encode_value(v) for k, v in f.env.items()},
                    "returns_to": f.ret} for f in st.frames],
        "history": [list(h) for h in st.action_history],
        "log": list(st.log),
        "private_log": [[at, list(players), text] for at, players, text in st.private_log],
        **_events(st),
    }


def _events(st: State) -> dict[str, JsonValue]:
    """``{"events": [...]}`` when the state records events (events.py), else nothing."""
    if st.event_log is None:
        return {}
    from ..state.events import encode_events  # events.py builds on this module: imported when used

    return {"events": encode_events(st.event_log)}


def _encode_tables(tables: dict[str, list[Value]]) -> dict[str, JsonValue]:
    return {k: [encode_value(x) for x in v] for k, v in tables.items()}
