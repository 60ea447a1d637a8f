"""Components of a known type: a field read of a value taken from a zone that declares a
component type, without testing that the component has the field.

A zone that declares a component type of the ruleset (``player zone played: card``) holds
only components of that type (``Catalog.zone_holds``): a deck must start in a zone of its
type, every ``move`` into it of what the compiler cannot prove of that type is checked
(moves.py, ``effects.move``), a deal is one only between zones of one type (deals.py), and a
saved state or a position that puts another type there is refused (E606). So ``top(Z)``,
``Z[i]``, the variable of a ``for`` or a comprehension over ``Z``, and a 'let' local that
one 'let' of such a value alone binds (lets.py) are a component of that type, or none (an
empty zone's top). Each component of a type has every field the type declares (a deck's
constructor names every one), so ``c.f``, where the type declares ``f``, is the plain read
``c.record[F]`` once ``c`` is a component: the test ``F in c.record``, and the call that
raises where it fails, go; and since such a value is a component or none, ``c is not None``
tests its kind (no call of ``type``). Anything else keeps codegen.py's checked read and its error.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import Component, Player, ZoneRef
from ..tables.attributes import ComponentField, PlayerZone, attribute_readers
from .fields import field_of
from .module import KIND_NAMES
from .moves import top_of

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ..tables.catalog import Catalog
    from .codegen import ExpressionWriter
    from .kinds import KindKnowledge
    from .scope import Scope


def zone_holds(writer: KindKnowledge, node: ast.Expr, scope: Scope) -> str | None:
    """The component type that ``node`` holds where it is certainly a zone the rules name,
    or a player's own zone of one name (all declared by one declaration); else None."""
    cat = writer.cat
    constant = writer._constant_values((node,), scope)
    if constant is not None:
        value = constant[0]
        return cat.zone_holds[value.slot] if type(value) is ZoneRef else None
    if not isinstance(node, ast.Attribute) or not writer.zone_read(node, scope):
        return None
    reader = attribute_readers(cat, node.name).get(Player)
    assert isinstance(reader, PlayerZone)
    holds = {cat.zone_holds[ref.slot] for ref in reader.refs}
    return holds.pop() if len(holds) == 1 else None


def component_type(writer: KindKnowledge, node: ast.Expr, scope: Scope) -> str | None:
    """The type of the component that ``node`` is, or none, where the text proves it:
    ``top(Z)`` or ``Z[i]`` of a zone ``Z`` that holds one type, or a local known to hold one
    (``Scope.typed``); else None."""
    if isinstance(node, ast.Name):
        text = scope.local_text(node.name)
        return scope.typed.get(text) if text is not None else None
    zone = top_of(node, writer.cat)
    if zone is None and isinstance(node, ast.Index) and writer._zone_item_kind(node, scope) is not None:
        zone = node.target
    return zone_holds(writer, zone, scope) if zone is not None else None


def declares(cat: Catalog, typ: str | None, name: str) -> bool:
    """Whether component type ``typ`` declares field ``name``."""
    decl = cat.component_types.get(typ) if typ is not None else None
    return decl is not None and any(f.name == name for f in decl.fields)


def typed_read(writer: ExpressionWriter, target: ast.Expr, obj: str, name: str,
               readers: Mapping[type, Callable[..., Any]], known: tuple[type, int] | None,
               scope: Scope) -> str | None:
    """``obj.name`` (``obj`` written from ``target``) where ``target`` is a component of a
    type that declares field ``name``, or none: the field read plain once the value is a
    component (no test of the field), found one by not being none (it can be nothing else),
    none's error else. None where that is not known (codegen.py's read)."""
    if known not in (None, (Component, 0)) or not isinstance(readers.get(Component), ComponentField) \
            or not declares(writer.cat, component_type(writer, target, scope), name):
        return None
    plain = f"{obj}.record[{writer.module.constant(name)}]"
    if known == (Component, 0):
        return f"({plain})"
    if not (obj.isidentifier() or obj.startswith(f"{scope.env}[")):   # (read once: assigned_reads.py, in place)
        if set(readers) != {Component}:
            return None
        return f"{writer.module.constant(field_of(name, True), f'<reads x.{name} of a component>')}({obj})"
    # (a component of the type, or none: no other kind's reader can apply, and none is the one
    # value that is not a component, so testing it is testing the kind, without calling type())
    return f"({plain} if {obj} is not None else _no_attribute({obj}, {writer.module.constant(name)}))"


def by_kind(writer: ExpressionWriter, readers: Mapping[type, Callable[..., Any]], obj: str, name: str,
            scope: Scope) -> str:
    """``obj.name`` (``obj`` a Python local or an entry of the environment) by its kind: each
    kind's reader under a test of the kind, the error of any other value."""
    text = f"_no_attribute({obj}, {writer.module.constant(name)})"
    for kind, reader in reversed(list(readers.items())):
        text = f"{writer._read(reader, obj, name, scope)} if type({obj}) is {KIND_NAMES[kind]} else {text}"
    return f"({text})"
