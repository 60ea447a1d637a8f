"""What a seat does not know of a state, for the information-set sampler (infostate.py): the
components whose place he does not know (``unknown_components``), their widest groups of
interchangeable ones (``widest_groups``), and what of a game that takes to find (``facts``:
computed once per game, not once per decision).

A component is unknown to a seat when it lies in a zone he does not see in full, he has not
tracked it there, and no value he sees names it (a variable, his own options).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..model.values import Component, Value
from ..model.visibility import sight
from .unmoved import may_hold_components

if TYPE_CHECKING:
    from ..game import Game
    from .state import State


def components_in(value: Value) -> Iterator[Component]:
    """Every component a value holds, in lists and maps (keys too) at any depth."""
    if isinstance(value, Component):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from components_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from components_in(key)
            yield from components_in(item)


class _SeatFacts:
    """What finding one seat's unknown components reads of a game: the zone slots he does not
    see in full, and the variables he sees that may hold a component."""

    def __init__(self, game: Game, viewer: int):
        catalog = game.catalog
        bit = 1 << viewer
        self.hidden_slots = [slot for slot, seers in enumerate(catalog.zone_seers) if not seers & bit]
        self.shown_slots = [slot for slot, seers in enumerate(catalog.zone_seers) if seers & bit]

        def holding(variables: dict[str, Any]) -> list[str]:
            return [name for name, decl in variables.items() if may_hold_components(catalog, decl.type)]

        self.globals = [name for name in holding(catalog.global_vars)
                        if catalog.global_vars[name].visibility != "none"]
        self.players = [(name, [p for p in range(len(catalog.players))
                                if sight(catalog.player_vars[name].visibility, p, viewer) == "full"])
                        for name in holding(catalog.player_vars)]
        self.spaces = [name for name in holding(catalog.space_vars) if catalog.space_vars[name].visibility != "none"]
        self.components = [name for name in holding(catalog.component_vars)
                           if catalog.component_vars[name].visibility != "none"]


class GameFacts:
    """What the sampler reads of one game at every decision, computed once: the facts of each
    seat (made when first asked), and the variables that may hold a component, by table."""

    def __init__(self, game: Game):
        self.game = game
        catalog = game.catalog
        self.seats: dict[int, _SeatFacts] = {}
        self.profiles: dict[frozenset[str], list[object]] = {}
        self.holding = tuple([name for name, decl in variables.items() if may_hold_components(catalog, decl.type)]
                             for variables in (catalog.global_vars, catalog.player_vars, catalog.space_vars,
                                               catalog.component_vars))

    def profile(self, fields: frozenset[str]) -> list[object]:
        """By component id, what tells components apart by ``fields`` (equal values for
        components that agree on each, a component without one told apart from those with
        it); made once for each set of fields."""
        made = self.profiles.get(fields)
        if made is None:
            names = sorted(fields)
            made = self.profiles[fields] = [_hashable(tuple(c.fields.get(f, _NO_FIELD) for f in names))
                                            for c in self.game.catalog.components]
        return made

    def seat(self, viewer: int) -> _SeatFacts:
        """The facts of ``viewer``'s seat."""
        made = self.seats.get(viewer)
        if made is None:
            made = self.seats[viewer] = _SeatFacts(self.game, viewer)
        return made


_NO_FIELD = object()
"""The value of a field a component does not have, in a profile."""


def _hashable(profile: tuple[object, ...]) -> object:
    """``profile``, or a value of its own (equal to no other) if it cannot be hashed."""
    try:
        hash(profile)
    except TypeError:
        return object()
    return profile


_FACTS: dict[int, GameFacts] = {}
"""The facts of the last few games, by the id of each (kept with it, so that the id is not
another's)."""


def facts(game: Game) -> GameFacts:
    """The facts of ``game``, made once."""
    made = _FACTS.get(id(game))
    if made is None or made.game is not game:
        if len(_FACTS) >= 16:
            _FACTS.clear()
        made = _FACTS[id(game)] = GameFacts(game)
    return made


def unknown_components(st: State, viewer: int) -> list[Component]:
    """The components ``viewer`` does not know the place of, by id: not in a zone he sees in
    full, not tracked as known to him, and named by no value he sees."""
    seat = facts(st.game).seat(viewer)
    bit = 1 << viewer
    knowers, zones = st.component_knowledge, st.zones
    unseen = [c.id for slot in seat.hidden_slots for c in zones[slot] if not knowers[c.id] & bit]
    if not unseen:
        return []
    unseen.sort()
    named = _named(st, viewer, seat)
    components = st.game.catalog.components
    return [components[cid] for cid in unseen if cid not in named]


def _named(st: State, viewer: int, seat: _SeatFacts) -> set[int]:
    """The ids of the components that a value ``viewer`` sees names: a variable his
    observation shows, or one of his own options when he is to act."""
    named: set[int] = set()
    values: list[Value] = [st.global_values[name] for name in seat.globals if name in st.global_values]
    for name, seen in seat.players:
        table = st.player_values.get(name)
        if table is not None:
            values.extend(table[p] for p in seen if p < len(table))
    for name in seat.spaces:
        values.extend(st.space_values.get(name, ()))
    if seat.components:
        shown = [c.id for slot in seat.shown_slots for c in st.zones[slot]]
        for name in seat.components:
            table = st.component_values.get(name)
            if table is not None:
                values.extend(table[cid] for cid in shown)
    pending = st.pending
    if pending is not None and viewer in pending.players:
        values.extend(pending.options_of(viewer)[0])
    for value in values:
        if type(value) is Component:
            named.add(value.id)
        elif isinstance(value, tuple | dict):
            named.update(c.id for c in components_in(value))
    return named


def widest_groups(st: State, unknown: list[Component]) -> list[list[Component]]:
    """The groups of the widest level (``infostate._by_shuffle``) of two or more components,
    in the same order, each in the same order: one type from one shuffle; without a tracked
    shuffle, one type in one zone."""
    shift, knowledge, zone_of = st.game.num_players, st.component_knowledge, st.component_zone
    groups: dict[tuple[Any, ...], list[Component]] = {}
    for c in unknown:
        shuffle = knowledge[c.id] >> shift
        key = (c.type, shuffle) if shuffle else (c.type, 0, zone_of[c.id])
        group = groups.get(key)
        if group is None:
            groups[key] = [c]
        else:
            group.append(c)
    return [group for group in groups.values() if len(group) > 1]
