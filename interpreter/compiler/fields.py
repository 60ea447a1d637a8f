"""What the compiler knows of the components' fields and of the items of zones: what lets
the compiler of expressions (codegen.py) read ``c.name`` as one subscript and ``z[i]`` without
copying the zone.

Components are made only by the decks, while the catalog is built, each from a constructor
that gives every field its type declares (codegen.py refuses one that does not): so a field
that every component type declares is in every component's ``fields``, and reading it of a
value known to be a component cannot fail. Once the decks are built (``Catalog.decks_built``),
the components of a game are all known: a field that holds an ``int`` in each of them is a
proven integer bounded by the largest (integers.py), and one that holds values of one class
(enum values...) is of that class (a call's argument needs no check against it), whatever
value it is read of (of another kind the read raises before anything uses it).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn
from weakref import WeakKeyDictionary, WeakSet

from rulelang import ast
from rulelang.check.tree import walk

from ..model.values import Component, RuleError, Value, kind_of
from ..tables.attributes import ComponentField, attribute_readers

if TYPE_CHECKING:
    from rulelang.boards import Space

    from ..model.values import ZoneRef
    from ..state.state import State
    from ..tables.catalog import Catalog
    from ..tables.declared import Declared


def field_everywhere(cat: Catalog, name: str) -> bool:
    """Whether every component type declares field ``name``: every component has it."""
    types = cat.component_types.values()
    return bool(types) and all(any(f.name == name for f in decl.fields) for decl in types)


def only_field(cat: Catalog, name: str) -> bool:
    """Whether ``x.name`` reads a field of a component and nothing else, and every component
    has that field (``field_of``)."""
    return _only_a_field(cat, name) and field_everywhere(cat, name)


def _only_a_field(cat: Catalog, name: str) -> bool:
    """Whether ``x.name`` reads a field of a component and nothing else (no player, space,
    variable or supply is so named)."""
    readers = attribute_readers(cat, name)
    return set(readers) == {Component} and isinstance(readers[Component], ComponentField)


def field_bound(cat: Catalog, name: str) -> int | None:
    """A bound of ``x.name`` where it reads only a component's field (no player, space,
    variable or supply is so named) and each component of the game that has it holds an
    integer there; None while the decks are being built, or if one holds another value."""
    if not cat.decks_built or not _only_a_field(cat, name):
        return None
    values = [c.fields[name] for c in cat.components if name in c.fields]
    if not values or any(type(v) is not int for v in values):
        return None
    return max(abs(v) for v in values if type(v) is int)


def field_class(cat: Catalog, name: str) -> type | None:
    """The one class of ``x.name`` where it reads only a component's field and each component
    of the game that has it holds a value of that class there (an enum value, a player...);
    None while the decks are being built, or if they hold values of several classes."""
    if not cat.decks_built or not _only_a_field(cat, name):
        return None
    classes = {type(c.fields[name]) for c in cat.components if name in c.fields}
    return classes.pop() if len(classes) == 1 else None


def field_fits(cat: Catalog, name: str, promise: Declared) -> bool:
    """Whether ``x.name`` certainly fits ``promise`` where it reads only a component's field:
    each component of the game that has it holds there a value that fits (one class, or an
    enum's values and none...); False while the decks are being built."""
    if not cat.decks_built or not _only_a_field(cat, name):
        return False
    return all(promise.fits(c.fields[name]) for c in cat.components if name in c.fields)


def space_attributes(cat: Catalog, name: str) -> tuple[object, ...] | None:
    """Attribute ``name`` of each space by its index (none where a space has none), where
    every space is one of ``spaces_by_index`` (a space's attributes never change); else None."""
    spaces = spaces_by_index(cat)
    return None if spaces is None else tuple(space.attributes.get(name) for space in spaces)


def spaces_by_index(cat: Catalog) -> tuple[Space, ...] | None:
    """The spaces of the game's one board, each at its index, where it has one and the rules
    build no other (every space a value can be is one of them); else None."""
    if len(cat.boards) != 1 or _boards_built_elsewhere(cat):
        return None
    (board,) = cat.boards.values()
    spaces = tuple(board.spaces)
    if len(cat.spaces) != len(spaces) or any(space.index != i for i, space in enumerate(spaces)):
        return None
    return spaces


def _boards_built_elsewhere(cat: Catalog) -> bool:
    """Whether the rules may build a board other than by a board declaration (a builtin
    that builds one, called anywhere else): its spaces would not be the declared board's."""
    found = _BUILDS_BOARDS.get(cat)
    if found is None:
        building = {name for name in cat.load_time_functions if name not in cat.functions
                    and name not in cat.component_types}
        found = _BUILDS_BOARDS[cat] = any(
            isinstance(node, ast.Call) and node.function in building
            for decl in cat.decls if not isinstance(decl, ast.BoardDecl) for node in walk(decl))
    return found


_BUILDS_BOARDS: WeakKeyDictionary[Catalog, bool] = WeakKeyDictionary()


def field_of(name: str, or_none: bool = False) -> Callable[[Value], Value]:
    """``x.name`` of a value computed once, where only components have attributes so named and
    every component has field ``name`` (``or_none``: of a value the text proves a component
    that has it or none, typed.py): the dispatch of codegen.py, and its error, in one call."""
    def read(obj: Value) -> Value:
        if type(obj) is Component:
            return obj.record[name]
        raise RuleError(f"a {kind_of(obj)} has no attribute '{name}'")
    FIELD_READERS[read] = name, True
    if or_none:
        OF_COMPONENT_OR_NONE.add(read)
    return read


def field_read(cat: Catalog, name: str) -> Callable[[Value], Value] | None:
    """``x.name`` of a value computed once, where only components have attributes so named:
    the dispatch of codegen.py, the field's read and their errors in one call (``field_of``
    where every component has the field); None where other things have such attributes."""
    if only_field(cat, name):
        return field_of(name)
    if not _only_a_field(cat, name):
        return None

    def read(obj: Value) -> Value:
        if type(obj) is Component:
            fields = obj.record
            if name in fields:
                return fields[name]
            raise RuleError(f"a {obj.type} has no field '{name}'")
        raise RuleError(f"a {kind_of(obj)} has no attribute '{name}'")
    FIELD_READERS[read] = name, False
    return read


FIELD_READERS: WeakKeyDictionary[Callable[[Value], Value], tuple[str, bool]] = WeakKeyDictionary()
"""The functions ``field_of`` and ``field_read`` made: the field each reads, and whether every
component has it (assigned_reads.py writes them in place)."""

OF_COMPONENT_OR_NONE: WeakSet[Callable[[Value], Value]] = WeakSet()
"""The readers of ``field_of`` whose value the text proves a component or none (typed.py):
assigned_reads.py tests such a value's kind by ``is not None``."""


def end_index(node: ast.Expr) -> int | None:
    """0 or -1, where ``node`` is that literal (the first or the last item: any item of a
    list that is not empty); else None."""
    if isinstance(node, ast.Literal) and type(node.value) is int and node.value in (0, -1):
        return node.value
    if isinstance(node, ast.UnaryOp) and node.op == "-" and isinstance(node.operand, ast.Literal) \
            and type(node.operand.value) is int and node.operand.value == 1:
        return -1
    return None


def no_item(key: int) -> NoReturn:
    """The error of ``zone[key]`` (0 or -1) of an empty zone: ``zone_item``'s."""
    raise RuleError(f"index {key} is out of range for a list of 0")


def zone_item(st: State, zone: ZoneRef, key: int) -> Value:
    """``zone[key]`` of a value proven a zone and a key proven an integer: ``runtime.index``
    without copying the zone or testing their kinds (the same error past its ends)."""
    items = st.zones[zone.slot]
    try:
        return items[key]
    except IndexError:
        raise RuleError(f"index {key} is out of range for a list of {len(items)}") from None
