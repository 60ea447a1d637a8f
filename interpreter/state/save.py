"""Saving a state: ``state_to_json``, the whole state as JSON data.

The format is documented in docs/state-format.md; each value is written by the value codec
(``model/serialize.py``), the events by ``events.encode_events``; ``deserialize.state_from_json``
reads it back.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.serialize import FORMAT, JsonValue, encode_value, zone_key
from ..model.values import Value
from .events import encode_events

if TYPE_CHECKING:
    from .state import State


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
    return {"events": encode_events(st.event_log)}


def _encode_tables(tables: dict[str, list[Value]]) -> dict[str, JsonValue]:
    return {k: [encode_value(x) for x in v] for k, v in tables.items()}
