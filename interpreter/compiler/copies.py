"""Interchangeable copies of a component: what makes two components one option of a choice
and one outcome of explicit chance (``copy_key``), and a choice's options with the copies
merged (``Merging``).

Two components are interchangeable now when they have the same type, the same fields (hence
the same label), the same component-variable values and the same tokens, and lie in the same
zone; where they lie in it does not count. A choice merges such copies into one option, the
**first** of them in its list (a zone's from the bottom), so the same state always gives the
same options and ids (replays and saved states stay exact); ``choose ... by position`` keeps
them apart. Whether a choice may merge is decided when it is compiled (``merging``): never
when its options are proven not components, nor in a game with no two components of the same
type and fields; at run time a list that holds fewer than two components that have a copy
is given back after one test in C, never kept when it is merged.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from rulelang import ast

from ..model.values import Component, Value
from .scope import Scope

if TYPE_CHECKING:
    from ..state.state import State
    from ..tables.catalog import Catalog
    from .lower import Compiler

__all__ = ["Merging", "copy_classes", "copy_key", "merging"]

_K = TypeVar("_K")
_COPY = object()  # tags a component's key


def copy_key(st: State, c: Component) -> object:
    """What makes copies of ``c`` interchangeable now: the same type, the same fields (hence
    the same label), the same component variables and the same tokens, and the same zone
    (where in it does not count). A component whose fields or variables hold a map stands
    alone."""
    catalog = st.game.catalog
    holder = catalog.holder_base + c.id
    kind, fields = _types_and_fields(catalog)[c.id]
    key = (_COPY, kind, fields, tuple(values[c.id] for values in st.component_values.values()),
           tuple(held[holder] for held in st.supply_counts.values()), st.component_zone[c.id])
    try:
        hash(key)
    except TypeError:
        return _COPY, c.id
    return key


@lru_cache(maxsize=16)
def _types_and_fields(cat: Catalog) -> tuple[tuple[str, tuple[tuple[str, Value], ...]], ...]:
    """By component id: its type and its fields in the order of their names, what part of
    ``copy_key`` never changes (a component is immutable), made once a game: a chance
    outcome's key is asked of every item left at each step of a shuffle."""
    return tuple((c.type, tuple(sorted(c.fields.items(), key=_first))) for c in cat.components)


def _first(pair: tuple[_K, object]) -> _K:
    return pair[0]


def copy_classes(cat: Catalog) -> tuple[int, ...]:
    """By component id: the class of the components of the same type and fields, for a
    component that has such a copy, else -1 (never merged)."""
    keys = [_type_and_fields(c) for c in cat.components]
    counts = Counter(keys)
    numbered: dict[object, int] = {}
    return tuple(-1 if key is None or counts[key] < 2 else numbered.setdefault(key, len(numbered)) for key in keys)


def _type_and_fields(c: Component) -> object:
    """What copies of ``c`` share whatever the state: its type and fields; None for a
    component whose fields hold a map (it stands alone)."""
    key = (c.type, tuple(sorted(c.fields.items(), key=_first)))
    try:
        hash(key)
    except TypeError:
        return None
    return key


class Merging:
    """The merging of one choice's options: the game's copy classes, and ``twins``, the
    components that have a copy. A list that holds fewer than two of them merges nothing, which
    the caller tests in C (``len(twins.intersection(options)) > 1``) before calling ``merged``."""

    __slots__ = ("classes", "holder_base", "twins")

    def __init__(self, classes: tuple[int, ...], cat: Catalog):
        self.classes, self.holder_base = classes, cat.holder_base
        self.twins = frozenset(c for c in cat.components if classes[c.id] >= 0)

    def merged(self, st: State, options: tuple[Value, ...]) -> tuple[Value, ...]:
        """``options`` with the interchangeable copies of a component merged into the first;
        ``options`` itself (the same object) when none is merged."""
        classes, first, kept = self.classes, set(), []
        for option in options:
            if type(option) is Component and (k := classes[option.id]) >= 0:
                key = self._key(st, option, k)
                if key in first:
                    continue
                first.add(key)
            kept.append(option)
        return options if len(kept) == len(options) else tuple(kept)

    def _key(self, st: State, c: Component, k: int) -> object:
        """``copy_key`` of ``c``, whose type and fields are its class ``k``: its zone, its
        component variables and its tokens with it (``c`` itself where one holds a map)."""
        holder = self.holder_base + c.id
        key = (k, st.component_zone[c.id], tuple([values[c.id] for values in st.component_values.values()]),
               tuple([held[holder] for held in st.supply_counts.values()]))
        try:
            hash(key)
        except TypeError:
            return c
        return key


def merging(compiler: Compiler, source: ast.Expr, by_position: bool, scope: Scope | None = None) -> Merging | None:
    """The merging of a choice over ``source`` (in ``scope``, by default the procedure's), or
    None where its options are never merged: 'by position', options proven not to be
    components, or a game without two components of the same type and fields."""
    if by_position or (isinstance(source, ast.BinaryOp) and source.op == ".."):   # (a range: numbers)
        return None
    classes = copy_classes(compiler.cat)
    if all(k < 0 for k in classes):
        return None
    if scope is None:
        scope = Scope(set(compiler.scope), compiler.key, {}, "0")
        compiler.writer.held.learn_running(scope)
    if compiler.writer.zone_read(source, scope):
        return Merging(classes, compiler.cat)
    kind = compiler.writer.items_kind(source, scope)
    return None if kind is not None and kind[0] is not Component else Merging(classes, compiler.cat)
