"""Exact JSON round trips of states, and replay from a state's origin."""
from __future__ import annotations

from rulelang import boards
from rulelang.diagnostics import Diagnostic

from .state import Frame, IllegalActionError, State
from .values import Component, EnumType, EnumValue, Player, Ref, ZoneRef

FORMAT = 1


def encode_value(v):
    """A runtime value as JSON data (tagged objects for everything but plain data)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, tuple):
        return [encode_value(x) for x in v]
    if isinstance(v, Player):
        return {"player": v.index}
    if isinstance(v, Component):
        return {"component": v.id}
    if isinstance(v, EnumValue):
        return {"enum": v.type, "value": v.name}
    if isinstance(v, boards.Space):
        return {"board": v.board, "space": v.index}
    if isinstance(v, ZoneRef):
        return {"zone": v.slot}
    if isinstance(v, dict):
        return {"map": [[encode_value(k), encode_value(x)] for k, x in v.items()]}
    if isinstance(v, Ref):
        return {"ref": v.kind, "name": v.name}
    if isinstance(v, EnumType):
        return {"enum_type": v.name}
    raise TypeError(f"cannot serialize {type(v).__name__}")


def decode_value(game, data):
    """The runtime value for JSON data written by ``encode_value``."""
    cat = game.catalog
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return tuple(decode_value(game, x) for x in data)
    if not isinstance(data, dict):
        raise ValueError(f"unexpected value {data!r}")
    if "player" in data:
        return cat.players[data["player"]]
    if "component" in data:
        return cat.components[data["component"]]
    if "enum" in data:
        return next(v for v in cat.enums[data["enum"]].values if v.name == data["value"])
    if "space" in data:
        return cat.boards[data["board"]].spaces[data["space"]]
    if "zone" in data:
        return cat.zone_refs[data["zone"]]
    if "map" in data:
        return {decode_value(game, k): decode_value(game, x) for k, x in data["map"]}
    if "ref" in data:
        return cat.constants[data["name"]]
    if "enum_type" in data:
        return cat.enums[data["enum_type"]]
    raise ValueError(f"unexpected value {data!r}")


def state_to_json(st: State) -> dict:
    cat = st.game.catalog
    enc = encode_value
    return {
        "format": FORMAT,
        "players": st.game.num_players,
        "seed": st.seed,
        "explicit_chance": st.explicit_chance,
        "rng": st.rng,
        "terminal": st.terminal,
        "decisions": st.decisions,
        "globals": {k: enc(v) for k, v in st.g.items()},
        "player_vars": {k: [enc(x) for x in v] for k, v in st.pv.items()},
        "space_vars": {k: [enc(x) for x in v] for k, v in st.sv.items()},
        "supplies": {k: list(v) for k, v in st.sup.items()},
        "zones": {_zone_key(cat.zone_refs[i]): [c.id for c in z] for i, z in enumerate(st.zones)},
        "frames": [{"procedure": f.name, "pc": f.pc, "env": {k: enc(v) for k, v in f.env.items()},
                    "returns_to": f.ret} for f in st.frames],
        "history": [list(h) for h in st.history_list],
        "log": list(st.log),
    }


def _zone_key(ref: ZoneRef) -> str:
    return ref.name if ref.owner is None else f"{ref.name}/{ref.owner.index}"


def state_from_json(game, data: dict) -> State:
    try:
        st = _build(game, data)
    except (KeyError, IndexError, TypeError, ValueError, StopIteration, AttributeError) as error:
        raise IllegalActionError(str(Diagnostic("E606", f"state data does not fit this game: "
                                                         f"{type(error).__name__}: {error}"))) from None
    st.origin = data
    st.since_origin = 0
    return st


def _build(game, data) -> State:
    if data.get("format") != FORMAT or data.get("players") != game.num_players:
        raise ValueError("format or player count differs")
    cat = game.catalog
    dec = lambda v: decode_value(game, v)
    st = State(game, data["seed"], bool(data["explicit_chance"]))
    st.rng = int(data["rng"])
    st.terminal = bool(data["terminal"])
    st.decisions = int(data["decisions"])
    st.g = {k: dec(v) for k, v in data["globals"].items()}
    st.pv = {k: [dec(x) for x in v] for k, v in data["player_vars"].items()}
    st.sv = {k: [dec(x) for x in v] for k, v in data["space_vars"].items()}
    st.sup = {k: [int(x) for x in v] for k, v in data["supplies"].items()}
    _check_keys(st, cat)
    keys = {_zone_key(r): r.slot for r in cat.zone_refs}
    st.zones = [[] for _ in cat.zone_refs]
    st.loc = [-1] * len(cat.components)
    for key, ids in data["zones"].items():
        slot = keys[key]
        for cid in ids:
            if st.loc[cid] != -1:
                raise ValueError(f"component {cid} is in two zones")
            st.zones[slot].append(cat.components[cid])
            st.loc[cid] = slot
    if -1 in st.loc:
        raise ValueError(f"component {st.loc.index(-1)} is in no zone")
    st.frames = [Frame(f["procedure"], cat.code[f["procedure"]].ops, int(f["pc"]),
                       {k: dec(v) for k, v in f["env"].items()}, f["returns_to"]) for f in data["frames"]]
    st.history_list = [tuple(h) for h in data["history"]]
    st.log = list(data["log"])
    if not st.terminal:
        st.run()  # re-reaches the pending decision, which is never stored
    return st


def _check_keys(st, cat):
    if set(st.g) != set(cat.global_vars) or set(st.pv) != set(cat.player_vars) \
            or set(st.sv) != set(cat.space_vars) or set(st.sup) != set(cat.supplies):
        raise ValueError("variables or supplies differ from the ruleset's")
    for k, v in st.pv.items():
        if len(v) != len(cat.players):
            raise ValueError(f"player variable {k} has {len(v)} values")
    for k, v in st.sup.items():
        if len(v) != len(cat.players) + 1 or min(v) < 0:
            raise ValueError(f"supply {k} is malformed")


def replay_origin(st: State, count: int) -> State:
    """The state's origin with its first ``count`` actions since then applied again."""
    game = st.game
    if st.origin is None:
        fresh = game._blank_state(st.seed, st.explicit_chance)
        fresh.run()
    else:
        fresh = state_from_json(game, st.origin)
    for player, action_id in st.history_list[len(st.history_list) - st.since_origin:][:count]:
        fresh.apply_action(action_id, player=player)
    return fresh
