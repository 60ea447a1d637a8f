"""The locals of a procedure that may pause whose type its lowered code holds to across a
pause: a 'let' that alone binds its name, when the text proves what its value is (a list, a
player, a space or a component, or lists of them: lets.py); the map of a simultaneous choice
that alone binds its name, when the kind of each option is certain (a map from players to
components of a zone...); and the variable of a 'for' or a 'choose' that alone binds its name,
when every item of its list is certainly a player, a space or a component, or lists of one
(``for p in players``, ``choose s in spaces(b)``, ``choose c in hand``), or an integer of a
range (``for r in 1..10``: held an int; its bounds are not held, as what reads it after a
pause needs only its type). Those locals live in
the frame's environment, which a saved state may fill with anything: a state read back is
refused if one of its frames breaks them (``Code.held``, checked by ``declared.frame_problem``,
E606), so the code after a pause reads them as their type promises (``HeldParameters.hold``),
as it reads held parameters.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import ast

from ..model.values import Component
from ..tables.declared import Declared
from .integers import items_bound
from .lets import Facts
from .scope import Scope
from .typed import zone_holds

if TYPE_CHECKING:
    from .lower import Compiler


def of_kind(kind: tuple[type, int]) -> Declared:
    """The type of a value of ``kind`` (a class, how many lists deep)."""
    cls, depth = kind
    found = Declared(cls)
    for _ in range(depth):
        found = Declared(tuple, found)
    return found


def let_promise(facts: Facts | None) -> Declared | None:
    """The type a 'let' local of ``facts`` is held to: a list (of a known kind), or one value
    of a known kind; None for what is not held (an integer: the facts that make a 'let' an
    int, a bound among them, are more than a type, and its reads after a pause test it)."""
    if facts is None:
        return None
    if facts.typed is not None and facts.kind in (None, (Component, 0)):   # (typed.py)
        return Declared(Component, optional=facts.kind is None, of=facts.typed)
    if facts.kind is not None:
        return of_kind(facts.kind)
    return Declared(tuple) if facts.is_list else None


def map_promise(options: tuple[type, int] | None) -> Declared | None:
    """The type of a simultaneous choice's map, whose options are certainly of kind
    ``options`` (a list of them): a map from players to those; None if not certain."""
    if options is None or options[1] < 1:
        return None
    return Declared(dict, of_kind((options[0], options[1] - 1)))


def hold_item(compiler: Compiler, name: str, source: ast.Expr) -> None:
    """Hold ``name``, the variable of a 'for' or a 'choose' over ``source`` (read before it
    binds), to what every item of ``source`` certainly is, if no other statement binds it:
    its code then reads it without testing its kind (the item of a list it took, or the
    option chosen; a saved frame is checked)."""
    if name not in compiler.bound_alone or compiler.held_types is None:
        return
    writer = compiler.writer
    scope = Scope(set(compiler.scope), compiler.key, {}, "0")
    writer.held.learn_running(scope)
    kind = (Component, 1) if writer.zone_read(source, scope) else writer.items_kind(source, scope)
    typed = zone_holds(writer, source, scope) if kind == (Component, 1) else None
    if typed is not None:   # (a component of the type its zone holds: typed.py)
        compiler.hold(name, Declared(Component, of=typed))
    elif kind is not None and kind[1] >= 1:
        compiler.hold(name, of_kind((kind[0], kind[1] - 1)))
    elif items_bound(writer.cat, source, scope) is not None:   # (each item an integer: a range...)
        compiler.hold(name, Declared(int))
