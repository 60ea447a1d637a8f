"""What an expression may be before the game runs, inferred only where the text makes it
plain: a literal, a declared constant such as a zone or an enum value, a declared type, the
result of a builtin function (from the signature table). Everything else is unknown (None),
so the checks built on it never warn about a correct ruleset."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rulelang import ast
from rulelang.check.signatures import SIGNATURES
from rulelang.check.tree import bound_names, local_names, walk
from rulelang.check.zone_types import declared_holds

NOT_CONSTANT = object()


@dataclass(frozen=True)
class Kind:
    """What an expression may be before the game runs: a set of kinds of value ('number',
    'string', 'bool', 'none', 'list', 'zone', 'player', 'enum value:E'...). ``certain`` when
    the text itself says so (a literal, a declared zone), not only a declared type; ``value``
    for a constant (a literal, an enum value)."""

    classes: frozenset[str]
    certain: bool = True
    value: object = NOT_CONSTANT
    item: Kind | None = None   # for a list or a zone: what its items are, when known; a map's values
    of: str | None = None   # for a component from a zone that declares a component type: that type

    @property
    def single(self) -> str | None:
        """The one kind this can be, if only one."""
        return next(iter(self.classes)) if len(self.classes) == 1 else None


def _certain(cls: str, value: object = NOT_CONSTANT, item: Kind | None = None) -> Kind:
    return Kind(frozenset({cls}), True, value, item)


_COMPONENT = Kind(frozenset({"component"}), False)
_PLAYER = Kind(frozenset({"player"}), False)


def map_of(values: Kind | None) -> Kind:
    """The kind of a map from players to values of ``values`` (a simultaneous choice's)."""
    return Kind(frozenset({"map"}), False, item=values)


_DESCRIPTIONS = {"number": "a number", "bool": "true or false", "string": "a string", "none": "none",
                 "list": "a list", "map": "a map", "zone": "a zone", "supply": "a supply", "die": "a die",
                 "board": "a board", "enum": "an enum", "player": "a player", "component": "a component",
                 "space": "a space", "items": "a list, a range or a zone", "holder": "a player or a component"}


def describe(cls: str) -> str:
    """'a number', 'a value of enum colour'..."""
    if cls.startswith("enum value:"):
        return f"a value of enum {cls.split(':', 1)[1]}"
    return _DESCRIPTIONS.get(cls, cls)


_BUILTIN_TYPES = {"int": "number", "bool": "bool", "string": "string", "player": "player", "zone": "zone",
                  "space": "space", "list": "list", "map": "map", "component": "component"}


def result_kind(function: str, given: int) -> Kind | None:
    """The kind a builtin function's result always has when called with ``given`` arguments
    (from the signature table), or None when it depends on their values ('any'); a result
    that may be none says so."""
    signature = SIGNATURES.get(function)
    result = signature.result_of(given) if signature is not None else "any"
    if result == "any":
        return None
    if result.endswith("?"):
        return Kind(frozenset({result[:-1], "none"}))
    return _certain(result)


def _is_map(kind: Kind | None) -> bool:
    """Whether ``kind`` is a map (or none, for a variable declared ``map[player, T]?``)."""
    return kind is not None and kind.classes - {"none"} == {"map"}


def _variable(kind: Kind | None) -> Kind | None:
    """The kind of a local variable set to a value of ``kind``: what it holds may change."""
    return None if kind is None else Kind(kind.classes, False, NOT_CONSTANT, kind.item, kind.of)


def _union(kinds: Sequence[Kind | None]) -> Kind | None:
    """One kind for several values: None unless every one is known."""
    if any(k is None for k in kinds):
        return None
    known = [k for k in kinds if k is not None]
    return Kind(frozenset().union(*(k.classes for k in known)), all(k.certain for k in known))


class Kinds:
    """The kinds of the names of one ruleset, and of any expression in one declaration."""

    def __init__(self, decls: Sequence[ast.Decl]):
        self.enums = {d.name: d.values for d in decls if isinstance(d, ast.EnumDecl)}
        self.components = {d.name for d in decls if isinstance(d, ast.ComponentDecl)}
        self.functions = {d.name: d for d in decls if isinstance(d, ast.FunctionDecl)}
        self.constants = self._constants(decls)
        self.globals = {d.name: self.declared(d.type) for d in decls
                        if isinstance(d, ast.VarDecl) and d.owner is None}
        self.attributes = {} if any(isinstance(d, ast.BoardDecl) for d in decls) else self._attributes(decls)
        self.locals: set[str] = set()
        self.local_kinds: dict[str, Kind] = {}
        self.memo: dict[int, Kind | None] = {}

    def _constants(self, decls: Sequence[ast.Decl]) -> dict[str, Kind]:
        """Bare names as the engine resolves them: enums, their values, then declared things."""
        found: dict[str, Kind] = {}
        for d in decls:
            if isinstance(d, ast.EnumDecl):
                found[d.name] = _certain("enum")
                for v in d.values:
                    found.setdefault(v, _certain(f"enum value:{d.name}", (d.name, v)))
        made: dict[type[ast.Decl], str] = {ast.ZoneDecl: "zone", ast.SupplyDecl: "supply", ast.DieDecl: "die",
                                           ast.BoardDecl: "board", ast.DeckDecl: "list"}
        for d in decls:
            cls = made.get(type(d))
            if cls and not (isinstance(d, ast.ZoneDecl) and d.owner is not None):
                holds_components = isinstance(d, (ast.ZoneDecl, ast.DeckDecl))
                item = self._zone_item(d) if isinstance(d, ast.ZoneDecl) else _COMPONENT
                found[d.name] = _certain(cls, item=item if holds_components else None)
        return found

    def _zone_item(self, zone: ast.ZoneDecl) -> Kind:
        """What an item of ``zone`` is: a component, of the type it declares where that is
        a component type (``declared_holds``: the engine lets no other type enter it)."""
        holds = declared_holds(zone.type, self.components)
        return _COMPONENT if holds is None else Kind(frozenset({"component"}), False, of=holds)

    def _attributes(self, decls: Sequence[ast.Decl]) -> dict[str, Kind]:
        """Attribute name -> Kind, when every declaration of that attribute agrees on it."""
        seen: dict[str, list[Kind | None]] = {}
        for d in decls:
            if isinstance(d, ast.VarDecl) and d.owner is not None:
                seen.setdefault(d.name, []).append(self.declared(d.type))
            elif isinstance(d, ast.ComponentDecl):
                for f in d.fields:
                    seen.setdefault(f.name, []).append(self.declared(f.type))
            elif isinstance(d, ast.SupplyDecl):
                seen.setdefault(d.name, []).append(Kind(frozenset({"number"}), False))
            elif isinstance(d, ast.ZoneDecl) and d.owner == "player":
                seen.setdefault(d.name, []).append(Kind(frozenset({"zone"}), False, item=self._zone_item(d)))
        for builtin in ("index", "name"):   # also attributes of every player or space
            seen.pop(builtin, None)
        agreed: dict[str, Kind] = {}
        for name, kinds in seen.items():
            first = kinds[0]
            if first is not None and all(k == first for k in kinds):
                agreed[name] = first
        return agreed

    def declared(self, typ: ast.TypeRef | None) -> Kind | None:
        """The kind a declared type promises (types are not enforced: never 'certain')."""
        if typ is None:
            return None
        cls = _BUILTIN_TYPES.get(typ.name)
        if cls is None and typ.name in self.enums:
            cls = f"enum value:{typ.name}"
        elif cls is None and typ.name in self.components:
            cls = "component"
        if cls is None:
            return None
        item = self.declared(typ.item) if typ.name in ("list", "map") else None
        return Kind(frozenset({cls, "none"} if typ.optional else {cls}), False, item=item)

    def of(self, expr: ast.Expr) -> Kind | None:
        """The kind of ``expr`` in the current declaration, or None when it is not plain."""
        key = id(expr)
        if key not in self.memo:
            method: Callable[[Any], Kind | None] | None = getattr(self, "_" + type(expr).__name__, None)
            self.memo[key] = method(expr) if method else None
        return self.memo[key]

    def _Literal(self, e: ast.Literal) -> Kind:
        cls = {bool: "bool", int: "number", str: "string", type(None): "none"}[type(e.value)]
        return _certain(cls, e.value)

    def _Name(self, e: ast.Name) -> Kind | None:
        if e.name in self.locals:
            return self.local_kinds.get(e.name)
        if e.name in self.globals:
            return self.globals[e.name]
        if e.name in ("players", "seats"):
            return _certain("list", item=Kind(frozenset({"player"}), False))
        if e.name in self.enums:
            return _certain("enum", item=Kind(frozenset({f"enum value:{e.name}"}), False))
        return self.constants.get(e.name)

    def _Attribute(self, e: ast.Attribute) -> Kind | None:
        t = e.target
        if isinstance(t, ast.Name) and self.of(t) == _certain("enum") and t.name in self.enums:
            return _certain(f"enum value:{t.name}", (t.name, e.name)) if e.name in self.enums[t.name] else None
        return self.attributes.get(e.name)

    def _ListExpr(self, e: ast.ListExpr) -> Kind:
        items = [self.of(i) for i in e.items]
        return _certain("list", item=_union(items) if items else None)

    def _Comprehension(self, e: ast.Comprehension) -> Kind:
        return _certain("list", item=self.of(e.element))

    def _UnaryOp(self, e: ast.UnaryOp) -> Kind | None:
        if e.op == "not":
            return _certain("bool")
        return _certain("number") if self._is(e.operand, "number") else None

    def _BinaryOp(self, e: ast.BinaryOp) -> Kind | None:
        if e.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
            return _certain("bool")
        if e.op == "..":
            return _certain("list", item=_certain("number"))
        if e.op == "+" and (self._is(e.left, "string") or self._is(e.right, "string")):
            return _certain("string")
        if e.op in "+-*/%" and self._is(e.left, "number") and self._is(e.right, "number"):
            return _certain("number")
        return None

    def _IfExpr(self, e: ast.IfExpr) -> Kind | None:
        a, b = self.of(e.then), self.of(e.otherwise)
        if a is None or b is None:
            return None
        return Kind(a.classes | b.classes, a.certain and b.certain)

    def _Index(self, e: ast.Index) -> Kind | None:
        target = self.of(e.target)
        if target is not None and (target.single == "list" or _is_map(target)) and target.item is not None:
            return _variable(target.item)
        if target is not None and target.single == "zone" and target.item is not None and target.item.of:
            return _variable(target.item)   # (an item of a zone: a component of its type)
        return None

    def _Call(self, e: ast.Call) -> Kind | None:
        if e.function in self.components:   # a constructor, whatever its name
            return None
        if e.function in self.functions:
            return self.declared(self.functions[e.function].result)
        if e.function == "top" and len(e.args) == 1 and not isinstance(e.args[0], ast.Generator):
            zone = self.of(e.args[0])   # (the top of a zone of a component type: one of it, or none)
            if zone is not None and zone.single == "zone" and zone.item is not None and zone.item.of:
                return Kind(frozenset({"component", "none"}), False, of=zone.item.of)
        return result_kind(e.function, len(e.args))

    def item_of(self, source: ast.Expr) -> Kind | None:
        """The kind of the items of ``source`` (a list, a zone, a range, an enum), if known."""
        kind = self.of(source)
        if _is_map(kind):
            return _PLAYER   # a map's keys
        return kind.item if kind is not None else None

    def bind_locals(self, decl: ast.Decl) -> None:
        """The kinds of the local names of ``decl``: a name bound twice with two kinds, or once
        to a value of unknown kind, has none. Two passes, so that a binding may use names bound
        anywhere: the first leaves the unknown bindings out, the second counts them."""
        self.locals = local_names(decl)
        self.local_kinds = {}
        for optimistic in (True, False):   # first unknowns are left out, then they count
            self.memo = {}
            found: dict[str, list[Kind | None]] = {}
            owner = getattr(decl, "owner", None)
            if owner in ("player", "space", "component"):
                found["me"] = [Kind(frozenset({owner}), False)]
            for node in walk(decl):
                for name, kind in self._bindings(node):
                    found.setdefault(name, []).append(kind)
            self.local_kinds = {}
            for name, bindings in found.items():
                known = [k for k in bindings if k is not None] if optimistic else bindings
                if known and known[0] is not None and all(k == known[0] for k in known):
                    self.local_kinds[name] = known[0]
        self.memo = {}

    def _bindings(self, node: ast.Node) -> list[tuple[str, Kind | None]]:
        if isinstance(node, ast.Param):
            return [(node.name, self.declared(node.type))]
        if isinstance(node, ast.Let):
            return [(node.name, _variable(self.of(node.value)))]
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) and node.target.name in self.locals:
            value = self.of(node.value) if node.op == "=" else self.of(node.target)
            return [(node.target.name, _variable(value))]
        if isinstance(node, (ast.For, ast.CompClause, ast.Choose)):
            return [(node.var, self.item_of(node.source))]
        if isinstance(node, ast.RandomPick):
            return [(node.name, self.item_of(node.source))]
        if isinstance(node, ast.Simultaneous):
            return [(node.player_var, _PLAYER), (node.var, map_of(self.item_of(node.source)))]
        if isinstance(node, (ast.ScoreDecl, ast.TiebreakDecl)):
            return [(node.name, Kind(frozenset({"player"}), False))]
        return [(name, None) for name in bound_names(node)]

    def _is(self, expr: ast.Expr, cls: str) -> bool:
        kind = self.of(expr)
        return kind is not None and kind.certain and kind.single == cls


def kinds_by_declaration(decls: Sequence[ast.Decl]) -> Iterator[tuple[ast.Decl, Kinds]]:
    """(declaration, Kinds set up for it) for each declaration."""
    kinds = Kinds(decls)
    for d in decls:
        kinds.bind_locals(d)
        yield d, kinds
