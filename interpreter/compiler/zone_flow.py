"""Which zones a component that has a copy may ever reach, found when the ruleset is compiled:
a conservative flow over its ``move`` statements. A zone holds such a component if a deck
puts one there, or if some move brings into it what may come from a zone that holds one;
where a move's source or destination is not known (a parameter, a variable, a function's
result), it is assumed to be any. Whether a component has a copy never changes (components
are frozen), so a value taken from zones that never hold one is never one, wherever it goes.

A choice whose list comes only from zones that never hold such a component needs no test for
copies (``apart``); the proof is the game's (``CopiesApart``), and a state made from data that
breaks it (``state_from_json``) turns the test back on.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from rulelang import ast

from ..model.copies_apart import CopiesApart
from .copies import copy_classes

if TYPE_CHECKING:
    from ..tables.catalog import Catalog
    from .lower import Compiler

__all__ = ["copies_apart", "proof_test", "zones_of_source"]

Zones = frozenset[str] | None
"""The names of the zones a value's components come from; None: any (not known)."""

_ELEMENTS_OF_FIRST = frozenset({"top", "bottom", "reversed", "slice", "remove", "list", "rotate", "sorted", "best",
                                "worst", "first", "min", "max"})   # (their result: items of their first argument)
_KEPT: WeakKeyDictionary[Catalog, tuple[CopiesApart, frozenset[str] | None, _Flow]] = WeakKeyDictionary()


def copies_apart(cat: Catalog) -> tuple[CopiesApart, frozenset[str] | None]:
    """The game's proof (the slots of the zones no component that has a copy reaches) and
    the names of the zones such a component may reach (None: any), computed once a catalog."""
    kept = _KEPT.get(cat)
    if kept is None:
        flow = _Flow(cat)
        reached = flow.zones_with_copies(cat)
        slots = frozenset(ref.slot for ref in cat.zone_refs if reached is not None and ref.name not in reached)
        classes = copy_classes(cat)
        kept = _KEPT[cat] = (CopiesApart(slots, frozenset(c.id for c in cat.components if classes[c.id] >= 0)),
                             reached, flow)
    return kept[0], kept[1]


def zones_of_source(cat: Catalog, source: ast.Expr) -> Zones:
    """The zones the items of ``source`` (a choice's list) come from, None where not known."""
    copies_apart(cat)
    return _KEPT[cat][2].zones_of(source)


def proof_test(compiler: Compiler, source: ast.Expr) -> str:
    """What the code of a choice over ``source`` reads before it looks for copies, where its
    list comes only from zones no component that has a copy reaches by the rules: whether the
    game's proof is broken (``<apart>.broken``); else nothing (it always looks)."""
    apart, reached = copies_apart(compiler.cat)
    zones = zones_of_source(compiler.cat, source)
    if reached is None or zones is None or not zones.isdisjoint(reached):
        return ""
    return f"{compiler.module.constant(apart, '<the zones no copy reaches>')}.broken"


def _walk(node: ast.Node) -> Iterator[ast.Node]:
    yield node
    for child in ast.children(node):
        yield from _walk(child)


class _Flow:
    """The moves of a ruleset and what each name may be bound to (by name, over the whole
    ruleset: a conservative union of every binding of that name)."""

    def __init__(self, cat: Catalog):
        # (keeps no reference to ``cat``: it is kept in _KEPT, whose keys it would keep alive)
        self.zone_names = frozenset(ref.name for ref in cat.zone_refs)
        self.player_zones = frozenset(ref.name for ref in cat.zone_refs if ref.owner is not None)
        self.shared_zones = self.zone_names - self.player_zones
        self.functions = frozenset(d.name for d in cat.declared(ast.FunctionDecl))
        self.fields = frozenset(name for c in cat.components for name in c.fields)
        self.moves: list[ast.Move] = []
        self.bindings: dict[str, list[ast.Expr | None]] = {}
        for decl in cat.decls:
            for node in _walk(decl):
                self._learn(node)
        self.known: dict[str, Zones] = {}
        self.computing: set[str] = set()

    def _bind(self, name: str, value: ast.Expr | None) -> None:
        self.bindings.setdefault(name, []).append(value)

    def _learn(self, node: ast.Node) -> None:
        if isinstance(node, ast.Move):
            self.moves.append(node)
        elif isinstance(node, ast.Let):
            self._bind(node.name, node.value)
        elif isinstance(node, ast.Choose):
            self._bind(node.var, node.source)
        elif isinstance(node, ast.Simultaneous):
            self._bind(node.var, node.source)   # (its map: its values come from there)
            self._bind(node.player_var, None)
        elif isinstance(node, (ast.For, ast.CompClause, ast.RandomPick)):
            self._bind(node.var if not isinstance(node, ast.RandomPick) else node.name, node.source)
        elif isinstance(node, ast.Assign):
            if isinstance(node.target, ast.Name):
                self._bind(node.target.name, node.value if node.op == "=" else None)
        elif isinstance(node, (ast.Roll, ast.CallLet, ast.Param, ast.VarDecl)):
            self._bind(node.name, None)

    def zones_with_copies(self, cat: Catalog) -> frozenset[str] | None:
        """The zones a component of ``cat`` (this flow's) that has a copy may reach; None: any."""
        classes = copy_classes(cat)
        reached = {cat.zone_refs[slot].name for c, slot in zip(cat.components, cat.initial_zone, strict=True)
                   if classes[c.id] >= 0}
        if not reached:
            return frozenset()
        sides = [(self.zones_of(m.what), self.zones_of(m.to)) for m in self.moves]
        grown = True
        while grown:
            grown = False
            for source, to in sides:
                if source is None or not source.isdisjoint(reached):
                    if to is None:
                        return None
                    if not to <= reached:
                        reached |= to
                        grown = True
        return frozenset(reached)

    def zones_of(self, expr: ast.Expr | None) -> Zones:
        """The zones the components ``expr`` names (a zone, a component, a list of them) come
        from; None where not known."""
        if isinstance(expr, ast.Literal):
            return frozenset()
        if isinstance(expr, ast.Name):
            return self._named(expr.name)
        if isinstance(expr, ast.Attribute):
            zone = expr.name in self.player_zones and expr.name not in self.fields   # (p.hand, not a field)
            return frozenset({expr.name}) if zone else None
        if isinstance(expr, ast.Index):
            return self.zones_of(expr.target)
        if isinstance(expr, (ast.Comprehension, ast.Generator)):
            return self.zones_of(expr.element)
        if isinstance(expr, ast.IfExpr):
            return self._union([expr.then, expr.otherwise])
        if isinstance(expr, ast.ListExpr):
            return self._union(list(expr.items))
        if isinstance(expr, ast.BinaryOp) and expr.op == "+":
            return self._union([expr.left, expr.right])
        if isinstance(expr, ast.Call) and expr.args and expr.function not in self.functions:
            if expr.function in _ELEMENTS_OF_FIRST:
                return self.zones_of(expr.args[0])
            if expr.function == "insert" and len(expr.args) == 3:
                return self._union([expr.args[0], expr.args[2]])
        return None

    def _union(self, exprs: list[ast.Expr]) -> Zones:
        found: set[str] = set()
        for expr in exprs:
            zones = self.zones_of(expr)
            if zones is None:
                return None
            found |= zones
        return frozenset(found)

    def _named(self, name: str) -> Zones:
        """The zones of a name: a shared zone's own, and those of every binding of the name."""
        if name in self.known:
            return self.known[name]
        if name in self.computing:   # (a name bound from itself: not followed)
            return None
        own = frozenset({name}) if name in self.shared_zones else frozenset()
        bound = self.bindings.get(name, [])
        if not bound:
            return own if own else None
        self.computing.add(name)
        found: Zones = own
        for value in bound:
            zones = None if value is None else self.zones_of(value)
            if zones is None or found is None:
                found = None
                break
            found = found | zones
        self.computing.discard(name)
        self.known[name] = found
        return found
