"""Exact JSON round trips of states, and replay from a state's origin."""
from __future__ import annotations

from rulelang import boards
from rulelang.diagnostics import Diagnostic

from .state import Frame, IllegalActionError, RulesRuntimeError, State
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
        "component_vars": {k: [enc(x) for x in v] for k, v in st.cv.items()},
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
    except RulesRuntimeError as error:
        raise IllegalActionError(str(Diagnostic("E606", f"state data does not fit this game: resuming it "
                                                         f"fails: {error}"))) from None
    # A failed action restores by replaying from here: keep a private snapshot, not the caller's
    # dict (which the caller may change later).
    st.origin = st.clone()
    st.since_origin = 0
    return st


def _build(game, data) -> State:
    if data.get("format") != FORMAT or data.get("players") != game.num_players:
        raise ValueError("format or player count differs")
    cat = game.catalog
    dec = lambda v: decode_value(game, v)
    st = State(game, _int(data["seed"], "seed"), _bool(data["explicit_chance"], "explicit_chance"))
    st.rng = _int(data["rng"], "rng", 0, (1 << 64) - 1)
    st.terminal = _bool(data["terminal"], "terminal")
    st.decisions = _int(data["decisions"], "decisions", 0)
    st.g = {k: dec(v) for k, v in data["globals"].items()}
    st.pv = {k: [dec(x) for x in v] for k, v in data["player_vars"].items()}
    st.sv = {k: [dec(x) for x in v] for k, v in data["space_vars"].items()}
    st.cv = {k: [dec(x) for x in v] for k, v in data.get("component_vars", {}).items()}
    st.sup = {k: [int(x) for x in v] for k, v in data["supplies"].items()}
    _check_keys(st, cat)
    keys = {_zone_key(r): r.slot for r in cat.zone_refs}
    st.zones = [[] for _ in cat.zone_refs]
    st.loc = [-1] * len(cat.components)
    for key, ids in data["zones"].items():
        slot = keys[key]
        for cid in ids:
            if st.loc[_int(cid, "component id", 0)] != -1:
                raise ValueError(f"component {cid} is in two zones")
            st.zones[slot].append(cat.components[cid])
            st.loc[cid] = slot
    if -1 in st.loc:
        raise ValueError(f"component {st.loc.index(-1)} is in no zone")
    st.frames = [_frame(game, f) for f in _list(data["frames"], "frames")]
    if not st.terminal and not st.frames:
        raise ValueError("an unfinished game needs at least one frame")
    st.history_list = [_history_entry(h) for h in _list(data["history"], "history")]
    st.log = [_str(x, "log entry") for x in _list(data["log"], "log")]
    if not st.terminal:
        st.run()  # re-reaches the pending decision, which is never stored
    return st


def _int(value, what, low=None, high=None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{what} {value} is out of range")
    return value


def _bool(value, what) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def _str(value, what) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {value!r}")
    return value


def _list(value, what) -> list:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {type(value).__name__}")
    return value


def _frame(game, f) -> Frame:
    code = game.catalog.code[_str(f["procedure"], "procedure")]
    pc = _int(f["pc"], "pc", 0, len(code.ops))
    if not isinstance(f["env"], dict):
        raise ValueError("a frame's env must be an object")
    ret = f["returns_to"]
    if ret is not None:
        _str(ret, "returns_to")
    return Frame(f["procedure"], code.ops, pc, {k: decode_value(game, v) for k, v in f["env"].items()}, ret)


def _history_entry(entry) -> tuple:
    if not isinstance(entry, (list, tuple)) or len(entry) != 2:
        raise ValueError(f"a history entry is a [player, action] pair, not {entry!r}")
    return _int(entry[0], "history player", -1), _int(entry[1], "history action", 0)


def _check_keys(st, cat):
    if set(st.g) != set(cat.global_vars) or set(st.pv) != set(cat.player_vars) \
            or set(st.sv) != set(cat.space_vars) or set(st.sup) != set(cat.supplies) \
            or set(st.cv) != set(cat.component_vars):
        raise ValueError("variables or supplies differ from the ruleset's")
    owned = (("player", st.pv, len(cat.players)), ("space", st.sv, len(cat.spaces)),
             ("component", st.cv, len(cat.components)))
    for owner, variables, count in owned:
        for k, v in variables.items():
            if len(v) != count:
                raise ValueError(f"{owner} variable {k} has {len(v)} values")
    for k, v in st.sup.items():
        if len(v) != cat.holder_base + len(cat.components) or min(v) < 0:
            raise ValueError(f"supply {k} is malformed")


def replay_origin(st: State, count: int) -> State:
    """The state's origin with its first ``count`` actions since then applied again."""
    game = st.game
    if st.origin is None:
        fresh = game._blank_state(st.seed, st.explicit_chance)
        fresh.run()
    else:
        fresh = st.origin.clone()
        fresh.origin, fresh.since_origin = st.origin, 0
    for player, action_id in st.history_list[len(st.history_list) - st.since_origin:][:count]:
        fresh.apply_action(action_id, player=player)
    return fresh
