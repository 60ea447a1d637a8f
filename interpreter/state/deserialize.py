"""States from JSON data: ``state_from_json`` reads what ``save.state_to_json`` wrote.

The data may have been edited by hand or come from a stranger: it is checked in three
passes, and data that does not fit the game raises StateDataError (E606) naming the JSON
path, never a Python error.

1. Plain JSON data (dicts with string keys, lists, strings, integers, booleans, null; no
   fractions anywhere) nested at most ``MAX_NESTING`` deep, then the JSON Schema
   ``rulelang/schemas/state.schema.json`` (exact types: an integer is never a boolean or a
   string, and no float passes the first check).
2. The game: variables and supplies are the ruleset's; every id (player, component, space,
   zone, enum value) is in range (no negative indexing anywhere); token totals are the
   supplies' totals; every component is in exactly one zone; the history names real players
   (or chance, with explicit chance) and matches the count of decisions; the program
   position names the ruleset's procedures and phases with ``pc`` within their code, and the
   engine's own loop data in a frame is well formed.
3. The state is run on to the decision it was waiting for, checked again (zones and tokens),
   then the ruleset's invariants must hold (a broken one is named, with its span), and the
   options of every player to act must compute.
"""
from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rulelang import boards
from rulelang.check.zone_types import wrong_zone
from rulelang.diagnostics import Diagnostic
from rulelang.errors import RulelangError, StateDataError
from rulelang.files import compiled_schema

from ..model.program import Code, Env, Frame
from ..model.serialize import FORMAT, READ_FORMATS, zone_slots
from ..model.values import CHANCE, Component, Player, Ref, Value, ZoneRef, kind_of
from ..tables.declared import frame_problem, table_problem
from ..tables.runtime import MAX_INT
from .events import Event, EventDataError, decode_events
from .let_keys_read import with_let_keys
from .state import State

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog

SCHEMA = "schemas/state.schema.json"
"""The saved-state format's JSON Schema, in the rulelang package."""
MAX_NESTING = 64
"""The deepest nesting of lists and objects accepted in state data."""
_MAX_SHOWN = 200  # characters of a rejected value quoted in a message

T = TypeVar("T")

_LOOP_KEY = re.compile(r"\$(for|shuffle|picks)[0-9]+")


class _Bad(Exception):
    """The data at ``path`` does not fit."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path, self.message = path, message


def state_from_json(game: Game, data: object) -> State:
    """The state that ``State.to_json`` wrote (possibly edited by hand), run on to the
    decision it was waiting for. StateDataError (E606) if the data does not fit the game."""
    try:
        _check_plain(data)
        _check_schema(data)
        assert isinstance(data, dict)
        st = _Loader(game).build(data)
    except _Bad as bad:
        raise StateDataError(f"state data does not fit this game: at {bad.path}: {bad.message}",
                             path=bad.path) from None
    except RecursionError:
        raise StateDataError("state data does not fit this game: it is nested too deeply") from None
    except Exception as error:  # a check above that missed a case: still the data's fault
        raise StateDataError(f"state data does not fit this game: {type(error).__name__}: "
                             f"{_short(str(error))}") from None
    if not st.terminal:
        _run_on(st)
    _check_after_run(st)
    # A failed action restores by replaying from here: keep a private snapshot, not the caller's
    # dict (which the caller may change later).
    st.origin = st.clone()
    st.since_origin = 0
    return st


def _short(text: str) -> str:
    return text if len(text) <= _MAX_SHOWN else text[:_MAX_SHOWN] + "..."


def _refuse(message: str) -> StateDataError:
    return StateDataError(f"state data does not fit this game: {message}")


# ---------------------------------------------------------------- pass 1: JSON and the schema

_Trail = Any  # (parent trail, key or index), or None at the top: a path built only when needed


def _check_plain(data: object) -> None:
    """Plain JSON data only, with no floats, nested at most MAX_NESTING deep (no recursion:
    any depth is safe)."""
    stack: list[tuple[object, _Trail, int]] = [(data, None, 0)]
    while stack:
        value, trail, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.items()
            for key, _ in items:
                if not isinstance(key, str):
                    raise _Bad(_path(trail), f"a key must be a string, not {type(key).__name__}")
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            _check_scalar(value, trail)
            continue
        if depth >= MAX_NESTING:
            raise _Bad(_path(trail), f"data nested more than {MAX_NESTING} deep")
        for key, item in items:
            if type(item) not in _SCALARS:
                if isinstance(item, (dict, list)):
                    stack.append((item, (trail, key), depth + 1))
                else:
                    _check_scalar(item, (trail, key))


_SCALARS = frozenset({str, int, bool, type(None)})


def _check_scalar(value: object, trail: _Trail) -> None:
    if isinstance(value, float):
        raise _Bad(_path(trail), f"{_short(repr(value))} is not an integer (saved states hold no fractions)")
    if value is not None and not isinstance(value, (str, int)):
        raise _Bad(_path(trail), f"{type(value).__name__} is not JSON data")


def _path(trail: _Trail) -> str:
    keys: list[str | int] = []
    while trail is not None:
        trail, key = trail
        keys.append(key)
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in reversed(keys))


@functools.cache
def _schema() -> dict[str, Any]:
    text = importlib.resources.files("rulelang").joinpath(SCHEMA).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> Callable[[object], object]:
    """The schema compiled once to a Python function (fastjsonschema): about 20 times faster
    than interpreting it, which counts for the large tables of a saved state."""
    return compiled_schema("state-schema", _schema())


@functools.cache
def _value_validator() -> Callable[[object], object]:
    """The schema's definition of a value, compiled once, for values that the shape of the
    data leaves open (the value of a saved set event)."""
    definition = {"$ref": "#/definitions/value", "definitions": _schema()["definitions"]}
    return compiled_schema("state-value-schema", definition)


def _check_schema(data: object) -> None:
    from fastjsonschema import JsonSchemaValueException

    try:
        _validator()(data)
    except JsonSchemaValueException as error:
        name = str(error.name or "data")
        path = "$" + name[len("data"):]
        message = str(error.message)
        if message.startswith(name + " "):
            message = message[len(name) + 1:]
        if error.rule in ("anyOf", "oneOf") and isinstance(error.definition, dict):
            raise _explain_alternatives(error.value, error.definition, path) or _Bad(path, message) from None
        if error.rule == "type":
            message = f"{_short(repr(error.value))} {message}"
        raise _Bad(path, _short(message)) from None


def _explain_alternatives(value: object, definition: dict[str, Any], path: str) -> _Bad | None:
    """Where a value fits none of several shapes, the closest miss inside them (jsonschema
    looks into the alternatives, the compiled check does not), checking that value alone."""
    import jsonschema
    from jsonschema.exceptions import best_match

    schema = {**definition, "definitions": _schema()["definitions"]}
    error = best_match(jsonschema.Draft7Validator(schema).iter_errors(value))
    if error is None:
        return None
    inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return _Bad(path + inner, _short(error.message))


# ---------------------------------------------------------------- pass 2: the game

class _Loader:
    """Builds a State from schema-valid data, checking it against one game."""

    def __init__(self, game: Game):
        self.game = game
        self.catalog: Catalog = game.catalog
        self.format = FORMAT  # of the data being read

    def build(self, data: dict[str, Any]) -> State:
        game, catalog = self.game, self.catalog
        if data["players"] != game.num_players:
            raise _Bad("$.players", f"the game has {game.num_players} players, not {data['players']}")
        if data["format"] not in READ_FORMATS:
            raise _Bad("$.format", f"format {FORMAT} expected (formats {', '.join(map(str, READ_FORMATS))} are read)")
        self.format = data["format"]
        seed = data["seed"] if isinstance(data["seed"], int) else int(data["seed"]["int"], 16)
        st = State(game, seed, data["explicit_chance"])
        st.rng = data["rng"]
        st.terminal = data["terminal"]
        st.global_values = self._globals(data["globals"])
        st.player_values = self._table(data["player_vars"], "player_vars", catalog.player_vars, len(catalog.players))
        st.space_values = self._table(data["space_vars"], "space_vars", catalog.space_vars, len(catalog.spaces))
        st.component_values = self._table(data.get("component_vars", {}), "component_vars", catalog.component_vars,
                                          len(catalog.components))
        st.supply_counts = self._supplies(data["supplies"])
        self._place_components(st, data["zones"])
        if (apart := game.program.apart) is not None:   # (components placed where no rule brings them?)
            apart.check(st.zones)
        st.frames = self._frames(data["frames"], st)
        if not st.terminal and not st.frames:
            raise _Bad("$.frames", "an unfinished game needs at least one frame")
        if st.terminal and st.frames:
            raise _Bad("$.frames", "a finished game runs no procedure")
        st.action_history = self._history(data["history"], data["decisions"], st)
        st.chance_taken = len(st.action_history) - data["decisions"]
        st.log = list(data["log"])
        st.private_log = self._private_log(data.get("private_log", []), len(st.log))
        st.event_log = self._events(data.get("events"))
        return st

    # ---- values
    def decode(self, data: Any, path: str) -> Value:
        """The runtime value for JSON data written by ``encode_value`` (schema-valid), a
        number within the engine's range."""
        if type(data) is int:
            return _number(data, path)
        if data is None or isinstance(data, (bool, str)):
            return data
        if isinstance(data, list):
            return tuple(x if type(x) in _PLAIN else self.decode(x, f"{path}[{i}]") for i, x in enumerate(data))
        return self._decode_object(data, path)

    def _decode_object(self, data: dict[str, Any], path: str) -> Value:
        catalog = self.catalog
        if "map" in data:
            result: dict[Value, Value] = {}
            for i, (k, v) in enumerate(data["map"]):
                key = self.decode(k, f"{path}.map[{i}][0]")
                try:
                    hash(key)
                except TypeError:
                    raise _Bad(f"{path}.map[{i}][0]", "a map key cannot be a map") from None
                if key in result:
                    raise _Bad(f"{path}.map[{i}][0]", "a key appears twice in the map")
                result[key] = self.decode(v, f"{path}.map[{i}][1]")
            return result
        if "player" in data:
            return _at(catalog.players, data["player"], f"{path}.player", "player")
        if "component" in data:
            return _at(catalog.components, data["component"], f"{path}.component", "component")
        if "enum" in data:
            enum = _named(catalog.enums, data, "enum", path, "enumeration")
            value = next((v for v in enum.values if v.name == data["value"]), None)
            if value is None:
                raise _Bad(f"{path}.value", f"enumeration {enum.name} has no value {_short(data['value'])!r}")
            return value
        if "space" in data:
            return self._space(data, path)
        if "zone" in data:
            return _at(catalog.zone_refs, data["zone"], f"{path}.zone", "zone")
        if "ref" in data:
            ref = catalog.constants.get(data["name"])
            if not isinstance(ref, Ref) or ref.kind != data["ref"]:
                raise _Bad(f"{path}.name", f"no {data['ref']} {_short(data['name'])!r} in this game")
            return ref
        if "enum_type" in data:
            return _named(catalog.enums, data, "enum_type", path, "enumeration")
        if "int" in data:
            return _number(int(data["int"], 16), path)
        raise _Bad(path, "not a value")  # the schema allows no other object

    def _space(self, data: dict[str, Any], path: str) -> boards.Space:
        """A space by its name (format 2) or its index on the board (format 1, still read)."""
        board = _named(self.catalog.boards, data, "board", path, "board")
        key = data["space"]
        if isinstance(key, int):
            return _at(board.spaces, key, f"{path}.space", f"space of board {board.name}")
        if key not in board:
            raise _Bad(f"{path}.space", f"no space {_short(key)!r} on board {board.name}")
        return board.space(key)

    # ---- variables and holdings
    def _globals(self, data: dict[str, Any]) -> dict[str, Value]:
        _same_keys(data, self.catalog.global_vars, "$.globals", "global variable")
        values = {k: self.decode(v, f"$.globals.{k}") for k, v in data.items()}
        problem = table_problem(self.catalog, self.catalog.global_vars, {k: [v] for k, v in values.items()})
        if problem is not None:   # each of its declared type (declared.py)
            name, _, message = problem
            raise _Bad(f"$.globals.{name}", message.replace("[0]", "", 1))
        return values

    def _table(self, data: dict[str, Any], what: str, declared: Any, count: int) -> dict[str, list[Value]]:
        _same_keys(data, declared, f"$.{what}", "variable")
        for k, v in data.items():
            if len(v) != count:
                raise _Bad(f"$.{what}.{k}", f"{len(v)} values where the game has {count} owners")
        values = {k: [x if type(x) in _PLAIN else self.decode(x, f"$.{what}.{k}[{i}]") for i, x in enumerate(v)]
                  for k, v in data.items()}
        problem = table_problem(self.catalog, declared, values)
        if problem is not None:   # each of its declared type (declared.py)
            name, owner, message = problem
            raise _Bad(f"$.{what}.{name}[{owner}]", message)
        return values

    def _supplies(self, data: dict[str, Any]) -> dict[str, list[int]]:
        catalog = self.catalog
        _same_keys(data, catalog.supplies, "$.supplies", "supply")
        holders = catalog.holder_base + len(catalog.components)
        for name, counts in data.items():
            if len(counts) != holders:
                raise _Bad(f"$.supplies.{name}", f"{len(counts)} holders where the game has {holders}")
            if sum(counts) != catalog.supplies[name]:
                raise _Bad(f"$.supplies.{name}", f"the tokens add up to {sum(counts)}, "
                                                 f"not the supply's total {catalog.supplies[name]}")
        return {name: list(counts) for name, counts in data.items()}

    def _place_components(self, st: State, zones: dict[str, Any]) -> None:
        """Put each component where the data says; each must be in exactly one zone."""
        catalog = self.catalog
        slots = zone_slots(catalog.zone_refs)
        st.zones = [[] for _ in catalog.zone_refs]
        st.component_zone = [-1] * len(catalog.components)
        for key, ids in zones.items():
            if key not in slots:
                raise _Bad("$.zones", f"no zone {_short(key)!r} in this game")
            slot = slots[key]
            for i, cid in enumerate(ids):
                component = _at(catalog.components, cid, f"$.zones.{key}[{i}]", "component")
                if st.component_zone[cid] != -1:
                    raise _Bad(f"$.zones.{key}[{i}]", f"component {cid} is in two zones")
                holds = catalog.zone_holds[slot]
                if holds is not None and component.type != holds:   # (the code reads its fields so: typed.py)
                    raise _Bad(f"$.zones.{key}[{i}]", wrong_zone(catalog.zone_refs[slot].name, holds, component.type))
                st.zones[slot].append(component)
                st.component_zone[cid] = slot
        if -1 in st.component_zone:
            raise _Bad("$.zones", f"component {st.component_zone.index(-1)} is in no zone")
        seers = catalog.zone_seers   # (no history: each known where its zone is seen in full)
        st.component_knowledge = [seers[slot] for slot in st.component_zone]

    # ---- program position
    def _frames(self, data: list[Any], st: State) -> list[Frame]:
        from . import state as state_module

        depth: int = getattr(state_module, "MAX_DEPTH", 1000)
        if len(data) > depth:
            raise _Bad("$.frames", f"more than {depth} procedures running")
        frames = []
        for n, f in enumerate(with_let_keys(data, self.game.program.code)):   # (keys before format 4)
            path = f"$.frames[{n}]"
            code = self.game.program.code.get(f["procedure"])
            if code is None:
                raise _Bad(f"{path}.procedure", f"no procedure or phase {_short(f['procedure'])!r} in this game")
            pc = f["pc"]
            if self.format < 3:  # counted one operation per statement: a compiled block is one now
                if pc not in code.legacy:
                    raise _Bad(f"{path}.pc", f"format {self.format} has no operation {pc} in {f['procedure']} where"
                                             " a game can stop")
                pc = code.legacy[pc]
            if pc > len(code.ops):
                raise _Bad(f"{path}.pc", f"{f['procedure']} has {len(code.ops)} operations")
            env = {k: self.decode(v, f"{path}.env.{k}") for k, v in f["env"].items()}
            for key, value in env.items():
                if key.startswith("$"):
                    self._loop_data(key, value, st, f"{path}.env.{key}", (code, env))
            problem = frame_problem(self.catalog, f["procedure"], env, code.held)   # the types its code holds to
            if problem is not None:
                raise _Bad(f"{path}.env.{problem[0]}", problem[1])
            frames.append(Frame(f["procedure"], code.ops, pc, env, f["returns_to"]))
        return frames

    def _loop_data(self, key: str, value: Value, st: State, path: str, frame: tuple[Code, Env]) -> None:
        """The engine's own data in a frame (of ``frame``'s code, with its environment): a
        loop's list and position, each item of the type the loop's variable is held to
        (``Code.held``), a shuffle's items and position, the very components of the zone
        it shuffles, the picks made so far in a simultaneous choice."""
        match = _LOOP_KEY.fullmatch(key)
        if match is None:
            raise _Bad(path, "not a variable of this engine")
        kind = match.group(1)
        if kind == "picks":
            keys: list[Value] = list(value) if isinstance(value, dict) else [None]
            if not all(isinstance(p, Player) and p.index < self.game.num_players for p in keys):
                raise _Bad(path, "the picks of a simultaneous choice are a map from players")
            return
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple)
                and isinstance(value[1], int) and not isinstance(value[1], bool)):
            raise _Bad(path, "a loop's data is [items, position]")
        items, i = value[0], value[1]
        assert isinstance(items, tuple) and isinstance(i, int)
        code, env = frame
        if kind == "for":
            if not 0 <= i <= len(items):
                raise _Bad(path, f"position {i} is outside the loop's {len(items)} items")
            var = next((s[2] for s in code.shapes.values() if s[:2] == ("for", key)), None)
            promise = code.held.get(var) if isinstance(var, str) else None
            for n, item in enumerate(items):   # (the code reads the variable so: held.py, typed.py)
                if promise is not None and not promise.fits(item):
                    raise _Bad(f"{path}[0][{n}]", f"the loop's variable {var} must be {promise.describe()},"
                                                  f" not {kind_of(item)}")
            return
        if not -1 <= i < len(items) or (i == -1 and items):
            raise _Bad(path, f"position {i} is outside the shuffle's {len(items)} items")
        target = code.shuffled.get(key)
        try:
            zone = target(st, env) if target is not None else None
        except Exception:   # (a target the frame's locals cannot give: it would fail on resuming)
            raise _Bad(path, "the zone or list being shuffled cannot be read from this frame") from None
        if type(zone) is ZoneRef and sorted(c.id if isinstance(c, Component) else -1 for c in items) != sorted(
                c.id for c in st.zones[zone.slot]):
            raise _Bad(path, f"the items being shuffled are not the components of zone '{zone.name}'")

    def _events(self, data: list[Any] | None) -> list[Event] | None:
        """The event log (events.py), checked against the game; None (no events recorded)
        when the data has none."""
        if data is None:
            return None
        try:
            return decode_events(data, self.catalog, self._checked_value)
        except EventDataError as bad:
            raise _Bad(bad.path, bad.message) from None

    def _checked_value(self, data: Any, path: str) -> Value:
        """A value that the schema left open, checked against its definition of a value, then
        decoded."""
        from fastjsonschema import JsonSchemaValueException

        try:
            _value_validator()(data)
        except JsonSchemaValueException:
            definition = {"$ref": "#/definitions/value"}
            raise _explain_alternatives(data, definition, path) or _Bad(path, "not a value") from None
        return self.decode(data, path)

    def _private_log(self, data: list[Any], public: int) -> list[tuple[int, tuple[int, ...], str]]:
        """Lines for some players: in order, placed within the public log, for real players."""
        lines: list[tuple[int, tuple[int, ...], str]] = []
        previous = 0
        for n, (at, players, text) in enumerate(data):
            path = f"$.private_log[{n}]"
            if not previous <= at <= public:
                raise _Bad(f"{path}[0]", f"a line placed after {at} public lines, where {previous} to {public} fit")
            for player in players:
                _at(self.catalog.players, player, f"{path}[1]", "player")
            lines.append((at, tuple(sorted(set(players))), text))
            previous = at
        return lines

    def _history(self, data: list[Any], decisions: int, st: State) -> list[tuple[int, int]]:
        """The history of ``data``, which holds ``decisions`` choices of players."""
        players = self.game.num_players
        for i, (player, _action) in enumerate(data):
            if player == CHANCE and not st.explicit_chance:
                raise _Bad(f"$.history[{i}][0]", "chance acts only with explicit chance")
            if player >= players:
                raise _Bad(f"$.history[{i}][0]", f"no player {player} in a {players}-player game "
                                                 f"(players are 0..{players - 1}, chance -1)")
        choices = sum(1 for player, _action in data if player != CHANCE)
        if choices != decisions:
            raise _Bad("$.decisions", f"{decisions} decisions, but the history holds {choices} choices")
        return [(player, action) for player, action in data]


_PLAIN = frozenset({str, bool, type(None)})
"""The kinds of JSON data that are values as they are (a number is checked: ``_number``)."""


def _number(value: int, path: str) -> int:
    """``value``, a number the engine's arithmetic could have made (within +-MAX_INT)."""
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise _Bad(path, f"a number beyond the engine's range of -{MAX_INT} to {MAX_INT}")


def _at(items: Sequence[T], index: int, path: str, what: str) -> T:
    """``items[index]`` for an index the schema made a non-negative int."""
    if not 0 <= index < len(items):
        raise _Bad(path, f"no {what} {index} (there are {len(items)})")
    return items[index]


def _named(table: dict[str, T], data: dict[str, Any], key: str, path: str, what: str) -> T:
    """The entry of ``table`` named by ``data[key]``."""
    found = table.get(data[key])
    if found is None:
        raise _Bad(f"{path}.{key}", f"no {what} {_short(data[key])!r} in this game")
    return found


def _same_keys(data: dict[str, Any], declared: Any, path: str, what: str) -> None:
    extra = sorted(set(data) - set(declared))
    missing = sorted(set(declared) - set(data))
    if extra:
        raise _Bad(path, f"no {what} {_short(extra[0])!r} in this game")
    if missing:
        raise _Bad(path, f"{what} {missing[0]!r} is missing")


# ---------------------------------------------------------------- pass 3: running on

def _run_on(st: State) -> None:
    """Run to the pending decision, which is never stored. Data that makes the rules (or the
    engine, which trusts its own states) fail there does not fit the game."""
    try:
        st.run()
    except RulelangError as error:
        raise _refuse(f"resuming it fails: {error}") from None
    except Exception as error:  # run() raises only the family; kept for safety
        raise _refuse(f"resuming it fails: {type(error).__name__}") from None


def _check_after_run(st: State) -> None:
    """Holdings still consistent, the ruleset's invariants hold, and the options of every
    player to act compute."""
    catalog = st.game.catalog
    seen = [-1] * len(catalog.components)
    for slot, zone in enumerate(st.zones):
        for c in zone:
            if seen[c.id] != -1:
                raise _refuse(f"after resuming, component {c.id} is in two zones")
            seen[c.id] = slot
    if seen != st.component_zone:
        raise _refuse("after resuming, the zones do not hold every component once")
    for name, counts in st.supply_counts.items():
        if sum(counts) != catalog.supplies[name] or min(counts, default=0) < 0:
            raise _refuse(f"after resuming, the tokens of supply {name} do not add up")
    for rule in st.game.program.invariants:
        try:
            holds = st._evaluate(rule.condition, {}, rule.span)
        except RulelangError as error:
            raise _refuse(f"invariant {rule.label!r} ({rule.span}) cannot be checked: {error}") from None
        if not holds:
            message = f"state data does not fit this game: it breaks invariant {rule.label!r} ({rule.span})"
            raise StateDataError(message, [Diagnostic("E606", message, rule.span)])
    if st.pending is None and not st.terminal:
        raise _refuse("after resuming, nobody is to act and the game is not over")
    try:
        for player in st.current_players():
            if st.pending is not None:
                st.pending.options_of(player)
    except Exception as error:
        raise _refuse(f"the options of the decision awaited cannot be computed ({type(error).__name__})") from None
