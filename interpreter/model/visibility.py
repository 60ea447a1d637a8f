"""Visibility: who may see a zone, a variable or a supply, and how a value is shown to them.

The declared visibilities ("all", "owner", "others", "count", "none") become, for one viewer,
a sight of 'full', 'count' or 'hidden'. Observations, events, information sets and tensors read
them from here, and the catalog's table of who sees each zone slot in full is made here too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .serialize import JsonValue, encode_value
from .values import Component, Value

if TYPE_CHECKING:
    from rulelang import ast


def sight(visibility: str | None, owner: int | None, viewer: int, default: str = "all",
          others_count: bool = False) -> str:
    """'full', 'count' or 'hidden' for one viewer. A player zone that its owner sees shows
    the others its size, like a hand of cards on the table (``others_count``). A zone
    'visible others' (cards held facing outward) is seen in full by every player but its
    owner, who sees its size; the public view (a negative viewer: CHANCE) sees only its size,
    as every player does."""
    vis = visibility or default
    if vis == "all" or (vis == "owner" and owner == viewer) or _facing(vis, owner, viewer):
        return "full"
    if vis in ("count", "others") or (vis == "owner" and others_count and owner is not None):
        return "count"
    return "hidden"


def _facing(visibility: str, owner: int | None, viewer: int) -> bool:
    """Whether ``viewer`` is a player who sees a zone 'visible others' of seat ``owner``."""
    return visibility == "others" and owner is not None and viewer >= 0 and viewer != owner


def zone_sight(decl: ast.ZoneDecl, owner: int | None, viewer: int) -> str:
    """'full', 'count' or 'hidden': how ``viewer`` sees the zone slot of ``decl`` owned by
    seat ``owner`` (None: shared), as observations show it."""
    return sight(decl.visibility_or_default, owner, viewer, others_count=True)


def full_viewers(zone: ast.ZoneDecl, owner: int | None, players: int) -> int:
    """The bitmask of the players (of ``players``) who see the zone slot of ``zone`` owned
    by seat ``owner`` (None: shared) in full, as observations show it."""
    return sum(1 << viewer for viewer in range(players) if zone_sight(zone, owner, viewer) == "full")


def shown(value: Value) -> JsonValue:
    """A value as a player sees it: components by their readable label."""
    if isinstance(value, Component):
        return {"component": value.id, "label": value.label}
    if isinstance(value, tuple):
        return [shown(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[shown(k), shown(v)] for k, v in value.items()]}
    return encode_value(value)
