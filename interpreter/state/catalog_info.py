"""``Game.catalog_info()``: everything static about one game, as JSON data for hosts.

It names things as the saved state (``State.to_json``) and positions do, so a host reads
ids, zone keys, holder slots and space names from here instead of from the engine's tables.
The layout is documented in docs/state-format.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rulelang import ast, boards

from ..model.serialize import FORMAT, JsonValue, encode_value, zone_key
from ..model.values import Component
from .position_write import component_name, zone_name

if TYPE_CHECKING:
    from ..tables.catalog import Catalog

"""A zone's visibility when its declaration says none: shared zones are open, a player's
zone is seen by its owner."""


def catalog_info(catalog: Catalog, num_players: int, title: str) -> dict[str, JsonValue]:
    """The static tables of a game as JSON data (see the module docstring)."""
    return {
        "format": FORMAT,
        "title": title,
        "players": num_players,
        "seats": [_seat(i, num_players) for i in range(len(catalog.players))],
        "enums": {name: [v.name for v in enum.values] for name, enum in catalog.enums.items()},
        "component_types": {name: _component_type(decl) for name, decl in catalog.component_types.items()},
        "components": _components(catalog.components),
        "zones": [_zone(catalog, ref.slot) for ref in catalog.zone_refs],
        "boards": {name: _board(board, catalog.space_offset[name]) for name, board in catalog.boards.items()},
        "variables": _variables(catalog),
        "supplies": {name: _supply(catalog, name) for name in catalog.supplies},
        "holders": _holders(catalog),
        "dice": {name: [encode_value(face) for face in faces] for name, faces in catalog.dice.items()},
        "phases": list(catalog.phases),
        "first_phase": catalog.first_phase,
        "procedures": {name: [p.name for p in decl.params] for name, decl in catalog.procedures.items()},
    }


def _seat(index: int, num_players: int) -> dict[str, JsonValue]:
    """One seat: its index, its name in messages and positions, and whether a player sits there."""
    return {"index": index, "name": f"player {index + 1}", "dummy": index >= num_players}


def _type(ref: ast.TypeRef | None) -> str | None:
    """A declared type as the ruleset writes it (``list[space]``, ``player?``)."""
    return None if ref is None else str(ref)


def _component_type(decl: ast.ComponentDecl) -> dict[str, JsonValue]:
    return {"fields": {f.name: _type(f.type) for f in decl.fields}, "shown_as": decl.shown_as}


def _components(components: list[Component]) -> list[JsonValue]:
    """Each component: id, type, label, fields, which copy of its label it is (1-based, in
    id order) among ``copies`` components of its type with that label, and how a position
    names it."""
    seen: dict[tuple[str, str], int] = {}
    numbers = []
    for c in components:
        key = (c.type, c.label)
        seen[key] = seen.get(key, 0) + 1
        numbers.append(seen[key])
    return [{"id": c.id, "type": c.type, "label": c.label, "copy": n, "copies": seen[(c.type, c.label)],
             "position": component_name(c, n if seen[(c.type, c.label)] > 1 else None),
             "fields": {k: encode_value(v) for k, v in c.fields.items()}}
            for c, n in zip(components, numbers, strict=True)]


def _zone(catalog: Catalog, slot: int) -> dict[str, JsonValue]:
    """One zone: its key in the saved state, its slot (a zone value's number), its name, how
    a position names it, its owner's seat (or None), the declared visibility (the default
    filled in) and component type."""
    ref = catalog.zone_refs[slot]
    decl = catalog.zones[ref.name]
    return {"key": zone_key(ref), "slot": slot, "name": ref.name, "position": zone_name(ref),
            "owner": None if ref.owner is None else ref.owner.index,
            "visibility": decl.visibility_or_default, "type": _type(decl.type)}


def _board(board: boards.Board, offset: int) -> dict[str, JsonValue]:
    """A board: its kind, and its spaces in order (index on the board, name, attributes);
    ``offset`` is where its spaces start in the saved state's ``space_vars`` lists."""
    return {"name": board.name, "kind": board.kind, "offset": offset,
            "spaces": [{"index": s.index, "name": s.name, "attributes": _plain(s.attributes)} for s in board.spaces]}


def _plain(mapping: Mapping[str, object]) -> dict[str, JsonValue]:
    """Board data as JSON data (it came from YAML or JSON, checked by the board schema)."""
    return {k: _plain_value(v) for k, v in mapping.items()}


def _plain_value(value: object) -> JsonValue:
    if isinstance(value, Mapping):
        return _plain(value)
    if isinstance(value, (list, tuple)):
        return [_plain_value(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _variables(catalog: Catalog) -> dict[str, JsonValue]:
    """The declared variables by owner kind: ``global``, ``player``, ``space``, ``component``."""
    tables = {"global": catalog.global_vars, "player": catalog.player_vars, "space": catalog.space_vars,
              "component": catalog.component_vars}
    return {owner: {name: {"type": _type(decl.type), "visibility": decl.visibility or "all"}
                    for name, decl in variables.items()}
            for owner, variables in tables.items()}


def _supply(catalog: Catalog, name: str) -> dict[str, JsonValue]:
    decl = catalog.supply_decls[name]
    return {"total": encode_value(catalog.supplies[name]), "visibility": decl.visibility or "all"}


def _holders(catalog: Catalog) -> list[JsonValue]:
    """What each slot of a supply's list in the saved state holds: the bank, each seat, each
    component (values encoded as in the saved state)."""
    return ["bank", *[encode_value(p) for p in catalog.players], *[encode_value(c) for c in catalog.components]]
