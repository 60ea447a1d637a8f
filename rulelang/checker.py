"""Checks on a merged ruleset that need no running: settings, duplicates, kinds, choices.

Each check is a small generator of diagnostics registered in CHECKS; ``check`` runs them.
The kind checks know what an expression is only where the text makes it plain (a literal,
a declared constant such as a zone or an enum value, a declared type); everything else is
left to the interpreter, so they never warn about a correct ruleset.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from . import ast
from .diagnostics import Diagnostic, Span

KNOWN_SETTINGS = {"players", "max_decisions", "max_steps", "start", "dummies"}


def walk(node):
    """Every AST node below ``node``, ``node`` included, in source order (no recursion)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
        elif hasattr(n, "__dataclass_fields__"):
            yield n
            stack.extend(getattr(n, f) for f in reversed(n.__dataclass_fields__) if f not in ("span", "name_span"))


# The attributes of each node that bind a local name.
BINDERS = {ast.Let: ("name",), ast.Roll: ("name",), ast.RandomPick: ("name",), ast.CallLet: ("name",),
           ast.For: ("var",), ast.Choose: ("var",), ast.Simultaneous: ("player_var", "var"),
           ast.CompClause: ("var",), ast.Param: ("name",), ast.ScoreDecl: ("name",),
           ast.TiebreakDecl: ("name",)}


def local_names(decl) -> set:
    """Every name that ``decl`` binds somewhere (and 'me' where the engine binds it)."""
    names = {"me"} if getattr(decl, "owner", None) is not None else set()
    for node in walk(decl):
        names.update(getattr(node, attr) for attr in BINDERS.get(type(node), ()))
    return names


# ---------------------------------------------------------------- settings, names, phases

def check_settings(decls, path):
    """E202: a setting the engine does not know."""
    for d in decls:
        if isinstance(d, ast.GameDecl):
            for s in d.settings:
                if s.name not in KNOWN_SETTINGS:
                    close = difflib.get_close_matches(s.name, KNOWN_SETTINGS, n=1)
                    yield Diagnostic("E202", f"unknown setting '{s.name}'", s.span,
                                     hint=f"did you mean '{close[0]}'?" if close else
                                     "settings are: " + ", ".join(sorted(KNOWN_SETTINGS)))


def check_duplicates(decls, path):
    """E102: two declarations with one name."""
    seen = {}
    for d in decls:
        if isinstance(d, (ast.GameDecl, ast.Extends, ast.SetupDecl, ast.InvariantDecl, ast.ScoreDecl,
                          ast.TiebreakDecl)):
            continue
        if d.name in seen:
            yield Diagnostic("E102", f"'{d.name}' is declared twice (first at line {seen[d.name].span.line})",
                             d.name_span or d.span)
        else:
            seen[d.name] = d


def check_phases(decls, path):
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

    classes: frozenset
    certain: bool = True
    value: object = NOT_CONSTANT

    @property
    def single(self) -> str | None:
        return next(iter(self.classes)) if len(self.classes) == 1 else None


def _certain(cls: str, value=NOT_CONSTANT) -> Kind:
    return Kind(frozenset({cls}), True, value)


_DESCRIPTIONS = {"number": "a number", "bool": "true or false", "string": "a string", "none": "none",
                 "list": "a list", "zone": "a zone", "supply": "a supply", "die": "a die", "board": "a board",
                 "enum": "an enum", "player": "a player", "component": "a component", "space": "a space"}


def describe(cls: str) -> str:
    """'a number', 'a value of enum colour'..."""
    if cls.startswith("enum value:"):
        return f"a value of enum {cls.split(':', 1)[1]}"
    return _DESCRIPTIONS.get(cls, cls)


_BUILTIN_TYPES = {"int": "number", "bool": "bool", "string": "string", "player": "player", "zone": "zone",
                  "space": "space", "list": "list"}
_NUMBER_FUNCTIONS = {"size", "count", "sum", "abs", "player_number", "bank", "distance"}


class Kinds:
    """The kinds of the names of one ruleset, and of any expression in one declaration."""

    def __init__(self, decls):
        self.enums = {d.name: d.values for d in decls if isinstance(d, ast.EnumDecl)}
        self.components = {d.name for d in decls if isinstance(d, ast.ComponentDecl)}
        self.constants = self._constants(decls)
        self.globals = {d.name: self.declared(d.type) for d in decls
                        if isinstance(d, ast.VarDecl) and d.owner is None}
        self.attributes = {} if any(isinstance(d, ast.BoardDecl) for d in decls) else self._attributes(decls)
        self.locals: set = set()
        self.memo: dict = {}

    def _constants(self, decls) -> dict:
        """Bare names as the engine resolves them: enums, their values, then declared things."""
        found = {}
        for d in decls:
            if isinstance(d, ast.EnumDecl):
                found[d.name] = _certain("enum")
                for v in d.values:
                    found.setdefault(v, _certain(f"enum value:{d.name}", (d.name, v)))
        made = {ast.ZoneDecl: "zone", ast.SupplyDecl: "supply", ast.DieDecl: "die", ast.BoardDecl: "board",
                ast.DeckDecl: "list"}
        for d in decls:
            cls = made.get(type(d))
            if cls and not (isinstance(d, ast.ZoneDecl) and d.owner is not None):
                found[d.name] = _certain(cls)
        return found

    def _attributes(self, decls) -> dict:
        """Attribute name -> Kind, when every declaration of that attribute agrees on it."""
        seen: dict = {}
        for d in decls:
            if isinstance(d, ast.VarDecl) and d.owner is not None:
                seen.setdefault(d.name, []).append(self.declared(d.type))
            elif isinstance(d, ast.ComponentDecl):
                for f in d.fields:
                    seen.setdefault(f.name, []).append(self.declared(f.type))
            elif isinstance(d, ast.SupplyDecl):
                seen.setdefault(d.name, []).append(Kind(frozenset({"number"}), False))
            elif isinstance(d, ast.ZoneDecl) and d.owner == "player":
                seen.setdefault(d.name, []).append(Kind(frozenset({"zone"}), False))
        for builtin in ("index", "name"):   # also attributes of every player or space
            seen.pop(builtin, None)
        return {name: kinds[0] for name, kinds in seen.items()
                if kinds[0] is not None and all(k == kinds[0] for k in kinds)}

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
        return Kind(frozenset({cls, "none"} if typ.optional else {cls}), False)

    def of(self, expr) -> Kind | None:
        """The kind of ``expr`` in the current declaration, or None when it is not plain."""
        key = id(expr)
        if key not in self.memo:
            method = getattr(self, "_" + type(expr).__name__, None)
            self.memo[key] = method(expr) if method else None
        return self.memo[key]

    def _Literal(self, e):
        cls = {bool: "bool", int: "number", str: "string", type(None): "none"}[type(e.value)]
        return _certain(cls, e.value)

    def _Name(self, e):
        if e.name in self.locals:
            return None
        if e.name in self.globals:
            return self.globals[e.name]
        if e.name in ("players", "seats"):
            return _certain("list")
        return self.constants.get(e.name)

    def _Attribute(self, e):
        t = e.target
        if isinstance(t, ast.Name) and self.of(t) == _certain("enum") and t.name in self.enums:
            return _certain(f"enum value:{t.name}", (t.name, e.name)) if e.name in self.enums[t.name] else None
        return self.attributes.get(e.name)

    def _ListExpr(self, e):
        return _certain("list")

    _Comprehension = _ListExpr

    def _UnaryOp(self, e):
        if e.op == "not":
            return _certain("bool")
        return _certain("number") if self._is(e.operand, "number") else None

    def _BinaryOp(self, e):
        if e.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in"):
            return _certain("bool")
        if e.op == "..":
            return _certain("list")
        if e.op == "+" and (self._is(e.left, "string") or self._is(e.right, "string")):
            return _certain("string")
        if e.op in "+-*/%" and self._is(e.left, "number") and self._is(e.right, "number"):
            return _certain("number")
        return None

    def _IfExpr(self, e):
        a, b = self.of(e.then), self.of(e.otherwise)
        if a is None or b is None:
            return None
        return Kind(a.classes | b.classes, a.certain and b.certain)

    def _Call(self, e):
        if e.function in _NUMBER_FUNCTIONS and e.function not in self.components:
            return _certain("number")
        return None

    def _is(self, expr, cls) -> bool:
        kind = self.of(expr)
        return kind is not None and kind.certain and kind.single == cls


def _kinds_by_declaration(decls):
    """(declaration, Kinds set up for it) for each declaration."""
    kinds = Kinds(decls)
    for d in decls:
        kinds.locals, kinds.memo = local_names(d), {}
        yield d, kinds


# What a statement needs where: (requirement, what it is called).
_NEEDS = {
    "zone": ({"zone"}, "a zone"),
    "movable": ({"zone", "list"}, "a component, a list of components or a zone"),
    "amount": ({"number"}, "a number"),
    "holder": ({"player", "component"}, "a player or a component"),
    "player": ({"player"}, "a player"),
    "players": ({"list", "zone"}, "a list of players"),
    "items": ({"list", "zone", "enum", "board", "die"}, "a list, a range or a zone"),
    "shuffled": ({"zone", "list"}, "a zone or a list variable"),
}

_SLOTS = {
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


def statement_kinds(node, kinds: Kinds):
    """E206: a value that plainly cannot work where a statement uses it (a number where a
    zone, a player or a component is needed...)."""
    for attr, need, what in _SLOTS[type(node)]:
        expr = getattr(node, attr)
        kind = kinds.of(expr) if expr is not None else None
        if kind is None or not kind.certain or kind.single is None:
            continue
        allowed, wanted = _NEEDS[need]
        if kind.single not in allowed:
            yield Diagnostic("E206", f"{what} needs {wanted}, not {describe(kind.single)}", expr.span,
                             hint=_HINTS.get((need, kind.single)))


_UNORDERED = {"none", "supply", "die", "board", "zone", "enum"}


def _family(cls: str) -> str:
    """Kinds whose values can be equal or ordered between them: numbers and true/false are."""
    if cls == "bool":
        return "number"
    return "enum value" if cls.startswith("enum value:") else cls


def operator_kinds(node: ast.BinaryOp, kinds: Kinds):
    """E206: an order or arithmetic between values that plainly cannot be ordered or computed."""
    if node.op not in ("<", "<=", ">", ">=", "-", "/", "%"):
        return
    a, b = kinds.of(node.left), kinds.of(node.right)
    if a and b and a.certain and b.certain and a.single and b.single:
        problem = _operator_problem(node.op, a.single, b.single)
        if problem:
            yield Diagnostic("E206", problem, node.span)


def _operator_problem(op: str, a: str, b: str) -> str | None:
    families = {_family(a), _family(b)}
    if op in ("<", "<=", ">", ">="):
        if families & _UNORDERED or len(families) > 1:
            return f"'{op}' cannot order {describe(a)} and {describe(b)}"
    elif families & (_UNORDERED | {"string", "list", "enum value"}):
        return f"'{op}' cannot compute with {describe(a)} and {describe(b)}"
    return None


def comparison(node: ast.BinaryOp, kinds: Kinds):
    """W207: a comparison whose result is plain without running ('==' never true...)."""
    if node.op not in ("==", "!="):
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
    if a.value is not NOT_CONSTANT and b.value is not NOT_CONSTANT and (
            a.single == b.single or _family(a.single) == _family(b.single) == "number"):
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


def _enums(kind: Kind) -> set:
    return {c.split(":", 1)[1] for c in kind.classes if c.startswith("enum value:")}


def _describe_kind(kind: Kind) -> str:
    return " or ".join(sorted(describe(c) for c in kind.classes))


def _show(value) -> str:
    if isinstance(value, tuple):
        return value[1]
    if value is None or isinstance(value, bool):
        return {None: "none", True: "true", False: "false"}[value]
    return f'"{value}"' if isinstance(value, str) else str(value)


# ---------------------------------------------------------------- choices

def empty_choice(node, kinds: Kinds):
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


def _always_empty(expr) -> bool:
    """A list that is empty whatever the state: [], 5..1, a comprehension over one of those."""
    if isinstance(expr, ast.ListExpr):
        return not expr.items
    if isinstance(expr, ast.BinaryOp) and expr.op == "..":
        low, high = expr.left, expr.right
        return all(isinstance(x, ast.Literal) and type(x.value) is int for x in (low, high)) \
            and low.value > high.value
    if isinstance(expr, ast.Comprehension):
        return any(_always_empty(c.source) or _is_false(c.condition) for c in expr.clauses)
    return False


def _is_false(expr) -> bool:
    return isinstance(expr, ast.Literal) and expr.value is False


# Every check, and whether loading a ruleset runs it too (True), or only the linter (False):
# the language lets a wrong value fail where it is used, so loading refuses only what
# cannot be built at all.
# Checks of one node, with the kinds of its declaration: node type -> checks.
NODE_CHECKS = {t: [statement_kinds] for t in _SLOTS}
NODE_CHECKS[ast.BinaryOp] = [operator_kinds, comparison]
for _choice in (ast.Choose, ast.Simultaneous, ast.Menu):
    NODE_CHECKS.setdefault(_choice, []).append(empty_choice)


def check_nodes(decls, path):
    """Every node check of NODE_CHECKS, in one walk over the declarations."""
    for decl, kinds in _kinds_by_declaration(decls):
        for node in walk(decl):
            for node_check in NODE_CHECKS.get(type(node), ()):
                yield from node_check(node, kinds)


# Every check, and whether loading a ruleset runs it too (True), or only the linter (False):
# the language lets a wrong value fail where it is used, so loading refuses only what
# cannot be built at all.
CHECKS = {check_settings: True, check_duplicates: True, check_phases: True, check_nodes: False}


def check(decls, path: str, lint: bool = False) -> list[Diagnostic]:
    """Every diagnostic the static checks find: those that loading runs, or (``lint``) all."""
    found = []
    for check_fn, on_load in CHECKS.items():
        if lint or on_load:
            found.extend(check_fn(decls, path))
    return found
