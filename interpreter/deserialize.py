"""States from JSON data: ``state_from_json`` reads what ``serialize.state_to_json`` wrote.

The data may have been edited by hand or come from elsewhere: everything is checked, and
data that does not fit the game raises StateDataError (E606), never a Python error.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rulelang.errors import RulelangError, StateDataError

from .program import Frame
from .serialize import FORMAT, zone_key
from .state import State
from .values import Value

if TYPE_CHECKING:
    from .catalog import Catalog
    from .game import Game

T = TypeVar("T")

# What malformed data makes the decoding below raise: each means "does not fit".
_DECODING_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def state_from_json(game: Game, data: object) -> State:
    """The state that ``State.to_json`` wrote (possibly edited by hand), run on to the
    decision it was waiting for."""
    try:
        st = _build(game, _dict(data, "state data"))
    except _DECODING_ERRORS as error:
        raise StateDataError(f"state data does not fit this game: {type(error).__name__}: {error}") from None
    if not st.terminal:
        _run_on(st)
    # A failed action restores by replaying from here: keep a private snapshot, not the caller's
    # dict (which the caller may change later).
    st.origin = st.clone()
    st.since_origin = 0
    return st


def _run_on(st: State) -> None:
    """Run to the pending decision, which is never stored. Data that makes the rules (or the
    engine, which trusts its own states) fail there does not fit the game."""
    try:
        st.run()
    except RulelangError as error:
        raise StateDataError(f"state data does not fit this game: resuming it fails: {error}") from error


def _build(game: Game, data: dict[str, object]) -> State:
    if data.get("format") != FORMAT or data.get("players") != game.num_players:
        raise ValueError("format or player count differs")
    catalog = game.catalog
    st = State(game, _int(data["seed"], "seed"), _bool(data["explicit_chance"], "explicit_chance"))
    st.rng = _int(data["rng"], "rng", 0, (1 << 64) - 1)
    st.terminal = _bool(data["terminal"], "terminal")
    st.decisions = _int(data["decisions"], "decisions", 0)
    decode = _decoder(catalog)
    st.global_values = {k: decode(v) for k, v in _dict(data["globals"], "globals").items()}
    st.player_values = _tables(data["player_vars"], decode, "player_vars")
    st.space_values = _tables(data["space_vars"], decode, "space_vars")
    st.component_values = _tables(data.get("component_vars", {}), decode, "component_vars")
    st.supply_counts = _tables(data["supplies"], lambda x: _int(x, "token count", 0), "supplies")
    _check_tables(st, catalog)
    _place_components(st, catalog, _dict(data["zones"], "zones"))
    st.frames = [_frame(catalog, _dict(f, "frame"), decode) for f in _list(data["frames"], "frames")]
    if not st.terminal and not st.frames:
        raise ValueError("an unfinished game needs at least one frame")
    st.action_history = [_history_entry(h) for h in _list(data["history"], "history")]
    st.log = [_str(x, "log entry") for x in _list(data["log"], "log")]
    return st


def _decoder(catalog: Catalog) -> Callable[[object], Value]:
    """``decode(data)``: the runtime value for JSON data written by ``encode_value``."""
    def decode(data: object) -> Value:
        if data is None or isinstance(data, (bool, int, str)):
            return data
        if isinstance(data, list):
            return tuple(decode(x) for x in data)
        tagged = _dict(data, "value")
        if "map" in tagged:
            return dict(_pair(entry, decode) for entry in _list(tagged["map"], "map"))
        return _decode_object(catalog, tagged)
    return decode


def _decode_object(catalog: Catalog, data: dict[str, object]) -> Value:
    if "player" in data:
        return catalog.players[_int(data["player"], "player", 0)]
    if "component" in data:
        return catalog.components[_int(data["component"], "component", 0)]
    if "enum" in data:
        enum = catalog.enums[_str(data["enum"], "enum")]
        value = next((v for v in enum.values if v.name == data["value"]), None)
        if value is None:
            raise ValueError(f"enum {enum.name} has no value {data['value']!r}")
        return value
    if "space" in data:
        return catalog.boards[_str(data["board"], "board")].spaces[_int(data["space"], "space", 0)]
    if "zone" in data:
        return catalog.zone_refs[_int(data["zone"], "zone", 0)]
    if "ref" in data:
        return catalog.constants[_str(data["name"], "name")]
    if "enum_type" in data:
        return catalog.enums[_str(data["enum_type"], "enum_type")]
    raise ValueError(f"unexpected value {data!r}")


def _pair(entry: object, decode: Callable[[object], Value]) -> tuple[Value, Value]:
    """One [key, value] entry of a map."""
    key, value = _list(entry, "map entry")
    return decode(key), decode(value)


def _tables(data: object, decode: Callable[[object], T], what: str) -> dict[str, list[T]]:
    return {k: [decode(x) for x in _list(v, what)] for k, v in _dict(data, what).items()}


def _check_tables(st: State, catalog: Catalog) -> None:
    if set(st.global_values) != set(catalog.global_vars) or set(st.player_values) != set(catalog.player_vars) \
            or set(st.space_values) != set(catalog.space_vars) or set(st.supply_counts) != set(catalog.supplies) \
            or set(st.component_values) != set(catalog.component_vars):
        raise ValueError("variables or supplies differ from the ruleset's")
    owned = (("player", st.player_values, len(catalog.players)), ("space", st.space_values, len(catalog.spaces)),
             ("component", st.component_values, len(catalog.components)))
    for owner, variables, count in owned:
        for k, v in variables.items():
            if len(v) != count:
                raise ValueError(f"{owner} variable {k} has {len(v)} values")
    for k, counts in st.supply_counts.items():
        if len(counts) != catalog.holder_base + len(catalog.components):
            raise ValueError(f"supply {k} is malformed")


def _place_components(st: State, catalog: Catalog, zones: dict[str, object]) -> None:
    """Put each component where the data says; each must be in exactly one zone."""
    slots = {zone_key(r): r.slot for r in catalog.zone_refs}
    st.zones = [[] for _ in catalog.zone_refs]
    st.component_zone = [-1] * len(catalog.components)
    for key, ids in zones.items():
        slot = slots[key]
        for item in _list(ids, "zone"):
            cid = _int(item, "component id", 0)
            if st.component_zone[cid] != -1:
                raise ValueError(f"component {cid} is in two zones")
            st.zones[slot].append(catalog.components[cid])
            st.component_zone[cid] = slot
    if -1 in st.component_zone:
        raise ValueError(f"component {st.component_zone.index(-1)} is in no zone")


def _frame(catalog: Catalog, f: dict[str, object], decode: Callable[[object], Value]) -> Frame:
    name = _str(f["procedure"], "procedure")
    code = catalog.code[name]
    pc = _int(f["pc"], "pc", 0, len(code.ops))
    env = {k: decode(v) for k, v in _dict(f["env"], "a frame's env").items()}
    ret = f["returns_to"]
    return Frame(name, code.ops, pc, env, None if ret is None else _str(ret, "returns_to"))


def _history_entry(entry: object) -> tuple[int, int]:
    if not isinstance(entry, (list, tuple)) or len(entry) != 2:
        raise ValueError(f"a history entry is a [player, action] pair, not {entry!r}")
    return _int(entry[0], "history player", -1), _int(entry[1], "history action", 0)


def _int(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{what} {value} is out of range")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {value!r}")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {type(value).__name__}")
    return value


def _dict(value: object, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object, not {type(value).__name__}")
    return value
