"""What the compiler knows of the kind of an expression from its text alone: a player, a
space or a component, or lists of one (as (class, how many lists deep)), a zone, and the
values of constants. ``ExpressionWriter`` (codegen.py) has this knowledge and writes plain
Python where it is certain; what a list built by the text holds is results.py's."""
from __future__ import annotations

from rulelang import ast
from rulelang.boards import Space

from ..model.values import Component, EnumValue, Player, Value, ZoneRef
from ..tables.attributes import PlayerZone, attribute_readers
from ..tables.catalog import Catalog
from ..tables.declared import Declared
from .integers import integer_bound, is_constant, items_bound
from .scope import IDENTICAL_WHEN_EQUAL, Scope, known_kind, promise_of, value_kind
from .typed import component_type, zone_holds


class KindKnowledge:
    """The kinds of expressions of a catalog's rules, known from their text."""

    cat: Catalog

    def _built_kind(self, node: ast.Expr, scope: Scope) -> tuple[type, int] | None:
        """The kind of a list the text builds, or of a function's value (results.py)."""
        raise NotImplementedError

    def _constant_values(self, nodes: tuple[ast.Expr, ...], scope: Scope) -> list[Value] | None:
        """The values of ``nodes`` if each is a constant (a literal, or a name of the game's
        constants: a board, an enum value...), else None."""
        values: list[Value] = []
        cat = self.cat
        for node in nodes:
            if isinstance(node, ast.Literal):
                values.append(node.value)
            elif isinstance(node, ast.Name) and is_constant(cat, node.name, scope):
                values.append(cat.constants[node.name])
            else:
                return None
        return values

    def bind_item_kind(self, var: str, source: ast.Expr, scope: Scope) -> None:
        """Record in ``scope`` what the Python local ``var``, bound to each item of
        ``source`` in turn, certainly holds, when ``items_kind`` knows."""
        kind = self.items_kind(source, scope)
        if self.zone_read(source, scope):   # a zone's items are components
            kind = (Component, 1)
        if kind is not None and kind[1] >= 1:
            scope.kinds[var] = (kind[0], kind[1] - 1)
        typed = zone_holds(self, source, scope) if kind == (Component, 1) else None
        if typed is not None:   # (a component of the type its zone holds: typed.py)
            scope.typed[var] = typed
        bound = items_bound(self.cat, source, scope)
        if bound is not None:
            scope.integers[var] = bound

    def component_type(self, node: ast.Expr, scope: Scope) -> str | None:
        """The type of the component ``node`` is, or none, where the text proves it (typed.py)."""
        return component_type(self, node, scope)

    def items_kind(self, node: ast.Expr, scope: Scope) -> tuple[type, int] | None:
        """What ``node`` certainly is, as (class, how many lists deep) for a player, a
        space or a component or lists of one of them: a board query (its result's kind is
        fixed), ``players`` and ``seats``, a constant of the game whose value is known now,
        a comprehension variable already known, or a variable or held parameter of that
        declared type (scope.py), an item of one, or either of two of one kind, a list
        built of such items or a function's value (results.py). None when not certain."""
        cat = self.cat
        if isinstance(node, ast.Name):
            name = node.name
            if scope.local_text(name) is not None:
                return scope.kinds.get(scope.local_text(name) or "")
            if name in scope.env_names or name in cat.global_vars:
                return known_kind(promise_of(cat, node, scope))   # a global's declared type
            if name in ("players", "seats"):
                return Player, 1
            return value_kind(cat.constants[name]) if name in cat.constants else None
        if isinstance(node, ast.Call) and node.function in _BOARD_QUERY_KINDS \
                and node.function not in cat.component_types and node.function not in cat.functions \
                and node.function not in cat.load_time_functions:
            return Space, _BOARD_QUERY_KINDS[node.function]
        if isinstance(node, ast.Index):   # an item of a list of known items (or the error of the index)
            items = self.items_kind(node.target, scope)
            if items is not None and items[1] >= 1:
                return items[0], items[1] - 1
            return self.entry_kind(node, scope) or self._zone_item_kind(node, scope)
        if isinstance(node, ast.IfExpr):
            return self.either_list(node.then, node.otherwise, scope, lists_only=False)
        return known_kind(promise_of(cat, node, scope)) or self._built_kind(node, scope)   # (results.py)

    def map_read(self, node: ast.Index, scope: Scope) -> Declared | None:
        """The type of the entries of ``node``'s map, if it is ``m[p]`` of a map held to its
        type (a simultaneous choice's, held.py) and a key known to be a player; else None."""
        promise = promise_of(self.cat, node.target, scope)
        if promise is None or promise.cls is not dict or self.items_kind(node.index, scope) != (Player, 0):
            return None
        return promise.item

    def entry_kind(self, node: ast.Expr, scope: Scope) -> tuple[type, int] | None:
        """The kind of ``m[p]``, an entry of a held map of entries of a known kind (a
        missing entry is the error of the read)."""
        if not isinstance(node, ast.Index):
            return None
        promise = promise_of(self.cat, node.target, scope)
        return known_kind(promise.item) if promise is not None and promise.cls is dict else None

    def either_list(self, first: ast.Expr, second: ast.Expr, scope: Scope,
                    lists_only: bool = True) -> tuple[type, int] | None:
        """The kind of a list that is one of (or joins) ``first`` and ``second``: theirs where
        both have one, or one has and the other is ``[]`` (a list of no items is a list of any);
        unless ``lists_only``, also the kind of both, a player, space or component. Each side's
        kind is asked once (nested ifs and joins stay linear in the text)."""
        if _empty(first):
            first, second = second, first
        kind = self.items_kind(first, scope)
        if kind is None:
            return None
        if _empty(second):
            return kind if kind[1] >= 1 else None
        return kind if (kind[1] >= 1 or not lists_only) and kind == self.items_kind(second, scope) else None

    def _zone_item_kind(self, node: ast.Expr, scope: Scope) -> tuple[type, int] | None:
        """(Component, 0) if ``node`` is ``z[i]`` of a zone ``z`` and an integer ``i`` proven
        so by the text: an item of a zone is a component."""
        if isinstance(node, ast.Index) and integer_bound(self.cat, node.index, scope) is not None \
                and self.zone_read(node.target, scope):
            return Component, 0
        return None

    def zone_read(self, node: ast.Expr, scope: Scope) -> bool:
        """Whether ``node`` is a zone (of components): a declared one, or ``p.zone`` of a
        player known to be one."""
        constant = self._constant_values((node,), scope)
        if constant is not None:
            return type(constant[0]) is ZoneRef
        if not isinstance(node, ast.Attribute):
            return False
        target = node.target
        text = scope.local_text(target.name) if isinstance(target, ast.Name) else None
        known = scope.kinds.get(text) if text is not None else None
        return known == (Player, 0) and isinstance(attribute_readers(self.cat, node.name).get(Player), PlayerZone)


def _empty(node: ast.Expr) -> bool:
    return isinstance(node, ast.ListExpr) and not node.items


_BOARD_QUERY_KINDS = {"spaces": 1, "neighbors": 1, "within": 1, "ahead": 1, "behind": 1, "region": 1,
                      "largest_region": 1, "lines": 2}
"""Board queries whose result is always a list of spaces (1), or of lists of spaces (2):
builtins.py returns the board's own tuples of spaces (rulelang.boards), or raises."""


def by_identity(cat: Catalog, node: ast.Expr, scope: Scope) -> bool:
    """Whether ``node`` is certainly a player, a space or a component (or none), by its type
    or what the text proves of a local, or a value of an enumeration named by the rules: each
    equal only to itself, and no value's own equality says it equals one, so ``==`` with it is
    ``is`` (no comparison called)."""
    promise = promise_of(cat, node, scope)
    if promise is not None and promise.cls in IDENTICAL_WHEN_EQUAL:
        return True
    if not isinstance(node, ast.Name):
        return False
    if is_constant(cat, node.name, scope):
        return type(cat.constants[node.name]) is EnumValue
    text = scope.local_text(node.name)
    return text is not None and scope.kinds.get(text) in {(cls, 0) for cls in IDENTICAL_WHEN_EQUAL}
