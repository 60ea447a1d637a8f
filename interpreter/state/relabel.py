"""A permutation of hidden components applied to a copy of a state, for the information-set
sampler (infostate.py): each component moved takes the place of another, and every reference
to it (variables, the locals of running procedures, the other players' actions of the
history) is relabelled.

``Relabelling`` reads once, for one state and the components that may move in it, where each
lies and which references name one; each sample then costs what its permutation moves, not
the size of the state (its zones, tables, locals and history).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import boards

from ..model.values import Component, EnumValue, Player, Value
from .derived import DerivedLocals
from .hidden import components_in, facts

if TYPE_CHECKING:
    from ..game import Game
    from .state import State

Mapping = dict[int, Component]
"""A permutation of components by id: the component that takes the place of each one moved."""

_SCALARS = frozenset({int, bool, str, type(None), Player, EnumValue, boards.Space})
"""The kinds of values that are never a component nor hold one (relabelled as they are)."""


def relabelled(value: Value, mapping: Mapping) -> Value:
    """``value`` with every component of ``mapping`` replaced, at any depth."""
    if isinstance(value, Component):
        return mapping.get(value.id, value)
    if isinstance(value, tuple):
        return tuple(relabelled(v, mapping) for v in value)
    if isinstance(value, dict):
        return {relabelled(k, mapping): relabelled(v, mapping) for k, v in value.items()}
    return value


class Relabelling:
    """For ``st`` and the components ``moving`` (those a permutation may move): where each
    lies (zone slot, position), the variables and locals that hold a component, and where in
    the history an action of another than ``viewer`` names one of ``moving``. The viewer's
    own actions are his record of the past, kept as he took them: a component he chose and
    has lost track of since (played, then shuffled back into a hidden zone) was the one he
    chose, whichever place it takes in the sample."""

    def __init__(self, st: State, viewer: int, moving: list[Component]):
        self.knowledge = st.component_knowledge
        zone_of, zones = st.component_zone, st.zones
        self.where = {c.id: (slot, i) for slot in {zone_of[c.id] for c in moving} for i, c in enumerate(zones[slot])}
        ids = {c.id for c in moving}
        holding = facts(st.game).holding
        scalars = _SCALARS
        self.globals = [name for name in holding[0] if _names_one(st.global_values.get(name), ids)]
        self.owned = [[(name, at) for name, at in
                       ((name, [k for k, v in enumerate(table[name]) if type(v) not in scalars and _names_one(v, ids)])
                        for name in names if name in table) if at]
                      for table, names in zip(_owned(st), holding[1:], strict=True)]
        self.locals = [(k, names) for k, names in
                       ((k, [name for name, v in frame.env.items() if type(v) not in scalars and _names_one(v, ids)])
                        for k, frame in enumerate(st.frames)) if names]
        self.history = _naming(st, viewer, ids)
        self.derived = DerivedLocals(st)   # what a permutation must keep of the locals

    def apply(self, sample: State, mapping: Mapping) -> None:
        """Put ``mapping[c]`` where each ``c`` of the mapping was in ``sample`` (a copy of the
        state this was made for), and relabel every reference. The knowledge of a place goes
        with it; a component's variables and the tokens on it are its own and stay with it."""
        zones, zone_of, knowledge, before, where = (sample.zones, sample.component_zone, sample.component_knowledge,
                                                    self.knowledge, self.where)
        for cid, new in mapping.items():
            slot, i = where[cid]
            zones[slot][i] = new
            zone_of[new.id] = slot
            knowledge[new.id] = before[cid]
        global_values = sample.global_values
        for name in self.globals:
            global_values[name] = relabelled(global_values[name], mapping)
        for table, owned in zip(_owned(sample), self.owned, strict=True):
            for name, at in owned:
                values = table[name]   # (the copy's own list)
                for k in at:
                    values[k] = relabelled(values[k], mapping)
        for k, names in self.locals:
            env = sample.frames[k].env
            for local in names:
                env[local] = relabelled(env[local], mapping)
        if self.history:
            base = sample.game.catalog.component_base
            history = sample.action_history   # (the copy's own list)
            for cid, new in mapping.items():
                for k in self.history.get(cid, ()):
                    history[k] = (history[k][0], base + new.id)


def _names_one(value: Value, ids: set[int]) -> bool:
    """Whether ``value`` holds a component of ``ids`` (at any depth)."""
    return type(value) not in _SCALARS and any(c.id in ids for c in components_in(value))


def _owned(st: State) -> tuple[dict[str, list[Value]], ...]:
    """The tables of variables owned by players, spaces and components."""
    return st.player_values, st.space_values, st.component_values


_NAMING: dict[tuple[int, int], tuple[Game, list[tuple[int, int]], dict[int, tuple[int, ...]]]] = {}
"""For the last few (game, viewer) pairs: the last history read (of a state of the game), and
where in it each component is named by another's action (``_named_by_others``)."""


def _naming(st: State, viewer: int, moving: set[int]) -> dict[int, tuple[int, ...]]:
    """By the id of each component of ``moving``: where in the history of ``st`` an action of
    another than ``viewer`` names it (its id is the component's). A history that goes on from
    the last one read for the game and seat is read from where that one ended."""
    game = st.game
    key = (id(game), viewer)
    history = st.action_history
    kept = _NAMING.get(key)
    if kept is not None and kept[0] is game and len(history) >= len(kept[1]) \
            and history[:len(kept[1])] == kept[1]:
        named = _named_by_others(st, viewer, len(kept[1]), dict(kept[2]))
    else:
        if len(_NAMING) >= 16:
            _NAMING.clear()
        named = _named_by_others(st, viewer, 0, {})
    _NAMING[key] = (game, history[:], named)
    return {cid: named[cid] for cid in moving if cid in named}


def _named_by_others(st: State, viewer: int, start: int,
                     named: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
    """``named`` (where in the history before ``start`` each component is named by another's
    action) with the entries from ``start`` on."""
    catalog = st.game.catalog
    base = catalog.component_base
    top = base + len(catalog.components)
    history = st.action_history
    for k in range(start, len(history)):
        player, action = history[k]
        if base <= action < top and player != viewer:
            cid = action - base
            named[cid] = (*named.get(cid, ()), k)
    return named
