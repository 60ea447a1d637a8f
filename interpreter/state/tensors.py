"""Tensors for any ruleset: observation and information-state tensors derived from the
declarations and their visibilities (docs/embedding.md, "Tensors and action masks"). The
fixed action space and the legal-action mask are made in ``action_ids.py`` and given to
hosts from here too.

Nothing here is written for one game: the layout of a game's tensors is read from its
catalog once (``layout``) and every state of the game fills the same layout, so the shape
is constant. A tensor holds only what its viewer may see, as ``State.observation`` does:
two states that the viewer cannot tell apart give the same tensor.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rulelang import ast
from rulelang.boards import Space
from rulelang.errors import IllegalActionError

from ..model.values import CHANCE, Component, EnumValue, Player, Value
from ..model.visibility import sight, zone_sight
from .action_ids import DEFAULT_MAX_NUMBER, ActionSpace, action_space, legal_action_mask, number_bound
from .actions import checked_player

if TYPE_CHECKING:
    from ..game import Game
    from ..tables.catalog import Catalog
    from .state import State

__all__ = [   # the action space is made in action_ids.py; hosts find it here with the tensors
    "DECISION_KINDS", "DEFAULT_HISTORY", "DEFAULT_MAX_NUMBER", "ActionSpace", "Block", "Layout", "ValueCode",
    "action_space", "information_state_shape", "information_state_tensor", "layout", "legal_action_mask",
    "number_bound", "observation_bounds", "observation_shape", "observation_tensor", "own_actions_tensor", "value_code",
]

DEFAULT_HISTORY = 8
"""How many of the viewer's own last actions an information-state tensor spells out."""

DECISION_KINDS = ("choice", "number range", "menu", "simultaneous", "chance")
"""The kinds of decision (``DecisionContext.kind``), in the order of their one-hot block."""

_LARGEST = 1e300   # numbers beyond this size are written as this size (a float holds them)

Range = tuple[float, float]
"""The least and the greatest value one float of a tensor may hold."""
FLAG: Range = (0.0, 1.0)
ANY_NUMBER: Range = (-_LARGEST, _LARGEST)
COUNT: Range = (0.0, _LARGEST)   # a length or a count the declarations do not bound


# ---------------------------------------------------------------- encoding values

Writer = Callable[[Value, list[float], int], None]


@dataclass(frozen=True)
class ValueCode:
    """How a value of one declared type is written: ``size`` floats from an offset, each
    within its range of ``bounds``."""

    size: int
    write: Writer
    bounds: tuple[Range, ...]


def _number(value: Value) -> float:
    """A value as one float: a number as it is (clamped), a boolean as 0 or 1, a reference
    (player, space, component, enum value) as 1 + its index, a list as its length."""
    if type(value) is int:   # the usual value first
        return _clamped(value)
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int):
        return _clamped(value)
    index = _reference_index(value)
    if index is not None:
        return float(index + 1)
    if isinstance(value, (tuple, dict)):
        return float(len(value))
    return 0.0


def _clamped(number: int) -> float:
    return float(number) if -_LARGEST <= number <= _LARGEST else math.copysign(_LARGEST, number)


def _reference_index(value: Value) -> int | None:
    """The index of a player, component, enum value or space within its kind."""
    if isinstance(value, Player):
        return value.index
    if isinstance(value, Component):
        return value.id
    if isinstance(value, EnumValue):
        return value.ordinal
    if isinstance(value, Space):
        return value.index
    return None


def _scalar(out: list[float], at: int, value: Value) -> None:
    out[at] = _number(value)


def _scalar_code(bound: Range) -> ValueCode:
    """A value as one float (``_number``) within ``bound``."""
    return ValueCode(1, lambda value, out, at: _scalar(out, at, value), (bound,))


SCALAR = _scalar_code(ANY_NUMBER)


def _optional_scalar(value: Value, out: list[float], at: int) -> None:
    if value is None:
        out[at] = 1.0
    else:
        out[at + 1] = _number(value)


def _one_hot(size: int, index_of: Callable[[Value], int | None]) -> ValueCode:
    """A value as a one-hot block of ``size`` (all 0 for none or a value out of place)."""
    def write(value: Value, out: list[float], at: int) -> None:
        index = index_of(value)
        if index is not None and 0 <= index < size:
            out[at + index] = 1.0
    return ValueCode(size, write, (FLAG,) * size)


def _counts(size: int, index_of: Callable[[Value], int | None]) -> ValueCode:
    """A list as its length, then how many times each value of its item type is in it."""
    def write(value: Value, out: list[float], at: int) -> None:
        if not isinstance(value, tuple):
            out[at] = _number(value)
            return
        out[at] = float(len(value))
        for item in value:
            index = index_of(item)
            if index is not None and 0 <= index < size:
                out[at + 1 + index] += 1.0
    return ValueCode(1 + size, write, (COUNT,) * (1 + size))


def _entries(seats: int, code: ValueCode) -> ValueCode:
    """A map from players as one block of ``code`` for each seat, in seat order (all 0 for a
    seat with no entry, or for no map)."""
    def write(value: Value, out: list[float], at: int) -> None:
        if not isinstance(value, dict):
            return
        for key, entry in value.items():
            if isinstance(key, Player) and 0 <= key.index < seats:
                code.write(entry, out, at + key.index * code.size)
    return ValueCode(seats * code.size, write, code.bounds * seats)


def _index_of(catalog: Catalog, typ: ast.TypeRef) -> tuple[int, Callable[[Value], int | None]] | None:
    """The block size and the place in it of a value of a type with finitely many values
    (player, space, enum, component type, ruleset string); None for other types."""
    name = typ.name
    if name == "player":
        return len(catalog.players), lambda v: v.index if isinstance(v, Player) else None
    if name == "space":
        offsets = catalog.space_offset
        return len(catalog.spaces), lambda v: offsets[v.board] + v.index if isinstance(v, Space) else None
    if name in catalog.enums:
        values = catalog.enums[name].values
        return len(values), lambda v: v.ordinal if isinstance(v, EnumValue) and v.type == name else None
    if name in catalog.component_types:
        places = {c.id: i for i, c in enumerate(c for c in catalog.components if c.type == name)}
        return len(places), lambda v: places.get(v.id) if isinstance(v, Component) else None
    if name == "string":
        labels = catalog.label_index
        return len(labels), lambda v: labels.get(v) if isinstance(v, str) else None
    return None


def value_code(catalog: Catalog, typ: ast.TypeRef | None) -> ValueCode:
    """How a variable of the declared type ``typ`` is written: a number or boolean as one
    float (two for an optional one: whether it is none, then the value); a player, space,
    enum value, component or ruleset string one-hot; a list as its length and the count of
    each item (lengths only for lists of numbers); a map from players as the code of its
    value type for each seat; anything else as one float."""
    if typ is None:
        return SCALAR
    if typ.name == "map":
        return _entries(len(catalog.players), value_code(catalog, typ.item))
    if typ.name == "list":
        finite = _index_of(catalog, typ.item) if typ.item is not None else None
        return _counts(*finite) if finite is not None else _scalar_code(COUNT)
    finite = _index_of(catalog, typ)
    if finite is not None:
        return _one_hot(*finite)
    bound = number_range(catalog, typ)
    return ValueCode(2, _optional_scalar, (FLAG, bound)) if typ.optional else _scalar_code(bound)


def number_range(catalog: Catalog, typ: ast.TypeRef | None) -> Range:
    """The range of ``_number`` of a value of the declared type ``typ``: 0 or 1 for a boolean,
    1 + its index for a player, space, enum value or component, a length for a list, any
    number otherwise (an ``int`` declares no range)."""
    if typ is None:
        return ANY_NUMBER
    if typ.name == "bool":
        return FLAG
    if typ.name in ("list", "map"):
        return COUNT
    if typ.name in catalog.component_types:   # a component's id counts among every component's
        return (0.0, float(len(catalog.components)))
    finite = _index_of(catalog, typ) if typ.name != "string" else None
    if finite is not None:
        return (0.0, float(finite[0]))   # 0 for none, 1 + the index otherwise
    return ANY_NUMBER


# ---------------------------------------------------------------- the layout of a game

Filler = Callable[["State", int, list[float], int], None]


@dataclass(frozen=True)
class Block:
    """One named part of an observation tensor: ``size`` floats from ``offset``, each within
    its range of ``bounds``."""

    name: str
    offset: int
    size: int
    fill: Filler
    bounds: tuple[Range, ...]


class Layout:
    """The blocks of one game's observation tensor, read from its catalog once."""

    def __init__(self, game: Game):
        self.catalog = catalog = game.catalog
        self.seats = len(catalog.players)
        self.kinds, self.kind_of = _component_kinds(catalog)
        self.blocks: list[Block] = []
        self.size = 0
        self._add_flags("viewer", game.num_players, _fill_viewer)
        self._add_flags("to act", self.seats + 2, self._fill_to_act)
        self._add_flags("decision", len(DECISION_KINDS), _fill_decision)
        self._add_flags("already chosen", self.seats, _fill_already_chosen)
        self._add_globals()
        self._add_players()
        self._add_banks()
        self._add_spaces()
        self._add_zones()
        self._add_components()

    def _add(self, name: str, size: int, fill: Filler, bounds: tuple[Range, ...]) -> None:
        """A block of ``size`` floats, ``bounds`` the range of each."""
        self.blocks.append(Block(name, self.size, size, fill, bounds))
        self.size += size

    def _add_flags(self, name: str, size: int, fill: Filler) -> None:
        self._add(name, size, fill, (FLAG,) * size)

    def bounds(self) -> tuple[list[float], list[float]]:
        """The least and the greatest value of each float of this game's observation tensors,
        from the declarations: 0 and 1 for flags and one-hot blocks, 0 and a supply's total
        for its counts, 0 and the number of components that may be in a zone for its counts,
        the ranges of references and booleans; numbers without a declared range (``int``)
        within the largest size a tensor writes (``_LARGEST``)."""
        ranges = [bound for block in self.blocks for bound in block.bounds]
        return [low for low, _ in ranges], [high for _, high in ranges]

    def tensor(self, state: State, viewer: int) -> list[float]:
        """The observation tensor of ``viewer`` (a checked player, or CHANCE)."""
        out = [0.0] * self.size
        for block in self.blocks:
            block.fill(state, viewer, out, block.offset)
        return out

    def _fill_to_act(self, state: State, viewer: int, out: list[float], at: int) -> None:
        for player in state.current_players():
            out[at + (self.seats if player == CHANCE else player)] = 1.0
        out[at + self.seats + 1] = float(state.is_terminal())

    def _add_globals(self) -> None:
        for name, var in self.catalog.global_vars.items():
            if var.visibility != "none":
                code = value_code(self.catalog, var.type)
                self._add(f"global {name}", code.size, _global_variable(name, code), code.bounds)

    def _add_players(self) -> None:
        for name, var in self.catalog.player_vars.items():
            code = value_code(self.catalog, var.type)
            self._add(f"player {name}", code.size * self.seats, _player_variable(name, var.visibility, code),
                      code.bounds * self.seats)
        for name, supply in self.catalog.supply_decls.items():
            self._add(f"supply {name} of players", self.seats, _player_supply(name, supply.visibility),
                      (self._supply_range(name),) * self.seats)

    def _add_banks(self) -> None:
        for name, supply in self.catalog.supply_decls.items():
            if (supply.visibility or "all") == "all":
                self._add(f"supply {name} bank", 1, _bank(name), (self._supply_range(name),))

    def _supply_range(self, name: str) -> Range:
        """Tokens of a supply anywhere: from 0 to its declared total (they are conserved)."""
        return (0.0, float(self.catalog.supplies[name]))

    def _add_spaces(self) -> None:
        count = len(self.catalog.spaces)
        for name, var in self.catalog.space_vars.items():
            if var.visibility != "none":
                code = value_code(self.catalog, var.type)
                self._add(f"space {name}", code.size * count, _space_variable(name, code), code.bounds * count)

    def _add_zones(self) -> None:
        for ref in self.catalog.zone_refs:
            decl = self.catalog.zones[ref.name]
            holds = self.catalog.zone_holds[ref.slot]   # (None: any type, ``: component`` too)
            kinds = self.kinds[None] if holds is None else self.kinds.get(holds, {})
            owner = ref.owner.index if ref.owner is not None else None
            self._add(f"zone {ref.name}" + (f"/{owner}" if owner is not None else ""), 1 + len(kinds),
                      _zone(ref.slot, decl, owner, kinds, self.kind_of), self._zone_ranges(kinds))

    def _zone_ranges(self, places: dict[int, int]) -> tuple[Range, ...]:
        """A zone's size, up to the number of components of its kinds, then the count of each
        kind, up to the number of components of that kind."""
        of_kind = [0] * len(places)
        for kind in self.kind_of:
            if kind in places:
                of_kind[places[kind]] += 1
        return ((0.0, float(sum(of_kind))), *((0.0, float(n)) for n in of_kind))

    def _add_components(self) -> None:
        catalog = self.catalog
        supplies = list(catalog.supply_decls)
        variables = [name for name, var in catalog.component_vars.items() if var.visibility != "none"]
        width = len(supplies) + len(variables)
        if width and catalog.components:
            each = tuple(self._supply_range(name) for name in supplies) + tuple(
                number_range(catalog, catalog.component_vars[name].type) for name in variables)
            self._add("components", width * len(catalog.components), _components(self, supplies, variables),
                      each * len(catalog.components))


def _component_kinds(catalog: Catalog) -> tuple[dict[str | None, dict[int, int]], list[int]]:
    """Components that are alike (one type, equal fields) are one kind. By component type
    (None: every type), the place of each kind in a zone's block; and each component's kind."""
    seen: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    kind_of: list[int] = []
    for component in catalog.components:
        key = (component.type, tuple((k, repr(v)) for k, v in component.fields.items()))
        kind_of.append(seen.setdefault(key, len(seen)))
    kinds: dict[str | None, dict[int, int]] = {None: {k: k for k in range(len(seen))}}
    for (type_name, _), kind in seen.items():
        places = kinds.setdefault(type_name, {})
        places[kind] = len(places)
    return kinds, kind_of


def _fill_viewer(state: State, viewer: int, out: list[float], at: int) -> None:
    if viewer != CHANCE:
        out[at + viewer] = 1.0


def _fill_decision(state: State, viewer: int, out: list[float], at: int) -> None:
    """The kind of decision the viewer is asked now (nothing when he is not asked)."""
    pending = state.pending
    if pending is None or state.is_terminal() or viewer not in state.current_players():
        return
    if pending.asks in DECISION_KINDS:
        out[at + DECISION_KINDS.index(pending.asks)] = 1.0


def _fill_already_chosen(state: State, viewer: int, out: list[float], at: int) -> None:
    pending = state.pending
    if pending is not None and pending.kind == "simultaneous":
        for player in pending.chosen:
            out[at + player] = 1.0


def _global_variable(name: str, code: ValueCode) -> Filler:
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        code.write(state.global_values[name], out, at)
    return fill


def _player_variable(name: str, visibility: str | None, code: ValueCode) -> Filler:
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        for seat, value in enumerate(state.player_values[name]):
            if sight(visibility, seat, viewer) == "full":
                code.write(value, out, at + seat * code.size)
    return fill


def _player_supply(name: str, visibility: str | None) -> Filler:
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        counts = state.supply_counts[name]
        for seat in range(len(state.game.catalog.players)):
            if sight(visibility, seat, viewer) == "full":
                out[at + seat] = float(counts[seat + 1])
    return fill


def _bank(name: str) -> Filler:
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        out[at] = float(state.supply_counts[name][0])
    return fill


def _space_variable(name: str, code: ValueCode) -> Filler:
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        for index, value in enumerate(state.space_values[name]):
            code.write(value, out, at + index * code.size)
    return fill


def _zone(slot: int, decl: ast.ZoneDecl, owner: int | None, places: dict[int, int], kind_of: list[int]) -> Filler:
    """A zone as its size (when the viewer sees it in full or its size), then how many
    components of each kind it holds (only when he sees it in full)."""
    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        how = zone_sight(decl, owner, viewer)
        if how == "hidden":
            return
        items = state.zones[slot]
        out[at] = float(len(items))
        if how == "full":
            for component in items:
                place = places.get(kind_of[component.id])
                if place is not None:
                    out[at + 1 + place] += 1.0
    return fill


def _components(layout: Layout, supplies: list[str], variables: list[str]) -> Filler:
    """For each component the viewer sees (in a zone he sees in full): the tokens of each
    supply on it, then each visible component variable as one float (``_number``)."""
    catalog = layout.catalog
    width = len(supplies) + len(variables)
    base = catalog.holder_base
    slots = [(catalog.zones[ref.name], ref.owner.index if ref.owner is not None else None) for ref in catalog.zone_refs]
    seen_by: dict[int, list[bool]] = {}   # by viewer: whether he sees each zone slot in full

    def fill(state: State, viewer: int, out: list[float], at: int) -> None:
        seen = seen_by.get(viewer)
        if seen is None:
            seen = seen_by[viewer] = [zone_sight(decl, owner, viewer) == "full" for decl, owner in slots]
        zone_of = state.component_zone
        visible = [cid for cid, slot in enumerate(zone_of) if seen[slot]]
        for i, name in enumerate(supplies):
            counts = state.supply_counts[name]
            for cid in visible:
                if counts[base + cid]:
                    out[at + cid * width + i] = float(counts[base + cid])
        for j, name in enumerate(variables, len(supplies)):
            values = state.component_values[name]
            for cid in visible:
                if values[cid] is not None:
                    out[at + cid * width + j] = _number(values[cid])
    return fill


# ---------------------------------------------------------------- observation tensors

_LAYOUTS: WeakKeyDictionary[Game, Layout] = WeakKeyDictionary()


def layout(game: Game) -> Layout:
    """The layout of ``game``'s observation tensor (made once per game)."""
    found = _LAYOUTS.get(game)
    if found is None:
        found = _LAYOUTS[game] = Layout(game)
    return found


def observation_shape(game: Game) -> tuple[int]:
    """The shape of every observation tensor of ``game``: ``(size,)``."""
    return (layout(game).size,)


def observation_bounds(game: Game) -> tuple[list[float], list[float]]:
    """The least and the greatest value of each float of ``game``'s observation tensors
    (``Layout.bounds``)."""
    return layout(game).bounds()


def observation_tensor(state: State, player: int) -> list[float]:
    """What ``player`` (or CHANCE, for the public view) may see now, as floats laid out by
    ``layout``; IllegalActionError for a player not in the game."""
    return layout(state.game).tensor(state, checked_player(player, state.game.num_players))


# ---------------------------------------------------------------- information-state tensors

def information_state_shape(game: Game, max_number: int | None = None,
                            history: int = DEFAULT_HISTORY) -> tuple[int]:
    """The shape of every information-state tensor of ``game``: the observation, then one
    count per action id, then ``history`` one-hot blocks of the action space."""
    actions = action_space(game, max_number).size
    return (layout(game).size + actions * (1 + _history_length(history)),)


def information_state_tensor(state: State, player: int, max_number: int | None = None,
                             history: int = DEFAULT_HISTORY) -> list[float]:
    """The observation tensor of ``player``, then ``own_actions_tensor``."""
    if player == CHANCE:
        raise IllegalActionError("chance has no information state: ask for a player")
    own = own_actions_tensor(state, player, max_number, history)
    return observation_tensor(state, player) + own


def own_actions_tensor(state: State, player: int, max_number: int | None = None,
                       history: int = DEFAULT_HISTORY) -> list[float]:
    """What an information state adds to an observation: how many times ``player`` took
    each action id (the whole game), then his last ``history`` actions one-hot, the latest
    first (all 0 where he has taken fewer)."""
    length = _history_length(history)
    space = action_space(state.game, max_number)
    viewer = checked_player(player, state.game.num_players)
    own = [action for who, action in state.history() if who == viewer]
    counts = [0.0] * space.size
    for action_id in own:
        space.check(action_id)
        counts[action_id] += 1.0
    recent = [0.0] * (space.size * length)
    for back, action_id in enumerate(reversed(own[-length:] if length else [])):
        recent[back * space.size + action_id] = 1.0
    return counts + recent


def _history_length(history: int) -> int:
    if isinstance(history, bool) or not isinstance(history, int) or history < 0:
        raise IllegalActionError(f"history must be a whole number of 0 or more, not {history!r}")
    return history
