"""E208: a component moved into a zone that declares another component type.

A zone declares the type of component it holds (``player zone hand: card``); where that is a
component type of the ruleset (``declared_holds``: the one rule that the catalog, the linter,
the position reader and the compiler share), the engine lets no component of another type enter it: a
deck must start in a zone of its type (E208 when its data is built), and a ``move`` of
another type fails where it runs (E602, the state as it was). The linter reports a move
whose text alone proves the mismatch: what moves is a zone of another type, its ``top`` or
an item of it, or a local bound only to such a component (kinds.py: ``Kind.of``). A zone
declared ``: component``, or of any other type (``int``), holds components of any type.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

from rulelang import ast
from rulelang.diagnostics import Diagnostic

if TYPE_CHECKING:
    from rulelang.check.kinds import Kind, Kinds


def declared_holds(typ: ast.TypeRef | None, component_types: Collection[str]) -> str | None:
    """The one component type that a zone declared ``: typ`` holds, or None where it holds
    any: the name of a component type of the ruleset, with or without ``?`` (a zone never
    holds none: ``card?`` holds cards, as ``card`` does); ``component`` (a reserved name:
    checker.py), a type that is not a component type, or none declared: any type."""
    if typ is None or typ.item is not None or typ.name not in component_types or typ.name == "component":
        return None
    return typ.name


def wrong_zone(zone: str, holds: str, got: str) -> str:
    """The message of a component of type ``got`` that may not enter ``zone`` (of ``holds``)."""
    return f"zone '{zone}' holds components of type {holds}, not a {got}"


def moved_type(kind: Kind | None) -> str | None:
    """The component type of what a ``move`` of a value of ``kind`` moves, where the text
    proves it: a component of a typed zone, or a zone (or list) of such components."""
    if kind is None:
        return None
    if kind.of is not None and "component" in kind.classes:
        return kind.of
    if kind.single in ("zone", "list") and kind.item is not None:
        return kind.item.of
    return None


def _zone_name(expr: ast.Expr) -> str:
    return expr.name if isinstance(expr, (ast.Name, ast.Attribute)) else "this zone"


def move_into_other_type(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E208: ``move X to Z`` where X is plainly of a component type that zone Z does not hold."""
    if not isinstance(node, ast.Move):
        return
    to = kinds.of(node.to)
    holds = to.item.of if to is not None and to.single == "zone" and to.item is not None else None
    got = moved_type(kinds.of(node.what))
    if holds is not None and got is not None and got != holds:
        yield Diagnostic("E208", wrong_zone(_zone_name(node.to), holds, got), node.span,
                         hint=f"move it to a zone declared ': {got}', or declare the zone so")
