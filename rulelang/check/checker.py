"""Checks on a merged ruleset that need no running: settings, duplicates, names, kinds, choices.

Each check is a small generator of diagnostics registered in CHECKS; ``check`` runs them.
The kind checks know what an expression is only where the text makes it plain (a literal,
a declared constant such as a zone or an enum value, a declared type, the result of a
builtin function); everything else is left to the interpreter, so they never warn about a
correct ruleset.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from rulelang import ast
from rulelang.check.names import check_names, did_you_mean
from rulelang.check.settings import read_settings
from rulelang.check.signatures import SIGNATURES
from rulelang.diagnostics import Diagnostic, Span
from rulelang.syntax.parser import PLACEHOLDER


def walk(node: object) -> Iterator[ast.Node]:
    """Every AST node below ``node`` (a node or a tuple of them), ``node`` included, in
    source order (no recursion)."""
    stack: list[object] = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif isinstance(n, ast.Node):
            yield n
            stack.extend(getattr(n, name) for name in _children(type(n)))


_CHILDREN: dict[type, tuple[str, ...]] = {}


def _children(kind: type) -> tuple[str, ...]:
    """The fields of a node type that may hold nodes, last first (computed once per type)."""
    names = _CHILDREN.get(kind)
    if names is None:
        names = _CHILDREN[kind] = tuple(f.name for f in reversed(fields(kind)) if f.name not in ("span", "name_span"))
    return names


# The attributes of each node that bind a local name.
BINDERS: dict[type[ast.Node], tuple[str, ...]] = {
    ast.Let: ("name",), ast.Roll: ("name",), ast.RandomPick: ("name",), ast.CallLet: ("name",),
    ast.For: ("var",), ast.Choose: ("var",), ast.Simultaneous: ("player_var", "var"),
    ast.CompClause: ("var",), ast.Param: ("name",), ast.ScoreDecl: ("name",), ast.TiebreakDecl: ("name",)}


def bound_names(node: ast.Node) -> list[str]:
    """The local names that ``node`` itself binds (a 'let', a 'for', a parameter...)."""
    return [str(getattr(node, attr)) for attr in BINDERS.get(type(node), ())]


def local_names(decl: ast.Decl) -> set[str]:
    """Every name that ``decl`` binds somewhere (and 'me' where the engine binds it)."""
    names = {"me"} if getattr(decl, "owner", None) is not None else set()
    for node in walk(decl):
        names.update(bound_names(node))
    return names


# ---------------------------------------------------------------- settings, names, phases

def check_settings(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> list[Diagnostic]:
    """E202: a setting the engine does not know, or a value it cannot use."""
    return read_settings(decls, path)[1]


def check_duplicates(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E102: two declarations with one name."""
    seen: dict[str, ast.Decl] = {}
    for d in decls:
        if isinstance(d, (ast.GameDecl, ast.Extends, ast.SetupDecl, ast.InvariantDecl, ast.ScoreDecl,
                          ast.TiebreakDecl)):
            continue
        if isinstance(d, ast.FunctionDecl) and d.name in SIGNATURES:
            yield Diagnostic("E102", f"'{d.name}' is a builtin function: give this function another name",
                             d.name_span or d.span)
        if d.name in seen:
            yield Diagnostic("E102", f"'{d.name}' is declared twice (first at line {seen[d.name].span.line})",
                             d.name_span or d.span)
        else:
            seen[d.name] = d


def check_shown_as(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E103: a placeholder of a component's 'shown as' text that names none of its fields."""
    for d in decls:
        if not isinstance(d, ast.ComponentDecl) or d.shown_as is None:
            continue
        fields = {f.name for f in d.fields}
        for placeholder in PLACEHOLDER.findall(d.shown_as):
            if placeholder not in fields:
                yield Diagnostic("E103", f"'shown as' names '{{{placeholder}}}', which is not a field of "
                                         f"component '{d.name}'", d.span,
                                 hint=did_you_mean(placeholder, fields) or f"its fields: {', '.join(sorted(fields))}")


TYPE_NAMES = frozenset({"int", "bool", "string", "player", "zone", "space", "list", "supply", "die", "board"})
"""The type names the language knows, besides the ruleset's enums and components."""


def check_type_names(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E205: a type that names nothing (``var x: nmber``)."""
    known = TYPE_NAMES | {d.name for d in decls if isinstance(d, (ast.EnumDecl, ast.ComponentDecl))}
    for d in decls:
        for node in walk(d):
            if isinstance(node, ast.TypeRef) and node.name not in known:
                yield Diagnostic("E205", f"unknown type '{node.name}'", node.span,
                                 hint=did_you_mean(node.name, known) or
                                 "a type is int, bool, string, player, zone, space, list[T], an enum or a component")


_LETS = (ast.Let, ast.CallLet, ast.Roll, ast.RandomPick)


def check_shadowing(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """W108: a 'let' of a name that an enclosing block (or a parameter) already binds: it
    makes a new variable until its block ends, and the outer one keeps its value."""
    for d in decls:
        if isinstance(d, (ast.SetupDecl, ast.PhaseDecl, ast.ProcedureDecl)) and d.body is not None:
            params = {p.name: p.span for p in d.params} if isinstance(d, ast.ProcedureDecl) else {}
            yield from _shadows(d.body, [params], {})


def _shadows(block: ast.Block | None, outer: list[dict[str, Span]], here: dict[str, Span]) -> Iterator[Diagnostic]:
    if block is None:
        return
    for stmt in block.statements:
        if isinstance(stmt, _LETS) and stmt.name not in here:
            earlier = next((scope[stmt.name] for scope in reversed(outer) if stmt.name in scope), None)
            if earlier is not None:
                yield Diagnostic("W108", f"this 'let {stmt.name}' makes a new variable until the end of its block; "
                                         f"the '{stmt.name}' of line {earlier.line} keeps its value", stmt.span,
                                 hint=f"write '{stmt.name} = ...' to change the one of line {earlier.line}, "
                                      "or use another name")
        if not isinstance(stmt, ast.For):   # a loop variable belongs to its loop
            for name in bound_names(stmt):
                here.setdefault(name, stmt.span)
        inner = [*outer, here]
        for child in _blocks_of(stmt):
            loop_var = {stmt.var: stmt.span} if isinstance(stmt, ast.For) else {}
            yield from _shadows(child, inner, loop_var)


def _blocks_of(stmt: ast.Stmt) -> list[ast.Block | None]:
    if isinstance(stmt, ast.If):
        return [body for _, body in stmt.branches] + [stmt.otherwise]
    if isinstance(stmt, (ast.For, ast.While, ast.Repeat)):
        return [stmt.body]
    if isinstance(stmt, ast.Choose):
        return [stmt.otherwise]
    if isinstance(stmt, ast.Menu):
        return [o.body for o in stmt.options]
    return []


def check_phases(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """E304: nothing to run."""
    if not any(isinstance(d, ast.PhaseDecl) for d in decls):
        yield Diagnostic("E304", "the ruleset declares no phase, so nothing can run", Span.point(path, 1, 1),
                         hint="add 'phase NAME { ... }'")


# ---------------------------------------------------------------- kinds

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
    item: Kind | None = None   # for a list or a zone: what its items are, when known

    @property
    def single(self) -> str | None:
        """The one kind this can be, if only one."""
        return next(iter(self.classes)) if len(self.classes) == 1 else None


def _certain(cls: str, value: object = NOT_CONSTANT, item: Kind | None = None) -> Kind:
    return Kind(frozenset({cls}), True, value, item)


_COMPONENT = Kind(frozenset({"component"}), False)


_DESCRIPTIONS = {"number": "a number", "bool": "true or false", "string": "a string", "none": "none",
                 "list": "a list", "zone": "a zone", "supply": "a supply", "die": "a die", "board": "a board",
                 "enum": "an enum", "player": "a player", "component": "a component", "space": "a space",
                 "items": "a list, a range or a zone", "holder": "a player or a component"}


def describe(cls: str) -> str:
    """'a number', 'a value of enum colour'..."""
    if cls.startswith("enum value:"):
        return f"a value of enum {cls.split(':', 1)[1]}"
    return _DESCRIPTIONS.get(cls, cls)


_BUILTIN_TYPES = {"int": "number", "bool": "bool", "string": "string", "player": "player", "zone": "zone",
                  "space": "space", "list": "list"}


def result_kind(function: str) -> Kind | None:
    """The kind a builtin function's result always has (from the signature table), or None
    when it depends on the arguments ('any'); a result that may be none says so."""
    signature = SIGNATURES.get(function)
    if signature is None or signature.result == "any":
        return None
    if signature.result.endswith("?"):
        return Kind(frozenset({signature.result[:-1], "none"}))
    return _certain(signature.result)


def _variable(kind: Kind | None) -> Kind | None:
    """The kind of a local variable set to a value of ``kind``: what it holds may change."""
    return None if kind is None else Kind(kind.classes, False, NOT_CONSTANT, kind.item)


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
                found[d.name] = _certain(cls, item=_COMPONENT if holds_components else None)
        return found

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
                seen.setdefault(d.name, []).append(Kind(frozenset({"zone"}), False, item=_COMPONENT))
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
        item = self.declared(typ.item) if typ.name == "list" else None
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
        item = self.item_of(e.target)
        target = self.of(e.target)
        if target is not None and target.single == "list" and item is not None:
            return _variable(item)
        return None

    def _Call(self, e: ast.Call) -> Kind | None:
        if e.function in self.components:   # a constructor, whatever its name
            return None
        if e.function in self.functions:
            return self.declared(self.functions[e.function].result)
        return result_kind(e.function)

    def item_of(self, source: ast.Expr) -> Kind | None:
        """The kind of the items of ``source`` (a list, a zone, a range, an enum), if known."""
        kind = self.of(source)
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
            return [(node.player_var, Kind(frozenset({"player"}), False)), (node.var, self.item_of(node.source))]
        if isinstance(node, (ast.ScoreDecl, ast.TiebreakDecl)):
            return [(node.name, Kind(frozenset({"player"}), False))]
        return [(name, None) for name in bound_names(node)]

    def _is(self, expr: ast.Expr, cls: str) -> bool:
        kind = self.of(expr)
        return kind is not None and kind.certain and kind.single == cls


def _kinds_by_declaration(decls: Sequence[ast.Decl]) -> Iterator[tuple[ast.Decl, Kinds]]:
    """(declaration, Kinds set up for it) for each declaration."""
    kinds = Kinds(decls)
    for d in decls:
        kinds.bind_locals(d)
        yield d, kinds


# What a statement needs where: (requirement, what it is called).
_NEEDS = {
    "zone": ({"zone"}, "a zone"),
    "movable": ({"zone", "list", "component"}, "a component, a list of components or a zone"),
    "amount": ({"number"}, "a number"),
    "holder": ({"player", "component"}, "a player or a component"),
    "player": ({"player"}, "a player"),
    "players": ({"list", "zone"}, "a list of players"),
    "items": ({"list", "zone", "enum", "board", "die"}, "a list, a range or a zone"),
    "shuffled": ({"zone", "list"}, "a zone or a list variable"),
}

_SLOTS: dict[type[ast.Node], tuple[tuple[str, str, str], ...]] = {
    ast.Move: (("what", "movable", "'move'"), ("to", "zone", "'move ... to'")),
    ast.Gain: (("amount", "amount", "'gain'"), ("player", "holder", "'gain ... to'")),
    ast.Pay: (("amount", "amount", "'pay'"), ("payer", "holder", "'pay ... from'"),
              ("payee", "holder", "'pay ... to'")),
    ast.Choose: (("source", "items", "'choose ... in'"), ("chooser", "player", "'choose ... by'")),
    ast.Menu: (("chooser", "player", "'choose by'"),),
    ast.Simultaneous: (("players", "players", "'simultaneous ... in'"),
                       ("source", "items", "'simultaneous ... choose ... in'")),
    ast.For: (("source", "items", "'for ... in'"),),
    ast.CompClause: (("source", "items", "'for ... in'"),),
    ast.RandomPick: (("source", "items", "'random'"),),
    ast.Shuffle: (("target", "shuffled", "'shuffle'"),),
}

_HINTS = {("player", "number"): "a player is written players[0], p, next_player(p)...: a number is not a player",
          ("items", "number"): "a range of numbers is written 1..N",
          ("amount", "string"): "an amount is a number, written without quotes"}


def statement_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a value that plainly cannot work where a statement uses it (a number where a
    zone, a player or a component is needed...)."""
    for attr, need, what in _SLOTS[type(node)]:
        expr: ast.Expr | None = getattr(node, attr)
        kind = kinds.of(expr) if expr is not None else None
        if expr is None or kind is None or kind.single is None:
            continue
        allowed, wanted = _NEEDS[need]
        if kind.single not in allowed:
            yield Diagnostic("E206", f"{what} needs {wanted}, not {describe(kind.single)}", expr.span,
                             hint=_HINTS.get((need, kind.single)))


# What each kind of argument in the signature table accepts (rulelang/signatures.py).
_ITEMS = frozenset(_NEEDS["items"][0])
_ARGUMENTS: dict[str, frozenset[str]] = {
    "items": _ITEMS, "list": _ITEMS, "enum": _ITEMS, "holder": frozenset({"player", "component"}),
    "number": frozenset({"number"}), "string": frozenset({"string"}), "player": frozenset({"player"}),
    "zone": frozenset({"zone"}), "space": frozenset({"space"}), "board": frozenset({"board"}),
    "supply": frozenset({"supply"}), "component": frozenset({"component"}),
}


def argument_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a builtin function given an argument that plainly cannot work (``size(3)``)."""
    if isinstance(node, ast.Call) and node.function in kinds.functions:
        yield from _function_argument_kinds(node, kinds.functions[node.function], kinds)
        return
    signature = SIGNATURES.get(node.function) if isinstance(node, ast.Call) else None
    if not isinstance(node, ast.Call) or signature is None or node.function in kinds.components:
        return
    if signature.arity_problem(sum(not isinstance(a, ast.KeywordArg) for a in node.args)):
        return   # E201 says what is wrong with this call
    for position, (arg, param) in enumerate(zip(node.args, signature.params, strict=False), 1):
        kind = kinds.of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None
        allowed = _ARGUMENTS.get(param)
        if kind is not None and kind.single and allowed and kind.single not in allowed:
            yield Diagnostic("E206", f"argument {position} of {node.function}() needs {describe(param)}, "
                                     f"not {describe(kind.single)}", arg.span)


def _function_argument_kinds(node: ast.Call, function: ast.FunctionDecl, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a function of the ruleset given an argument that plainly is not of its parameter's type."""
    if len(node.args) != len(function.params):
        return   # E201 says what is wrong with this call
    for arg, param in zip(node.args, function.params, strict=True):
        kind = kinds.of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None
        wanted = kinds.declared(param.type)
        if kind is not None and kind.single and wanted is not None \
                and kind.single not in wanted.classes:
            yield Diagnostic("E206", f"argument '{param.name}' of {node.function}() is declared {param.type}, "
                                     f"not {describe(kind.single)}", arg.span)


_UNORDERED = {"none", "supply", "die", "board", "zone", "enum"}


def _family(cls: str) -> str:
    """Kinds whose values can be equal or ordered between them: numbers and true/false are."""
    if cls == "bool":
        return "number"
    return "enum value" if cls.startswith("enum value:") else cls


def operator_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: an order or arithmetic between values that plainly cannot be ordered or computed."""
    if not isinstance(node, ast.BinaryOp) or node.op not in ("<", "<=", ">", ">=", "+", "-", "*", "/", "%"):
        return
    a, b = kinds.of(node.left), kinds.of(node.right)
    if a and b and a.single and b.single:
        problem = _operator_problem(node.op, a.single, b.single)
        if problem:
            yield Diagnostic("E206", problem, node.span)


def _operator_problem(op: str, a: str, b: str) -> str | None:
    families = {_family(a), _family(b)}
    if op in ("<", "<=", ">", ">="):
        if families & _UNORDERED or len(families) > 1:
            return f"'{op}' cannot order {describe(a)} and {describe(b)}"
    elif op == "+":
        # numbers add, lists join, and anything joins a string as text
        if "string" not in families and families != {"number"} and families != {"list"}:
            return f"'+' cannot add {describe(a)} and {describe(b)}"
    elif op == "*":
        # numbers multiply; a list or a string repeats a number of times
        if families not in ({"number"}, {"list", "number"}, {"string", "number"}):
            return f"'*' cannot multiply {describe(a)} and {describe(b)}"
    elif families != {"number"}:
        return f"'{op}' cannot compute with {describe(a)} and {describe(b)}"
    return None


def comparison(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W207: a comparison whose result is plain without running ('==' never true...)."""
    if not isinstance(node, ast.BinaryOp) or node.op not in ("==", "!="):
        return
    found = _equality(kinds.of(node.left), kinds.of(node.right))
    if found:
        equal, why = found
        verdict = "always true" if equal == (node.op == "==") else "never true"
        yield Diagnostic("W207", f"this comparison is {verdict}: {why}", node.span,
                         hint="compare values of the same kind" if not equal else None)


def _equality(a: Kind | None, b: Kind | None) -> tuple[bool, str] | None:
    """(always equal?, why) when it is plain whether two values are equal, else None."""
    if a is None or b is None:
        return None
    if a.value is not NOT_CONSTANT and b.value is not NOT_CONSTANT and _comparable_constants(a, b):
        if a.value == b.value:
            return True, f"{_show(a.value)} is always equal to {_show(b.value)}"
        return False, f"{_show(a.value)} and {_show(b.value)} are different values"
    if not (a.certain or b.certain):
        return None   # declared types are not enforced: only trust one against a plain value
    if (a.value is None and not b.certain) or (b.value is None and not a.certain):
        return None   # nor do they promise that a value is never none
    shared = {_family(c) for c in a.classes} & {_family(c) for c in b.classes}
    if shared and (shared != {"enum value"} or _enums(a) & _enums(b)):
        return None
    return False, f"{_describe_kind(a)} is never equal to {_describe_kind(b)}"


def _comparable_constants(a: Kind, b: Kind) -> bool:
    """Two constants of one kind, or two numbers (true and false count as 1 and 0)."""
    if a.single is None or b.single is None:
        return False
    return a.single == b.single or _family(a.single) == _family(b.single) == "number"


def _enums(kind: Kind) -> set[str]:
    return {c.split(":", 1)[1] for c in kind.classes if c.startswith("enum value:")}


def _describe_kind(kind: Kind) -> str:
    return " or ".join(sorted(describe(c) for c in kind.classes))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return str(value[1])
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def assignment_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a value of one kind assigned to a variable declared of another, or '+=' and
    '-=' where they cannot compute."""
    if not isinstance(node, ast.Assign):
        return
    target, value = kinds.of(node.target), kinds.of(node.value)
    if target is None or value is None or target.single is None or value.single is None:
        return
    name = _target_name(node.target)
    have, want = _family(value.single), _family(target.single)
    if node.op == "-=" and want != "number":
        yield Diagnostic("E206", f"'-=' needs a number to subtract from, and {name} is {describe(target.single)}",
                         node.target.span)
    elif node.op in ("+=", "-=") and want == "number" and have != "number":
        yield Diagnostic("E206", f"'{node.op}' on {name}, a number, needs a number, not {describe(value.single)}",
                         node.value.span, hint=_HINTS.get(("amount", value.single)))
    elif node.op == "=" and have != want and "none" not in target.classes | {value.single}:
        yield Diagnostic("E206", f"{name} holds {describe(target.single)}: it cannot be set to "
                                 f"{describe(value.single)}", node.value.span)


def _target_name(target: ast.Expr) -> str:
    if isinstance(target, ast.Name):
        return f"'{target.name}'"
    if isinstance(target, ast.Attribute):
        return f"'{target.name}'"
    return "this"


_NUMERIC_AGGREGATES = frozenset({"sum", "min", "max"})


def aggregate_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: 'sum', 'min' or 'max' over values that are not numbers (cards rather than their
    ranks)."""
    if not (isinstance(node, ast.Call) and node.function in _NUMERIC_AGGREGATES and len(node.args) == 1) \
            or node.function in kinds.functions:
        return
    (arg,) = node.args
    item = kinds.of(arg.element) if isinstance(arg, ast.Generator) and arg.key is None else (
        kinds.item_of(arg) if not isinstance(arg, (ast.Generator, ast.KeywordArg)) else None)
    if item is None or item.single is None or _family(item.single) in ("number", "string"):
        return
    hint = (f"{node.function}(x.FIELD for x in ...) gives the number; best(x for x in ... by x.FIELD) the item"
            if item.single == "component" else None)
    yield Diagnostic("E206", f"{node.function}() needs numbers, and each item here is {describe(item.single)}",
                     arg.span, hint=hint)


def initial_value_kind(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a variable whose initial value is plainly not of its declared type."""
    if not isinstance(node, ast.VarDecl) or node.initial is None:
        return
    declared, value = kinds.declared(node.type), kinds.of(node.initial)
    if declared is None or value is None or value.single is None or value.single in declared.classes:
        return
    if _family(value.single) != _family(next(iter(declared.classes - {"none"}), "none")):
        yield Diagnostic("E206", f"'{node.name}' is declared {node.type}, but its initial value is "
                                 f"{describe(value.single)}", node.initial.span)


def rule_kinds(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """E206: a score or a tie-break that is not a number, an invariant that is not true or false."""
    if isinstance(node, (ast.ScoreDecl, ast.TiebreakDecl)) and node.value is not None:
        kind = kinds.of(node.value)
        if kind is not None and kind.single is not None and _family(kind.single) != "number":
            yield Diagnostic("E206", f"a {node.kind} must be a number, not {describe(kind.single)}", node.value.span)
    elif isinstance(node, ast.InvariantDecl) and node.condition is not None:
        kind = kinds.of(node.condition)
        if kind is not None and kind.single is not None and kind.single != "bool":
            yield Diagnostic("E206", f"an invariant must be true or false, not {describe(kind.single)}",
                             node.condition.span)




# ---------------------------------------------------------------- choices

def empty_choice(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W305: a choice that can never offer an option (and has no 'otherwise')."""
    if isinstance(node, ast.Choose) and node.otherwise is None and _always_empty(node.source):
        yield Diagnostic("W305", "this choice can never offer an option", node.source.span,
                         hint="when reached it stops the game (E604): give it options, or add "
                              "'otherwise { ... }'")
    elif isinstance(node, ast.Simultaneous) and _always_empty(node.source):
        yield Diagnostic("W305", "this simultaneous choice can never offer an option", node.source.span,
                         hint="when reached it stops the game (E604): give it options")
    elif isinstance(node, ast.Menu) and all(_is_false(o.condition) for o in node.options):
        yield Diagnostic("W305", "every option of this choice is 'when false'", node.span,
                         hint="when reached it stops the game (E604): let at least one option be open")


def possibly_empty_choice(node: ast.Node, kinds: Kinds) -> Iterator[Diagnostic]:
    """W308: a choice over a filtered list ('... if COND') with no 'otherwise': when no item
    passes the filter, the game stops with E604."""
    if isinstance(node, ast.Choose) and node.otherwise is None and isinstance(node.source, ast.Comprehension) \
            and any(_filters(c) for c in node.source.clauses) and not _always_empty(node.source):
        yield Diagnostic("W308", "this choice is over a filtered list and has no 'otherwise': when nothing "
                                 "passes the filter the game stops (E604)", node.source.span,
                         hint="add 'otherwise { ... }', or check 'if size(...) > 0' before choosing")


def _filters(clause: ast.CompClause) -> bool:
    """Whether a clause's condition may leave out many items: 'x != ONE' leaves out one only
    (the others of a list of players, say), which is not counted."""
    c = clause.condition
    if c is None:
        return False
    one_out = isinstance(c, ast.BinaryOp) and c.op == "!=" and any(
        isinstance(side, ast.Name) and side.name == clause.var for side in (c.left, c.right))
    return not one_out


def _always_empty(expr: ast.Expr | None) -> bool:
    """A list that is empty whatever the state: [], 5..1, a comprehension over one of those."""
    if isinstance(expr, ast.ListExpr):
        return not expr.items
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        low, high = expr.left, expr.right
        return (isinstance(low, ast.Literal) and type(low.value) is int
                and isinstance(high, ast.Literal) and type(high.value) is int and low.value > high.value)
    if isinstance(expr, ast.Comprehension):
        return any(_always_empty(c.source) or _is_false(c.condition) for c in expr.clauses)
    return False


def _is_false(expr: ast.Expr | None) -> bool:
    return isinstance(expr, ast.Literal) and expr.value is False


NodeCheck = Callable[[ast.Node, Kinds], Iterator[Diagnostic]]

# Checks of one node, with the kinds of its declaration: node type -> checks.
NODE_CHECKS: dict[type[ast.Node], list[NodeCheck]] = {t: [statement_kinds] for t in _SLOTS}
NODE_CHECKS[ast.BinaryOp] = [operator_kinds, comparison]
NODE_CHECKS[ast.Call] = [argument_kinds, aggregate_kinds]
NODE_CHECKS[ast.Assign] = [assignment_kinds]
NODE_CHECKS[ast.VarDecl] = [initial_value_kind]
for _rule in (ast.ScoreDecl, ast.TiebreakDecl, ast.InvariantDecl):
    NODE_CHECKS[_rule] = [rule_kinds]
for _choice in (ast.Choose, ast.Simultaneous, ast.Menu):
    NODE_CHECKS.setdefault(_choice, []).append(empty_choice)
NODE_CHECKS[ast.Choose].append(possibly_empty_choice)


def check_nodes(decls: Sequence[ast.Decl], path: str, base_dir: Path) -> Iterator[Diagnostic]:
    """Every node check of NODE_CHECKS, in one walk over the declarations."""
    for decl, kinds in _kinds_by_declaration(decls):
        for node in walk(decl):
            for node_check in NODE_CHECKS.get(type(node), ()):
                yield from node_check(node, kinds)


Check = Callable[[Sequence[ast.Decl], str, Path], Iterable[Diagnostic]]

# Every check, and whether loading a ruleset runs it too (True), or only the linter (False):
# the language lets a wrong value fail where it is used, so loading refuses only what
# cannot be built at all.
CHECKS: dict[Check, bool] = {check_settings: True, check_duplicates: True, check_phases: True,
                             check_names: True, check_shown_as: True, check_type_names: True,
                             check_shadowing: False, check_nodes: False}


def check(decls: Sequence[ast.Decl], path: str, base_dir: Path | None = None, *,
          lint: bool = False) -> list[Diagnostic]:
    """Every diagnostic the static checks find: those that loading runs, or (``lint``) all.

    ``base_dir`` is the folder that the ruleset's data files (boards) are read from; by
    default the folder of ``path``, or the current folder for a text without a file."""
    if base_dir is None:
        base_dir = Path(path).parent if path and not path.startswith("<") else Path.cwd()
    found: list[Diagnostic] = []
    for check_fn, on_load in CHECKS.items():
        if lint or on_load:
            found.extend(check_fn(decls, path, base_dir))
    return found
