"""Observations: what one player may see, derived from the declared visibilities."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.serialize import JsonValue
from ..model.values import Component, display
from ..model.visibility import shown, sight, zone_sight

if TYPE_CHECKING:
    from .state import State


def _card(st: State, component: Component) -> dict[str, JsonValue]:
    """A component seen face up: its label, plus the tokens on it and its variables."""
    catalog = st.game.catalog
    view: dict[str, JsonValue] = {"component": component.id, "label": component.label}
    slot = catalog.holder_base + component.id
    tokens: dict[str, JsonValue] = {name: held[slot] for name, held in st.supply_counts.items() if held[slot]}
    if tokens:
        view["tokens"] = tokens
    variables = {name: shown(values[component.id]) for name, values in st.component_values.items()
                 if catalog.component_vars[name].visibility != "none"}
    if variables:
        view["vars"] = variables
    return view


def _zone_view(st: State, slot: int, how: str) -> JsonValue:
    items = st.zones[slot]
    if how == "full":
        return [_card(st, c) for c in items]
    if how == "count":
        return {"count": len(items)}
    return None


def observation(st: State, viewer: int) -> dict[str, JsonValue]:
    """The observation of ``viewer`` (a player index, or CHANCE for the public view)."""
    catalog = st.game.catalog
    obs: dict[str, JsonValue] = {
        "player": viewer,
        "terminal": st.terminal,
        "to_act": list(st.current_players()),
        "globals": {k: shown(v) for k, v in st.global_values.items()
                    if catalog.global_vars[k].visibility != "none"},
        "zones": _shared_zones(st, viewer),
        "players": [_player_view(st, p.index, viewer) for p in catalog.players],
        "spaces": {k: [shown(x) for x in v] for k, v in st.space_values.items()
                   if catalog.space_vars[k].visibility != "none"},
        "log": log_of(st, viewer),
    }
    pending = st.pending
    if pending is not None and viewer in pending.players:
        context = st.decision(viewer)   # the viewer is asked: there is a context
        assert context is not None
        obs["prompt"] = context.prompt
        obs["asks"] = context.kind
        obs["legal_actions"] = [[a.id, a.label] for a in context.actions]
    if pending is not None and pending.kind == "simultaneous":
        obs["already_chosen"] = list(pending.chosen)
    if st.terminal:
        obs["returns"] = list(st.returns())
        obs["winners"] = list(st.winners())
    return obs


def log_of(st: State, viewer: int) -> list[JsonValue]:
    """The log as ``viewer`` sees it: every public line, and the private lines for them in
    their place."""
    public: list[JsonValue] = list(st.log)
    mine = [(at, text) for at, players, text in st.private_log if viewer in players]
    if not mine:
        return public
    lines: list[JsonValue] = []
    position = 0
    for at, text in mine:
        lines += public[position:at]
        lines.append(text)
        position = at
    return lines + public[position:]


def _shared_zones(st: State, viewer: int) -> dict[str, JsonValue]:
    catalog = st.game.catalog
    views: dict[str, JsonValue] = {}
    for name, decl in catalog.zones.items():
        if decl.owner is None:
            view = _zone_view(st, catalog.zone_slot[name], sight(decl.visibility, None, viewer))
            if view is not None:
                views[name] = view
    return views


def _player_view(st: State, index: int, viewer: int) -> dict[str, JsonValue]:
    catalog = st.game.catalog
    view: dict[str, JsonValue] = {}
    for name, var in catalog.player_vars.items():
        if sight(var.visibility, index, viewer) == "full":
            view[name] = shown(st.player_values[name][index])
    for name, supply in catalog.supply_decls.items():
        if sight(supply.visibility, index, viewer) == "full":
            view[name] = st.supply_counts[name][index + 1]
    for name, zone in catalog.zones.items():
        if zone.owner == "player":
            how = zone_sight(zone, index, viewer)
            zone_view = _zone_view(st, catalog.zone_slot[name] + index, how)
            if zone_view is not None:
                view[name] = zone_view
    return view


def describe(st: State) -> str:
    """A multi-line text picture of the whole state (for debugging, not for players)."""
    catalog = st.game.catalog
    lines = [f"{st.game.title}: {'over' if st.terminal else 'to act: ' + str(st.current_players())}"]
    lines += [f"  {k} = {display(v)}" for k, v in st.global_values.items()]
    lines += [f"  {ref}: {display(tuple(items))}" for ref, items in zip(catalog.zone_refs, st.zones, strict=True)]
    for p in catalog.players:
        parts = [f"{k}={display(v[p.index])}" for k, v in st.player_values.items()]
        parts += [f"{k}={v[p.index + 1]}" for k, v in st.supply_counts.items()]
        lines.append(f"  {p}: " + ", ".join(parts))
    return "\n".join(lines)
