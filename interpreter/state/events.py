"""Events: what happened while the rules ran, as each player may see it (``State.events``).

The run records an event as a plain tuple appended to ``State.event_log`` (nothing is built
then: recording must stay cheap); this module turns them into JSON data on demand, for one
viewer, and reads and writes them in saved states. An event's sequence number is its place
in the log. The recorded shapes (every item plain data, ``None`` where a part is unknown):

- ``("action", player, id, secret)``: a player's choice (its label is found from the id
  when shown; ``id`` None when it was taken out). ``secret`` says who else sees what was
  chosen: ``PUBLIC``, ``HIDDEN`` (a simultaneous choice) or the zone slot of the chosen
  component (those who fully see that zone).
- ``("chance", asks, value, secret)``: a roll or a random pick ("roll d6"). A plain value
  is ``HIDDEN`` (the rules publish what is public); a component shows to those who fully
  see its zone (``secret`` is its slot); ``REDACTED`` when the value was taken out.
- ``("shuffle", what)``: a shuffle ended ("draw", "order"); the order is never shown.
- ``("phase", name)``: a phase started.
- ``("log", text, audience)``: a log line; ``audience`` is None (public) or the players of
  a ``log ... to`` or ``reveal`` line, the only ones who see it.
- ``("move", component, from, to)``: a component moved between zone slots; its identity
  shows only to those who fully see the zone it leaves or the one it enters.
- ``("tokens", supply, from, to, amount, from_slot, to_slot)``: tokens moved between
  holders (0 the bank, then the seats, then the components); the slots are the zones of
  component holders then (-1 otherwise). The amount shows to those who see the count of a
  player holder (the supply's visibility) or the tokens on a component holder (its zone).
- ``("set", table, name, index, value, slot)``: a variable was assigned. ``table`` is
  "global", "player", "space" or "component"; ``index`` the owner's index (-1 for a global);
  ``slot`` the zone of an owning component then (-1 otherwise). Shown as the observation
  shows that variable; omitted for those who may not see it.
- ``("narrate", mark)``: a mark for the narration (``narrate.py``): "quiet" where a ``quiet``
  block (or the block of a ``log ... instead``) starts, "loud" where it ends (the events
  between are not narrated), "heading" before the line of a ``log heading``.
- ``("turn", player)``: the turn of ``player`` (an index) begins: a ``log turn`` (for the
  narration's headings; everyone sees it).
- ``("hidden",)``: an event taken out of a log redacted for one player (``redacted``),
  shown to nobody; it keeps the numbers of the events after it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ..model.serialize import JsonValue, encode_value, zone_key
from ..model.values import Component, Value, display
from ..model.visibility import shown, sight, zone_sight

if TYPE_CHECKING:
    from ..tables.catalog import Catalog
    from .state import State

Event = tuple[Any, ...]
"""One recorded event: its type, then its parts (see the module's docstring)."""

PUBLIC = -1
"""``secret`` of an event part that everyone sees."""
HIDDEN = -2
"""``secret`` of an event part that only the player who made it (or nobody) sees."""
REDACTED = -3
"""``secret`` of a chance event whose value was taken out (``redacted``)."""

TYPES = ("action", "chance", "shuffle", "phase", "log", "move", "tokens", "set", "narrate", "turn",
         "hidden")
"""Every event type, as the first item of a recorded event."""


# ---------------------------------------------------------------- recording helpers

def action_event(st: State, player: int, action_id: int, value: Value, simultaneous: bool) -> Event:
    """The event of ``player`` choosing ``value`` (action ``action_id``, which names it: the
    label is found from the id when shown)."""
    if simultaneous:
        return ("action", player, action_id, HIDDEN)
    if type(value) is Component:
        return ("action", player, action_id, st.component_zone[value.id])
    return ("action", player, action_id, PUBLIC)


def chance_event(st: State, asks: str, value: Value) -> Event:
    """The event of a roll or random pick (``asks``: "roll d6") that gave ``value``."""
    secret = st.component_zone[value.id] if isinstance(value, Component) else HIDDEN
    return ("chance", asks, _atomic(value), secret)


def _atomic(value: Value) -> Value:
    """``value`` if it is a number, a string, a boolean or none, else its label: an event
    then holds no object, and the collector of cyclic garbage, which would otherwise
    visit every event again and again, drops it from its lists at once."""
    return value if value is None or type(value) in (int, str, bool) else display(value)


def tokens_event(st: State, supply: str, source: int, target: int, amount: int) -> Event:
    """The event of ``amount`` tokens of ``supply`` moving from holder ``source`` to ``target``."""
    base = st.game.catalog.holder_base
    zones = st.component_zone
    return ("tokens", supply, source, target, amount,
            zones[source - base] if source >= base else -1, zones[target - base] if target >= base else -1)


# ---------------------------------------------------------------- shown to one viewer

Viewer = int | None
"""A player index, CHANCE (-1) for what everyone sees, or None for everything."""

Render = Callable[["State", Event, Viewer], "dict[str, JsonValue] | None"]


def events_for(st: State, viewer: Viewer, since: int) -> list[dict[str, JsonValue]]:
    """The events from number ``since`` on, as ``viewer`` may see them (JSON data)."""
    log = st.event_log or []
    shown: list[dict[str, JsonValue]] = []
    for seq in range(max(since, 0), len(log)):
        event = log[seq]
        view = render_event(st, event, viewer)
        if view is not None:
            shown.append({"seq": seq, "type": event[0], **view})
    return shown


def render_event(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue] | None:
    """``event`` as ``viewer`` may see it (its parts, without ``seq`` and ``type``), or None
    when ``viewer`` may not see it at all."""
    return _RENDER[event[0]](st, event, viewer)


def zone_seen(catalog: Catalog, slot: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees the zone in ``slot`` in full (None sees everything): for a
    player, the catalog's ``zone_seers``; for the public view (CHANCE), a zone all may see."""
    if viewer is None:
        return True
    if viewer >= 0:
        return bool(catalog.zone_seers[slot] >> viewer & 1)
    ref = catalog.zone_refs[slot]
    decl = catalog.zones[ref.name]
    owner = None if ref.owner is None else ref.owner.index
    return zone_sight(decl, owner, viewer) == "full"


def _sees(catalog: Catalog, secret: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees a part whose ``secret`` is PUBLIC, HIDDEN or a zone slot."""
    if viewer is None or secret == PUBLIC:
        return True
    return secret >= 0 and zone_seen(catalog, secret, viewer)


def _action(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    _, player, action_id, secret = event
    if action_id is None or (viewer != player and not _sees(st.game.catalog, secret, viewer)):
        return {"player": player}
    return {"player": player, "id": action_id, "label": display(value_of_id(st.game.catalog, action_id))}


def value_of_id(catalog: Catalog, action_id: int) -> Value:
    """The value that an action id names (``Catalog.encode`` read backwards)."""
    bases = (catalog.component_base, catalog.player_base, catalog.enum_base, catalog.label_base,
             catalog.constant_base, catalog.int_base)
    block = sum(action_id >= base for base in bases)
    offset = action_id - (bases[block - 1] if block else 0)
    if block == 3:
        return [v for enum in catalog.enums.values() for v in enum.values][offset]
    tables: tuple[Any, ...] = (catalog.spaces, catalog.components, catalog.players, None, catalog.labels,
                               (False, True, None))
    return offset if block == 6 else tables[block][offset]


def _chance(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    _, asks, label, secret = event
    if secret == REDACTED or not _sees(st.game.catalog, secret, viewer):
        return {"asks": asks}
    return {"asks": asks, "label": display(label)}


def _shuffle(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    return {"what": event[1]}


def _phase(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    return {"name": event[1]}


def _log(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue] | None:
    _, text, audience = event
    if audience is None:
        return {"text": text}
    if viewer is None or viewer in audience:
        return {"text": text, "to": list(audience)}
    return None


def _move(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    _, cid, source, target = event
    catalog = st.game.catalog
    refs = catalog.zone_refs
    view: dict[str, JsonValue] = {}
    if cid is not None and (zone_seen(catalog, source, viewer) or zone_seen(catalog, target, viewer)):
        view["component"] = _component(catalog, cid)
    view["from"], view["to"] = zone_key(refs[source]), zone_key(refs[target])
    return view


def _component(catalog: Catalog, cid: int) -> dict[str, JsonValue]:
    return {"component": cid, "label": catalog.components[cid].label}


def _tokens(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    _, supply, source, target, amount, source_slot, target_slot = event
    view: dict[str, JsonValue] = {"supply": supply, "from": _holder(st, source, source_slot, viewer),
                                  "to": _holder(st, target, target_slot, viewer)}
    if amount is not None and (_count_seen(st, supply, source, source_slot, viewer)
                               or _count_seen(st, supply, target, target_slot, viewer)):
        view["amount"] = amount
    return view


def _holder(st: State, holder: int, slot: int, viewer: Viewer) -> JsonValue:
    """A holder of tokens as ``viewer`` sees it: "bank", a player, a component he sees, or
    the zone of one he does not."""
    catalog = st.game.catalog
    if holder == 0:
        return "bank"
    if holder < catalog.holder_base:
        return {"player": holder - 1}
    if zone_seen(catalog, slot, viewer):
        return _component(catalog, holder - catalog.holder_base)
    return {"zone": zone_key(catalog.zone_refs[slot])}


def _count_seen(st: State, supply: str, holder: int, slot: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees how many tokens ``holder`` has (never the bank's)."""
    catalog = st.game.catalog
    if viewer is None:
        return True
    if holder == 0:
        return False
    if holder < catalog.holder_base:
        return sight(catalog.supply_decls[supply].visibility, holder - 1, viewer) == "full"
    return zone_seen(catalog, slot, viewer)


def _set(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue] | None:
    _, table, name, index, value, slot = event
    catalog = st.game.catalog
    if not _variable_seen(catalog, table, name, index, slot, viewer):
        return None
    view: dict[str, JsonValue] = {"var": name}
    if table == "player":
        view["player"] = index
    elif table == "space":
        view["space"] = shown(catalog.spaces[index])
    elif table == "component":
        view["component"] = _component(catalog, index)
    view["value"] = shown(value)
    return view


def _variable_seen(catalog: Catalog, table: str, name: str, index: int, slot: int, viewer: Viewer) -> bool:
    """Whether ``viewer`` sees the variable as observations show it."""
    if viewer is None:
        return True
    declared = {"global": catalog.global_vars, "player": catalog.player_vars, "space": catalog.space_vars,
                "component": catalog.component_vars}[table]
    visibility = declared[name].visibility
    if table == "player":
        return sight(visibility, index, viewer) == "full"
    if visibility == "none":
        return False
    return table != "component" or zone_seen(catalog, slot, viewer)


def _narrate(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    return {"mark": event[1]}


def _turn(st: State, event: Event, viewer: Viewer) -> dict[str, JsonValue]:
    return {"player": event[1]}


def _hidden(st: State, event: Event, viewer: Viewer) -> None:
    return None


_RENDER: dict[str, Render] = {"action": _action, "chance": _chance, "shuffle": _shuffle, "phase": _phase,
                              "log": _log, "move": _move, "tokens": _tokens, "set": _set, "narrate": _narrate,
                              "turn": _turn, "hidden": _hidden}


# ---------------------------------------------------------------- redacted for one viewer

def redacted(st: State, viewer: int) -> list[Event]:
    """The event log with what ``viewer`` may not see taken out (parts set to None, events
    removed): shown to ``viewer`` it reads as before, and it holds nothing more. For a
    state that stands for what ``viewer`` knows (``resample_from_infostate``)."""
    kept: list[Event] = []
    for event in st.event_log or []:
        view = render_event(st, event, viewer)
        if view is None:
            kept.append(("hidden",))  # keeps the numbers of the later events
        else:
            kept.append(_without_hidden(event, view))
    return kept


def _without_hidden(event: Event, view: dict[str, JsonValue]) -> Event:
    """``event`` with the parts left out of ``view`` set to None."""
    kind = event[0]
    if kind == "action" and "id" not in view:
        return (kind, event[1], None, HIDDEN)
    if kind == "chance" and "label" not in view:
        return (kind, event[1], None, REDACTED)
    if kind == "move" and "component" not in view:
        return (kind, None, event[2], event[3])
    if kind == "tokens" and "amount" not in view:
        return (*event[:4], None, *event[5:])
    return event


# ---------------------------------------------------------------- saved states

def encode_events(events: list[Event] | None) -> JsonValue:
    """The event log as JSON data: a list of lists (a set event's value encoded), or None
    when the state records no events."""
    if events is None:
        return None
    return [_encoded(e) for e in events]


def _encoded(event: Event) -> list[JsonValue]:
    """One event as JSON data: a chosen or drawn value by its label, a set value encoded."""
    kind = event[0]
    if kind == "chance":
        _, asks, value, secret = event
        return [kind, asks, None if secret == REDACTED else display(value), secret]
    if kind == "set":
        return [*event[:4], encode_value(event[4]), event[5]]
    if kind == "log" and event[2] is not None:
        return [kind, event[1], list(event[2])]   # the players of a 'log ... to': a list in JSON
    return list(event)


class EventDataError(Exception):
    """Saved events that do not fit the game, at ``path``."""

    def __init__(self, path: str, message: str):
        super().__init__(message)
        self.path, self.message = path, message


def decode_events(data: list[Any], catalog: Catalog, decode: Callable[[Any, str], Value]) -> list[Event]:
    """The event log written by ``encode_events`` (schema-valid: lists starting with a type),
    checked against the game; EventDataError if it does not fit. ``decode`` reads a value."""
    limits = _Limits(len(catalog.real_players), len(catalog.players), len(catalog.zone_refs),
                     len(catalog.components), catalog.holder_base + len(catalog.components), catalog.supplies)
    events: list[Event] = []
    for i, item in enumerate(data):
        path = f"$.events[{i}]"
        kind = item[0]
        shape = _SHAPES[kind]   # the schema admits only the types
        if len(item) != len(shape) + 1:
            raise EventDataError(path, f"a {kind} event has {len(shape)} parts after its type, not {len(item) - 1}")
        parts = [_part(check, part, limits, f"{path}[{j}]", decode)
                 for j, (check, part) in enumerate(zip(shape, item[1:], strict=True), 1)]
        events.append((kind, *parts))
        if kind == "set":
            _check_set(events[-1], catalog, path)
    return events


class _Limits(NamedTuple):
    """The sizes of a game that saved events must fit."""

    players: int      # the real players
    seats: int        # the players and the dummy seats
    zones: int        # zone slots
    components: int
    holders: int      # supply holders: the bank, the seats, the components
    supplies: Mapping[str, int]


def _part(check: str, part: Any, limits: _Limits, path: str, decode: Callable[[Any, str], Value]) -> Any:
    """One part of a saved event, checked as ``check`` says; the decoded part."""
    if not _CHECKS[check](part, limits):
        raise EventDataError(path, f"{str(part)[:60]!r} is not a valid {check.rstrip('?')} here")
    if check == "audience" and part is not None:
        return tuple(part)
    return decode(part, path) if check == "value" else part


def _index(part: Any, low: int, high: int) -> bool:
    """Whether ``part`` is an integer (never a boolean) from ``low`` to below ``high``."""
    return type(part) is int and low <= part < high


_CHECKS: dict[str, Callable[[Any, _Limits], bool]] = {
    "player": lambda part, n: _index(part, 0, n.players),
    "seat": lambda part, n: _index(part, 0, n.seats),
    "id": lambda part, n: part is None or _index(part, 0, 1 << 63),
    "text": lambda part, n: type(part) is str,
    "text?": lambda part, n: part is None or type(part) is str,
    "secret": lambda part, n: _index(part, REDACTED, n.zones),
    "slot": lambda part, n: _index(part, 0, n.zones),
    "slot?": lambda part, n: _index(part, -1, n.zones),
    "component?": lambda part, n: part is None or _index(part, 0, n.components),
    "audience": lambda part, n: part is None or (isinstance(part, list) and all(_index(p, 0, n.seats) for p in part)),
    "supply": lambda part, n: type(part) is str and part in n.supplies,
    "holder": lambda part, n: _index(part, 0, n.holders),
    "amount?": lambda part, n: part is None or _index(part, 0, 1 << 63),
    "table": lambda part, n: part in ("global", "player", "space", "component"),
    "index": lambda part, n: _index(part, -1, 1 << 63),
    "value": lambda part, n: True,
    "mark": lambda part, n: part in ("quiet", "loud", "heading"),
}


_SHAPES: dict[str, tuple[str, ...]] = {
    "action": ("player", "id", "secret"),
    "chance": ("text", "text?", "secret"),
    "shuffle": ("text",),
    "phase": ("text",),
    "log": ("text", "audience"),
    "move": ("component?", "slot", "slot"),
    "tokens": ("supply", "holder", "holder", "amount?", "slot?", "slot?"),
    "set": ("table", "text", "index", "value", "slot?"),
    "narrate": ("mark",),
    "turn": ("seat",),
    "hidden": (),
}


def _check_set(event: Event, catalog: Catalog, path: str) -> None:
    """A set event names a variable of the game and an owner in range."""
    _, table, name, index, _, _ = event
    declared, owners = {"global": (catalog.global_vars, 0), "player": (catalog.player_vars, len(catalog.players)),
                        "space": (catalog.space_vars, len(catalog.spaces)),
                        "component": (catalog.component_vars, len(catalog.components))}[table]
    if name not in declared:
        raise EventDataError(f"{path}[2]", f"no {table} variable {name[:60]!r} in this game")
    if (index != -1) if table == "global" else not 0 <= index < owners:
        raise EventDataError(f"{path}[3]", f"no owner {index} of {table} variable {name!r}")
