"""Observations: what one player may see, derived from the declared visibilities."""
from __future__ import annotations

from .serialize import encode_value
from .values import Component, display


def _shown(value):
    """A value as a player sees it: components by their readable label."""
    if isinstance(value, Component):
        return {"component": value.id, "label": value.label}
    if isinstance(value, tuple):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[_shown(k), _shown(v)] for k, v in value.items()]}
    return encode_value(value)


def _card(st, component) -> dict:
    """A component seen face up: its label, plus the tokens on it and its variables."""
    cat = st.game.catalog
    view = _shown(component)
    slot = cat.holder_base + component.id
    tokens = {name: held[slot] for name, held in st.sup.items() if held[slot]}
    if tokens:
        view["tokens"] = tokens
    variables = {name: _shown(values[component.id]) for name, values in st.cv.items()
                 if cat.component_vars[name].visibility != "none"}
    if variables:
        view["vars"] = variables
    return view


def _visible(visibility, owner, viewer, default="all", others_count=False) -> str:
    """'full', 'count' or 'hidden' for one viewer. A player zone that its owner sees shows
    the others its size, like a hand of cards on the table (``others_count``)."""
    vis = visibility or default
    if vis == "all" or (vis == "owner" and owner == viewer):
        return "full"
    if vis == "count" or (vis == "owner" and others_count and owner is not None):
        return "count"
    return "hidden"


def _zone_view(st, slot, how):
    items = st.zones[slot]
    if how == "full":
        return [_card(st, c) for c in items]
    if how == "count":
        return {"count": len(items)}
    return None


def observation(st, viewer: int) -> dict:
    """The observation of ``viewer`` (a player index): JSON-serializable."""
    cat = st.game.catalog
    obs = {
        "player": viewer,
        "terminal": st.terminal,
        "to_act": st.current_players(),
        "globals": {k: _shown(v) for k, v in st.g.items() if cat.global_vars[k].visibility != "none"},
        "zones": {},
        "players": [],
        "spaces": {k: [_shown(x) for x in v] for k, v in st.sv.items()
                   if cat.space_vars[k].visibility != "none"},
        "log": list(st.log),
    }
    for name, decl in cat.zones.items():
        if decl.owner is None:
            view = _zone_view(st, cat.zone_slot[name], _visible(decl.visibility, None, viewer))
            if view is not None:
                obs["zones"][name] = view
    for p in cat.players:
        obs["players"].append(_player_view(st, p.index, viewer))
    if st.pending is not None and viewer in st.pending.players:
        obs["legal_actions"] = [[a.id, a.label] for a in st.legal_actions(viewer)]
    if st.pending is not None and st.pending.kind == "simultaneous":
        obs["already_chosen"] = list(st.pending.chosen)
    if st.terminal:
        obs["returns"] = st.returns()
        obs["winners"] = st.winners()
    return obs


def _player_view(st, index, viewer) -> dict:
    cat = st.game.catalog
    view = {}
    for name, decl in cat.player_vars.items():
        if _visible(decl.visibility, index, viewer) == "full":
            view[name] = _shown(st.pv[name][index])
    for name in cat.supplies:
        decl = next(d for d in cat.decls if getattr(d, "name", None) == name and d.kind == "supply")
        if _visible(decl.visibility, index, viewer) == "full":
            view[name] = st.sup[name][index + 1]
    for name, decl in cat.zones.items():
        if decl.owner == "player":
            how = _visible(decl.visibility, index, viewer, "owner", others_count=True)
            zone_view = _zone_view(st, cat.zone_slot[name] + index, how)
            if zone_view is not None:
                view[name] = zone_view
    return view


def describe(st) -> str:
    """A multi-line text picture of the whole state (for debugging, not for players)."""
    cat = st.game.catalog
    lines = [f"{st.game.title}: {'over' if st.terminal else 'to act: ' + str(st.current_players())}"]
    for k, v in st.g.items():
        lines.append(f"  {k} = {display(v)}")
    for ref, items in zip(cat.zone_refs, st.zones):
        lines.append(f"  {ref}: {display(tuple(items))}")
    for p in cat.players:
        parts = [f"{k}={display(v[p.index])}" for k, v in st.pv.items()]
        parts += [f"{k}={v[p.index + 1]}" for k, v in st.sup.items()]
        lines.append(f"  {p}: " + ", ".join(parts))
    return "\n".join(lines)
